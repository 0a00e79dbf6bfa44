package harn

import (
	"fmt"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/lang/harn/builtins"
)

// Table-driven argument unpacking, as starlark-go's UnpackArgs does: a
// builtin names its entry of lang/harn/builtins once, at registration
// (ArgsOf), and each call unpacks its arguments into Go variables by the
// parameters the table records for it, instead of a hand-written
// prologue. The table's parameter type chooses the check (a number for
// `int | float`, an int for `int`, a string for `string`, a function for
// `closure` or `fn(...)`), so the table and the runtime cannot disagree
// about what a parameter takes; the messages are the runtime's own
// ("sqrt: expected a number, got string", "stream.map: argument 2 must
// be a function, got int"), so a converted builtin behaves as before.

// ArgSpec is one builtin's parameter list, ready to unpack its calls.
type ArgSpec struct {
	name string
	once sync.Once
	// checks holds one check per parameter, from its table type.
	checks []paramCheck
	// refuse, when set, words the error of a string argument that does
	// not fit, in the family's own style (see refusing).
	refuse refusal
}

// refusal is the error of argument i of the builtin called fn, whose
// table parameter is named param, when it is not the string the table
// asks for: missing when the call passed fewer arguments.
type refusal func(fn string, i int, param string, got Value, missing bool) error

// refusing returns the spec with a family's own wording for a string
// argument that does not fit (upstream's families word them differently:
// "flow_remediation: argument `description` must be a string, got int"),
// the parameter's name taken from the table.
func (s *ArgSpec) refusing(r refusal) *ArgSpec {
	s.refuse = r
	return s
}

// paramCheck is what the table's type of one parameter asks of its
// argument.
type paramCheck struct {
	name           string
	kind           checkKind
	optional, rest bool
}

type checkKind uint8

const (
	checkAny      checkKind = iota // any value
	checkNumber                    // int | float (float too)
	checkInt                       // int
	checkString                    // string (or a union of string literals)
	checkCallable                  // closure, fn(...)
)

// specNames holds the name of every spec made, so that a test resolves
// them all (TestUnpackSpecsResolve) without calling their builtins.
var specNames sync.Map

// ArgsOf returns the unpacking spec of the table's builtin called name
// ("sqrt", "stream.map"). The entry is read at the spec's first use, so
// that registering builtins does not build the table; a missing entry
// is a programming error of the runtime and panics then.
func ArgsOf(name string) *ArgSpec {
	specNames.Store(name, struct{}{})
	return &ArgSpec{name: name}
}

// params returns the spec's checks, reading the table's entry the first
// time.
func (s *ArgSpec) params() []paramCheck {
	s.once.Do(func() {
		b := builtins.Lookup(s.name)
		if b == nil {
			panic("harn: " + s.name + " has no entry in lang/harn/builtins")
		}
		s.checks = make([]paramCheck, len(b.Params))
		for i, p := range b.Params {
			s.checks[i] = paramCheck{name: p.Name, kind: checkOf(p.TypeText), optional: p.Optional, rest: p.Rest}
		}
	})
	return s.checks
}

// checkOf reads the check a parameter's table type asks for.
func checkOf(typeText string) checkKind {
	t := strings.TrimSpace(typeText)
	switch {
	case t == "int | float" || t == "float | int" || t == "float":
		return checkNumber
	case t == "int":
		return checkInt
	case t == "string":
		return checkString
	case t == "closure" || strings.HasPrefix(t, "fn("):
		return checkCallable
	case strings.HasPrefix(t, `"`):
		for _, m := range strings.Split(t, "|") {
			if m = strings.TrimSpace(m); !strings.HasPrefix(m, `"`) {
				return checkAny
			}
		}
		return checkString
	}
	return checkAny
}

// textDst and bytesDst are destinations that take any value the lenient
// way many of Harn's builtins do: its display string, or its bytes (a
// bytes value as is, anything else its display string's).
type (
	textDst  struct{ p *string }
	bytesDst struct{ p *[]byte }
)

// AsText makes p a lenient text destination: the argument's display
// form, whatever the table's type of the parameter.
func AsText(p *string) textDst { return textDst{p} }

// AsBytes makes p a lenient bytes destination (see BytesOf).
func AsBytes(p *[]byte) bytesDst { return bytesDst{p} }

