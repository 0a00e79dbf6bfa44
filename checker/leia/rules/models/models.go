package models

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

const code = "LEIA3001"

//go:embed doc.go
var doc string

// Rule is the models rule.
var Rule = &analysis.Rule{
	Name:  "models",
	Doc:   analysis.ExtractDoc(doc, "models"),
	Codes: []string{code},
	Run:   run,
}

// Protocols are the model protocols the runtime supports, in the form
// they are compared in (lower case, `-` for `_`): the route catalog's
// table, the one the Leia AI runtime dials by.
var Protocols = catalog.ChatProtocols()

// SupportedProtocol reports whether p names a supported protocol.
func SupportedProtocol(p string) bool {
	_, ok := catalog.ChatAPI(p)
	return ok
}

func run(p *analysis.Pass) {
	for _, m := range p.Facts.Models {
		if m.Table == nil {
			continue
		}
		if m.Form == ast.FormLegacy && !m.TopLevel {
			d := p.Diag(diagnostics.SourceInvariant, code, m.Node.Pos(), "models must be declared at module scope")
			d.Help = "move the models block to the top level of the file"
			p.Report(d)
		}
		aliases := map[string]*ast.TableField{}
		var order []string
		for _, f := range m.Table.Fields {
			key, ok := fieldKey(f)
			if !ok {
				continue
			}
			switch v := f.Value.(type) {
			case *ast.StringLit:
				if _, ok := v.Value(); ok {
					aliases[key] = f
					order = append(order, key)
				}
			case *ast.TableExpr:
				configTable(p, v, 0)
			}
		}
		cycles(p, aliases, order)
	}
}

// fieldKey is a field's key when it is a name or a string literal
// (`name:`, `"name":`, `["name"]:`).
func fieldKey(f *ast.TableField) (string, bool) {
	switch f.Kind {
	case ast.FieldNamed, ast.FieldString:
		return f.Name, true
	case ast.FieldComputed:
		return semantic.StringValue(f.Key)
	}
	return "", false
}

func configTable(p *analysis.Pass, t *ast.TableExpr, depth int) {
	if depth > 32 {
		return
	}
	var protocol *ast.TableField
	hasModel := false
	for _, f := range t.Fields {
		key, ok := fieldKey(f)
		if !ok {
			continue
		}
		switch key {
		case "api_key":
			if s, ok := f.Value.(*ast.StringLit); ok {
				if _, plain := s.Value(); plain {
					d := p.Diag(diagnostics.SourceInvariant, code, s.Span, "model api_key must not be a string literal")
					d.Help = "read the key from the environment or host configuration, and rotate any key that was committed"
					d.Fixes = append(d.Fixes, diagnostics.Fix{Title: `Read the key with os.getenv("LEIA_LLM_API_KEY")`,
						Edits: []diagnostics.TextEdit{{Span: analysis.Span(s.Span), NewText: `os.getenv("LEIA_LLM_API_KEY")`}}})
					p.Report(d)
				}
			}
		case "protocol":
			protocol = f
			s, ok := semantic.StringValue(f.Value)
			if !ok {
				d := p.Diag(diagnostics.SourceInvariant, code, f.Value.Pos(), "model protocol must be a string literal")
				d.Help = "write the protocol as a literal: " + strings.Join(Protocols, ", ")
				p.Report(d)
			} else if !SupportedProtocol(s) {
				d := p.Diag(diagnostics.SourceInvariant, code, f.Value.Pos(), "unsupported model protocol %q", s)
				d.Help = "supported protocols: " + strings.Join(Protocols, ", ")
				p.Report(d)
			}
		case "provider_model", "model":
			hasModel = true
		}
		if nested, ok := f.Value.(*ast.TableExpr); ok {
			configTable(p, nested, depth+1)
		}
	}
	if protocol != nil && !hasModel {
		d := p.Diag(diagnostics.SourceInvariant, code, t.Span, "model provider config with protocol must include provider_model or model")
		d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(protocol.Span), Message: "protocol given here"})
		d.Help = `add provider_model: "the-provider's-model-name" (or os.getenv("...") )`
		p.Report(d)
	}
}

// cycles reports each cycle of string aliases once, at its first alias in
// source order.
func cycles(p *analysis.Pass, aliases map[string]*ast.TableField, order []string) {
	reported := map[string]bool{}
	for _, start := range order {
		seen := map[string]bool{}
		var path []string
		for cur := start; ; {
			f, ok := aliases[cur]
			if !ok {
				break
			}
			if seen[cur] {
				// The cycle is path from cur on.
				i := 0
				for path[i] != cur {
					i++
				}
				cyc := append([]string(nil), path[i:]...)
				sorted := append([]string(nil), cyc...)
				sort.Strings(sorted)
				key := strings.Join(sorted, "\x00")
				if !reported[key] {
					reported[key] = true
					first := aliases[cyc[0]]
					d := p.Diag(diagnostics.SourceInvariant, code, first.Span, "model alias cycle involving %q", cyc[0])
					d.Help = fmt.Sprintf("the aliases %s refer to each other; make one of them a provider model or a configuration table", strings.Join(append(cyc, cyc[0]), " -> "))
					p.Report(d)
				}
				break
			}
			seen[cur] = true
			path = append(path, cur)
			next, _ := semantic.StringValue(f.Value)
			cur = next
		}
	}
}
