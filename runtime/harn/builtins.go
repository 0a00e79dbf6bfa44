package harn

import (
	"math"
	"reflect"

	"github.com/harnlang/harn-check/lang/harn/builtins"
)

// Builtin is a function implemented in Go. Fn receives the call (to reach
// the interpreter, host and callbacks) and the evaluated arguments. The
// argument slice is the caller's (often the thread's value stack, cleared
// when Fn returns): Fn must copy what it keeps of it.
type Builtin struct {
	Name string
	Fn   func(c *Call, args []Value) (Value, error)
	// leaf is set for builtins that neither keep their Call past their
	// return nor run program code (Library.Leaf): their calls reuse the
	// thread's Call instead of allocating one each.
	leaf bool
}

// bound returns a copy whose calls carry self as the receiver.
func (b *Builtin) bound(self Value) *Builtin {
	fn := b.Fn
	return &Builtin{Name: b.Name, Fn: func(c *Call, args []Value) (Value, error) {
		c.Self = self
		return fn(c, args)
	}}
}

// BuiltinValue wraps a Go function as a program value.
func BuiltinValue(name string, fn func(c *Call, args []Value) (Value, error)) Value {
	return Value{k: KindBuiltin, r: &Builtin{Name: name, Fn: fn}}
}

func (in *Interp) builtin(name string) (*Builtin, bool) {
	b, ok := in.lib.builtins[name]
	return b, ok
}

// globalValue resolves a name that no program declaration binds: the
// built-in objects (Result, harness) and builtins used as values.
func (in *Interp) globalValue(name string) (Value, bool) {
	switch name {
	case "Result":
		return resultType.value, true
	case "harness":
		return in.Harness(), true
	case "skills":
		return in.fsSkills().registry, true
	case "pi":
		return Float(math.Pi), true
	case "e":
		return Float(math.E), true
	case "argv":
		args := make([]Value, len(in.opts.Args))
		for i, a := range in.opts.Args {
			args[i] = Str(a)
		}
		return NewListValue(args), true
	}
	if b, ok := in.builtin(name); ok {
		return Value{k: KindBuiltin, r: b}, true
	}
	return Nil, false
}

// unavailableMessage is the error for calling a name that is neither
// declared nor implemented: a builtin of Harn's table this runtime lacks
// says why (the unimplemented list); any other name is undefined.
func unavailableMessage(name string) string {
	if builtins.Lookup(name) == nil {
		return "Undefined builtin: " + name
	}
	if why := unimplemented[name]; why != "" {
		return "not available in this runtime: " + name + " " + why
	}
	return "not available in this runtime: " + name
}

// identity is a value's heap identity, for hashing reference values.
func identity(v Value) uintptr {
	if v.r == nil {
		return 0
	}
	rv := reflect.ValueOf(v.r)
	if rv.Kind() == reflect.Pointer {
		return rv.Pointer()
	}
	return 0
}

// argument helpers for builtins.

// Arg is the builtin argument at i, or nil when the call passed fewer.
func Arg(args []Value, i int) Value {
	if i < len(args) {
		return args[i]
	}
	return Nil
}

func argString(c *Call, args []Value, i int) (string, error) {
	v := Arg(args, i)
	if v.k != KindString {
		return "", typeError("%s: argument %d must be a string, got %s", c.Name, i+1, v.TypeName())
	}
	return v.r.(string), nil
}

func argInt(c *Call, args []Value, i int) (int64, error) {
	v := Arg(args, i)
	switch v.k {
	case KindInt, KindDuration:
		return int64(v.n), nil
	case KindFloat:
		return int64(v.AsFloat()), nil
	}
	return 0, typeError("%s: argument %d must be an int, got %s", c.Name, i+1, v.TypeName())
}

// argNumber reads argument i as a number (an int or a float).
func argNumber(c *Call, args []Value, i int) (float64, error) {
	f, ok := Arg(args, i).Number()
	if !ok {
		return 0, typeError("%s: expected a number, got %s", c.Name, Arg(args, i).TypeName())
	}
	return f, nil
}

func argCallable(c *Call, args []Value, i int) (Value, error) {
	v := Arg(args, i)
	switch v.k {
	case KindClosure, KindBuiltin:
		return v, nil
	}
	return Nil, typeError("%s: argument %d must be a function, got %s", c.Name, i+1, v.TypeName())
}
