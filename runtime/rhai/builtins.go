package rhai

import (
	"encoding/json"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// builtin calls a native function. args[0] is the method's object when
// called method-style; in-place methods write through it.
func (it *interp) builtin(name string, args []*Value, pos int) (Value, error) {
	v, matched, err := it.native(name, args, pos)
	if err != nil {
		return nil, err
	}
	if !matched {
		vals := make([]Value, len(args))
		for i, a := range args {
			vals[i] = *a
		}
		return nil, it.errf(ErrRuntime, pos, "Function not found: %s", signature(name, vals))
	}
	if err := it.checkSize(v, pos); err != nil {
		return nil, err
	}
	return v, nil
}

func argTypes(args []*Value, types ...string) bool {
	if len(args) != len(types) {
		return false
	}
	for i, t := range types {
		if t != "any" && TypeName(*args[i]) != t {
			return false
		}
	}
	return true
}

// byteOffset returns the byte offset of character k of s (len(s) past
// the end).
func byteOffset(s string, k int64) int {
	for i := range s {
		if k == 0 {
			return i
		}
		k--
	}
	return len(s)
}

func runeIndex(s string, sub string) int64 {
	i := strings.Index(s, sub)
	if i < 0 {
		return -1
	}
	return int64(utf8.RuneCountInString(s[:i]))
}

// subString takes chars [start, start+n) with Rhai's clamping; a negative
// start counts from the end.
func subString(s string, start, n int64) string {
	rs := []rune(s)
	l := int64(len(rs))
	if start < 0 {
		start = max(l+start, 0)
	}
	if start >= l || n <= 0 {
		return ""
	}
	end := l
	if n < l-start {
		end = start + n
	}
	return string(rs[start:end])
}

// rustSplit splits like Rust's str::split: an empty separator yields the
// empty string at both ends around each character.
func rustSplit(s, sep string) []string {
	if sep != "" {
		return strings.Split(s, sep)
	}
	out := []string{""}
	for _, r := range s {
		out = append(out, string(r))
	}
	return append(out, "")
}

// countFields counts what strings.Fields would return, without making it.
func countFields(s string) int {
	n, in := 0, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

func strArray(parts []string) *Array {
	a := &Array{Items: make([]Value, len(parts))}
	for i, p := range parts {
		a.Items[i] = p
	}
	return a
}

// mermaidKeywords open a Mermaid diagram.
var mermaidKeywords = []string{"graph", "flowchart", "sequenceDiagram", "classDiagram", "stateDiagram",
	"stateDiagram-v2", "erDiagram", "journey", "gantt", "pie", "quadrantChart", "requirementDiagram",
	"gitGraph", "C4Context", "mindmap", "timeline", "sankey-beta", "xychart-beta", "block-beta"}

func isMermaid(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "%%") || line == "```mermaid" || line == "---" {
			continue
		}
		word := strings.FieldsFunc(line, func(r rune) bool { return unicode.IsSpace(r) || r == ';' })[0]
		return slices.Contains(mermaidKeywords, word)
	}
	return false
}

// ownedArray returns the array in *pv, copied first if shared, ready to
// be changed in place: its size cache is dropped unless keep.
func (it *interp) ownedArray(pv *Value, keep ...bool) *Array {
	a := (*pv).(*Array)
	if a.shared {
		a = it.ownA(a)
		*pv = a
	}
	if len(keep) == 0 {
		a.szOK = false
	}
	return a
}

func (it *interp) ownedMap(pv *Value) *Map {
	m := (*pv).(*Map)
	if m.shared {
		m = it.ownM(m)
		*pv = m
	}
	m.szOK = false
	return m
}

func (it *interp) predicate(fp *FnPtr, item Value, idx int, pos int) (bool, error) {
	v, err := it.callClosure(fp, []Value{item, int64(idx)}, pos)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, it.errf(ErrRuntime, pos, "Data type incorrect: %s (expecting bool)", TypeName(v))
	}
	return b, nil
}

// copyingStringBuiltins build a new string or array from their string.
var copyingStringBuiltins = map[string]bool{
	"to_upper": true, "to_lower": true, "make_upper": true, "make_lower": true, "to_chars": true,
	"chars": true, "replace": true, "pad": true, "truncate": true, "split": true, "sub_string": true,
	"trim": true, "parse_json": true,
}

