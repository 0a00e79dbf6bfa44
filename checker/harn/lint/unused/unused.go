package unused

import (
	_ "embed"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

//go:embed doc.go
var doc string

func rule(name, code string, run func(*analysis.Pass)) *analysis.Rule {
	return &analysis.Rule{Name: name, Doc: analysis.ExtractDoc(doc, name), Codes: []string{code}, Run: run}
}

// The rules of the package.
var (
	ShadowVariable         = rule("shadow-variable", "HARN-LNT-009", shadowVariable)
	UnusedVariable         = rule("unused-variable", "HARN-LNT-014", unusedDecl(Variable, "HARN-LNT-014"))
	UnusedPatternBinding   = rule("unused-pattern-binding", "HARN-LNT-015", unusedDecl(PatternBinding, "HARN-LNT-015"))
	UnusedParameter        = rule("unused-parameter", "HARN-LNT-016", unusedDecl(Parameter, "HARN-LNT-016"))
	UnusedImport           = rule("unused-import", "HARN-LNT-017", unusedImport)
	MutableNeverReassigned = rule("mutable-never-reassigned", "HARN-LNT-018", mutableNeverReassigned)
	UnusedFunction         = rule("unused-function", "HARN-LNT-019", unusedFunction)
	UnusedType             = rule("unused-type", "HARN-LNT-020", unusedType)
)

func unusedDecl(kind Kind, code string) func(*analysis.Pass) {
	return func(p *analysis.Pass) {
		f := Collect(p.File)
		for _, d := range f.Decls {
			if d.Kind != kind || strings.HasPrefix(d.Name, "_") || f.Refs[d.Name] || (kind == Parameter && d.Name == "self") {
				continue
			}
			var diag diagnostics.Diagnostic
			switch kind {
			case Variable:
				diag = p.Diag(diagnostics.SourceLint, code, d.Span, "variable `%s` is declared but never used", d.Name)
				diag.Help = "remove it, or prefix it with an underscore: `_" + d.Name + "`"
				diag.Fixes = []diagnostics.Fix{{Title: "Rename to `_" + d.Name + "`",
					Edits: []diagnostics.TextEdit{{Span: analysis.Span(d.Span), NewText: "_" + d.Name}}}}
			case PatternBinding:
				diag = p.Diag(diagnostics.SourceLint, code, d.Span, "pattern binding `%s` is never used", d.Name)
				diag.Help = "drop it from the pattern, or bind it to a name starting with an underscore"
			case Parameter:
				diag = p.Diag(diagnostics.SourceLint, code, d.Span, "parameter `%s` is never used", d.Name)
				diag.Help = "remove it, or prefix it with an underscore: `_" + d.Name + "`"
			}
			p.Report(diag)
		}
	}
}

func shadowVariable(p *analysis.Pass) {
	for _, d := range Collect(p.File).Decls {
		switch {
		case d.Redeclares != nil:
			diag := p.Diag(diagnostics.SourceLint, "HARN-LNT-009", d.Span, "`%s` is declared again in the scope that already holds it (line %d)", d.Name, p.Line(d.Redeclares.Start))
			diag.Help = "use `var " + d.Name + "` for a binding that changes, or choose another name"
			diag.Related = []diagnostics.Related{{Span: analysis.Span(*d.Redeclares), Message: "the first declaration"}}
			p.Report(diag)
		case d.Shadows != nil:
			diag := p.Diag(diagnostics.SourceLint, "HARN-LNT-009", d.Span, "`%s` shadows the declaration on line %d", d.Name, p.Line(d.Shadows.Start))
			diag.Help = "rename one of them, so that each name means one thing"
			diag.Related = []diagnostics.Related{{Span: analysis.Span(*d.Shadows), Message: "the outer declaration"}}
			p.Report(diag)
		}
	}
}

func mutableNeverReassigned(p *analysis.Pass) {
	f := Collect(p.File)
	reported := map[*ast.VarDecl]bool{}
	for _, d := range f.Decls {
		v := d.Var
		if v == nil || v.Kind != ast.Var || reported[v] || f.Assigned[d.Name] {
			continue
		}
		// Every name of the declaration must be unassigned.
		all := true
		for _, o := range f.Decls {
			if o.Var == v && f.Assigned[o.Name] {
				all = false
			}
		}
		if !all {
			continue
		}
		reported[v] = true
		diag := p.Diag(diagnostics.SourceLint, "HARN-LNT-018", d.Span, "`%s` is declared with var but never assigned again", d.Name)
		diag.Help = "declare it with let"
		if strings.HasPrefix(p.Text(v.Span), "var") {
			diag.Fixes = []diagnostics.Fix{{Title: "Declare with let",
				Edits: []diagnostics.TextEdit{{Span: diagnostics.Span{Start: v.Span.Start, End: v.Span.Start + 3}, NewText: "let"}}}}
		}
		p.Report(diag)
	}
}

func unusedImport(p *analysis.Pass) {
	f := Collect(p.File)
	for _, im := range p.File.Imports() {
		if im.Pub || len(im.Names) == 0 {
			continue
		}
		var unused []*ast.Ident
		for _, n := range im.Names {
			if !f.Refs[n.Name] && !f.TypeRefs[n.Name] && !strings.HasPrefix(n.Name, "_") {
				unused = append(unused, n)
			}
		}
		for _, n := range unused {
			diag := p.Diag(diagnostics.SourceLint, "HARN-LNT-017", n.Span, "imported name `%s` is never used", n.Name)
			diag.Help = "remove `" + n.Name + "` from the import"
			var edit diagnostics.TextEdit
			if len(unused) == len(im.Names) {
				edit = wholeLine(p.Src, im.Span)
			} else {
				edit = listItem(p.Src, n.Span)
			}
			diag.Fixes = []diagnostics.Fix{{Title: "Remove the unused import", Edits: []diagnostics.TextEdit{edit}}}
			p.Report(diag)
		}
	}
}

// wholeLine removes span and the newline after it.
func wholeLine(src []byte, span ast.Span) diagnostics.TextEdit {
	end := span.End
	if end < len(src) && src[end] == '\n' {
		end++
	}
	return diagnostics.TextEdit{Span: diagnostics.Span{Start: span.Start, End: end}}
}

// listItem removes the item at span from a comma-separated list with the
// comma and space that separate it from its neighbour.
func listItem(src []byte, span ast.Span) diagnostics.TextEdit {
	start, end := span.Start, span.End
	j := end
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j < len(src) && src[j] == ',' {
		end = j + 1
		for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
			end++
		}
		return diagnostics.TextEdit{Span: diagnostics.Span{Start: start, End: end}}
	}
	i := start
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i > 0 && src[i-1] == ',' {
		start = i - 1
	}
	return diagnostics.TextEdit{Span: diagnostics.Span{Start: start, End: end}}
}

