package harn

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/harnlang/harn-check/lang/harn/builtins"
)

// callMethod is `recv.name(args)`; at is the call written in the source
// (host methods receive it as their literal call site).
func (th *thread) callMethod(recv Value, name string, args []Value, at *site) (Value, error) {
	// Methods declared with impl come first, for any named type.
	if tn := implTypeName(recv); tn != "" {
		if m := th.in.implMethod(tn, name); m != nil {
			if recv.k == KindObject || !m.proto.method {
				return th.callClosure(m, args)
			}
			// The receiver and the arguments, on the value stack: the
			// callee copies them into its frame.
			full := th.stack.alloc(len(args) + 1)
			full[0] = share(recv)
			copy(full[1:], args)
			v, err := th.callClosure(m, full)
			th.stack.freeArgs(full)
			return v, err
		}
	}
	switch recv.k {
	case KindStruct:
		s := recv.r.(*StructValue)
		if i, ok := s.Type.index[name]; ok {
			if f := s.Fields[i]; f.k == KindClosure || f.k == KindBuiltin {
				return th.callValue(f, args)
			}
		}
		return share(Nil), nil
	case KindObject:
		return th.objectMethod(recv, name, args, at)
	case KindNil:
		return Nil, typeError("cannot call method `%s` on nil", name)
	case KindString:
		if err := th.scanned([]Value{recv}); err != nil {
			return Nil, err
		}
	}
	kind := methodKind(recv)
	if kind == "" {
		return share(Nil), nil
	}
	var v Value
	var err error
	charged := false
	if m, ok := methodTable()[kind][name]; ok {
		v, err = th.runMethod(m, recv, name, args)
		charged = m.charged
	} else {
		v, err = th.kindMethod(kind, recv, name, args)
	}
	if err != nil {
		return Nil, err
	}
	if directKinds[kind] {
		return v, nil
	}
	if !charged {
		if err := th.grew(v); err != nil {
			return Nil, err
		}
	}
	return share(v), nil
}

// A tableMethod is a method of the builtin table resolved for one
// receiver kind: what callMethod finds for that kind at every call.
type tableMethod struct {
	m      boundMethod
	direct bool // directKinds
}

// kindCount bounds the Kinds a table of tableMethods is indexed by.
const kindCount = int(kindCell) + 1

// tableKinds are the receiver kinds whose methods come only from the
// builtin table (no impl block can name them) and whose table kind
// depends on the Kind alone.
var tableKinds = []Kind{KindString, KindList, KindDict, KindSet, KindRange, KindIter,
	KindGenerator, KindStream, KindChannel, KindPair, KindClosure, KindBuiltin}

// tableMethods resolves the method name for every kind of tableKinds,
// indexed by Kind (nil where the table has no such method), so that a
// call site looks it up once, at compile time, instead of three map
// lookups a call. Nil when no kind has the method.
func tableMethods(name string) []*tableMethod {
	var out []*tableMethod
	for _, k := range tableKinds {
		kind := methodKind(Value{k: k})
		m, ok := methodTable()[kind][name]
		if !ok {
			continue
		}
		if out == nil {
			out = make([]*tableMethod, kindCount)
		}
		out[k] = &tableMethod{m: m, direct: directKinds[kind]}
	}
	return out
}

// callTableMethod is callMethod for a receiver whose method tm is (its
// kind is one of tableKinds).
func (th *thread) callTableMethod(tm *tableMethod, recv Value, name string, args []Value) (Value, error) {
	if recv.k == KindString {
		if err := th.scanned([]Value{recv}); err != nil {
			return Nil, err
		}
	}
	v, err := th.runMethod(tm.m, recv, name, args)
	if err != nil {
		return Nil, err
	}
	if tm.direct {
		return v, nil
	}
	if !tm.m.charged {
		if err := th.grew(v); err != nil {
			return Nil, err
		}
	}
	return share(v), nil
}

// objectMethod calls a method of a host object, a callable member, or an
// enum or struct type's constructor.
func (th *thread) objectMethod(recv Value, name string, args []Value, at *site) (Value, error) {
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
}

