package infer

import (
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
)

// genericCall records what a call of a generic function binds: a type
// parameter bound to two different argument types, and an argument whose
// named type does not satisfy an interface bounding its parameter
// (`where T: Iface`). Only parameters annotated with a bare type
// parameter bind, and only arguments of certain type.
func (c *checker) genericCall(e *ast.Call, d *ast.FuncDecl, args []types.Type) {
	if d == nil || len(d.TypeParams) == 0 {
		return
	}
	tps := c.typeParams(d.TypeParams)
	bound := map[string]types.Type{}
	checked := map[string]bool{}
	for i, prm := range d.Params {
		if prm == nil || prm.Rest || i >= len(args) || i >= len(e.Args) || args[i] == nil {
			continue
		}
		nt, ok := prm.Type.(*ast.NamedType)
		if !ok || nt.Name == nil || len(nt.Args) != 0 || !hasName(tps, nt.Name.Name) {
			continue
		}
		tp := nt.Name.Name
		at := widen(args[i])
		if types.IsGradual(at) || analysis.Uncertain(at) {
			continue
		}
		if prev, ok := bound[tp]; ok {
			if !compatible(prev, at) {
				c.facts.GenericConflicts = append(c.facts.GenericConflicts, analysis.GenericConflict{Span: e.Span, Func: nameOf(d.Name), Param: tp, First: prev, Second: at})
			}
			continue
		}
		bound[tp] = at
		if checked[tp] {
			continue
		}
		checked[tp] = true
		for _, w := range d.Where {
			if w == nil || nameOf(w.Name) != tp {
				continue
			}
			for _, b := range w.Bounds {
				bn, ok := b.(*ast.NamedType)
				if !ok || bn.Name == nil {
					continue
				}
				if reason, ok := c.satisfies(at, bn.Name.Name); !ok {
					c.facts.InterfaceMismatches = append(c.facts.InterfaceMismatches, analysis.InterfaceMismatch{
						Span: e.Args[i].Pos(), Type: types.Describe(at), Interface: bn.Name.Name, TypeParam: tp, Reason: reason,
					})
				}
			}
		}
	}
}

// satisfies checks that the named type t implements interface iface: every
// method, with as many parameters, and parameter and result types that
// fit, binding associated types as it goes and checking them against
// their defaults. Types the checker cannot see (no such interface, a type
// that is not a declared struct or enum) pass.
func (c *checker) satisfies(t types.Type, iface string) (string, bool) {
	decl := c.ifaces[iface]
	a, ok := t.(*types.Alias)
	if decl == nil || !ok {
		return "", true
	}
	methods, hasImpl := c.impls[a.Name]
	if !hasImpl {
		if len(decl.Methods) == 0 {
			return "", true
		}
		var names []string
		for _, m := range decl.Methods {
			names = append(names, nameOf(m.Name))
		}
		return "missing method(s): " + strings.Join(names, ", "), false
	}
	assoc := map[string]bool{}
	for _, at := range decl.Types {
		assoc[nameOf(at.Name)] = true
	}
	tps := c.typeParams(decl.TypeParams)
	bindings := map[string]types.Type{}
	// expect converts an interface type, binding an associated type it
	// names to the implementation's; ok is false on a conflicting
	// binding, with the message.
	expect := func(it ast.Type, actual types.Type) (types.Type, string) {
		if nt, isNamed := it.(*ast.NamedType); isNamed && nt.Name != nil && len(nt.Args) == 0 && assoc[nt.Name.Name] {
			n := nt.Name.Name
			if prev, ok := bindings[n]; ok && !compatible(prev, actual) {
				return nil, fmt.Sprintf("associated type '%s' is bound to both '%s' and '%s'", n, types.Describe(prev), types.Describe(actual))
			}
			bindings[n] = actual
			return actual, ""
		}
		return c.convType(it, tps), ""
	}
	for _, im := range decl.Methods {
		if im == nil || im.Name == nil {
			continue
		}
		var impl *ast.FuncDecl
		for _, m := range methods {
			if m != nil && nameOf(m.Name) == im.Name.Name {
				impl = m
			}
		}
		if impl == nil {
			return fmt.Sprintf("missing method '%s'", im.Name.Name), false
		}
		ip, mp := withoutSelf(im.Params), withoutSelf(impl.Params)
		if len(ip) != len(mp) {
			return fmt.Sprintf("method '%s' has %d parameter(s), expected %d", im.Name.Name, len(mp), len(ip)), false
		}
		for i := range ip {
			if ip[i].Type == nil || mp[i].Type == nil {
				continue
			}
			actual := c.convType(mp[i].Type, c.typeParams(impl.TypeParams))
			want, msg := expect(ip[i].Type, actual)
			if msg != "" {
				return msg, false
			}
			if !compatible(want, actual) {
				return fmt.Sprintf("method '%s' parameter %d has type '%s', expected '%s'", im.Name.Name, i+1, types.Describe(actual), types.Describe(want)), false
			}
		}
		if im.ReturnType != nil && impl.ReturnType != nil {
			actual := c.convType(impl.ReturnType, c.typeParams(impl.TypeParams))
			want, msg := expect(im.ReturnType, actual)
			if msg != "" {
				return msg, false
			}
			if !compatible(want, actual) {
				return fmt.Sprintf("method '%s' returns '%s', expected '%s'", im.Name.Name, types.Describe(actual), types.Describe(want)), false
			}
		}
	}
	for _, at := range decl.Types {
		n := nameOf(at.Name)
		actual, ok := bindings[n]
		if at.Default == nil || !ok {
			continue
		}
		if want := c.convType(at.Default, tps); !compatible(want, actual) {
			return fmt.Sprintf("associated type '%s' resolves to '%s', expected '%s'", n, types.Describe(actual), types.Describe(want)), false
		}
	}
	return "", true
}

// compatible is mutual fit: either type may stand for the other.
func compatible(a, b types.Type) bool {
	return types.Assignable(a, b) || types.Assignable(b, a)
}

func withoutSelf(ps []*ast.Param) []*ast.Param {
	var out []*ast.Param
	for _, p := range ps {
		if p != nil && nameOf(p.Name) != "self" {
			out = append(out, p)
		}
	}
	return out
}
