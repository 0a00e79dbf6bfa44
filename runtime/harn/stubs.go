package harn

import (
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

func (c *compiler) approval(e *ast.Approval) evalFn {
	s := c.here(e.Span)
	name := e.Primitive
	return func(*frame) (Value, error) {
		return Nil, s.wrap(plainError(unavailableMessage(name)))
	}
}
