package infer

import (
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
)

// The flow of the LLM capability. An evaluation call declares a site only
// when the checker sees it written on a receiver whose static type is
// HarnessLlm. To keep erased receivers from hiding sites, the checker
// remembers which bindings may hold harness.llm (assigned it, or a
// container or record holding it, whatever their declared type) and which
// parameters of the module's functions receive it at some call; an
// evaluation method called on such a value whose static type was erased
// is reported as a hidden site, as is any computed property of the
// capability (`harness.llm[name](...)`). A parameter is known to receive
// the capability only from calls checked before its body; an evaluation
// method called on any erased receiver is reported anyway (nothing proves
// it is not the capability), this flow only names the cause.

// holdsLlmType reports whether a value of type t may carry the LLM
// capability: HarnessLlm or Harness, or a container or record with one.
func holdsLlmType(t types.Type, depth int) bool {
	if t == nil || depth > 8 {
		return false
	}
	switch u := types.Unalias(t).(type) {
	case *types.Capability:
		return u.Name == stdlib.HarnessLlm().Name || u == stdlib.Harness()
	case *types.Union:
		for _, m := range u.Members {
			if holdsLlmType(m, depth+1) {
				return true
			}
		}
	case *types.Record:
		for _, f := range u.Fields {
			if holdsLlmType(f.Type, depth+1) {
				return true
			}
		}
	case *types.List:
		return holdsLlmType(u.Elem, depth+1)
	case *types.Dict:
		return holdsLlmType(u.Value, depth+1)
	case *types.Tuple:
		for _, e := range u.Elems {
			if holdsLlmType(e, depth+1) {
				return true
			}
		}
	}
	return false
}

// holdsLlm reports whether the value of e (of type t, when known) may
// carry the LLM capability.
func (c *checker) holdsLlm(sc *scope, e ast.Expr, t types.Type) bool {
	if holdsLlmType(t, 0) {
		return true
	}
	return c.exprHoldsLlm(sc, e, 0)
}

func (c *checker) exprHoldsLlm(sc *scope, e ast.Expr, depth int) bool {
	if e == nil || depth > 32 {
		return false
	}
	if t, ok := c.facts.Types[e]; ok && holdsLlmType(t, 0) {
		return true
	}
	switch e := e.(type) {
	case *ast.Paren:
		return c.exprHoldsLlm(sc, e.X, depth+1)
	case *ast.Ident:
		v := sc.lookup(e.Name)
		if v == nil {
			return false
		}
		return v.holdsLlm || holdsLlmType(v.typ, 0) || (v.param != nil && c.llmParams[v.param])
	case *ast.Member:
		return c.exprHoldsLlm(sc, e.X, depth+1)
	case *ast.Index:
		return c.exprHoldsLlm(sc, e.X, depth+1)
	case *ast.ListLit:
		for _, el := range e.Elements {
			if c.exprHoldsLlm(sc, el, depth+1) {
				return true
			}
		}
	case *ast.DictLit:
		for _, en := range e.Entries {
			if c.exprHoldsLlm(sc, en.Value, depth+1) {
				return true
			}
		}
	case *ast.StructLit:
		for _, f := range e.Fields {
			if f != nil && c.exprHoldsLlm(sc, f.Value, depth+1) {
				return true
			}
		}
	case *ast.Conditional:
		return c.exprHoldsLlm(sc, e.Then, depth+1) || c.exprHoldsLlm(sc, e.Else, depth+1)
	case *ast.Binary:
		return c.exprHoldsLlm(sc, e.Left, depth+1) || c.exprHoldsLlm(sc, e.Right, depth+1)
	case *ast.Spread:
		return c.exprHoldsLlm(sc, e.Value, depth+1)
	}
	return false
}

// markLlm records that the binding at the root of target may now hold the
// LLM capability when value does.
func (c *checker) markLlm(sc *scope, target ast.Expr, value ast.Expr, t types.Type) {
	root := rootIdent(unparen(target))
	if root == nil {
		return
	}
	v := sc.lookup(root.Name)
	if v == nil || v.holdsLlm || !c.holdsLlm(sc, value, t) {
		return
	}
	v.holdsLlm = true
	if v.param != nil {
		c.llmParams[v.param] = true
	}
}

// passLlm records the arguments of a call of a module function that may
// carry the LLM capability into a parameter not typed HarnessLlm.
func (c *checker) passLlm(sc *scope, decl *ast.FuncDecl, args []ast.Expr, types_ []types.Type) {
	if decl == nil {
		return
	}
	for i, a := range args {
		if i >= len(decl.Params) || decl.Params[i] == nil || decl.Params[i].Rest {
			break
		}
		if _, spread := a.(*ast.Spread); spread {
			break
		}
		p := decl.Params[i]
		var at types.Type
		if i < len(types_) {
			at = types_[i]
		}
		if c.holdsLlm(sc, a, at) {
			c.llmParams[p] = true
		}
	}
}

// patternNames lists the names a binding pattern binds.
func patternNames(p ast.Pattern) []string {
	var out []string
	var walk func(p ast.Pattern)
	walk = func(p ast.Pattern) {
		switch p := p.(type) {
		case *ast.Ident:
			out = append(out, p.Name)
		case *ast.DictPattern:
			for _, en := range p.Entries {
				if en == nil {
					continue
				}
				if en.Pattern == nil {
					out = append(out, en.Key)
				} else {
					walk(en.Pattern)
				}
			}
			if p.Rest != nil {
				out = append(out, p.Rest.Name)
			}
		case *ast.ListPattern:
			for _, el := range p.Elements {
				if el != nil {
					walk(el.Pattern)
				}
			}
			if p.Rest != nil {
				out = append(out, p.Rest.Name)
			}
		case *ast.PairPattern:
			walk(p.First)
			walk(p.Second)
		}
	}
	walk(p)
	return out
}
