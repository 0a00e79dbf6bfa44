package harn

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// callMethod is `recv.name(args)`; at is the call written in the source
// (host methods receive it as their literal call site).
func (th *thread) callMethod(recv Value, name string, args []Value, at *site) (Value, error) {
	if name == "iter" {
		switch recv.k {
		case KindList, KindSet, KindDict, KindString, KindGenerator, KindStream, KindChannel, KindIter, KindRange:
			it, err := th.toIter(recv)
			if err != nil {
				return Nil, err
			}
			return iterValue(it), nil
		}
	}
	// Methods declared with impl come first, for any named type.
	if tn := implTypeName(recv); tn != "" {
		if m := th.in.implMethod(tn, name); m != nil {
			if recv.k == KindObject || !m.proto.method {
				return th.callClosure(m, args)
			}
			full := make([]Value, 0, len(args)+1)
			full = append(full, share(recv))
			full = append(full, args...)
			return th.callClosure(m, full)
		}
	}
	var v Value
	var err error
	switch recv.k {
	case KindList:
		v, err = th.listMethod(recv, name, args)
	case KindString:
		if err := th.scanned([]Value{recv}); err != nil {
			return Nil, err
		}
		v, err = stringMethod(recv.r.(string), name, args)
	case KindDict:
		v, err = th.dictMethod(recv, name, args)
	case KindSet:
		v, err = th.setMethod(recv.r.(*Set), name, args)
	case KindRange:
		v, err = th.rangeMethod(recv, name, args)
	case KindIter:
		v, err = th.iterMethod(recv.r.(*Iter), name, args)
	case KindGenerator, KindStream:
		g := recv.r.(*Generator)
		switch name {
		case "next":
			x, ok, err := g.resume(th)
			if err != nil {
				return Nil, err
			}
			return nextRecord(x, ok), nil
		}
		it, _ := th.toIter(recv)
		return th.iterMethod(it, name, args)
	case KindEnum:
		v, err = th.enumMethod(recv, name, args)
	case KindPair:
		switch name {
		case "first":
			return share(recv.r.(*Pair).First), nil
		case "second":
			return share(recv.r.(*Pair).Second), nil
		}
	case KindStruct:
		s := recv.r.(*StructValue)
		if i, ok := s.Type.index[name]; ok {
			if f := s.Fields[i]; f.k == KindClosure || f.k == KindBuiltin {
				return th.callValue(f, args)
			}
		}
	case KindObject:
		o := recv.r.(*Object)
		if m, ok := o.Methods[name]; ok {
			return m.Fn(&Call{th: th, Name: m.Name, Self: recv, literal: at}, args)
		}
		if f, ok := o.Members[name]; ok && (f.k == KindClosure || f.k == KindBuiltin || f.k == KindObject) {
			return th.callValue(f, args)
		}
		if et, ok := o.Data.(*enumType); ok {
			ctor, err := et.member(name)
			if err != nil {
				return Nil, err
			}
			if ctor.k == KindBuiltin {
				return th.callValue(ctor, args)
			}
			if ctor.k != KindNil {
				return ctor, nil
			}
			return Nil, typeError("enum %s has no variant %s", et.name, name)
		}
		if st, ok := o.Data.(*structType); ok {
			return Nil, typeError("struct %s has no method %s", st.name, name)
		}
		return Nil, typeError("%s has no method %s", recv.TypeName(), name)
	case KindChannel:
		return th.channelMethod(recv.r.(*Channel), name, args)
	case KindClosure, KindBuiltin:
		switch name {
		case "call":
			return th.callValue(recv, args)
		}
	case KindNil:
		return Nil, typeError("cannot call method `%s` on nil", name)
	}
	if err == nil {
		err = th.grew(v)
	}
	if err != nil {
		return Nil, err
	}
	return share(v), nil
}

// implTypeName is the type name impl methods are looked up under.
func implTypeName(v Value) string {
	switch v.k {
	case KindStruct:
		return v.r.(*StructValue).Type.name
	case KindEnum:
		return v.r.(*EnumValue).Enum
	case KindObject:
		switch d := v.r.(*Object).Data.(type) {
		case *structType:
			return d.name
		case *enumType:
			return d.name
		}
	}
	return ""
}