// linearBuiltins visit every element of their container argument.
var linearBuiltins = map[string]bool{
	"index_of": true, "contains": true, "join": true, "keys": true, "values": true, "sort": true,
	"reverse": true, "to_json": true, "to_string": true, "to_debug": true, "insert": true, "remove": true,
	"shift": true, "append": true, "filter": true, "map": true, "some": true, "all": true, "find": true,
	"reduce": true,
}

// native dispatches on the name and argument types. matched is false when
// no overload fits.
func (it *interp) native(name string, args []*Value, pos int) (Value, bool, error) {
	n := len(args)
	var a0 Value
	if n > 0 {
		a0 = *args[0]
	}
	s0, isStr := a0.(string)
	arr0, isArr := a0.(*Array)
	map0, isMap := a0.(*Map)
	if isStr {
		if err := it.charge(len(s0), pos); err != nil {
			return nil, true, err
		}
	}
	if isStr && copyingStringBuiltins[name] {
		// These allocate a copy of the string (or of its characters).
		it.ops += int64(len(s0) >> 10)
	}
	if linearBuiltins[name] {
		it.ops += int64(sizeHint(a0) >> elemShift)
	}
	switch name {
	case "print", "debug":
		return Unit{}, n == 1, nil
	case "type_of":
		if n == 1 {
			return typeNameValue(a0), true, nil
		}
	case "to_string":
		if n == 1 {
			return ToString(a0), true, nil
		}
	case "to_debug":
		if n == 1 {
			var b strings.Builder
			writeDebug(&b, a0, 0)
			return b.String(), true, nil
		}
	case "len":
		switch {
		case isStr && n == 1:
			return int64(utf8.RuneCountInString(s0)), true, nil
		case isArr && n == 1:
			return int64(len(arr0.Items)), true, nil
		case isMap && n == 1:
			return int64(len(map0.m)), true, nil
		}
	case "bytes":
		if isStr && n == 1 {
			return int64(len(s0)), true, nil
		}
	case "is_empty":
		switch {
		case isStr && n == 1:
			// Leviath's override: whitespace-only counts as empty.
			return strings.TrimSpace(s0) == "", true, nil
		case isArr && n == 1:
			return len(arr0.Items) == 0, true, nil
		case isMap && n == 1:
			return len(map0.m) == 0, true, nil
		}
	case "trim":
		if isStr && n == 1 {
			// Leviath's override returns the trimmed copy.
			return strings.TrimSpace(s0), true, nil
		}
	case "contains":
		if n == 2 {
			v, err := it.contains(a0, *args[1], pos)
			return v, err == nil, nil
		}
	case "starts_with", "ends_with":
		if isStr && argTypes(args, "string", "string") {
			if name == "starts_with" {
				return strings.HasPrefix(s0, (*args[1]).(string)), true, nil
			}
			return strings.HasSuffix(s0, (*args[1]).(string)), true, nil
		}
	case "index_of":
		switch {
		case isStr && (n == 2 || n == 3 && TypeName(*args[2]) == "i64"):
			var sub string
			switch t := (*args[1]).(type) {
			case string:
				sub = t
			case rune:
				sub = string(t)
			default:
				return nil, false, nil
			}
			start := int64(0)
			if n == 3 {
				start = (*args[2]).(int64)
			}
			nchars := int64(utf8.RuneCountInString(s0))
			if start < 0 {
				start = max(nchars+start, 0)
			}
			if start > nchars {
				return int64(-1), true, nil
			}
			rest := s0[byteOffset(s0, start):]
			i := runeIndex(rest, sub)
			if i < 0 {
				return int64(-1), true, nil
			}
			return i + start, true, nil
		case isArr && n == 2:
			if fp, ok := (*args[1]).(*FnPtr); ok {
				for i, x := range arr0.Items {
					ok, err := it.predicate(fp, x, i, pos)
					if err != nil {
						return nil, true, err
					}
					if ok {
						return int64(i), true, nil
					}
				}
				return int64(-1), true, nil
			}
			for i, x := range arr0.Items {
				if equal(x, *args[1], 0) {
					return int64(i), true, nil
				}
			}
			return int64(-1), true, nil
		}
	case "sub_string":
		if isStr && (argTypes(args, "string", "i64") || argTypes(args, "string", "i64", "i64")) {
			cnt := int64(math.MaxInt64)
			if n == 3 {
				cnt = (*args[2]).(int64)
			}
			return subString(s0, (*args[1]).(int64), cnt), true, nil
		}
	case "split":
		switch {
		case isStr && n == 1:
			if err := it.growArray(countFields(s0), pos); err != nil {
				return nil, true, err
			}
			return strArray(strings.Fields(s0)), true, nil
		case isStr && n == 2:
			sep, ok := strOrChar(*args[1])
			if !ok {
				break
			}
			// The parts are counted before they are made.
			parts := utf8.RuneCountInString(s0) + 2
			if sep != "" {
				parts = strings.Count(s0, sep) + 1
			}
			if err := it.growArray(parts, pos); err != nil {
				return nil, true, err
			}
			return strArray(rustSplit(s0, sep)), true, nil
		}
	case "to_upper", "to_lower":
		switch {
		case isStr && n == 1:
			if name == "to_upper" {
				return strings.ToUpper(s0), true, nil
			}
			return strings.ToLower(s0), true, nil
		case n == 1 && TypeName(a0) == "char":
			if name == "to_upper" {
				return unicode.ToUpper(a0.(rune)), true, nil
			}
			return unicode.ToLower(a0.(rune)), true, nil
		}
	case "make_upper", "make_lower":
		if isStr && n == 1 {
			if name == "make_upper" {
				*args[0] = strings.ToUpper(s0)
			} else {
				*args[0] = strings.ToLower(s0)
			}
			return Unit{}, true, nil
		}
	case "to_chars", "chars":
		if isStr && n == 1 {
			chars := utf8.RuneCountInString(s0)
			if err := it.growArray(chars, pos); err != nil {
				return nil, true, err
			}
			a := &Array{Items: make([]Value, 0, chars)}
			for _, r := range s0 {
				a.Items = append(a.Items, r)
			}
			return a, true, nil
		}
	case "replace":
		if isStr && n == 3 {
			find, ok1 := strOrChar(*args[1])
			sub, ok2 := strOrChar(*args[2])
			if ok1 && ok2 {
				// The result's length is known before it is built.
				k := strings.Count(s0, find)
				if err := it.growString(len(s0)+k*(len(sub)-len(find)), pos); err != nil {
					return nil, true, err
				}
				out := strings.ReplaceAll(s0, find, sub)
				*args[0] = out
				return Unit{}, true, nil
			}
		}
	case "pad":
		if isStr && n == 3 && TypeName(*args[1]) == "i64" {
			fill, ok := strOrChar(*args[2])
			want := (*args[1]).(int64)
			if ok {
				if want > int64(it.lim.MaxStringSize) {
					return nil, true, it.errf(ErrDataTooLarge, pos, "Length of string too large")
				}
				rs := []rune(s0)
				fr := []rune(fill)
				for int64(len(rs)) < want && len(fr) > 0 {
					for _, r := range fr {
						if int64(len(rs)) >= want {
							break
						}
						rs = append(rs, r)
					}
				}
				*args[0] = string(rs)
				return Unit{}, true, nil
			}
		}
		if isArr && n == 3 && TypeName(*args[1]) == "i64" {
			want := (*args[1]).(int64)
			if want > int64(it.lim.MaxArraySize) {
				return nil, true, it.errf(ErrDataTooLarge, pos, "Size of array too large")
			}
			a := it.ownedArray(args[0])
			for int64(len(a.Items)) < want {
				a.Items = append(a.Items, share(*args[2]))
			}
			return Unit{}, true, nil
		}
	case "truncate":
		if isStr && argTypes(args, "string", "i64") {
			k := max((*args[1]).(int64), 0)
			rs := []rune(s0)
			if k < int64(len(rs)) {
				*args[0] = string(rs[:k])
			}
			return Unit{}, true, nil
		}
		if isArr && argTypes(args, "array", "i64") {
			k := max((*args[1]).(int64), 0)
			a := it.ownedArray(args[0])
			if k < int64(len(a.Items)) {
				a.Items = a.Items[:k]
			}
			return Unit{}, true, nil
		}
	case "push":
		if isArr && n == 2 {
			it.appendItems(it.ownedArray(args[0], true), *args[1])
			return Unit{}, true, nil
		}
	case "append":
		if isArr && n == 2 {
			a := it.ownedArray(args[0], true)
			if b, ok := (*args[1]).(*Array); ok {
				it.appendItems(a, b.Items...)
			} else {
				it.appendItems(a, *args[1])
			}
			return Unit{}, true, nil
		}
	case "insert":
		if isArr && n == 3 && TypeName(*args[1]) == "i64" {
			a := it.ownedArray(args[0])
			k := (*args[1]).(int64)
			l := int64(len(a.Items))
			if k < 0 {
				k = max(l+k, 0)
			}
			k = min(k, l)
			a.Items = slices.Insert(a.Items, int(k), share(*args[2]))
			return Unit{}, true, nil
		}
	case "pop", "shift":
		if isArr && n == 1 {
			a := it.ownedArray(args[0])
			if len(a.Items) == 0 {
				return Unit{}, true, nil
			}
			var v Value
			if name == "pop" {
				v = a.Items[len(a.Items)-1]
				a.Items = a.Items[:len(a.Items)-1]
			} else {
				v = a.Items[0]
				a.Items = a.Items[1:]
			}
			return v, true, nil
		}
	case "remove":
		if isArr && argTypes(args, "array", "i64") {
			a := it.ownedArray(args[0])
			k := (*args[1]).(int64)
			l := int64(len(a.Items))
			if k < 0 {
				k += l
			}
			if k < 0 || k >= l {
				return Unit{}, true, nil
			}
			v := a.Items[k]
			a.Items = slices.Delete(a.Items, int(k), int(k)+1)
			return v, true, nil
		}
		if isMap && argTypes(args, "map", "string") {
			m := it.ownedMap(args[0])
			k := (*args[1]).(string)
			v, ok := m.m[k]
			if !ok {
				return Unit{}, true, nil
			}
			delete(m.m, k)
			return v, true, nil
		}
	case "clear":
		if isArr && n == 1 {
			it.ownedArray(args[0]).Items = nil
			return Unit{}, true, nil
		}
		if isMap && n == 1 {
			it.ownedMap(args[0]).m = map[string]Value{}
			return Unit{}, true, nil
		}
		if isStr && n == 1 {
			*args[0] = ""
			return Unit{}, true, nil
		}
	case "get":
		if isArr && argTypes(args, "array", "i64") {
			k := (*args[1]).(int64)
			l := int64(len(arr0.Items))
			if k < 0 {
				k += l
			}
			if k < 0 || k >= l {
				return Unit{}, true, nil
			}
			return arr0.Items[k], true, nil
		}
		if isMap && argTypes(args, "map", "string") {
			if v, ok := map0.m[(*args[1]).(string)]; ok {
				return v, true, nil
			}
			return Unit{}, true, nil
		}
		if isStr && argTypes(args, "string", "i64") {
			k := (*args[1]).(int64)
			if k < 0 {
				k += int64(utf8.RuneCountInString(s0))
			}
			if k < 0 {
				return Unit{}, true, nil
			}
			off := byteOffset(s0, k)
			if off >= len(s0) {
				return Unit{}, true, nil
			}
			r, _ := utf8.DecodeRuneInString(s0[off:])
			return r, true, nil
		}
	case "filter", "map", "some", "all", "find", "reduce":
		if !isArr || n < 2 {
			break
		}
		fp, ok := (*args[1]).(*FnPtr)
		if !ok {
			break
		}
		return it.arrayFn(name, arr0, fp, args, pos)
	case "sort":
		if isArr && n == 1 {
			return it.sortArray(args[0], nil, pos)
		}
		if isArr && n == 2 {
			if fp, ok := (*args[1]).(*FnPtr); ok {
				return it.sortArray(args[0], fp, pos)
			}
		}
	case "reverse":
		if isArr && n == 1 {
			slices.Reverse(it.ownedArray(args[0], true).Items)
			return Unit{}, true, nil
		}
	case "join":
		if isArr && n == 2 {
			sep, ok := strOrChar(*args[1])
			if ok {
				parts := make([]string, len(arr0.Items))
				total := 0
				for i, x := range arr0.Items {
					parts[i] = ToString(x)
					total += len(parts[i]) + len(sep)
					if total > it.lim.MaxStringSize {
						return nil, true, it.errf(ErrDataTooLarge, pos, "Length of string too large")
					}
				}
				return strings.Join(parts, sep), true, nil
			}
		}
	case "keys", "values":
		if isMap && n == 1 {
			a := &Array{}
			for _, k := range map0.Keys() {
				if name == "keys" {
					a.Items = append(a.Items, k)
				} else {
					a.Items = append(a.Items, share(map0.m[k]))
				}
			}
			return a, true, nil
		}
	case "to_json":
		if isMap && n == 1 {
			var b strings.Builder
			if err := it.writeJSON(&b, map0, 0, pos); err != nil {
				return nil, true, err
			}
			return b.String(), true, nil
		}
	case "parse_json":
		if isStr && n == 1 {
			v, err := it.parseJSON(s0, pos)
			return v, true, err
		}
	case "is_json":
		if isStr && n == 1 {
			return json.Valid([]byte(s0)), true, nil
		}
	case "is_mermaid":
		if isStr && n == 1 {
			return isMermaid(s0), true, nil
		}
	case "is_markdown":
		if isStr && n == 1 {
			return s0 != "", true, nil
		}
	case "count_tokens":
		if isStr && n == 1 {
			return int64((utf8.RuneCountInString(s0) + 3) / 4), true, nil
		}
	case "parse_int":
		if isStr && (n == 1 || argTypes(args, "string", "i64")) {
			radix := int64(10)
			if n == 2 {
				radix = (*args[1]).(int64)
			}
			if radix < 2 || radix > 36 {
				return nil, true, it.errf(ErrRuntime, pos, "Invalid radix: '%d'", radix)
			}
			v, err := strconv.ParseInt(strings.TrimSpace(s0), int(radix), 64)
			if err != nil {
				return nil, true, it.errf(ErrRuntime, pos, "Error parsing integer number '%s': invalid digit found in string", s0)
			}
			return v, true, nil
		}
	case "parse_float":
		if isStr && n == 1 {
			t := strings.TrimSpace(s0)
			v, err := strconv.ParseFloat(t, 64)
			if err != nil || strings.ContainsAny(t, "xXpP_") {
				return nil, true, it.errf(ErrRuntime, pos, "Error parsing floating-point number '%s': invalid float literal", s0)
			}
			return v, true, nil
		}
	case "to_int":
		switch t := a0.(type) {
		case int64:
			return t, n == 1, nil
		case float64:
			if n == 1 {
				if math.IsNaN(t) || t >= 9.223372036854775807e18 || t < -9.223372036854775808e18 {
					return nil, true, it.errf(ErrRuntime, pos, "Integer overflow: to_int(%s)", formatFloat(t))
				}
				return int64(t), true, nil
			}
		case rune:
			return int64(t), n == 1, nil
		case bool:
			if t {
				return int64(1), n == 1, nil
			}
			return int64(0), n == 1, nil
		}
	case "to_float":
		switch t := a0.(type) {
		case int64:
			return float64(t), n == 1, nil
		case float64:
			return t, n == 1, nil
		}
	case "to_char":
		if t, ok := a0.(int64); ok && n == 1 {
			if t < 0 || t > unicode.MaxRune || !utf8.ValidRune(rune(t)) {
				return nil, true, it.errf(ErrRuntime, pos, "Invalid character code: %d", t)
			}
			return rune(t), true, nil
		}
	case "abs":
		switch t := a0.(type) {
		case int64:
			if t == math.MinInt64 {
				return nil, true, it.errf(ErrRuntime, pos, "Negation overflow: -%d", t)
			}
			if t < 0 {
				t = -t
			}
			return t, n == 1, nil
		case float64:
			return math.Abs(t), n == 1, nil
		}
	case "floor", "ceiling", "round", "int", "fraction", "sqrt":
		if t, ok := a0.(float64); ok && n == 1 {
			switch name {
			case "floor":
				return math.Floor(t), true, nil
			case "ceiling":
				return math.Ceil(t), true, nil
			case "round":
				return math.Round(t), true, nil
			case "int":
				return math.Trunc(t), true, nil
			case "fraction":
				return t - math.Trunc(t), true, nil
			}
			return math.Sqrt(t), true, nil
		}
	case "min", "max":
		if n == 2 {
			v, err := it.binary("<", a0, *args[1], pos)
			if err != nil {
				return nil, false, nil
			}
			_, num0 := a0.(int64)
			_, f0 := a0.(float64)
			_, num1 := (*args[1]).(int64)
			_, f1 := (*args[1]).(float64)
			if !(num0 || f0) || !(num1 || f1) {
				return nil, false, nil
			}
			less := v.(bool)
			if less == (name == "min") {
				return a0, true, nil
			}
			return *args[1], true, nil
		}
	case "sign":
		switch t := a0.(type) {
		case int64:
			return int64(cmpSign(t)), n == 1, nil
		case float64:
			return int64(cmpSign(t)), n == 1, nil
		}
	case "range":
		if argTypes(args, "i64", "i64") || argTypes(args, "i64", "i64", "i64") {
			r := Range{Start: a0.(int64), End: (*args[1]).(int64), Step: 1}
			if n == 3 {
				r.Step = (*args[2]).(int64)
				if r.Step == 0 {
					return nil, true, it.errf(ErrRuntime, pos, "step value cannot be zero")
				}
			}
			return r, true, nil
		}
	}
	return nil, false, nil
}

