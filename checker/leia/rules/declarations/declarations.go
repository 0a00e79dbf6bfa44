package declarations

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

const code = "LEIA3001"

//go:embed doc.go
var doc string

// Rule is the declarations rule.
var Rule = &analysis.Rule{
	Name:  "declarations",
	Doc:   analysis.ExtractDoc(doc, "declarations"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	duplicates(p, semantic.ToolDecl, "tool")
	duplicates(p, semantic.AgentDecl, "agent")
	var first *ast.AgentDefaults
	top := map[ast.Stmt]bool{}
	for _, st := range p.File.Stmts {
		top[st] = true
	}
	ast.Inspect(p.File, func(n ast.Node) bool {
		ad, ok := n.(*ast.AgentDefaults)
		if !ok {
			return true
		}
		switch {
		case !top[ad]:
			d := p.Diag(diagnostics.SourceInvariant, code, keyword(ad), "agent defaults must be declared at module scope")
			d.Help = "move it to the top level of the file"
			p.Report(d)
		case first != nil:
			d := p.Diag(diagnostics.SourceInvariant, code, keyword(ad), "duplicate agent defaults declaration")
			d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(keyword(first)), Message: "first declared here"})
			d.Help = "merge the two into one agent defaults block"
			p.Report(d)
		default:
			first = ad
		}
		return true
	})
}

// keyword is the `agent defaults` words of a declaration.
func keyword(ad *ast.AgentDefaults) ast.Span {
	end := ad.End
	if ad.Config != nil && ad.Config.Start > ad.Start {
		end = ad.Config.Start
	}
	return ast.Span{Start: ad.Start, End: end}
}

func duplicates(p *analysis.Pass, kind semantic.BindingKind, what string) {
	var decls []*semantic.Binding
	for _, b := range p.Facts.Bindings {
		if b.Kind == kind && b.Ident != nil {
			decls = append(decls, b)
		}
	}
	for _, b := range decls {
		var first *semantic.Binding
		for _, other := range decls {
			if other == b || other.Name != b.Name || other.Ident.Start >= b.Ident.Start || !encloses(other.Scope, b.Scope) {
				continue
			}
			if first == nil || other.Ident.Start < first.Ident.Start {
				first = other
			}
		}
		if first == nil {
			continue
		}
		d := p.Diag(diagnostics.SourceInvariant, code, b.Ident.Span, "duplicate %s declaration %q, first declared at line %d", what, b.Name, p.Line(first.Ident.Start))
		d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(first.Ident.Span), Message: "first declared here"})
		d.Help = "give the " + what + " another name, or remove one declaration"
		p.Report(d)
	}
}

// encloses reports whether outer is s or one of its ancestors.
func encloses(outer, s *semantic.Scope) bool {
	for x := s; x != nil; x = x.Parent {
		if x == outer {
			return true
		}
	}
	return false
}
