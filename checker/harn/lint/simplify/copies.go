package simplify

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/lint/internal/syntax"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// UnnecessaryCast is the unnecessary-cast rule.
var UnnecessaryCast = rule("unnecessary-cast", "HARN-LNT-028", unnecessaryCast)

// RedundantClone is the redundant-clone rule.
var RedundantClone = rule("redundant-clone", "HARN-LNT-005", redundantClone)

// EagerCollectionConversion is the eager-collection-conversion rule.
var EagerCollectionConversion = rule("eager-collection-conversion", "HARN-LNT-004", eagerCollection)

// castTarget names the kind each conversion builtin yields.
var castTarget = map[string]string{
	"to_string": "string", "to_int": "int", "to_float": "float", "to_list": "list", "to_dict": "dict",
}

func unnecessaryCast(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok {
			return true
		}
		name := syntax.Callee(c)
		target, ok := castTarget[name]
		if !ok || !oneArg(c) || !alreadyIs(c.Args[0], name) {
			return true
		}
		article := "a"
		if target == "int" {
			article = "an"
		}
		arg := p.Text(c.Args[0].Pos())
		d := p.Diag(diagnostics.SourceLint, "HARN-LNT-028", c.Span, "`%s` changes nothing here: its argument is already %s %s", name, article, target)
		d.Help = "remove the `" + name + "(...)` around the value"
		d.Fixes = []diagnostics.Fix{{Title: "Remove `" + name + "`",
			Edits: []diagnostics.TextEdit{{Span: analysis.Span(c.Span), NewText: arg}}}}
		p.Report(d)
		return true
	})
}

// oneArg reports whether c has exactly one argument and it is not a
// spread.
func oneArg(c *ast.Call) bool {
	if len(c.Args) != 1 {
		return false
	}
	_, spread := c.Args[0].(*ast.Spread)
	return !spread
}

// alreadyIs reports whether e is, by its shape alone, a value of the kind
// the conversion cast yields: a literal of that kind, or a call of the
// same conversion. Names are left alone even when typed: a gradual value
// (one read from JSON, say) may hold another kind at run time, for which
// the conversion does real work.
func alreadyIs(e ast.Expr, cast string) bool {
	e = unparen(e)
	if c, ok := e.(*ast.Call); ok {
		return syntax.Callee(c) == cast && oneArg(c)
	}
	switch e.(type) {
	case *ast.StringLit:
		return cast == "to_string"
	case *ast.IntLit:
		return cast == "to_int"
	case *ast.FloatLit:
		return cast == "to_float"
	case *ast.ListLit:
		return cast == "to_list"
	case *ast.DictLit:
		return cast == "to_dict"
	}
	return false
}

func redundantClone(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok {
			return true
		}
		drop := syntax.Callee(c) == "drop"
		for _, a := range c.Args {
			recv, ok := cloneOf(a)
			if !ok {
				continue
			}
			msg, help := "this copy is passed on and never used again", "pass the value itself unless the callee must get a separate copy"
			if drop {
				msg, help = "this copy is dropped at once", "drop the value itself"
			}
			d := p.Diag(diagnostics.SourceLint, "HARN-LNT-005", a.Pos(), "%s", msg)
			d.Help = help
			// clone is a method of the value's own type (no built-in
			// kind has one): skipping it skips that code, and a callee
			// that keeps the argument may then share what it changes.
			d.Fixes = []diagnostics.Fix{{Title: "Remove `.clone()`", Unsafe: true,
				Edits: []diagnostics.TextEdit{{Span: analysis.Span(a.Pos()), NewText: p.Text(recv.Pos())}}}}
			p.Report(d)
		}
		return true
	})
}

// cloneOf returns x when e is `x.clone()` with no arguments.
func cloneOf(e ast.Expr) (ast.Expr, bool) {
	c, ok := e.(*ast.Call)
	if !ok || len(c.Args) != 0 {
		return nil, false
	}
	m, ok := c.Func.(*ast.Member)
	if !ok || m.Optional || m.Name == nil || m.Name.Name != "clone" {
		return nil, false
	}
	return m.X, true
}

// lazyMethods are the iterator methods that yield another iterator.
var lazyMethods = map[string]bool{
	"map": true, "filter": true, "flat_map": true, "take": true, "skip": true, "take_while": true,
	"skip_while": true, "zip": true, "enumerate": true, "chain": true, "chunks": true, "windows": true,
}

func eagerCollection(p *analysis.Pass) {
	syntax.Walk(p.File, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.VarDecl:
			if !ast.IsNil(n.Type) && !ast.IsNil(n.Value) {
				reportEager(p, n.Type, n.Value)
			}
		case *ast.Return:
			if ast.IsNil(n.Value) {
				break
			}
			for i := len(stack) - 1; i >= 0; i-- {
				if syntax.IsFunction(stack[i]) {
					if t := returnType(stack[i]); !ast.IsNil(t) {
						reportEager(p, t, n.Value)
					}
					break
				}
			}
		}
		return true
	})
}

// returnType is the declared result type of a function node, or nil.
func returnType(fn ast.Node) ast.Type {
	switch f := fn.(type) {
	case *ast.FuncDecl:
		return f.ReturnType
	case *ast.ToolDecl:
		return f.ReturnType
	case *ast.Pipeline:
		return f.ReturnType
	case *ast.FuncLit:
		return f.ReturnType
	}
	return nil
}

// reportEager reports value when it is an iterator and declared names a
// collection.
func reportEager(p *analysis.Pass, declared ast.Type, value ast.Expr) {
	sink, kind := collectionSink(declared)
	if sink == "" || !lazy(value) {
		return
	}
	d := p.Diag(diagnostics.SourceLint, "HARN-LNT-004", value.Pos(), "this is an iterator where a %s is declared: add .%s() to collect it", kind, sink)
	d.Help = "append `." + sink + "()` to build the " + kind
	end := value.Pos().End
	d.Fixes = []diagnostics.Fix{{Title: "Append `." + sink + "()`",
		Edits: []diagnostics.TextEdit{{Span: diagnostics.Span{Start: end, End: end}, NewText: "." + sink + "()"}}}}
	p.Report(d)
}

// collectionSink returns the iterator method that builds the collection
// t names (list<T>, [T], dict<K, V>, set<T>) and the collection's kind;
// "" for any other type.
func collectionSink(t ast.Type) (sink, kind string) {
	switch t := t.(type) {
	case *ast.ListType:
		return "to_list", "list"
	case *ast.NamedType:
		if t.Name == nil {
			return "", ""
		}
		switch t.Name.Name {
		case "list":
			return "to_list", "list"
		case "dict":
			return "to_dict", "dict"
		case "set":
			return "to_set", "set"
		}
	}
	return "", ""
}

// lazy reports whether e is an iterator by its shape: `iter(x)`,
// `x.iter()`, or an iterator method that yields an iterator called on an
// iterator or a range (`(1 to 9).map(f)`). A list's own map or filter
// builds a list, so a chain is an iterator only from where it is lifted
// into one.
func lazy(e ast.Expr) bool {
	c, ok := unparen(e).(*ast.Call)
	if !ok {
		return false
	}
	if name := syntax.Callee(c); name != "" {
		return name == "iter"
	}
	m, ok := c.Func.(*ast.Member)
	if !ok || m.Name == nil {
		return false
	}
	if m.Name.Name == "iter" && len(c.Args) == 0 {
		return true
	}
	if !lazyMethods[m.Name.Name] {
		return false
	}
	_, isRange := unparen(m.X).(*ast.Range)
	return isRange || lazy(m.X)
}
