package harn

import (
	"math"
)

// Kind is the dynamic type of a Value.
type Kind uint8

// Value kinds. The order is internal; TypeName gives the name programs see.
const (
	KindNil Kind = iota
	KindBool
	KindInt
	KindFloat
	KindString
	KindBytes
	KindDuration
	KindList
	KindDict
	KindSet
	KindRange
	KindPair
	KindClosure
	KindBuiltin
	KindEnum
	KindStruct
	KindIter
	KindGenerator
	KindStream
	KindTask
	KindChannel
	KindAtomic
	KindObject // a host object: harness handles, mock registries, ...
	kindCell   // internal: a boxed local (function declarations), never seen by programs
)

// Value is a Harn value. Scalars live in n (ints, float bits, bools,
// durations); everything else in r. The zero Value is nil. Values are
// immutable from the program's point of view: containers are shared and
// copied on write (see List and Dict).
type Value struct {
	k Kind
	n uint64
	r any
}

// Nil is the nil value.
var Nil = Value{}

// Constructors.

// Int makes an int.
func Int(i int64) Value { return Value{k: KindInt, n: uint64(i)} }

// Float makes a float.
func Float(f float64) Value { return Value{k: KindFloat, n: math.Float64bits(f)} }

// Bool makes a bool.
func Bool(b bool) Value {
	if b {
		return Value{k: KindBool, n: 1}
	}
	return Value{k: KindBool}
}

// True and False are the two bools.
var (
	True  = Bool(true)
	False = Bool(false)
)

// Str makes a string.
func Str(s string) Value { return Value{k: KindString, r: s} }

// Bytes makes a byte buffer (not copied).
func BytesValue(b []byte) Value { return Value{k: KindBytes, r: b} }

// DurationValue makes a duration in milliseconds.
func DurationValue(ms int64) Value { return Value{k: KindDuration, n: uint64(ms)} }

// ListValue wraps a list.
func ListValue(l *List) Value { return Value{k: KindList, r: l} }

// NewListValue makes a list owning items.
func NewListValue(items []Value) Value { return Value{k: KindList, r: &List{items: items}} }

// DictValue wraps a dict.
func DictValue(d *Dict) Value { return Value{k: KindDict, r: d} }

// Accessors. Each assumes the kind was checked.

// Kind is the value's kind.
func (v Value) Kind() Kind { return v.k }

// IsNil reports whether v is nil.
func (v Value) IsNil() bool { return v.k == KindNil }

// AsInt returns the int (or duration) payload.
func (v Value) AsInt() int64 { return int64(v.n) }

// AsFloat returns the float payload.
func (v Value) AsFloat() float64 { return math.Float64frombits(v.n) }

// AsBool returns the bool payload.
func (v Value) AsBool() bool { return v.n != 0 }

// AsString returns the string payload.
func (v Value) AsString() string { s, _ := v.r.(string); return s }

// AsBytes returns the bytes payload.
func (v Value) AsBytes() []byte { b, _ := v.r.([]byte); return b }

// StrValues is xs as string values.
func StrValues(xs []string) []Value {
	out := make([]Value, len(xs))
	for i, x := range xs {
		out[i] = Str(x)
	}
	return out
}

// BytesOf is v as bytes: a byte string's own bytes, any other value's
// display text.
func BytesOf(v Value) []byte {
	if v.k == KindBytes {
		return v.r.([]byte)
	}
	return []byte(Display(v))
}

// AsList returns the list payload.
func (v Value) AsList() *List { l, _ := v.r.(*List); return l }

// AsDict returns the dict payload.
func (v Value) AsDict() *Dict { d, _ := v.r.(*Dict); return d }

// AsSet returns the set payload.
func (v Value) AsSet() *Set { s, _ := v.r.(*Set); return s }

// AsStruct returns the struct payload.
func (v Value) AsStruct() *StructValue { s, _ := v.r.(*StructValue); return s }

// Number reports v as a float64 when it is an int or a float.
func (v Value) Number() (float64, bool) {
	switch v.k {
	case KindInt:
		return float64(int64(v.n)), true
	case KindFloat:
		return v.AsFloat(), true
	}
	return 0, false
}

// Truthy is Harn truthiness: false, nil, 0, 0.0, "", empty containers and
// empty bytes are falsy.
func (v Value) Truthy() bool {
	switch v.k {
	case KindNil:
		return false
	case KindBool, KindInt, KindDuration:
		return v.n != 0
	case KindFloat:
		return v.AsFloat() != 0
	case KindString:
		return v.r.(string) != ""
	case KindBytes:
		return len(v.r.([]byte)) != 0
	case KindList:
		return v.r.(*List).Len() != 0
	case KindDict:
		return v.r.(*Dict).Len() != 0
	case KindSet:
		return v.r.(*Set).Len() != 0
	}
	return true
}

// TypeName is the name type_of returns.
func (v Value) TypeName() string {
	switch v.k {
	case KindNil:
		return "nil"
	case KindBool:
		return "bool"
	case KindInt:
		return "int"
	case KindFloat:
		return "float"
	case KindString:
		return "string"
	case KindBytes:
		return "bytes"
	case KindDuration:
		return "duration"
	case KindList:
		return "list"
	case KindDict:
		return "dict"
	case KindSet:
		return "set"
	case KindRange:
		return "range"
	case KindPair:
		return "pair"
	case KindClosure:
		return "closure"
	case KindBuiltin:
		return "builtin"
	case KindEnum:
		return "enum"
	case KindStruct:
		return "struct"
	case KindIter:
		return "iter"
	case KindGenerator:
		return "generator"
	case KindStream:
		return "stream"
	case KindTask:
		return "task_handle"
	case KindChannel:
		return "channel"
	case KindAtomic:
		return "atomic"
	case KindObject:
		if o, ok := v.r.(*Object); ok && o.TypeName != "" {
			return o.TypeName
		}
		return "object"
	}
	return "unknown"
}

// share marks v's container shared, if it is one, and returns v. Every
// read that lets a container escape to a second owner goes through it, so
// that the next in-place update of either owner copies first (copy on
// write). Only one goroutine runs program code at a time (the run's Turn),
// so the flags need no synchronisation.
func share(v Value) Value {
	switch v.k {
	case KindList:
		v.r.(*List).shared = true
	case KindDict:
		v.r.(*Dict).shared = true
	case KindStruct:
		v.r.(*StructValue).shared = true
	}
	return v
}
