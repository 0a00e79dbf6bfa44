package initializers

import (
	_ "embed"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/types"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

const code = "HARN-TYP-007"

//go:embed doc.go
var doc string

// Rule is the initializers rule.
var Rule = &analysis.Rule{
	Name:  "initializers",
	Doc:   analysis.ExtractDoc(doc, "initializers"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, in := range p.Facts.Inits {
		check(p, in)
	}
}

func check(p *analysis.Pass, in analysis.Init) {
	value := in.Decl.Value
	for {
		pe, ok := value.(*ast.Paren)
		if !ok {
			break
		}
		value = pe.X
	}
	switch v := value.(type) {
	case *ast.ListLit:
		if len(v.Elements) == 0 {
			return
		}
	case *ast.DictLit:
		if len(v.Entries) == 0 {
			return
		}
	}
	if analysis.Uncertain(in.Value) {
		return
	}
	name := p.Text(in.Decl.Pattern.Pos())
	want, isRec := types.Unalias(in.Declared).(*types.Record)
	got, litRec := types.Unalias(in.Value).(*types.Record)
	if _, isDict := value.(*ast.DictLit); isRec && litRec && isDict && !want.Open {
		var fields []string
		for _, f := range want.Fields {
			fields = append(fields, f.Name)
		}
		for _, f := range got.Fields {
			if _, ok := want.Lookup(f.Name); !ok {
				d := p.Diag(diagnostics.SourceType, code, fieldSpan(value, f.Name), "%s is declared as %s, which has no field %s (fields: %s)", name, types.Describe(in.Declared), f.Name, strings.Join(fields, ", "))
				d.Help = "remove the field or fix its name"
				p.Report(d)
				return
			}
		}
		for _, f := range want.Fields {
			if _, ok := got.Lookup(f.Name); !ok && !f.Optional {
				d := p.Diag(diagnostics.SourceType, code, value.Pos(), "the initialiser of %s lacks the field %s that %s requires", name, f.Name, types.Describe(in.Declared))
				d.Help = "add " + f.Name + ": " + types.Describe(f.Type)
				p.Report(d)
				return
			}
		}
	}
	if types.Assignable(in.Value, in.Declared) {
		return
	}
	d := p.Diag(diagnostics.SourceType, code, value.Pos(), "%s is declared as %s, but its initialiser has type %s", name, types.Describe(in.Declared), types.Describe(in.Value))
	d.Help = "change the value or the declared type"
	p.Report(d)
}

// fieldSpan finds the entry of a dict literal naming field.
func fieldSpan(e ast.Expr, field string) ast.Span {
	if d, ok := e.(*ast.DictLit); ok {
		for _, en := range d.Entries {
			if en.Name != nil && en.Name.Name == field {
				return en.Name.Span
			}
			if en.StringKey != nil {
				if s, ok := en.StringKey.Value(); ok && s == field {
					return en.StringKey.Span
				}
			}
		}
	}
	return e.Pos()
}
