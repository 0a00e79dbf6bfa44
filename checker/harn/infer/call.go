package infer

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/builtins"
	"github.com/harnlang/harn-check/lang/harn/types"
)

func (c *checker) args(sc *scope, args []ast.Expr) []types.Type {
	out := make([]types.Type, len(args))
	for i, a := range args {
		t := c.expr(sc, a)
		if _, ok := a.(*ast.Spread); ok {
			t = nil
		}
		out[i] = t
	}
	return out
}

func (c *checker) call(sc *scope, e *ast.Call) types.Type {
	switch f := unparen(e.Func).(type) {
	case *ast.Member:
		return c.methodCall(sc, e, f)
	case *ast.Ident:
		return c.funcCall(sc, e, f)
	default:
		ft := c.expr(sc, e.Func)
		c.args(sc, e.Args)
		if ix, ok := unparen(e.Func).(*ast.Index); ok && !isLlm(c.facts.TypeOf(ix.X)) && types.IsGradual(types.StripNil(ft)) && c.exprHoldsLlm(sc, ix.X, 0) {
			c.facts.HiddenCalls = append(c.facts.HiddenCalls, analysis.HiddenCall{Span: e.Span,
				Reason: "a computed property of a value holding harness.llm is called; a dynamically computed property call declares no site"})
		}
		return types.AnyType
	}
}

func (c *checker) funcCall(sc *scope, e *ast.Call, id *ast.Ident) types.Type {
	v := sc.lookup(id.Name)
	ft := c.ident(sc, id, true)
	c.facts.Types[e.Func] = ft
	args := c.args(sc, e.Args)
	if v == nil {
		if b := builtins.Lookup(id.Name); b != nil {
			sig := b.Signature()
			c.facts.Calls = append(c.facts.Calls, analysis.Call{Node: e, Name: id.Name, Sig: sig, Args: args, Builtin: true})
			return sig.Result
		}
		return types.AnyType
	}
	if v.kind == kindType {
		return v.typ
	}
	sig, ok := types.Unalias(ft).(*types.Func)
	if !ok {
		return types.AnyType
	}
	c.helperCalls = append(c.helperCalls, helperCall{sc: sc, call: e, name: id.Name, sig: sig, fn: v.fn})
	switch {
	case v.fn != nil:
		c.passLlm(sc, v.fn.decl, e.Args, args)
		c.genericCall(e, v.fn.decl, args)
		span := v.decl
		c.facts.Calls = append(c.facts.Calls, analysis.Call{Node: e, Name: id.Name, Sig: sig, Args: args, DeclSpan: &span})
	case v.kind == kindImport:
		_, std := stdlib.Predicate().Functions[id.Name]
		c.facts.Calls = append(c.facts.Calls, analysis.Call{Node: e, Name: id.Name, Sig: sig, Args: args, Builtin: std && !v.imported})
	}
	return sig.Result
}

func (c *checker) methodCall(sc *scope, e *ast.Call, m *ast.Member) types.Type {
	xt := c.expr(sc, m.X)
	if m.Name == nil {
		c.args(sc, e.Args)
		return types.AnyType
	}
	name := m.Name.Name
	if id, ok := unparen(m.X).(*ast.Ident); ok && sc.lookup(id.Name) == nil && builtins.IsNamespace(id.Name) {
		// A member of a builtin namespace: `stream.map(xs, f)`.
		args := c.args(sc, e.Args)
		full := id.Name + "." + name
		if b := builtins.Lookup(full); b != nil {
			sig := b.Signature()
			c.facts.Types[e.Func] = sig
			c.facts.Calls = append(c.facts.Calls, analysis.Call{Node: e, Name: full, Sig: sig, Args: args, Builtin: true})
			return sig.Result
		}
		if !c.facts.Degraded {
			callee := &ast.Ident{Span: ast.Span{Start: id.Span.Start, End: m.Name.Span.End}, Name: full}
			c.facts.Unresolved = append(c.facts.Unresolved, analysis.Unresolved{Ident: callee, Call: true, Suggest: c.suggestMember(id.Name, name)})
		}
		return types.AnyType
	}
	if et, ok := c.enumMember(sc, m.X, name); ok {
		c.args(sc, e.Args)
		return et
	}
	if isEvalMethod(name) {
		if isLlm(xt) {
			return c.site(sc, e, m, "")
		}
		if types.IsGradual(types.StripNil(xt)) || isBareDict(xt) {
			if looksLikeLlm(m.X) {
				return c.site(sc, e, m, "the receiver's static type is "+types.Describe(xt)+", not HarnessLlm")
			}
			if c.exprHoldsLlm(sc, m.X, 0) {
				return c.site(sc, e, m, "the receiver holds harness.llm, but its static type is "+types.Describe(xt)+", not HarnessLlm")
			}
			if name != stdlib.MethodEvaluate || len(e.Args) >= 3 {
				// Shaped like an evaluation on a receiver that may be the
				// capability: nothing proves it is not a hidden site.
				return c.site(sc, e, m, "the receiver's static type is "+types.Describe(xt)+", so nothing proves this "+name+" call is not an evaluation on harness.llm")
			}
		}
	}
	args := c.args(sc, e.Args)
	recv := types.StripNil(xt)
	if cp, ok := types.Unalias(recv).(*types.Capability); ok {
		if mt, ok := cp.Member(name); ok {
			if sig, ok := mt.(*types.Func); ok {
				c.facts.Calls = append(c.facts.Calls, analysis.Call{Node: e, Name: cp.Name + "." + name, Sig: sig, Args: args, Builtin: true})
				return sig.Result
			}
		}
		if kind, _ := receiverKind(recv); kind == "" {
			return types.AnyType
		}
	}
	// A record field holding a function.
	if ft, p := types.FieldOf(recv, name, false); p == types.FieldAll {
		if sig, ok := types.Unalias(ft).(*types.Func); ok {
			return sig.Result
		}
	}
	return c.builtinMethod(e, recv, name, args)
}

func isBareDict(t types.Type) bool {
	d, ok := types.Unalias(types.StripNil(t)).(*types.Dict)
	return ok && d.Bare
}

// looksLikeLlm reports whether a receiver expression names the LLM
// capability (`harness.llm`, `x.llm`, a variable named llm), so that a call
// of an evaluation method on it is meant as a site even though its static
// type was erased. Other erased receivers are ordinary untyped data.
func looksLikeLlm(x ast.Expr) bool {
	switch x := unparen(x).(type) {
	case *ast.Ident:
		return x.Name == "llm"
	case *ast.Member:
		return x.Name != nil && x.Name.Name == "llm"
	}
	return false
}