func cmpSign[T int64 | float64](v T) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

func strOrChar(v Value) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case rune:
		return string(t), true
	}
	return "", false
}

func (it *interp) arrayFn(name string, a *Array, fp *FnPtr, args []*Value, pos int) (Value, bool, error) {
	items := a.Items
	switch name {
	case "filter":
		out := &Array{}
		for i, x := range items {
			ok, err := it.predicate(fp, x, i, pos)
			if err != nil {
				return nil, true, err
			}
			if ok {
				out.Items = append(out.Items, share(x))
			}
		}
		return out, len(args) == 2, nil
	case "map":
		out := &Array{Items: make([]Value, 0, len(items))}
		for i, x := range items {
			v, err := it.callClosure(fp, []Value{x, int64(i)}, pos)
			if err != nil {
				return nil, true, err
			}
			out.Items = append(out.Items, share(v))
		}
		return out, len(args) == 2, nil
	case "some", "all":
		for i, x := range items {
			ok, err := it.predicate(fp, x, i, pos)
			if err != nil {
				return nil, true, err
			}
			if ok == (name == "some") {
				return ok, len(args) == 2, nil
			}
		}
		return name == "all", len(args) == 2, nil
	case "find":
		for i, x := range items {
			ok, err := it.predicate(fp, x, i, pos)
			if err != nil {
				return nil, true, err
			}
			if ok {
				return x, len(args) == 2, nil
			}
		}
		return Unit{}, len(args) == 2, nil
	case "reduce":
		var acc Value = Unit{}
		if len(args) == 3 {
			acc = *args[2]
		} else if len(args) != 2 {
			return nil, false, nil
		}
		for i, x := range items {
			v, err := it.callClosure(fp, []Value{acc, x, int64(i)}, pos)
			if err != nil {
				return nil, true, err
			}
			acc = v
		}
		return acc, true, nil
	}
	return nil, false, nil
}