// methodKind names the receiver kind of the builtin table
// (lang/harn/builtins) whose method entries a value answers, or "" for a
// value without built-in methods.
func methodKind(v Value) string {
	switch v.k {
	case KindString:
		return "string"
	case KindList:
		return "list"
	case KindDict:
		return "dict"
	case KindSet:
		return "set"
	case KindRange:
		return "range"
	case KindIter:
		return "iter"
	case KindGenerator, KindStream:
		return "generator"
	case KindChannel:
		return "channel"
	case KindPair:
		return "Pair"
	case KindClosure, KindBuiltin:
		return "closure"
	case KindEnum:
		if v.r.(*EnumValue).Enum == "Result" {
			return "Result"
		}
	}
	return ""
}

// directKinds are the receiver kinds whose method results are handed
// back as they are: not charged as fresh allocations, not marked shared
// (a value received from a channel, a pair's element, a call's result).
var directKinds = map[string]bool{"generator": true, "channel": true, "Pair": true, "closure": true}

// methodFn implements one method entry of the builtin table. name is
// the name the program called (an alias of the entry, or the entry's
// own); recv has the entry's receiver kind.
type methodFn func(th *thread, recv Value, name string, args []Value) (Value, error)

// methodImpls returns the implementations of the table's method
// entries, by receiver kind and entry name (aliases are the table's
// business). A test checks both ways that the two agree, with
// unimplementedMethods.
func methodImpls() map[string]map[string]methodFn {
	return map[string]map[string]methodFn{
		"list": {
			"iter":       methodIter,
			"count":      listCount,
			"empty":      listEmpty,
			"map":        listMap,
			"filter":     listFilter,
			"reject":     listReject,
			"reduce":     listReduce,
			"find":       listFind,
			"find_index": listFindIndex,
			"any":        listAny,
			"all":        listAll,
			"none":       listNone,
			"flat_map":   listFlatMap,
			"for_each":   listForEach,
			"sort":       listSort,
			"sort_by":    listSortBy,
			"reverse":    listReverse,
			"join":       listJoin,
			"contains":   listContains,
			"index_of":   listIndexOf,
			"enumerate":  listEnumerate,
			"zip":        listZip,
			"slice":      listSlice,
			"unique":     listUnique,
			"take":       listTake,
			"skip":       listSkip,
			"sum":        listSum,
			"min":        listMin,
			"max":        listMin,
			"min_by":     listMinBy,
			"max_by":     listMinBy,
			"flatten":    listFlatten,
			"push":       listPush,
			"pop":        listPop,
			"first":      listFirst,
			"last":       listFirst,
			"partition":  listPartition,
			"group_by":   listGroupBy,
			"chunk":      listChunk,
			"window":     listWindow,
			"compact":    listCompact,
			"tally":      listTally,
			"to_list":    listToList,
			"to_set":     listToSet,
			"get":        listGet,
			"insert":     listInsert,
			"remove":     listRemove,
			"concat":     listConcat,
		},
		"string": {
			"iter":          methodIter,
			"count":         strCount,
			"empty":         strEmpty,
			"contains":      strContains,
			"replace":       strReplace,
			"split":         strSplit,
			"trim":          strTrim,
			"trim_start":    strTrimStart,
			"trim_end":      strTrimEnd,
			"starts_with":   strStartsWith,
			"ends_with":     strEndsWith,
			"lowercase":     strLowercase,
			"uppercase":     strUppercase,
			"substring":     strSubstring,
			"slice":         strSlice,
			"index_of":      strIndexOf,
			"last_index_of": strLastIndexOf,
			"chars":         strChars,
			"repeat":        strRepeat,
			"reverse":       strReverse,
			"pad_left":      strPadLeft,
			"pad_right":     strPadLeft,
			"lines":         strLines,
			"char_at":       strCharAt,
			"to_string":     strToString,
			"to_int":        strToInt,
			"to_float":      strToFloat,
			"capitalize":    strCapitalize,
			"words":         strWords,
			"bytes":         strBytes,
		},
		"dict": {
			"iter":       methodIter,
			"keys":       dictKeys,
			"values":     dictValues,
			"entries":    dictEntries,
			"count":      dictCount,
			"empty":      dictEmpty,
			"has":        dictHas,
			"merge":      dictMerge,
			"map_values": dictMapValues,
			"rekey":      dictRekey,
			"filter":     dictFilter,
			"remove":     dictRemove,
			"get":        dictGet,
			"set":        dictSet,
		},
		"set": {
			"iter":                 methodIter,
			"count":                setCount,
			"empty":                setEmpty,
			"contains":             setContains,
			"add":                  setAdd,
			"remove":               setRemove,
			"union":                setUnion,
			"intersect":            setIntersect,
			"difference":           setDifference,
			"symmetric_difference": setSymmetricDifference,
			"is_subset":            setIsSubset,
			"is_superset":          setIsSuperset,
			"is_disjoint":          setIsDisjoint,
			"to_list":              setToList,
			"map":                  setMap,
			"filter":               setMap,
			"any":                  setMap,
			"all":                  setMap,
		},
		"range": {
			"iter":      methodIter,
			"count":     rangeLen,
			"empty":     rangeEmpty,
			"contains":  rangeContains,
			"first":     rangeFirst,
			"last":      rangeFirst,
			"to_string": rangeToString,
			"to_list":   rangeToList,
		},
		"channel": {
			"iter":        methodIter,
			"send":        chanSend,
			"receive":     chanReceive,
			"try_receive": chanTryReceive,
			"close":       chanClose,
		},
		"iter": {
			"iter":       iterIter,
			"next":       iterNext,
			"map":        iterMap,
			"filter":     iterFilter,
			"flat_map":   iterFlatMap,
			"take":       iterTake,
			"skip":       iterSkip,
			"take_while": iterTakeWhile,
			"skip_while": iterSkipWhile,
			"zip":        iterZip,
			"enumerate":  iterEnumerate,
			"chain":      iterChain,
			"chunks":     iterChunks,
			"windows":    iterWindows,
			"to_list":    iterToList,
			"to_set":     iterToSet,
			"to_dict":    iterToDict,
			"count":      iterCount,
			"sum":        iterSum,
			"min":        iterMin,
			"max":        iterMin,
			"reduce":     iterReduce,
			"first":      iterFirst,
			"last":       iterLast,
			"any":        iterAny,
			"all":        iterAny,
			"find":       iterAny,
			"for_each":   iterForEach,
			"join":       iterJoin,
		},
		"generator": {
			"next": genNext,
			"iter": methodIter,
		},
		"Result": {
			"is_ok": resultEntry, "is_err": resultEntry, "unwrap": resultEntry, "expect": resultEntry,
			"unwrap_or": resultEntry, "unwrap_or_else": resultEntry, "unwrap_err": resultEntry,
			"map": resultEntry, "map_err": resultEntry, "and_then": resultEntry, "ok": resultEntry, "err": resultEntry,
		},
		"Pair": {
			"first": func(th *thread, recv Value, name string, args []Value) (Value, error) {
				return share(recv.r.(*Pair).First), nil
			},
			"second": func(th *thread, recv Value, name string, args []Value) (Value, error) {
				return share(recv.r.(*Pair).Second), nil
			},
		},
		"closure": {
			"call": func(th *thread, recv Value, name string, args []Value) (Value, error) {
				return th.callValue(recv, args)
			},
		},
	}
}