func unusedFunction(p *analysis.Pass) {
	f := Collect(p.File)
	ast.Inspect(p.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImplDecl:
			return false // methods are called through their type
		case *ast.FuncDecl:
			// main is the program's entry point: the runtime calls it.
			if n.Pub || n.Name == nil || n.Name.Name == "main" || strings.HasPrefix(n.Name.Name, "_") || f.Refs[n.Name.Name] {
				return true
			}
			diag := p.Diag(diagnostics.SourceLint, "HARN-LNT-019", n.Name.Span, "function `%s` is declared but never used", n.Name.Name)
			diag.Help = "remove it, make it pub if other modules use it, or prefix it with an underscore"
			p.Report(diag)
		}
		return true
	})
}

func unusedType(p *analysis.Pass) {
	f := Collect(p.File)
	for _, it := range p.File.Items {
		var name *ast.Ident
		var kind string
		pub := false
		switch d := it.(type) {
		case *ast.TypeAlias:
			name, kind, pub = d.Name, "type", d.Pub
		case *ast.StructDecl:
			name, kind, pub = d.Name, "struct", d.Pub
		case *ast.EnumDecl:
			name, kind, pub = d.Name, "enum", d.Pub
		case *ast.InterfaceDecl:
			name, kind, pub = d.Name, "interface", d.Pub
		default:
			continue
		}
		if name == nil || pub || strings.HasPrefix(name.Name, "_") || f.TypeRefs[name.Name] || f.Refs[name.Name] {
			continue
		}
		diag := p.Diag(diagnostics.SourceLint, "HARN-LNT-020", name.Span, "%s `%s` is declared but never used", kind, name.Name)
		diag.Help = "remove it, or use it in a signature, annotation or constructor"
		p.Report(diag)
	}
}
