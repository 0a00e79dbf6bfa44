package infer

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
)

// Policies passed to helpers. A site whose policy is a parameter of its
// function is checked at the function's callers: the checker follows the
// argument from each call (through helpers calling helpers, and into
// helpers exported by imported modules) and records it as a PolicyPass,
// which the modelroute rule judges like a policy written at the site.

// helperCall is a call of a named function that may pass a policy on.
type helperCall struct {
	sc   *scope
	call *ast.Call
	name string
	sig  *types.Func
	fn   *fnInfo // nil for an imported function
}

// policySites returns the evaluation sites whose policy is parameter i of
// the called function.
func (c *checker) policySites(h helperCall, i int) []*analysis.Site {
	if h.fn != nil {
		if h.fn.decl == nil || i >= len(h.fn.decl.Params) || h.fn.decl.Params[i] == nil {
			return nil
		}
		return c.policyParams[h.fn.decl.Params[i]]
	}
	return c.importedPolicy[h.sig][i]
}

// finishPolicyPasses runs once the site policies are evaluated.
func (c *checker) finishPolicyPasses() {
	for _, pp := range c.policies {
		if !pp.site.Policy.Parameter {
			continue
		}
		if id, ok := unparen(pp.expr).(*ast.Ident); ok {
			if v := pp.sc.lookup(id.Name); v != nil && v.param != nil {
				c.policyParams[v.param] = append(c.policyParams[v.param], pp.site)
			}
		}
	}
	// A helper passing its own parameter on makes that parameter a
	// policy parameter too.
	for changed, rounds := true, 0; changed && rounds <= len(c.helperCalls); rounds++ {
		changed = false
		for _, h := range c.helperCalls {
			for i, a := range h.call.Args {
				sites := c.policySites(h, i)
				if len(sites) == 0 {
					continue
				}
				p := c.paramOf(h.sc, a)
				if p == nil {
					continue
				}
				for _, s := range sites {
					if !containsSite(c.policyParams[p], s) {
						c.policyParams[p] = append(c.policyParams[p], s)
						changed = true
					}
				}
			}
		}
	}
	for _, h := range c.helperCalls {
		for i, a := range h.call.Args {
			sites := c.policySites(h, i)
			if len(sites) == 0 {
				continue
			}
			if _, spread := a.(*ast.Spread); spread {
				break
			}
			if c.paramOf(h.sc, a) != nil {
				continue // checked at this function's own callers
			}
			pol := analysis.Policy{Span: a.Pos(), Present: true, Type: c.facts.TypeOf(a)}
			v, reason, _ := c.constValue(h.sc, a, 0)
			if m, ok := v.(map[string]any); ok && reason == "" {
				pol.Const, pol.Fields = true, m
			} else if reason == "" {
				pol.Reason = "the policy is not a record literal"
			} else {
				pol.Reason = reason
			}
			c.facts.PolicyPasses = append(c.facts.PolicyPasses, analysis.PolicyPass{Callee: h.name, Arg: a, Policy: pol, Sites: sites})
		}
	}
}

// paramOf returns the parameter an argument names, if it is one.
func (c *checker) paramOf(sc *scope, a ast.Expr) *ast.Param {
	id, ok := unparen(a).(*ast.Ident)
	if !ok {
		return nil
	}
	if v := sc.lookup(id.Name); v != nil && v.kind == kindParam {
		return v.param
	}
	return nil
}

func containsSite(ss []*analysis.Site, s *analysis.Site) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
