// Package names defines the names rule.
//
// # Rule names
//
// names: every name must resolve (HARN-NAM-001 undefined variable,
// HARN-NAM-002 undefined function).
//
// A name is looked up lexically: block, enclosing functions, the module
// (declarations in any order, imports), then the built-ins. A called name
// that resolves nowhere is HARN-NAM-002; any other is HARN-NAM-001. When
// an import of the module failed to resolve, the names it would have
// brought are unknown, so nothing is reported (checking degrades rather
// than guessing). The built-ins are the functions of Harn's builtin
// reference (package infer lists them), `harness` (a Harness) and
// `context`.
package names

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

const (
	codeVariable = "HARN-NAM-001"
	codeFunction = "HARN-NAM-002"
)

// Rule is the names rule.
var Rule = &analysis.Rule{
	Name:  "names",
	Doc:   "names: every name must resolve (HARN-NAM-001, HARN-NAM-002)",
	Codes: []string{codeVariable, codeFunction},
	Run:   run,
}

func run(p *analysis.Pass) {
	if p.Facts.Degraded {
		return
	}
	for _, u := range p.Facts.Unresolved {
		if u.Call {
			d := p.Diag(diagnostics.SourceType, codeFunction, u.Ident.Span, "undefined function %s", u.Ident.Name)
			d.Help = "declare it, import it (import {" + u.Ident.Name + "} from \"./module\"), or fix the spelling"
			p.Report(d)
			continue
		}
		d := p.Diag(diagnostics.SourceType, codeVariable, u.Ident.Span, "undefined variable %s", u.Ident.Name)
		d.Help = "declare it with const or let before this use, or fix the spelling"
		p.Report(d)
	}
}