func (in *Interp) implMethod(typeName, name string) *Closure {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.impls[typeName][name]
}

func isCallable(v Value) bool { return v.k == KindClosure || v.k == KindBuiltin }

func (th *thread) call1(fn, x Value) (Value, error) {
	if fn.k == KindClosure {
		return th.callClosure(fn.r.(*Closure), []Value{x})
	}
	return th.callValue(fn, []Value{x})
}

func (th *thread) listMethod(recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := arg(args, 0)
	switch name {
	case "count", "len", "length":
		return Int(int64(len(items))), nil
	case "empty", "is_empty":
		return Bool(len(items) == 0), nil
	case "map":
		if !isCallable(fn) {
			return Nil, nil
		}
		out := make([]Value, len(items))
		for i, x := range items {
			r, err := th.call1(fn, share(x))
			if err != nil {
				return Nil, err
			}
			out[i] = r
		}
		return NewListValue(out), nil
	case "filter", "select":
		if !isCallable(fn) {
			return Nil, nil
		}
		var out []Value
		for _, x := range items {
			r, err := th.call1(fn, share(x))
			if err != nil {
				return Nil, err
			}
			if r.Truthy() {
				out = append(out, x)
			}
		}
		return NewListValue(out), nil
	case "reject":
		if !isCallable(fn) {
			return Nil, nil
		}
		var out []Value
		for _, x := range items {
			r, err := th.call1(fn, share(x))
			if err != nil {
				return Nil, err
			}
			if !r.Truthy() {
				out = append(out, x)
			}
		}
		return NewListValue(out), nil
	case "reduce", "fold":
		if len(args) < 2 || !isCallable(args[1]) {
			if len(args) == 1 && isCallable(args[0]) && len(items) > 0 {
				acc := share(items[0])
				for _, x := range items[1:] {
					r, err := th.callValue(args[0], []Value{acc, share(x)})
					if err != nil {
						return Nil, err
					}
					acc = r
				}
				return acc, nil
			}
			return Nil, nil
		}
		acc := args[0]
		for _, x := range items {
			r, err := th.callValue(args[1], []Value{acc, share(x)})
			if err != nil {
				return Nil, err
			}
			acc = r
		}
		return acc, nil
	case "find":
		if isCallable(fn) {
			for _, x := range items {
				r, err := th.call1(fn, share(x))
				if err != nil {
					return Nil, err
				}
				if r.Truthy() {
					return x, nil
				}
			}
		}
		return Nil, nil
	case "find_index":
		if isCallable(fn) {
			for i, x := range items {
				r, err := th.call1(fn, share(x))
				if err != nil {
					return Nil, err
				}
				if r.Truthy() {
					return Int(int64(i)), nil
				}
			}
		}
		return Int(-1), nil
	case "any", "some":
		if !isCallable(fn) {
			return Bool(false), nil
		}
		for _, x := range items {
			r, err := th.call1(fn, share(x))
			if err != nil {
				return Nil, err
			}
			if r.Truthy() {
				return True, nil
			}
		}
		return False, nil
	case "all", "every", "all?":
		if !isCallable(fn) {
			return True, nil
		}
		for _, x := range items {
			r, err := th.call1(fn, share(x))
			if err != nil {
				return Nil, err
			}
			if !r.Truthy() {
				return False, nil
			}
		}
		return True, nil
	case "none", "none?":
		if !isCallable(fn) {
			return Bool(len(items) == 0), nil
		}
		for _, x := range items {
			r, err := th.call1(fn, share(x))
			if err != nil {
				return Nil, err
			}
			if r.Truthy() {
				return False, nil
			}
		}
		return True, nil
	case "flat_map":
		if !isCallable(fn) {
			return Nil, nil
		}
		var out []Value
		for _, x := range items {
			r, err := th.call1(fn, share(x))
			if err != nil {
				return Nil, err
			}
			if r.k == KindList {
				out = append(out, r.r.(*List).SharedItems()...)
			} else {
				out = append(out, r)
			}
		}
		return NewListValue(out), nil
	case "for_each", "each":
		if isCallable(fn) {
			for _, x := range items {
				if _, err := th.call1(fn, share(x)); err != nil {
					return Nil, err
				}
			}
		}
		return Nil, nil
	case "sort":
		out, err := th.sortValues(items, fn)
		if err != nil {
			return Nil, err
		}
		return NewListValue(out), nil
	case "sort_by":
		if !isCallable(fn) {
			return Nil, nil
		}
		keys := make([]Value, len(items))
		for i, x := range items {
			k, err := th.call1(fn, share(x))
			if err != nil {
				return Nil, err
			}
			keys[i] = k
		}
		idx, err := th.sortIndexByKeys(keys)
		if err != nil {
			return Nil, err
		}
		out := make([]Value, len(items))
		for i, j := range idx {
			out[i] = share(items[j])
		}
		return NewListValue(out), nil
	case "reverse", "reversed":
		out := make([]Value, len(items))
		for i, x := range items {
			out[len(items)-1-i] = share(x)
		}
		return NewListValue(out), nil
	case "join":
		sep := ""
		if len(args) > 0 {
			sep = Display(args[0])
		}
		return th.join(items, sep)
	case "contains", "includes", "has":
		for _, x := range items {
			if Equal(x, fn) {
				return True, nil
			}
		}
		return False, nil
	case "index_of":
		for i, x := range items {
			if Equal(x, fn) {
				return Int(int64(i)), nil
			}
		}
		return Int(-1), nil
	case "enumerate":
		out := make([]Value, len(items))
		for i, x := range items {
			d := NewDict(2)
			d.Set("index", Int(int64(i)))
			d.Set("value", share(x))
			out[i] = DictValue(d)
		}
		return NewListValue(out), nil
	case "zip":
		if fn.k != KindList {
			return NewListValue(nil), nil
		}
		other := fn.r.(*List).items
		n := min(len(items), len(other))
		out := make([]Value, n)
		for i := 0; i < n; i++ {
			out[i] = NewListValue([]Value{share(items[i]), share(other[i])})
		}
		return NewListValue(out), nil
	case "slice":
		var lo, hi *int64
		if len(args) > 0 && args[0].k == KindInt {
			n := int64(args[0].n)
			lo = &n
		}
		if len(args) > 1 && args[1].k == KindInt {
			n := int64(args[1].n)
			hi = &n
		}
		return sliceValue(recv, lo, hi)
	case "unique", "uniq", "dedup":
		seen := map[string]bool{}
		var out []Value
		for _, x := range items {
			k := hashKey(x)
			if !seen[k] {
				seen[k] = true
				out = append(out, share(x))
			}
		}
		return NewListValue(out), nil
	case "take":
		n := clampInt(intArg(fn, 0), 0, int64(len(items)))
		return NewListValue(shareAll(append([]Value(nil), items[:n]...))), nil
	case "skip", "drop":
		n := clampInt(intArg(fn, 0), 0, int64(len(items)))
		return NewListValue(shareAll(append([]Value(nil), items[n:]...))), nil
	case "sum":
		return sumValues(items), nil
	case "min", "max":
		if len(items) == 0 {
			return Nil, nil
		}
		best := items[0]
		for _, x := range items[1:] {
			c, _ := Compare(x, best)
			if name == "min" && c < 0 || name == "max" && c > 0 {
				best = x
			}
		}
		return best, nil
	case "min_by", "max_by":
		if len(items) == 0 || !isCallable(fn) {
			return Nil, nil
		}
		best := items[0]
		bk, err := th.call1(fn, share(best))
		if err != nil {
			return Nil, err
		}
		for _, x := range items[1:] {
			k, err := th.call1(fn, share(x))
			if err != nil {
				return Nil, err
			}
			c, _ := Compare(k, bk)
			if name == "min_by" && c < 0 || name == "max_by" && c > 0 {
				best, bk = x, k
			}
		}
		return best, nil
	case "flatten":
		var out []Value
		for _, x := range items {
			if x.k == KindList {
				out = append(out, x.r.(*List).SharedItems()...)
			} else {
				out = append(out, share(x))
			}
		}
		return NewListValue(out), nil
	case "push", "append":
		return ListValue(l.Push(share(fn))), nil
	case "pop":
		if len(items) == 0 {
			return NewListValue(nil), nil
		}
		return NewListValue(shareAll(append([]Value(nil), items[:len(items)-1]...))), nil
	case "first", "last":
		if len(args) > 0 && fn.k == KindInt {
			n := clampInt(int64(fn.n), 0, int64(len(items)))
			if name == "first" {
				return NewListValue(shareAll(append([]Value(nil), items[:n]...))), nil
			}
			return NewListValue(shareAll(append([]Value(nil), items[int64(len(items))-n:]...))), nil
		}
		if len(items) == 0 {
			return Nil, nil
		}
		if name == "first" {
			return items[0], nil
		}
		return items[len(items)-1], nil
	case "partition":
		if !isCallable(fn) {
			return Nil, nil
		}
		var yes, no []Value
		for _, x := range items {
			r, err := th.call1(fn, share(x))
			if err != nil {
				return Nil, err
			}
			if r.Truthy() {
				yes = append(yes, x)
			} else {
				no = append(no, x)
			}
		}
		return NewListValue([]Value{NewListValue(yes), NewListValue(no)}), nil
	case "group_by":
		if !isCallable(fn) {
			return Nil, nil
		}
		groups := map[string][]Value{}
		for _, x := range items {
			k, err := th.call1(fn, share(x))
			if err != nil {
				return Nil, err
			}
			ks := Display(k)
			groups[ks] = append(groups[ks], share(x))
		}
		d := NewDict(len(groups))
		for k, v := range groups {
			d.Set(k, NewListValue(v))
		}
		return DictValue(d), nil
	case "chunk", "each_slice", "chunks":
		size := max(intArg(fn, 1), 1)
		var out []Value
		for i := int64(0); i < int64(len(items)); i += size {
			end := min(i+size, int64(len(items)))
			out = append(out, NewListValue(shareAll(append([]Value(nil), items[i:end]...))))
		}
		return NewListValue(out), nil
	case "window", "each_cons", "sliding_window", "windows":
		size := max(intArg(fn, 2), 1)
		step := max(intArg(arg(args, 1), 1), 1)
		var out []Value
		for s := int64(0); s+size <= int64(len(items)); s += step {
			out = append(out, NewListValue(shareAll(append([]Value(nil), items[s:s+size]...))))
		}
		return NewListValue(out), nil
	case "compact":
		var out []Value
		for _, x := range items {
			if x.k != KindNil {
				out = append(out, share(x))
			}
		}
		return NewListValue(out), nil
	case "tally":
		d := NewDict(0)
		for _, x := range items {
			k := Display(x)
			cur, _ := d.raw(k)
			d.Set(k, Int(cur.AsInt()+1))
		}
		return DictValue(d), nil
	case "to_list":
		return NewListValue(shareAll(append([]Value(nil), items...))), nil
	case "to_set":
		return Value{k: KindSet, r: NewSet(items)}, nil
	case "get", "at":
		return indexValue(recv, fn)
	case "insert":
		i := clampInt(intArg(fn, 0), 0, int64(len(items)))
		out := make([]Value, 0, len(items)+1)
		out = append(out, items[:i]...)
		out = append(out, share(arg(args, 1)))
		out = append(out, items[i:]...)
		return NewListValue(shareAll(out)), nil
	case "remove", "remove_at":
		i := intArg(fn, -1)
		if i < 0 {
			i += int64(len(items))
		}
		if i < 0 || i >= int64(len(items)) {
			return recv, nil
		}
		out := make([]Value, 0, len(items)-1)
		out = append(out, items[:i]...)
		out = append(out, items[i+1:]...)
		return NewListValue(shareAll(out)), nil
	case "concat", "extend":
		if fn.k == KindList {
			return opAdd(recv, fn)
		}
		return recv, nil
	}
	return Nil, nil
}