// unimplementedMethods are method entries of the table this runtime does
// not implement, each with the reason; calling one yields nil.
var unimplementedMethods = map[string]string{}

var (
	methodsOnce sync.Once
	// methodsByName resolves a kind and a called name (an alias too) to
	// its entry's implementation and the kind the receiver must be lifted
	// to ("" when none), built once from the table.
	methodsByName map[string]map[string]boundMethod
)

type boundMethod struct {
	fn   methodFn
	lift string
	// charged is set for methods that charge the memory budget with what
	// they allocate themselves (chargesItself), so their result is not
	// charged again as a fresh value of its whole size.
	charged bool
}

// chargesItself are the method entries, by receiver kind and entry name,
// that charge their own allocations: push shares its receiver's array
// and allocates only when it grows it, so charging its result's size
// would charge a loop of pushes the square of the list's length.
var chargesItself = map[string]map[string]bool{"list": {"push": true}}

func methodTable() map[string]map[string]boundMethod {
	methodsOnce.Do(func() {
		methodsByName = map[string]map[string]boundMethod{}
		impls := methodImpls()
		for kind := range impls {
			m := map[string]boundMethod{}
			for parent := kind; parent != ""; parent = builtins.Inherits(parent) {
				for _, e := range builtins.Methods(parent) {
					fn := impls[e.Receiver][e.Member]
					if fn == nil {
						continue
					}
					lift := ""
					if parent != kind {
						lift = parent
					}
					for _, n := range append([]string{e.Member}, e.Aliases...) {
						if _, taken := m[n]; !taken {
							m[n] = boundMethod{fn: fn, lift: lift, charged: chargesItself[e.Receiver][e.Member]}
						}
					}
				}
			}
			methodsByName[kind] = m
		}
	})
	return methodsByName
}

