package names

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

const (
	codeVariable = "HARN-NAM-001"
	codeFunction = "HARN-NAM-002"
)

//go:embed doc.go
var doc string

// Rule is the names rule.
var Rule = &analysis.Rule{
	Name:  "names",
	Doc:   analysis.ExtractDoc(doc, "names"),
	Codes: []string{codeVariable, codeFunction},
	Run:   run,
}

func run(p *analysis.Pass) {
	if p.Facts.Degraded {
		return
	}
	for _, u := range p.Facts.Unresolved {
		hint := ""
		if u.Suggest != "" {
			hint = " — did you mean `" + u.Suggest + "`?"
		}
		if u.Call {
			d := p.Diag(diagnostics.SourceType, codeFunction, u.Ident.Span, "call target `%s` is not defined or imported%s", u.Ident.Name, hint)
			d.Help = "declare it, import it (import {" + u.Ident.Name + "} from \"./module\"), or fix the spelling"
			if u.Suggest != "" {
				d.Help = "did you mean `" + u.Suggest + "`? Otherwise declare or import " + u.Ident.Name
				d.Fixes = renameFix(u)
			}
			p.Report(d)
			continue
		}
		// Upstream Harn's words (its VM's, which reports this name).
		vhint := ""
		if u.Suggest != "" {
			vhint = " (did you mean `" + u.Suggest + "`?)"
		}
		d := p.Diag(diagnostics.SourceType, codeVariable, u.Ident.Span, "Undefined variable: %s%s", u.Ident.Name, vhint)
		d.Help = "declare it with const or let before this use, or fix the spelling"
		if u.Suggest != "" {
			d.Help = "did you mean `" + u.Suggest + "`? Otherwise declare " + u.Ident.Name + " before this use"
			d.Fixes = renameFix(u)
		}
		p.Report(d)
	}
}

// renameFix replaces the unresolved name with the suggested one.
func renameFix(u analysis.Unresolved) []diagnostics.Fix {
	return []diagnostics.Fix{{
		Title: "Replace with " + u.Suggest,
		Edits: []diagnostics.TextEdit{{Span: analysis.Span(u.Ident.Span), NewText: u.Suggest}},
	}}
}
