package harn

import (
	"path/filepath"

	"github.com/harnlang/harn-check/grammar/harn/ast"
)

type fnKind uint8

const (
	plainFn     fnKind = iota
	generatorFn        // a plain fn containing yield
	streamFn           // gen fn (emit)
)

// funcProto is a compiled function: parameters, slot count, body and the
// captures it copies from its creator's frame.
type funcProto struct {
	name   string
	mod    *module
	span   ast.Span
	params []param
	nslots int
	body   evalFn
	// stmts and ret are body for a call site to run (closureCall): the
	// statements in order, then ret, whose value is the call's when the
	// statements end normally. ret is the value of the `return E` that
	// ends a body of plain statements, or else body itself (stmts empty).
	stmts []evalFn
	ret   evalFn
	caps  []capture
	kind  fnKind
	// simple: no defaults, rest or runtime parameter checks.
	simple bool
	// method: the first parameter is self.
	method bool
}

type param struct {
	name string
	slot int
	def  evalFn
	rest bool
	typ  *rtType
}

// capture copies a value from the creating frame's slot into the new
// frame's slot on each call (Harn closures capture by value).
type capture struct{ from, to int }

// Closure is a function value: a prototype and the values it captured.
type Closure struct {
	proto *funcProto
	caps  []Value
	// self is the bound receiver of a method taken as a value.
	self   Value
	hasSel bool
}

// Name is the function's name ("" for anonymous closures).
func (c *Closure) Name() string { return c.proto.name }

func (p *funcProto) paramNames() []string {
	out := make([]string, len(p.params))
	for i, q := range p.params {
		out[i] = q.name
		if q.rest {
			out[i] = "..." + q.name
		}
	}
	return out
}

// makeClosure captures the creating frame's values.
func (p *funcProto) makeClosure(f *frame) *Closure {
	cl := &Closure{proto: p}
	if len(p.caps) > 0 {
		cl.caps = make([]Value, len(p.caps))
		for i, c := range p.caps {
			cl.caps[i] = share(f.slots[c.from])
		}
	}
	return cl
}

// bind fills a new frame: captures, then parameters (defaults evaluated
// in the new frame, so they may use earlier parameters).
func (p *funcProto) bind(f *frame, cl *Closure, args []Value) error {
	for i, c := range p.caps {
		f.slots[c.to] = cl.caps[i]
	}
	if cl.hasSel {
		args = append([]Value{cl.self}, args...)
	}
	if p.simple {
		n := min(len(args), len(p.params))
		for i := 0; i < n; i++ {
			f.slots[p.params[i].slot] = args[i]
		}
		return nil
	}
	for i, q := range p.params {
		if q.rest {
			var rest []Value
			if i < len(args) {
				rest = append(rest, args[i:]...)
			}
			f.slots[q.slot] = NewListValue(rest)
			break
		}
		var v Value
		if i < len(args) {
			v = args[i]
		}
		if v.k == KindNil && q.def != nil && i >= len(args) {
			d, err := q.def(f)
			if err != nil {
				return err
			}
			v = d
		}
		if q.typ != nil && !(v.k == KindNil && i >= len(args) && q.def == nil) {
			if err := q.typ.check(v, q.name); err != nil {
				if fe, ok := err.(*fieldError); ok {
					return typeError("parameter '%s': %s", fe.path, fe.msg)
				}
				msg := err.Error()
				switch v.k {
				case KindInt, KindFloat, KindBool, KindString:
					msg += " (" + Display(v) + ")"
				}
				return typeError("parameter '%s' %s", q.name, msg)
			}
		}
		f.slots[q.slot] = v
	}
	return nil
}

func (p *funcProto) displayName() string {
	if p.name == "" {
		return "closure"
	}
	return p.name
}

func cleanPath(p string) string { return filepath.Clean(p) }