// kindMethod calls the method of the table's entry for kind named name
// (an alias too) on recv. A name the table does not list, or lists as
// unimplemented, yields nil; on a dict it calls a function stored under
// that key.
func (th *thread) kindMethod(kind string, recv Value, name string, args []Value) (Value, error) {
	m, ok := methodTable()[kind][name]
	if !ok {
		if kind == "dict" {
			if f, ok := recv.r.(*Dict).raw(name); ok && f.Callable() {
				return th.callValue(f, args)
			}
		}
		return Nil, nil
	}
	return th.runMethod(m, recv, name, args)
}

// runMethod runs the table method m on recv, lifted to the kind m
// belongs to.
func (th *thread) runMethod(m boundMethod, recv Value, name string, args []Value) (Value, error) {
	if m.lift == "iter" {
		it, err := th.toIter(recv)
		if err != nil {
			return Nil, err
		}
		recv = iterValue(it)
	}
	return m.fn(th, recv, name, args)
}

// methodIter is every iterable kind's iter(): a lazy iterator over it.
func methodIter(th *thread, recv Value, name string, args []Value) (Value, error) {
	it, err := th.toIter(recv)
	if err != nil {
		return Nil, err
	}
	return iterValue(it), nil
}

// genNext resumes a generator or stream.
func genNext(th *thread, recv Value, name string, args []Value) (Value, error) {
	x, ok, err := recv.r.(*Generator).resume(th)
	if err != nil {
		return Nil, err
	}
	return nextRecord(x, ok), nil
}

// resultEntry implements the Result methods, shared with the Result
// builtins (is_ok, unwrap, ...).
func resultEntry(th *thread, recv Value, name string, args []Value) (Value, error) {
	return resultMethod(recv, name, args, th)
}

// displayArg is the display form of argument i, or "" when absent.
func displayArg(args []Value, i int) string {
	if i < len(args) {
		return Display(args[i])
	}
	return ""
}

// setItemsOf is the elements of a set or list argument (nil otherwise).
func setItemsOf(v Value) []Value {
	switch v.k {
	case KindSet:
		return v.r.(*Set).items
	case KindList:
		return v.r.(*List).items
	}
	return nil
}

// otherSet is a set or list argument as a set.
func otherSet(v Value) *Set {
	if v.k == KindSet {
		return v.r.(*Set)
	}
	return NewSet(setItemsOf(v))
}

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

// implTable maps a type name and a method name to the method's closure.
type implTable map[string]map[string]*Closure

func (in *Interp) implMethod(typeName, name string) *Closure {
	if t := in.impls.Load(); t != nil {
		return (*t)[typeName][name]
	}
	return nil
}

// Callable reports whether v can be called: a closure or a builtin.
func (v Value) Callable() bool { return v.k == KindClosure || v.k == KindBuiltin }

func (th *thread) call1(fn, x Value) (Value, error) {
	if fn.k == KindClosure {
		return th.callClosure(fn.r.(*Closure), []Value{x})
	}
	return th.callValue(fn, []Value{x})
}

func shareAll(vs []Value) []Value {
	for _, v := range vs {
		share(v)
	}
	return vs
}

// IntArg is an int or float argument as an int, def for anything else.
func IntArg(v Value, def int64) int64 {
	switch v.k {
	case KindInt:
		return int64(v.n)
	case KindFloat:
		return int64(v.AsFloat())
	}
	return def
}

func clampInt(n, lo, hi int64) int64 { return max(lo, min(n, hi)) }

