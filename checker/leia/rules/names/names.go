package names

import (
	_ "embed"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/internal/suggest"
	"github.com/harnlang/harn-check/lang/leia/semantic"
	"github.com/harnlang/harn-check/lang/leia/stdlib"
)

const (
	codeUndefined = "LEIA4001"
	codeEval      = "LEIA3007"
	codeLoaded    = "LEIA4010"
	codeHole      = "LEIA4011"
)

//go:embed doc.go
var doc string

// Rule is the names rule.
var Rule = &analysis.Rule{
	Name:  "names",
	Doc:   analysis.ExtractDoc(doc, "names"),
	Codes: []string{codeUndefined, codeEval, codeLoaded, codeHole},
	Run:   run,
}

func run(p *analysis.Pass) {
	loader := firstLoader(p.File)
	holes := placeholders(p.File)
	for _, u := range p.Facts.Unresolved {
		if p.Facts.ToolListIdents[u.Ident] {
			continue
		}
		if !u.Write && slices.Contains(p.Host.HostModules, u.Ident.Name) {
			// A global the project's embedder installs (harn.toml [leia]
			// host_modules).
			continue
		}
		id := u.Ident
		if u.Unavailable != nil {
			d := p.Diag(diagnostics.SourceType, codeEval, id.Span, "%s is available only inside evaluate blocks, where the evaluation harness installs it", id.Name)
			d.Help = `move this code into an evaluate "name" { ... } block, or pass the values it needs as arguments`
			p.Report(d)
			continue
		}
		what := "undefined name"
		if u.Write {
			what = "assignment to undeclared name"
		}
		msg := fmt.Sprintf("%s %s", what, id.Name)
		var d diagnostics.Diagnostic
		switch {
		case holes[id] && !u.Write && u.Later == nil:
			// "${NAME}" standing alone in a double-quoted string is how
			// upstream's programs write a placeholder (a secret's name, a
			// template slot): warn that it interpolates nil, without
			// failing the check.
			d = p.Diag(diagnostics.SourceType, codeHole, id.Span, "%s in \"${%s}\": the string interpolates nil here", msg, id.Name)
			d.Help = fmt.Sprintf("for the literal text ${%s} use single quotes or a raw string; to interpolate a value, declare %s", id.Name, id.Name)
		case loader != nil && !u.Write && u.Later == nil:
			// Code compiled at run time shares the program's globals and may
			// declare this name; say so, without failing the check.
			d = p.Diag(diagnostics.SourceType, codeLoaded, id.Span, "%s, unless the code this file loads at run time declares it", msg)
			d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(loader.Span), Message: "code loaded at run time here"})
			d.Help = fmt.Sprintf("declare %s in this file (%s := nil) to make the dependency visible", id.Name, id.Name)
		case u.Later != nil && u.Later.Ident != nil && u.Later.Ident.Start > id.Start:
			d = p.Diag(diagnostics.SourceType, codeUndefined, id.Span, "%s: it is declared later, on line %d", msg, p.Line(u.Later.Ident.Start))
			d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(u.Later.Ident.Span), Message: "declared here"})
			d.Help = "move the declaration above its first use"
		case u.Write:
			d = p.Diag(diagnostics.SourceType, codeUndefined, id.Span, "%s: Leia has no implicit globals", msg)
			d.Help = fmt.Sprintf("declare it with %s := ... (or fix the spelling)", id.Name)
		default:
			d = p.Diag(diagnostics.SourceType, codeUndefined, id.Span, "%s", msg)
		}
		if s := Suggest(id.Name, Candidates(u.Scope)); s != "" && u.Later == nil {
			d.Message += fmt.Sprintf("; did you mean %s?", s)
			d.Fixes = append(d.Fixes, diagnostics.Fix{Title: "Replace with " + s,
				Edits: []diagnostics.TextEdit{{Span: analysis.Span(id.Span), NewText: s}}})
		}
		p.Report(d)
	}
}

// Candidates lists the names visible from s (declared in s or an enclosing
// scope) and the predeclared names available there.
func Candidates(s *semantic.Scope) []string {
	seen := map[string]bool{}
	var out []string
	for x := s; x != nil; x = x.Parent {
		for n := range x.Names {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	for _, g := range stdlib.Globals() {
		if g.Scope == stdlib.EvaluateOnly && (s == nil || !s.Evaluate) {
			continue
		}
		if !seen[g.Name] {
			seen[g.Name] = true
			out = append(out, g.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Suggest returns the candidate nearest to name: within an edit distance
// of a third of its length (at least 1, at most 3), ties broken by order.
// Names of one character get no suggestion.
func Suggest(name string, candidates []string) string {
	if len(name) < 2 {
		return ""
	}
	limit := min(max(len(name)/3, 1), 3)
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == name || len(c) < 2 {
			continue
		}
		d := suggest.Distance(strings.ToLower(name), strings.ToLower(c), limit)
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// placeholders returns the names that stand alone in an interpolation of
// a double-quoted string ("Bearer ${API_KEY}").
func placeholders(f *ast.File) map[*ast.Ident]bool {
	out := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.StringLit); ok && s.Kind == ast.StringDouble {
			for _, part := range s.Parts {
				if id, ok := part.Expr.(*ast.Ident); ok {
					out[id] = true
				}
			}
		}
		return true
	})
	return out
}

// runtimeLoaders are the calls that compile Leia source at run time into
// chunks sharing the program's globals (require keeps a module's
// declarations local, so it is not one).
var runtimeLoaders = map[string]bool{
	"load": true, "loadfile": true, "dofile": true,
	"script.eval": true, "script.compile": true, "script.run": true,
	"script.runFile": true, "script.loadFile": true,
}

// firstLoader returns the file's first call of a run-time loader, or nil.
func firstLoader(f *ast.File) *ast.CallExpr {
	var first *ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if first != nil {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok && runtimeLoaders[calleeName(c.Fun)] {
			first = c
			return false
		}
		return true
	})
	return first
}

// calleeName spells a callee written as a name or module.member.
func calleeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.FieldExpr:
		if m, ok := x.X.(*ast.Ident); ok && x.Field != nil {
			return m.Name + "." + x.Field.Name
		}
	}
	return ""
}