func (it *interp) sortArray(pv *Value, fp *FnPtr, pos int) (Value, bool, error) {
	a := it.ownedArray(pv, true)
	if n := len(a.Items); n > 1 {
		it.ops += int64(n*bits.Len(uint(n))) >> elemShift
	}
	var failure error
	if fp == nil {
		if len(a.Items) > 0 {
			t := TypeName(a.Items[0])
			for _, x := range a.Items {
				if TypeName(x) != t || !slices.Contains([]string{"i64", "f64", "string", "char", "bool", "()"}, t) {
					return nil, true, it.errf(ErrRuntime, pos, "Cannot sort an array holding %s and %s", t, TypeName(x))
				}
			}
		}
		slices.SortStableFunc(a.Items, func(x, y Value) int {
			if lt, _ := it.binary("<", x, y, pos); lt == true {
				return -1
			}
			if gt, _ := it.binary(">", x, y, pos); gt == true {
				return 1
			}
			if bx, ok := x.(bool); ok && bx != y.(bool) {
				if !bx {
					return -1
				}
				return 1
			}
			return 0
		})
		return Unit{}, true, nil
	}
	slices.SortStableFunc(a.Items, func(x, y Value) int {
		if failure != nil {
			return 0
		}
		v, err := it.callClosure(fp, []Value{x, y}, pos)
		if err != nil {
			failure = err
			return 0
		}
		k, ok := v.(int64)
		if !ok {
			failure = it.errf(ErrRuntime, pos, "Data type incorrect: %s (expecting i64)", TypeName(v))
			return 0
		}
		return cmpSign(k)
	})
	if failure != nil {
		return nil, true, failure
	}
	return Unit{}, true, nil
}

// typeNames holds the type names already boxed as values, so type_of
// does not allocate.
var typeNames = func() map[string]Value {
	m := map[string]Value{}
	for _, n := range []string{"()", "bool", "i64", "f64", "char", "string", "array", "map", "range", "range=", "Fn", "unknown"} {
		m[n] = n
	}
	return m
}()

func typeNameValue(v Value) Value { return typeNames[TypeName(v)] }
