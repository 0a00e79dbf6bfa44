package leia

import (
	"fmt"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/lang/leia/stdlib"
)

// Table-driven argument unpacking, as starlark-go's UnpackArgs does: a
// builtin names its entry of lang/leia/stdlib once, at registration, and
// each call unpacks its arguments into Go variables by the parameters the
// table records for it, instead of a hand-written prologue of Check and
// Opt calls. The checks and their messages are those of the Check
// helpers ("bad argument #2 to 'rep' (number expected, got table)"), so
// a converted builtin behaves as before, and the table and the runtime
// cannot disagree about a parameter's type.

// argSpec is one builtin's parameter list, ready to unpack its calls.
type argSpec struct {
	// fname names the builtin in messages: the member's own name, as
	// Lua's messages do ("rep", not "string.rep").
	fname string
	sig   *specSig
}

// specSig is the table's entry for a spec, read at its first use:
// reading any entry builds lang/leia/stdlib's whole table, which a
// process that never calls such a builtin (every Harn run, a Leia hello
// world) should not pay for at start-up.
type specSig struct {
	path   string
	once   sync.Once
	params []stdlib.Param
}

// specOf returns the parameters of the table's entry at path
// ("string.rep"). A missing entry, or one without recorded parameters,
// is a programming error of the runtime and panics at the spec's first
// use.
//
// A path's spec is made once per process and shared by every
// interpreter (it is not changed after it is made; named copies it), so
// installing the library in each new interpreter reads the table no
// more than the first did.
func specOf(path string) *argSpec {
	if s, ok := specs.Load(path); ok {
		return s.(*argSpec)
	}
	short := path
	if _, m, ok := strings.Cut(path, "."); ok {
		short = m
	}
	s, _ := specs.LoadOrStore(path, &argSpec{fname: short, sig: &specSig{path: path}})
	return s.(*argSpec)
}

// specs holds the spec of every path specOf was asked for, which also
// lets a test resolve them all (TestSpecsResolve): a path the table
// lacks is found without calling its builtin.
var specs sync.Map

// params returns the spec's parameters, reading the table's entry the
// first time.
func (s *argSpec) params() []stdlib.Param {
	g := s.sig
	g.once.Do(func() {
		e := stdlib.LookupPath(g.path)
		if e == nil || e.Kind != stdlib.Function || e.Unknown {
			panic(fmt.Sprintf("leia: %s has no signature in lang/leia/stdlib", g.path))
		}
		g.params = e.Params
	})
	return g.params
}

// named returns the spec with another name in messages (string.find and
// string.match share an implementation, each with its own name).
func (s *argSpec) named(fname string) *argSpec {
	c := *s
	c.fname = fname
	return &c
}

// unpack reads args into dst, one destination per parameter in order
// (fewer destinations than parameters leave the rest unread):
//
//   - *string: a string, or a number converted (CheckString);
//   - *int64: an integer, or a number or numeric string with an integer
//     value (CheckInt);
//   - *float64: a number or numeric string (CheckFloat);
//   - **Table: a table (CheckTable);
//   - *Value: a function for a function parameter (CheckFunction), a
//     number for a number parameter (CheckNumber), else the value as
//     passed;
//   - *bool: the argument's truthiness;
//   - *[]Value: the rest of the arguments, for a variadic parameter.
//
// A nil or missing argument for an optional parameter leaves its
// destination unchanged: set the default before unpacking. The first
// argument that does not fit stops the unpacking with the Check helpers'
// error.
func (s *argSpec) unpack(args []Value, dst ...any) error {
	params := s.params()
	if len(dst) > len(params) {
		panic(fmt.Sprintf("leia: %s unpacks %d arguments, the table records %d parameters", s.fname, len(dst), len(params)))
	}
	for i, d := range dst {
		p := params[i]
		if rest, ok := d.(*[]Value); ok {
			if i < len(args) {
				*rest = args[i:]
			} else {
				*rest = nil
			}
			continue
		}
		if p.Optional && Arg(args, i).k == KindNil {
			continue
		}
		var err error
		switch d := d.(type) {
		case *string:
			*d, err = CheckString(args, i, s.fname)
		case *int64:
			*d, err = CheckInt(args, i, s.fname)
		case *float64:
			*d, err = CheckFloat(args, i, s.fname)
		case **Table:
			*d, err = CheckTable(args, i, s.fname)
		case *bool:
			*d = Arg(args, i).Truthy()
		case *Value:
			switch strings.TrimSuffix(p.Type, "?") {
			case "function":
				*d, err = CheckFunction(args, i, s.fname)
			case "number":
				*d, err = CheckNumber(args, i, s.fname)
			default:
				*d = Arg(args, i)
			}
		default:
			panic(fmt.Sprintf("leia: %s: cannot unpack into %T", s.fname, d))
		}
		if err != nil {
			return err
		}
	}
	return nil
}
