package leia

import (
	"math"
	"unsafe"
)

// Kind is the dynamic type of a Value.
type Kind uint8

// The kinds of values. KindFunction and KindNative are both "function" to
// scripts; KindCoroutine is "thread" as in Lua.
const (
	KindNil Kind = iota
	KindBool
	KindInt
	KindFloat
	KindString
	KindTable
	KindFunction // a Leia closure (*Closure)
	KindNative   // a Go function (*Native)
	KindChannel  // *Channel
	KindCoroutine
	KindUserdata // a host value (*Userdata)
	kindCell     // internal: a captured local's box (*cell); never seen by scripts
)

var kindNames = [...]string{"nil", "boolean", "number", "number", "string", "table", "function", "function", "channel", "thread", "userdata", "cell"}

// String is the name type() returns for the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Value is one Leia value. It is a small struct passed by value: numbers
// and booleans live in n (an int64, the bits of a float64, or 0/1), and
// everything else behind p. Strings keep their bytes' address in p and
// their length in n, so making a Value from a Go string never allocates;
// numbers are never boxed in an interface. The zero Value is nil.
//
// Values are comparable with == only for identity purposes inside this
// package (table keys other than strings); use RawEqual or Equal for
// language equality.
type Value struct {
	p unsafe.Pointer
	n uint64
	k Kind
}

// Nil is the nil value.
var Nil = Value{}

// True and False are the two booleans.
var (
	True  = Value{k: KindBool, n: 1}
	False = Value{k: KindBool}
)

// Bool returns a boolean value.
func Bool(b bool) Value {
	if b {
		return True
	}
	return False
}

// Int returns an integer value.
func Int(i int64) Value { return Value{k: KindInt, n: uint64(i)} }

// Float returns a float value.
func Float(f float64) Value { return Value{k: KindFloat, n: math.Float64bits(f)} }

// String returns a string value; it shares s's bytes.
func String(s string) Value {
	return Value{k: KindString, p: unsafe.Pointer(unsafe.StringData(s)), n: uint64(len(s))}
}

// TableValue wraps a table; a nil table gives nil.
func TableValue(t *Table) Value {
	if t == nil {
		return Nil
	}
	return Value{k: KindTable, p: unsafe.Pointer(t)}
}

// NativeValue wraps a Go function.
func NativeValue(f *Native) Value {
	if f == nil {
		return Nil
	}
	return Value{k: KindNative, p: unsafe.Pointer(f)}
}

// NewNative wraps fn under name as a function value.
func NewNative(name string, fn NativeFunc) Value { return NativeValue(&Native{Name: name, Fn: fn}) }

func closureValue(c *Closure) Value { return Value{k: KindFunction, p: unsafe.Pointer(c)} }

// UserdataValue wraps a host value.
func UserdataValue(u *Userdata) Value {
	if u == nil {
		return Nil
	}
	return Value{k: KindUserdata, p: unsafe.Pointer(u)}
}

func channelValue(c *Channel) Value     { return Value{k: KindChannel, p: unsafe.Pointer(c)} }
func coroutineValue(c *Coroutine) Value { return Value{k: KindCoroutine, p: unsafe.Pointer(c)} }

// Kind returns the value's dynamic type.
func (v Value) Kind() Kind { return v.k }

// TypeName is what type(v) returns.
func (v Value) TypeName() string {
	if v.k == KindUserdata {
		if u := v.Userdata(); u.TypeName != "" {
			return u.TypeName
		}
	}
	return v.k.String()
}

// IsNil reports the nil value.
func (v Value) IsNil() bool { return v.k == KindNil }

// Truthy reports whether v counts as true: everything but nil and false.
func (v Value) Truthy() bool { return v.k > KindBool || (v.k == KindBool && v.n != 0) }

// IsNumber reports an integer or a float.
func (v Value) IsNumber() bool { return v.k == KindInt || v.k == KindFloat }

// IsFunction reports a Leia or Go function.
func (v Value) IsFunction() bool { return v.k == KindFunction || v.k == KindNative }

