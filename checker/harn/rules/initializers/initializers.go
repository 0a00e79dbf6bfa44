package initializers

import (
	_ "embed"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
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
	name := p.Text(in.Decl.Pattern.Pos())
	if types.IsBasic(in.Value, types.Unknown) && !types.IsGradual(in.Declared) {
		// unknown must be narrowed (type_of, schema_is, a guard) before
		// it is used as a concrete type; that is what sets it apart
		// from any.
		d := p.Diag(diagnostics.SourceType, code, value.Pos(), "'%s' declared as %s, but assigned unknown", name, types.Describe(in.Declared))
		d.Help = "narrow the value first (if type_of(v) == \"...\", schema_is(v, T)), or declare the binding unknown"
		p.Report(d)
		return
	}
	if analysis.Uncertain(in.Value) {
		return
	}
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
				d := p.Diag(diagnostics.SourceType, code, value.Pos(), "'%s' declared as %s, but assigned %s, which lacks the field %s", name, types.Describe(in.Declared), types.Describe(in.Value), f.Name)
				d.Help = "add " + f.Name + ": " + types.Describe(f.Type)
				p.Report(d)
				return
			}
		}
	}
	if types.Assignable(in.Value, in.Declared) {
		if !isLiteral(value) && !types.AssignableInvariant(in.Value, in.Declared) {
			// A list or dict another binding already holds cannot take
			// a wider element type: writes through the new binding
			// would break the old one's.
			d := p.Diag(diagnostics.SourceType, code, value.Pos(), "'%s' declared as %s, but assigned %s (lists and dicts are invariant in their element types)", name, types.Describe(in.Declared), types.Describe(in.Value))
			d.Help = "copy into a new list or dict of the declared type, or declare the binding " + types.Describe(in.Value)
			p.Report(d)
		}
		return
	}
	shown := in.Value
	if _, lits := types.Literals(in.Declared); !lits {
		shown = base(shown) // "declared as int, but assigned string"
	}
	d := p.Diag(diagnostics.SourceType, code, value.Pos(), "'%s' declared as %s, but assigned %s", name, types.Describe(in.Declared), types.Describe(shown))
	d.Help = "change the value or the declared type"
	p.Report(d)
}

// isLiteral reports whether e builds a fresh list or dict, which may take
// any element type that fits.
func isLiteral(e ast.Expr) bool {
	switch e.(type) {
	case *ast.ListLit, *ast.DictLit:
		return true
	}
	return false
}

// base widens a literal type to its base type for messages.
func base(t types.Type) types.Type {
	if l, ok := t.(*types.Literal); ok {
		return l.Base()
	}
	return t
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
