package harn

import (
	"context"
	"time"

	"github.com/harnlang/harn-check/grammar/harn/ast"
)

func (c *compiler) match(e *ast.Match) evalFn {
	val := c.expr(e.Value)
	s := c.here(e.Span)
	type arm struct {
		m     matchFn
		guard evalFn
		body  evalFn
		cells evalFn
	}
	arms := make([]arm, len(e.Arms))
	for i, a := range e.Arms {
		c.pushBlock()
		arms[i].m = c.matchPattern(a.Pattern)
		if a.Guard != nil {
			arms[i].guard = c.borrow(a.Guard)
		}
		arms[i].body = c.block(a.Body)
		c.popBlock()
	}
	return func(f *frame) (Value, error) {
		v, err := val(f)
		if err != nil {
			return Nil, err
		}
		for _, a := range arms {
			ok, err := a.m(f, v)
			if err != nil {
				return Nil, err
			}
			if !ok {
				continue
			}
			if a.guard != nil {
				g, err := a.guard(f)
				if err != nil {
					return Nil, err
				}
				if !g.Truthy() {
					continue
				}
			}
			return a.body(f)
		}
		return Nil, s.wrap(plainError("No match arm matched the value"))
	}
}

// catchable reports whether err may be handled by try/catch: program
// errors only, never control flow or the host's limits.
func catchable(err error) (*Error, bool) {
	e, ok := err.(*Error)
	return e, ok
}

func (c *compiler) tryExpr(e *ast.Try) evalFn {
	if e.Finally != nil {
		c.fn.protected++
	}
	if e.Catch != nil || e.Finally != nil {
		c.fn.protected++
	}
	body := c.block(e.Body)
	var handler evalFn
	var bindErr func(f *frame, v Value)
	var typeName string
	if e.Catch != nil {
		c.pushBlock()
		if e.Catch.Name != nil && e.Catch.Name.Name != "_" {
			bindErr = storeLocal(c.declare(e.Catch.Name.Name, true))
		}
		if nt, ok := e.Catch.Type.(*ast.NamedType); ok && nt.Name != nil {
			typeName = nt.Name.Name
		}
		handler = c.block(e.Catch.Body)
		c.popBlock()
	}
	var finally evalFn
	if e.Finally != nil {
		finally = c.block(e.Finally)
	}
	if e.Catch != nil || e.Finally != nil {
		c.fn.protected--
	}
	if e.Finally != nil {
		c.fn.protected--
	}
	resultForm := e.Catch == nil && e.Finally == nil
	return func(f *frame) (Value, error) {
		v, err := body(f)
		if err != nil {
			if ce, ok := catchable(err); ok {
				switch {
				case resultForm:
					v, err = resultErr(ce.Value), nil
				case handler != nil && matchesCatchType(ce, typeName):
					if bindErr != nil {
						bindErr(f, ce.Value)
					}
					v, err = handler(f)
				}
			}
		} else if resultForm {
			v = resultOk(v)
		}
		if finally != nil {
			saved := f.ret
			if _, ferr := finally(f); ferr != nil {
				return Nil, ferr
			}
			f.ret = saved
		}
		return v, err
	}
}

// matchesCatchType: an untyped catch takes every error; a typed one only
// values of that enum or struct type.
func matchesCatchType(e *Error, typeName string) bool {
	if typeName == "" {
		return true
	}
	switch e.Value.k {
	case KindEnum:
		return e.Value.r.(*EnumValue).Enum == typeName
	case KindStruct:
		return e.Value.r.(*StructValue).Type.name == typeName
	}
	switch typeName {
	case "string", "any", "unknown":
		return typeName != "string" || e.Value.k == KindString
	}
	return false
}

func resultOk(v Value) Value {
	if v.k == KindEnum && v.r.(*EnumValue).Enum == "Result" {
		return v
	}
	return Value{k: KindEnum, r: &EnumValue{Enum: "Result", Variant: "Ok", Fields: []Value{v}}}
}

func resultErr(v Value) Value {
	return Value{k: KindEnum, r: &EnumValue{Enum: "Result", Variant: "Err", Fields: []Value{v}}}
}

func (c *compiler) retry(e *ast.Retry) evalFn {
	count := c.borrow(e.Count)
	c.fn.protected++
	body := c.block(e.Body)
	c.fn.protected--
	s := c.here(e.Span)
	return func(f *frame) (Value, error) {
		n, err := count(f)
		if err != nil {
			return Nil, err
		}
		if n.k != KindInt {
			return Nil, s.wrap(typeError("retry count must be an int, got %s", n.TypeName()))
		}
		var last error
		for i := int64(0); i < int64(n.n); i++ {
			if err := f.th.tick(); err != nil {
				return Nil, err
			}
			v, err := body(f)
			if err == nil {
				return v, nil
			}
			if _, ok := catchable(err); !ok {
				return Nil, err
			}
			last = err
		}
		if last != nil {
			return Nil, last
		}
		return Nil, nil
	}
}

func (c *compiler) deadline(e *ast.Deadline) evalFn {
	dur := c.borrow(e.Duration)
	c.fn.protected++
	body := c.block(e.Body)
	c.fn.protected--
	s := c.here(e.Span)
	return func(f *frame) (Value, error) {
		d, err := dur(f)
		if err != nil {
			return Nil, err
		}
		ms, ok := DurationMillis(d)
		if !ok {
			return Nil, s.wrap(typeError("deadline needs a duration, got %s", d.TypeName()))
		}
		th := f.th
		saved := th.ctx
		ctx, cancel := context.WithTimeout(saved, time.Duration(ms)*time.Millisecond)
		th.ctx = ctx
		th.deadlines++
		v, err := body(f)
		th.deadlines--
		th.ctx = saved
		timedOut := ctx.Err() != nil && saved.Err() == nil
		cancel()
		if err != nil {
			if timedOut {
				// A host call that ran into the block's deadline; the
				// run's stops pass through uncaught.
				if err == context.DeadlineExceeded {
					return Nil, s.wrap(plainError("Deadline exceeded"))
				}
			}
			return Nil, err
		}
		return v, nil
	}
}

// DurationMillis reads a duration or an int number of milliseconds.
func DurationMillis(v Value) (int64, bool) {
	switch v.k {
	case KindInt, KindDuration:
		return int64(v.n), true
	case KindFloat:
		return int64(v.AsFloat()), true
	}
	return 0, false
}
