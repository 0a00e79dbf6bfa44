package harn

import (
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// approval compiles the human-in-the-loop forms the grammar parses apart
// (ask_user, request_approval, dual_control, ...) into a call of the
// builtin of the same name: positional arguments in order, named ones
// gathered into a trailing options dict. A form without a builtin is
// "not available in this runtime".
func (c *compiler) approval(e *ast.Approval) evalFn {
	s := c.here(e.Span)
	name := e.Primitive
	var pos []evalFn
	var names []string
	var named []evalFn
	for _, a := range e.Args {
		if _, spread := a.Value.(*ast.Spread); spread {
			return func(*frame) (Value, error) {
				return Nil, s.wrap(typeError("%s: spread arguments are not supported", name))
			}
		}
		if a.Name != nil {
			names = append(names, a.Name.Name)
			named = append(named, c.expr(a.Value))
		} else {
			pos = append(pos, c.expr(a.Value))
		}
	}
	return func(f *frame) (Value, error) {
		b, ok := f.th.in.builtin(name)
		if !ok {
			return Nil, s.wrap(plainError(unavailableMessage(name)))
		}
		args := make([]Value, 0, len(pos)+1)
		for _, p := range pos {
			v, err := p(f)
			if err != nil {
				return Nil, err
			}
			args = append(args, v)
		}
		if len(named) > 0 {
			d := NewDict(len(named))
			for i, n := range named {
				v, err := n(f)
				if err != nil {
					return Nil, err
				}
				d.Set(names[i], v)
			}
			args = append(args, DictValue(d))
		}
		v, err := f.th.callValue(Value{k: KindBuiltin, r: b}, args)
		if err != nil {
			return Nil, s.wrap(err)
		}
		return v, nil
	}
}