// AsBool returns the boolean (false for non-booleans).
func (v Value) AsBool() bool { return v.k == KindBool && v.n != 0 }

// AsInt returns the integer of an int value (0 otherwise).
func (v Value) AsInt() int64 { return int64(v.n) }

// AsFloat returns the number as a float64 (ints convert; others give 0).
func (v Value) AsFloat() float64 {
	switch v.k {
	case KindFloat:
		return math.Float64frombits(v.n)
	case KindInt:
		return float64(int64(v.n))
	}
	return 0
}

// AsString returns the bytes of a string value ("" otherwise). It does not
// allocate.
func (v Value) AsString() string {
	if v.k != KindString || v.n == 0 {
		return ""
	}
	return unsafe.String((*byte)(v.p), int(v.n))
}

// Table returns the table of a table value, or nil.
func (v Value) Table() *Table {
	if v.k != KindTable {
		return nil
	}
	return (*Table)(v.p)
}

// Native returns the Go function of a native value, or nil.
func (v Value) Native() *Native {
	if v.k != KindNative {
		return nil
	}
	return (*Native)(v.p)
}

// Userdata returns the host value of a userdata value, or nil.
func (v Value) Userdata() *Userdata {
	if v.k != KindUserdata {
		return nil
	}
	return (*Userdata)(v.p)
}

// Channel returns the channel of a channel value, or nil.
func (v Value) Channel() *Channel {
	if v.k != KindChannel {
		return nil
	}
	return (*Channel)(v.p)
}

func (v Value) closure() *Closure     { return (*Closure)(v.p) }
func (v Value) coroutine() *Coroutine { return (*Coroutine)(v.p) }
func (v Value) cell() *cell           { return (*cell)(v.p) }

// identity returns the pointer identity of a reference value.
func (v Value) identity() unsafe.Pointer { return v.p }

// RawEqual compares without metamethods: numbers by value (1 == 1.0),
// strings by content, everything else by identity.
func RawEqual(a, b Value) bool {
	if a.k == b.k {
		switch a.k {
		case KindNil:
			return true
		case KindBool, KindInt:
			return a.n == b.n
		case KindFloat:
			return math.Float64frombits(a.n) == math.Float64frombits(b.n)
		case KindString:
			return a.n == b.n && (a.p == b.p || a.AsString() == b.AsString())
		default:
			return a.p == b.p
		}
	}
	if a.k == KindInt && b.k == KindFloat {
		return float64(int64(a.n)) == b.AsFloat() && intFloatExact(int64(a.n), b.AsFloat())
	}
	if a.k == KindFloat && b.k == KindInt {
		return float64(int64(b.n)) == a.AsFloat() && intFloatExact(int64(b.n), a.AsFloat())
	}
	return false
}

// intFloatExact reports that f has no fraction and converts back to i
// exactly (so 2^63 as a float is not equal to any int).
func intFloatExact(i int64, f float64) bool {
	if f != math.Trunc(f) || f < -9.223372036854775808e18 || f >= 9.223372036854775808e18 {
		return false
	}
	return int64(f) == i
}

// NativeFunc is a Go function callable from Leia. args is valid only for
// the duration of the call (it may live on the interpreter's stack); copy
// what you keep. Return the results (nil for none) or an error, which
// becomes a Leia runtime error at the call site: use ScriptError to raise a
// Leia value unchanged. t.Ret1/Ret2 return results without allocating.
type NativeFunc func(t *Thread, args []Value) ([]Value, error)

// Native is a named Go function value.
type Native struct {
	Name string
	Fn   NativeFunc
}

// Userdata is a host value given to scripts. Meta, when set, is its
// metatable (fields through __index, __call, __tostring ...); TypeName
// overrides what type() reports ("userdata" by default).
type Userdata struct {
	Value    any
	Meta     *Table
	TypeName string
}

// cell boxes a local variable that a closure captures.
type cell struct{ v Value }

func cellValue(c *cell) Value { return Value{k: kindCell, p: unsafe.Pointer(c)} }