// Sum adds the numbers among items as sum() does: ints stay ints, a
// float makes the sum a float, other values are skipped.
func Sum(items []Value) Value {
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

func splitChars(s string) []string {
	out := make([]string, 0, len(s))
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

func listCount(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	return Int(int64(len(items))), nil
}

func listEmpty(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	return Bool(len(items) == 0), nil
}

func listMap(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if !fn.Callable() {
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
}

func listFilter(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if !fn.Callable() {
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
}

func listReject(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if !fn.Callable() {
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
}

func listReduce(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	if len(args) < 2 || !args[1].Callable() {
		if len(args) == 1 && args[0].Callable() && len(items) > 0 {
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
}

func listFind(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if fn.Callable() {
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
}

func listFindIndex(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if fn.Callable() {
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
}

func listAny(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if !fn.Callable() {
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
}

func listAll(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if !fn.Callable() {
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
}

func listNone(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if !fn.Callable() {
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
}

func listFlatMap(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if !fn.Callable() {
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
}

func listForEach(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if fn.Callable() {
		for _, x := range items {
			if _, err := th.call1(fn, share(x)); err != nil {
				return Nil, err
			}
		}
	}
	return Nil, nil
}

func listSort(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	out, err := th.sortValues(items, fn)
	if err != nil {
		return Nil, err
	}
	return NewListValue(out), nil
}

func listSortBy(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if !fn.Callable() {
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
}

func listReverse(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	out := make([]Value, len(items))
	for i, x := range items {
		out[len(items)-1-i] = share(x)
	}
	return NewListValue(out), nil
}

func listJoin(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	sep := ""
	if len(args) > 0 {
		sep = Display(args[0])
	}
	return th.join(items, sep)
}

func listContains(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	for _, x := range items {
		if Equal(x, fn) {
			return True, nil
		}
	}
	return False, nil
}

func listIndexOf(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	for i, x := range items {
		if Equal(x, fn) {
			return Int(int64(i)), nil
		}
	}
	return Int(-1), nil
}

func listEnumerate(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	out := make([]Value, len(items))
	for i, x := range items {
		d := NewDict(2)
		d.Set("index", Int(int64(i)))
		d.Set("value", share(x))
		out[i] = DictValue(d)
	}
	return NewListValue(out), nil
}

func listZip(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
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
}

func listSlice(th *thread, recv Value, name string, args []Value) (Value, error) {
	var lo, hi *int64
	if len(args) > 0 && args[0].k == KindInt {
		n := int64(args[0].n)
		lo = &n
	}
	if len(args) > 1 && args[1].k == KindInt {
		n := int64(args[1].n)
		hi = &n
	}
	return Slice(recv, lo, hi)
}

func listUnique(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
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
}

func listTake(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	n := clampInt(IntArg(fn, 0), 0, int64(len(items)))
	return NewListValue(shareAll(append([]Value(nil), items[:n]...))), nil
}

func listSkip(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	n := clampInt(IntArg(fn, 0), 0, int64(len(items)))
	return NewListValue(shareAll(append([]Value(nil), items[n:]...))), nil
}

func listSum(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	return Sum(items), nil
}

func listMin(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
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
}

func listMinBy(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if len(items) == 0 || !fn.Callable() {
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
}

func listFlatten(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	var out []Value
	for _, x := range items {
		if x.k == KindList {
			out = append(out, x.r.(*List).SharedItems()...)
		} else {
			out = append(out, share(x))
		}
	}
	return NewListValue(out), nil
}

// listPush charges the memory budget with the array it allocates, before
// allocating it, when the list outgrows its own (chargesItself).
func listPush(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	fn := Arg(args, 0)
	if n := l.pushCost(); n >= growCharge {
		if err := th.alloc(n); err != nil {
			return Nil, err
		}
	}
	return ListValue(l.Push(share(fn))), nil
}

func listPop(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	if len(items) == 0 {
		return NewListValue(nil), nil
	}
	return NewListValue(shareAll(append([]Value(nil), items[:len(items)-1]...))), nil
}

func listFirst(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
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
}

func listPartition(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if !fn.Callable() {
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
}

func listGroupBy(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	if !fn.Callable() {
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
}

func listChunk(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	size := max(IntArg(fn, 1), 1)
	var out []Value
	for i := int64(0); i < int64(len(items)); i += size {
		end := min(i+size, int64(len(items)))
		out = append(out, NewListValue(shareAll(append([]Value(nil), items[i:end]...))))
	}
	return NewListValue(out), nil
}

func listWindow(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	size := max(IntArg(fn, 2), 1)
	step := max(IntArg(Arg(args, 1), 1), 1)
	var out []Value
	for s := int64(0); s+size <= int64(len(items)); s += step {
		out = append(out, NewListValue(shareAll(append([]Value(nil), items[s:s+size]...))))
	}
	return NewListValue(out), nil
}

func listCompact(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	var out []Value
	for _, x := range items {
		if x.k != KindNil {
			out = append(out, share(x))
		}
	}
	return NewListValue(out), nil
}

func listTally(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	d := NewDict(0)
	for _, x := range items {
		k := Display(x)
		cur, _ := d.raw(k)
		d.Set(k, Int(cur.AsInt()+1))
	}
	return DictValue(d), nil
}

func listToList(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	return NewListValue(shareAll(append([]Value(nil), items...))), nil
}

func listToSet(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	return Value{k: KindSet, r: NewSet(items)}, nil
}

func listGet(th *thread, recv Value, name string, args []Value) (Value, error) {
	fn := Arg(args, 0)
	return indexValue(recv, fn)
}

func listInsert(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	i := clampInt(IntArg(fn, 0), 0, int64(len(items)))
	out := make([]Value, 0, len(items)+1)
	out = append(out, items[:i]...)
	out = append(out, share(Arg(args, 1)))
	out = append(out, items[i:]...)
	return NewListValue(shareAll(out)), nil
}

func listRemove(th *thread, recv Value, name string, args []Value) (Value, error) {
	l := recv.r.(*List)
	items := l.items
	fn := Arg(args, 0)
	i := IntArg(fn, -1)
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
}

func listConcat(th *thread, recv Value, name string, args []Value) (Value, error) {
	fn := Arg(args, 0)
	if fn.k == KindList {
		return Add(recv, fn)
	}
	return recv, nil
}

func strCount(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	return Int(int64(utf8.RuneCountInString(s))), nil
}

func strEmpty(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	return Bool(s == ""), nil
}

func strContains(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	str0 := displayArg(args, 0)
	return Bool(strings.Contains(s, str0)), nil
}

func strReplace(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	str0 := displayArg(args, 0)
	if len(args) < 2 {
		return Str(s), nil
	}
	return replaceAll(s, str0, Display(args[1]))
}

func strSplit(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	str0 := displayArg(args, 0)
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
}

func strTrim(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	return Str(strings.TrimSpace(s)), nil
}

func strTrimStart(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	return Str(strings.TrimLeftFunc(s, unicode.IsSpace)), nil
}

func strTrimEnd(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	return Str(strings.TrimRightFunc(s, unicode.IsSpace)), nil
}

func strStartsWith(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	str0 := displayArg(args, 0)
	return Bool(strings.HasPrefix(s, str0)), nil
}

func strEndsWith(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	str0 := displayArg(args, 0)
	return Bool(strings.HasSuffix(s, str0)), nil
}

func strLowercase(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	return Str(strings.ToLower(s)), nil
}

func strUppercase(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	return Str(strings.ToUpper(s)), nil
}

func strSubstring(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	a0 := Arg(args, 0)
	rs := []rune(s)
	n := int64(len(rs))
	start := clampInt(IntArg(a0, 0), 0, n)
	end := n
	if len(args) > 1 && args[1].k == KindInt {
		end = min(int64(args[1].n), n)
	}
	end = max(end, start)
	return Str(string(rs[start:end])), nil
}

func strSlice(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	a0 := Arg(args, 0)
	var lo, hi *int64
	if len(args) > 0 && a0.k == KindInt {
		n := int64(a0.n)
		lo = &n
	}
	if len(args) > 1 && args[1].k == KindInt {
		n := int64(args[1].n)
		hi = &n
	}
	return Slice(Str(s), lo, hi)
}

func strIndexOf(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	str0 := displayArg(args, 0)
	i := strings.Index(s, str0)
	if i < 0 {
		return Int(-1), nil
	}
	return Int(int64(utf8.RuneCountInString(s[:i]))), nil
}

func strLastIndexOf(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	str0 := displayArg(args, 0)
	i := strings.LastIndex(s, str0)
	if i < 0 {
		return Int(-1), nil
	}
	return Int(int64(utf8.RuneCountInString(s[:i]))), nil
}

func strChars(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	cs := splitChars(s)
	out := make([]Value, len(cs))
	for i, c := range cs {
		out[i] = Str(c)
	}
	return NewListValue(out), nil
}

func strRepeat(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	a0 := Arg(args, 0)
	return repeatString(s, IntArg(a0, 1))
}

func strReverse(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	rs := []rune(s)
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
	return Str(string(rs)), nil
}

func strPadLeft(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	a0 := Arg(args, 0)
	width := IntArg(a0, 0)
	pad := " "
	if len(args) > 1 {
		if p := Display(args[1]); p != "" {
			_, size := utf8.DecodeRuneInString(p)
			pad = p[:size]
		}
	}
	n := int64(utf8.RuneCountInString(s))
	if n >= width || width > MaxStringBytes {
		return Str(s), nil
	}
	padding := strings.Repeat(pad, int(width-n))
	if name == "pad_left" || name == "pad_start" {
		return Str(padding + s), nil
	}
	return Str(s + padding), nil
}

func strLines(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	ls := strings.Split(s, "\n")
	if len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	out := make([]Value, len(ls))
	for i, l := range ls {
		out[i] = Str(strings.TrimSuffix(l, "\r"))
	}
	return NewListValue(out), nil
}

func strCharAt(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	a0 := Arg(args, 0)
	i := IntArg(a0, 0)
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
}

func strToString(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	return Str(s), nil
}

func strToInt(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	return ToInt(Str(s)), nil
}

func strToFloat(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	return ToFloat(Str(s)), nil
}

func strCapitalize(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	if s == "" {
		return Str(s), nil
	}
	r, size := utf8.DecodeRuneInString(s)
	return Str(string(unicode.ToUpper(r)) + s[size:]), nil
}

func strWords(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	fs := strings.Fields(s)
	out := make([]Value, len(fs))
	for i, w := range fs {
		out[i] = Str(w)
	}
	return NewListValue(out), nil
}

func strBytes(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(string)
	return BytesValue([]byte(s)), nil
}

func dictKeys(th *thread, recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	ks := d.Keys()
	out := make([]Value, len(ks))
	for i, k := range ks {
		out[i] = Str(k)
	}
	return NewListValue(out), nil
}

func dictValues(th *thread, recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	ks := d.Keys()
	out := make([]Value, len(ks))
	for i, k := range ks {
		out[i] = share(d.m[k])
	}
	return NewListValue(out), nil
}

func dictEntries(th *thread, recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	ks := d.Keys()
	out := make([]Value, len(ks))
	for i, k := range ks {
		e := NewDict(2)
		e.Set("key", Str(k))
		e.Set("value", share(d.m[k]))
		out[i] = DictValue(e)
	}
	return NewListValue(out), nil
}

func dictCount(th *thread, recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	return Int(int64(d.Len())), nil
}

func dictEmpty(th *thread, recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	return Bool(d.Len() == 0), nil
}

func dictHas(th *thread, recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	a0 := Arg(args, 0)
	return Bool(d.Has(Display(a0))), nil
}

func dictMerge(th *thread, recv Value, name string, args []Value) (Value, error) {
	a0 := Arg(args, 0)
	if a0.k == KindDict {
		return Add(recv, a0)
	}
	return recv, nil
}

func dictMapValues(th *thread, recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	a0 := Arg(args, 0)
	if !a0.Callable() {
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
}

func dictRekey(th *thread, recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	a0 := Arg(args, 0)
	if !a0.Callable() {
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
}

func dictFilter(th *thread, recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	a0 := Arg(args, 0)
	if !a0.Callable() {
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
}

func dictRemove(th *thread, recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	a0 := Arg(args, 0)
	out := d.clone()
	out.Delete(Display(a0))
	return DictValue(out), nil
}

func dictGet(th *thread, recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	a0 := Arg(args, 0)
	if v, ok := d.Get(Display(a0)); ok {
		return v, nil
	}
	return Arg(args, 1), nil
}

func dictSet(th *thread, recv Value, name string, args []Value) (Value, error) {
	d := recv.r.(*Dict)
	a0 := Arg(args, 0)
	out := d.clone()
	out.Set(Display(a0), share(Arg(args, 1)))
	return DictValue(out), nil
}

func setCount(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	return Int(int64(s.Len())), nil
}

func setEmpty(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	return Bool(s.Len() == 0), nil
}

func setContains(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	a0 := Arg(args, 0)
	return Bool(s.Has(a0)), nil
}

func setAdd(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	a0 := Arg(args, 0)
	n := NewSet(s.items)
	n.add(a0)
	return Value{k: KindSet, r: n}, nil
}

func setRemove(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	a0 := Arg(args, 0)
	var keep []Value
	for _, x := range s.items {
		if !Equal(x, a0) {
			keep = append(keep, x)
		}
	}
	return Value{k: KindSet, r: NewSet(keep)}, nil
}

func setUnion(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	a0 := Arg(args, 0)
	n := NewSet(s.items)
	for _, x := range setItemsOf(a0) {
		n.add(x)
	}
	return Value{k: KindSet, r: n}, nil
}

func setIntersect(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	a0 := Arg(args, 0)
	o := otherSet(a0)
	var keep []Value
	for _, x := range s.items {
		if o.Has(x) {
			keep = append(keep, x)
		}
	}
	return Value{k: KindSet, r: NewSet(keep)}, nil
}

func setDifference(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	a0 := Arg(args, 0)
	o := otherSet(a0)
	var keep []Value
	for _, x := range s.items {
		if !o.Has(x) {
			keep = append(keep, x)
		}
	}
	return Value{k: KindSet, r: NewSet(keep)}, nil
}

func setSymmetricDifference(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	a0 := Arg(args, 0)
	o := otherSet(a0)
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
}

func setIsSubset(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	a0 := Arg(args, 0)
	o := otherSet(a0)
	for _, x := range s.items {
		if !o.Has(x) {
			return False, nil
		}
	}
	return True, nil
}

func setIsSuperset(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	a0 := Arg(args, 0)
	for _, x := range setItemsOf(a0) {
		if !s.Has(x) {
			return False, nil
		}
	}
	return True, nil
}

func setIsDisjoint(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	a0 := Arg(args, 0)
	for _, x := range setItemsOf(a0) {
		if s.Has(x) {
			return False, nil
		}
	}
	return True, nil
}

func setToList(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	return NewListValue(shareAll(append([]Value(nil), s.items...))), nil
}

func setMap(th *thread, recv Value, name string, args []Value) (Value, error) {
	s := recv.r.(*Set)
	r, err := th.kindMethod("list", NewListValue(s.items), name, args)
	if err != nil || r.k != KindList {
		return r, err
	}
	return Value{k: KindSet, r: NewSet(r.r.(*List).items)}, nil
}

func rangeLen(th *thread, recv Value, name string, args []Value) (Value, error) {
	r := recv.r.(*Range)
	return Int(r.Len()), nil
}

func rangeEmpty(th *thread, recv Value, name string, args []Value) (Value, error) {
	r := recv.r.(*Range)
	return Bool(r.Len() == 0), nil
}

func rangeContains(th *thread, recv Value, name string, args []Value) (Value, error) {
	ok, err := contains(recv, Arg(args, 0))
	return Bool(ok), err
}

func rangeFirst(th *thread, recv Value, name string, args []Value) (Value, error) {
	return getProperty(recv, name, true)
}

func rangeToString(th *thread, recv Value, name string, args []Value) (Value, error) {
	s, err := th.display(recv)
	return Str(s), err
}

func rangeToList(th *thread, recv Value, name string, args []Value) (Value, error) {
	items, err := spreadItems(recv)
	if err != nil {
		return Nil, err
	}
	return NewListValue(items), nil
}

func chanSend(th *thread, recv Value, name string, args []Value) (Value, error) {
	ch := recv.r.(*Channel)
	ok, err := ch.send(th, Arg(args, 0))
	return Bool(ok), err
}

func chanReceive(th *thread, recv Value, name string, args []Value) (Value, error) {
	ch := recv.r.(*Channel)
	v, _, err := ch.recv(th)
	return v, err
}

func chanTryReceive(th *thread, recv Value, name string, args []Value) (Value, error) {
	ch := recv.r.(*Channel)
	v, _, _, _ := ch.tryRecv()
	return v, nil
}

func chanClose(th *thread, recv Value, name string, args []Value) (Value, error) {
	ch := recv.r.(*Channel)
	ch.close()
	return Nil, nil
}