func shareAll(vs []Value) []Value {
	for _, v := range vs {
		share(v)
	}
	return vs
}

func intArg(v Value, def int64) int64 {
	switch v.k {
	case KindInt:
		return int64(v.n)
	case KindFloat:
		return int64(v.AsFloat())
	}
	return def
}

func clampInt(n, lo, hi int64) int64 { return max(lo, min(n, hi)) }

func sumValues(items []Value) Value {
	var is int64
	var fs float64
	isFloat := false
	for _, x := range items {
		switch x.k {
		case KindInt:
			is += int64(x.n)
			fs += float64(int64(x.n))
		case KindFloat:
			isFloat = true
			fs += x.AsFloat()
		}
	}
	if isFloat {
		return Float(fs)
	}
	return Int(is)
}

func stringMethod(s, name string, args []Value) (Value, error) {
	a0 := arg(args, 0)
	str0 := ""
	if len(args) > 0 {
		str0 = Display(a0)
	}
	switch name {
	case "count", "len", "length":
		return Int(int64(utf8.RuneCountInString(s))), nil
	case "empty", "is_empty":
		return Bool(s == ""), nil
	case "contains", "includes":
		return Bool(strings.Contains(s, str0)), nil
	case "replace", "replace_all":
		if len(args) < 2 {
			return Str(s), nil
		}
		return replaceAll(s, str0, Display(args[1]))
	case "split":
		sep := ","
		if len(args) > 0 {
			sep = str0
		}
		var parts []string
		if sep == "" {
			parts = []string{""}
			parts = append(parts, splitChars(s)...)
			parts = append(parts, "")
		} else {
			parts = strings.Split(s, sep)
		}
		out := make([]Value, len(parts))
		for i, p := range parts {
			out[i] = Str(p)
		}
		return NewListValue(out), nil
	case "trim", "strip":
		return Str(strings.TrimSpace(s)), nil
	case "trim_start", "trim_left", "lstrip":
		return Str(strings.TrimLeftFunc(s, unicode.IsSpace)), nil
	case "trim_end", "trim_right", "rstrip":
		return Str(strings.TrimRightFunc(s, unicode.IsSpace)), nil
	case "starts_with":
		return Bool(strings.HasPrefix(s, str0)), nil
	case "ends_with":
		return Bool(strings.HasSuffix(s, str0)), nil
	case "lowercase", "lower", "to_lower":
		return Str(strings.ToLower(s)), nil
	case "uppercase", "upper", "to_upper":
		return Str(strings.ToUpper(s)), nil
	case "substring", "substr":
		rs := []rune(s)
		n := int64(len(rs))
		start := clampInt(intArg(a0, 0), 0, n)
		end := n
		if len(args) > 1 && args[1].k == KindInt {
			end = min(int64(args[1].n), n)
		}
		end = max(end, start)
		return Str(string(rs[start:end])), nil
	case "slice":
		var lo, hi *int64
		if len(args) > 0 && a0.k == KindInt {
			n := int64(a0.n)
			lo = &n
		}
		if len(args) > 1 && args[1].k == KindInt {
			n := int64(args[1].n)
			hi = &n
		}
		return sliceValue(Str(s), lo, hi)
	case "index_of", "find":
		i := strings.Index(s, str0)
		if i < 0 {
			return Int(-1), nil
		}
		return Int(int64(utf8.RuneCountInString(s[:i]))), nil
	case "last_index_of":
		i := strings.LastIndex(s, str0)
		if i < 0 {
			return Int(-1), nil
		}
		return Int(int64(utf8.RuneCountInString(s[:i]))), nil
	case "chars":
		cs := splitChars(s)
		out := make([]Value, len(cs))
		for i, c := range cs {
			out[i] = Str(c)
		}
		return NewListValue(out), nil
	case "repeat":
		return repeatString(s, intArg(a0, 1))
	case "reverse":
		rs := []rune(s)
		for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
			rs[i], rs[j] = rs[j], rs[i]
		}
		return Str(string(rs)), nil
	case "pad_left", "pad_right", "pad_start", "pad_end":
		width := intArg(a0, 0)
		pad := " "
		if len(args) > 1 {
			if p := Display(args[1]); p != "" {
				_, size := utf8.DecodeRuneInString(p)
				pad = p[:size]
			}
		}
		n := int64(utf8.RuneCountInString(s))
		if n >= width || width > maxStringBytes {
			return Str(s), nil
		}
		padding := strings.Repeat(pad, int(width-n))
		if name == "pad_left" || name == "pad_start" {
			return Str(padding + s), nil
		}
		return Str(s + padding), nil
	case "lines":
		ls := strings.Split(s, "\n")
		if len(ls) > 0 && ls[len(ls)-1] == "" {
			ls = ls[:len(ls)-1]
		}
		out := make([]Value, len(ls))
		for i, l := range ls {
			out[i] = Str(strings.TrimSuffix(l, "\r"))
		}
		return NewListValue(out), nil
	case "char_at":
		i := intArg(a0, 0)
		if i < 0 {
			return Nil, nil
		}
		for _, r := range s {
			if i == 0 {
				return Str(string(r)), nil
			}
			i--
		}
		return Nil, nil
	case "to_string":
		return Str(s), nil
	case "to_int":
		return toInt(Str(s)), nil
	case "to_float":
		return toFloat(Str(s)), nil
	case "capitalize":
		if s == "" {
			return Str(s), nil
		}
		r, size := utf8.DecodeRuneInString(s)
		return Str(string(unicode.ToUpper(r)) + s[size:]), nil
	case "words":
		fs := strings.Fields(s)
		out := make([]Value, len(fs))
		for i, w := range fs {
			out[i] = Str(w)
		}
		return NewListValue(out), nil
	case "bytes":
		return BytesValue([]byte(s)), nil
	}
	return Nil, nil
}

