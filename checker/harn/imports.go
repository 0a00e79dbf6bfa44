package harn

import (
	"slices"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/rules/operators"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// missingNames reports each selectively imported name that the module
// sub does not export (HARN-IMP-002). The message says whether the module
// declares the name without exporting it (with a related span on that
// declaration) or does not declare it at all (suggesting the nearest
// export); the help lists what the module exports. target is the module's
// path, empty for a built-in module such as std/predicate.
func missingNames(m *module, im *ast.Import, spec, target string, sub *module) {
	ex := sub.exports
	if ex == nil {
		return
	}
	var exported []string
	for k := range ex.Values {
		exported = append(exported, k)
	}
	for k := range ex.Types {
		exported = append(exported, k)
	}
	slices.Sort(exported)
	var declared map[string]declaration
	if sub.file != nil {
		declared = declarations(sub.file)
	}
	for _, n := range im.Names {
		if _, ok := ex.Values[n.Name]; ok {
			continue
		}
		if _, ok := ex.Types[n.Name]; ok {
			continue
		}
		var d diagnostics.Diagnostic
		related := []diagnostics.Related{{Span: analysis.Span(im.Source.Span), Message: "the module " + spec + " is imported here"}}
		if decl, ok := declared[n.Name]; ok {
			d = diagnostics.New(m.path, diagnostics.SourceType, "HARN-IMP-002", analysis.Span(n.Span),
				spec+" declares "+n.Name+" but does not export it")
			related = append(related, diagnostics.Related{Path: target, Span: analysis.Span(decl.span), Message: n.Name + " is declared here: " + decl.why})
			d.Help = decl.fix
			if len(exported) > 0 {
				d.Help += "; it exports " + strings.Join(exported, ", ")
			}
		} else {
			msg := spec + " does not declare " + n.Name
			if near := nearest(n.Name, exported); near != "" {
				msg += "; did you mean " + near + "?"
			}
			d = diagnostics.New(m.path, diagnostics.SourceType, "HARN-IMP-002", analysis.Span(n.Span), msg)
			if len(exported) > 0 {
				d.Help = "it exports " + strings.Join(exported, ", ")
			} else {
				d.Help = "it exports nothing: a module exports its functions (the pub ones when any is pub) and its types"
			}
		}
		d.Related = related
		m.diags = append(m.diags, d)
	}
}

// declaration is a top-level name a module declares but may not export.
type declaration struct {
	span ast.Span
	// why says why the declaration is not exported; fix how to change it.
	why, fix string
}

// declarations lists the top-level names of f, the first declaration of
// each, with why a non-exported one is not (exported ones are looked up
// in the module's exports before this is consulted).
func declarations(f *ast.File) map[string]declaration {
	out := map[string]declaration{}
	add := func(id *ast.Ident, why, fix string) {
		if id == nil || id.Name == "" {
			return
		}
		if _, dup := out[id.Name]; !dup {
			out[id.Name] = declaration{span: id.Span, why: why, fix: fix}
		}
	}
	const notPub = "a function without pub, in a module that marks others pub"
	const notFn = "only functions and types are exported"
	for _, it := range f.Items {
		switch d := it.(type) {
		case *ast.FuncDecl:
			add(d.Name, notPub, "mark it pub fn")
		case *ast.ToolDecl:
			add(d.Name, "a tool, and "+notFn, "call it through a pub function")
		case *ast.Pipeline:
			add(d.Name, "a pipeline, and "+notFn, "call it through a pub function")
		case *ast.InterfaceDecl:
			add(d.Name, "an interface, and "+notFn, "declare the type in the importing module")
		case *ast.Import:
			from := "the module it comes from"
			if d.Source != nil {
				if spec, ok := d.Source.Value(); ok {
					from = spec
				}
			}
			for _, n := range d.Names {
				add(n, "imported into that module, and imports are not exported again", "import it from "+from+" directly")
			}
		case *ast.VarDecl:
			if id, ok := d.Pattern.(*ast.Ident); ok {
				add(id, "a top-level "+d.Kind.String()+" binding, and "+notFn, "return it from a pub function")
			}
		}
	}
	return out
}

// nearest returns the export closest to name when it is close enough to
// be a likely misspelling, else "".
func nearest(name string, exported []string) string {
	near := operators.Nearest(name, exported)
	if near == "" {
		return ""
	}
	ln, lc := strings.ToLower(name), strings.ToLower(near)
	if strings.HasPrefix(lc, ln) || strings.HasPrefix(ln, lc) {
		return near
	}
	if operators.Distance(name, near) <= max(1, len([]rune(name))/3) {
		return near
	}
	return ""
}
