package prompts

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

const code = "LEIA3004"

//go:embed doc.go
var doc string

// Rule is the prompts rule.
var Rule = &analysis.Rule{
	Name:  "prompts",
	Doc:   analysis.ExtractDoc(doc, "prompts"),
	Codes: []string{code},
	Run:   run,
}

// Roles are the stable message roles.
var Roles = map[string]bool{"system": true, "user": true, "assistant": true, "tool": true}

func run(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		tb, ok := n.(*ast.TaggedBlock)
		if !ok || tb.Kind != ast.DialectPrompt || tb.Body == nil {
			return true
		}
		for _, f := range tb.Body.Fields {
			if f.Kind == ast.FieldPositional || f.Kind == ast.FieldComputed {
				return true
			}
		}
		head := tb.Tag.Span
		var missing []string
		for _, k := range []string{"role", "text"} {
			if tb.Body.Lookup(k) == nil {
				missing = append(missing, k)
			}
		}
		switch len(missing) {
		case 2:
			d := p.Diag(diagnostics.SourceInvariant, code, head, "prompt has neither role nor text, so it is not a message")
			d.Help = `write prompt { role: "user", text: "..." }`
			p.Report(d)
		case 1:
			d := p.Diag(diagnostics.SourceInvariant, code, head, "prompt has no %s, so it is not a complete message", missing[0])
			d.Help = `a message has a role (system, user, assistant, tool) and a text`
			p.Report(d)
		}
		if f := tb.Body.Lookup("role"); f != nil {
			if s, ok := semantic.StringValue(f.Value); ok && !Roles[s] {
				d := p.Diag(diagnostics.SourceInvariant, code, f.Value.Pos(), "prompt role %q is not a message role", s)
				d.Help = "use system, user, assistant or tool"
				p.Report(d)
			}
		}
		return true
	})
}