// Unpack reads args into dst, one destination per parameter in order
// (fewer destinations than parameters leave the rest unread):
//
//   - *float64: a number, for an `int | float` or `float` parameter
//     ("NAME: expected a number, got T");
//   - *int64: an int (a float truncated, a duration's nanoseconds), for
//     an `int` parameter ("NAME: argument N must be an int, got T");
//   - *string: a string, for a `string` parameter ("NAME: argument N
//     must be a string, got T", or the family's wording: refusing);
//   - *Value: a function for a `closure` or `fn(...)` parameter ("NAME:
//     argument N must be a function, got T"), else the value as passed;
//   - **Iter: anything iterable lifted to an iterator ("NAME: missing
//     argument N" when absent);
//   - AsText(&s), AsBytes(&b): any value, by its display form;
//   - *[]Value: the rest of the arguments, for a rest parameter.
//
// A missing argument for an optional parameter leaves its destination
// unchanged (set the default before unpacking), and so does a nil one
// for a checked destination (number, int, string, function), which
// would refuse it. A destination that does not fit the table's type of
// its parameter is a programming error of the runtime and panics.
func (s *ArgSpec) Unpack(c *Call, args []Value, dst ...any) error {
	params := s.params()
	if len(dst) > len(params) {
		panic(fmt.Sprintf("harn: %s unpacks %d arguments, the table records %d parameters", s.name, len(dst), len(params)))
	}
	for i, d := range dst {
		p := params[i]
		if rest, ok := d.(*[]Value); ok {
			if !p.rest {
				panic(s.mismatch(i))
			}
			if i < len(args) {
				*rest = args[i:]
			} else {
				*rest = nil
			}
			continue
		}
		if p.optional && i >= len(args) {
			continue
		}
		v := Arg(args, i)
		checked := p.kind != checkAny
		if p.optional && checked && v.k == KindNil {
			continue
		}
		var err error
		switch d := d.(type) {
		case *float64:
			if p.kind != checkNumber {
				panic(s.mismatch(i))
			}
			*d, err = argNumber(c, args, i)
		case *int64:
			if p.kind != checkInt {
				panic(s.mismatch(i))
			}
			*d, err = argInt(c, args, i)
		case *string:
			if p.kind != checkString {
				panic(s.mismatch(i))
			}
			if s.refuse != nil && v.k != KindString {
				return s.refuse(s.name, i, p.name, v, i >= len(args))
			}
			*d, err = argString(c, args, i)
		case *Value:
			if p.kind == checkCallable {
				*d, err = argCallable(c, args, i)
			} else {
				*d = v
			}
		case **Iter:
			*d, err = streamArg(c, args, i)
		case textDst:
			*d.p = Display(v)
		case bytesDst:
			*d.p = BytesOf(v)
		default:
			panic(s.mismatch(i))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// paramName returns the table's name of parameter i (the name a
// family's own checks put in their messages).
func (s *ArgSpec) paramName(i int) string { return s.params()[i].name }

// mismatch is the panic of a destination that does not fit its
// parameter (it names no Go type, so that destinations stay on the
// caller's stack).
func (s *ArgSpec) mismatch(i int) string {
	return fmt.Sprintf("harn: %s: destination %d does not fit the table's parameter", s.name, i+1)
}

// WithText adapts a builtin whose first parameter is taken by its display
// form, the lenient way (a path, a text to parse): fn receives it unpacked
// by the table's entry of name, and the arguments as passed for the rest.
func WithText(name string, fn func(c *Call, s string, args []Value) (Value, error)) func(*Call, []Value) (Value, error) {
	spec := ArgsOf(name)
	return func(c *Call, args []Value) (Value, error) {
		var s string
		if err := spec.Unpack(c, args, AsText(&s)); err != nil {
			return Nil, err
		}
		return fn(c, s, args)
	}
}

// WithBytes is WithText for a builtin whose first parameter is taken as
// bytes (a bytes value as is, anything else its display string's).
func WithBytes(name string, fn func(c *Call, b []byte, args []Value) (Value, error)) func(*Call, []Value) (Value, error) {
	spec := ArgsOf(name)
	return func(c *Call, args []Value) (Value, error) {
		var b []byte
		if err := spec.Unpack(c, args, AsBytes(&b)); err != nil {
			return Nil, err
		}
		return fn(c, b, args)
	}
}