func splitChars(s string) []string {
	out := make([]string, 0, len(s))
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

func (th *thread) dictMethod(recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	a0 := arg(args, 0)
	switch name {
	case "keys":
		ks := d.Keys()
		out := make([]Value, len(ks))
		for i, k := range ks {
			out[i] = Str(k)
		}
		return NewListValue(out), nil
	case "values":
		ks := d.Keys()
		out := make([]Value, len(ks))
		for i, k := range ks {
			out[i] = share(d.m[k])
		}
		return NewListValue(out), nil
	case "entries", "items":
		ks := d.Keys()
		out := make([]Value, len(ks))
		for i, k := range ks {
			e := NewDict(2)
			e.Set("key", Str(k))
			e.Set("value", share(d.m[k]))
			out[i] = DictValue(e)
		}
		return NewListValue(out), nil
	case "count", "len", "length":
		return Int(int64(d.Len())), nil
	case "empty", "is_empty":
		return Bool(d.Len() == 0), nil
	case "has", "contains", "has_key":
		return Bool(d.Has(Display(a0))), nil
	case "merge":
		if a0.k == KindDict {
			return opAdd(recv, a0)
		}
		return recv, nil
	case "map_values":
		if !isCallable(a0) {
			return Nil, nil
		}
		out := NewDict(d.Len())
		for _, k := range d.Keys() {
			r, err := th.call1(a0, share(d.m[k]))
			if err != nil {
				return Nil, err
			}
			out.Set(k, r)
		}
		return DictValue(out), nil
	case "rekey", "map_keys":
		if !isCallable(a0) {
			return Nil, nil
		}
		out := NewDict(d.Len())
		for _, k := range d.Keys() {
			r, err := th.call1(a0, Str(k))
			if err != nil {
				return Nil, err
			}
			out.Set(Display(r), share(d.m[k]))
		}
		return DictValue(out), nil
	case "filter":
		if !isCallable(a0) {
			return Nil, nil
		}
		out := NewDict(0)
		for _, k := range d.Keys() {
			r, err := th.call1(a0, share(d.m[k]))
			if err != nil {
				return Nil, err
			}
			if r.Truthy() {
				out.Set(k, share(d.m[k]))
			}
		}
		return DictValue(out), nil
	case "remove", "delete", "without":
		out := d.clone()
		out.Delete(Display(a0))
		return DictValue(out), nil
	case "get":
		if v, ok := d.Get(Display(a0)); ok {
			return v, nil
		}
		return arg(args, 1), nil
	case "set", "with", "insert":
		out := d.clone()
		out.Set(Display(a0), share(arg(args, 1)))
		return DictValue(out), nil
	}
	if f, ok := d.raw(name); ok && isCallable(f) {
		return th.callValue(f, args)
	}
	return Nil, nil
}

func (th *thread) setMethod(s *Set, name string, args []Value) (Value, error) {
	a0 := arg(args, 0)
	setOf := func(v Value) []Value {
		switch v.k {
		case KindSet:
			return v.r.(*Set).items
		case KindList:
			return v.r.(*List).items
		}
		return nil
	}
	other := func() *Set {
		if a0.k == KindSet {
			return a0.r.(*Set)
		}
		return NewSet(setOf(a0))
	}
	switch name {
	case "count", "len", "length":
		return Int(int64(s.Len())), nil
	case "empty", "is_empty":
		return Bool(s.Len() == 0), nil
	case "contains", "has":
		return Bool(s.Has(a0)), nil
	case "add", "insert":
		n := NewSet(s.items)
		n.add(a0)
		return Value{k: KindSet, r: n}, nil
	case "remove", "delete":
		var keep []Value
		for _, x := range s.items {
			if !Equal(x, a0) {
				keep = append(keep, x)
			}
		}
		return Value{k: KindSet, r: NewSet(keep)}, nil
	case "union":
		n := NewSet(s.items)
		for _, x := range setOf(a0) {
			n.add(x)
		}
		return Value{k: KindSet, r: n}, nil
	case "intersect", "intersection":
		o := other()
		var keep []Value
		for _, x := range s.items {
			if o.Has(x) {
				keep = append(keep, x)
			}
		}
		return Value{k: KindSet, r: NewSet(keep)}, nil
	case "difference":
		o := other()
		var keep []Value
		for _, x := range s.items {
			if !o.Has(x) {
				keep = append(keep, x)
			}
		}
		return Value{k: KindSet, r: NewSet(keep)}, nil
	case "symmetric_difference":
		o := other()
		var keep []Value
		for _, x := range s.items {
			if !o.Has(x) {
				keep = append(keep, x)
			}
		}
		for _, x := range o.items {
			if !s.Has(x) {
				keep = append(keep, x)
			}
		}
		return Value{k: KindSet, r: NewSet(keep)}, nil
	case "is_subset":
		o := other()
		for _, x := range s.items {
			if !o.Has(x) {
				return False, nil
			}
		}
		return True, nil
	case "is_superset":
		for _, x := range setOf(a0) {
			if !s.Has(x) {
				return False, nil
			}
		}
		return True, nil
	case "is_disjoint":
		for _, x := range setOf(a0) {
			if s.Has(x) {
				return False, nil
			}
		}
		return True, nil
	case "to_list":
		return NewListValue(shareAll(append([]Value(nil), s.items...))), nil
	case "map", "filter", "any", "all", "every":
		r, err := th.listMethod(NewListValue(s.items), name, args)
		if err != nil || r.k != KindList {
			return r, err
		}
		return Value{k: KindSet, r: NewSet(r.r.(*List).items)}, nil
	}
	return Nil, nil
}

func (th *thread) rangeMethod(recv Value, name string, args []Value) (Value, error) {
	r := recv.r.(*Range)
	switch name {
	case "len", "count", "length":
		return Int(r.Len()), nil
	case "empty":
		return Bool(r.Len() == 0), nil
	case "contains":
		ok, err := contains(recv, arg(args, 0))
		return Bool(ok), err
	case "first", "last":
		return getProperty(recv, name, true)
	case "to_string":
		s, err := th.display(recv)
		return Str(s), err
	case "to_list":
		items, err := spreadItems(recv)
		if err != nil {
			return Nil, err
		}
		return NewListValue(items), nil
	}
	it, err := th.toIter(recv)
	if err != nil {
		return Nil, err
	}
	return th.iterMethod(it, name, args)
}

func (th *thread) enumMethod(recv Value, name string, args []Value) (Value, error) {
	e := recv.r.(*EnumValue)
	if e.Enum == "Result" {
		return resultMethod(recv, name, args, th)
	}
	return Nil, nil
}

func (th *thread) channelMethod(ch *Channel, name string, args []Value) (Value, error) {
	switch name {
	case "send":
		ok, err := ch.send(th, arg(args, 0))
		return Bool(ok), err
	case "receive", "recv":
		v, _, err := ch.recv(th)
		return v, err
	case "try_receive":
		v, _, _, _ := ch.tryRecv()
		return v, nil
	case "close":
		ch.close()
		return Nil, nil
	}
	return Nil, nil
}
