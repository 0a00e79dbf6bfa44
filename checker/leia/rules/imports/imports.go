package imports

import (
	_ "embed"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
)

const code = "LEIA4006"

//go:embed doc.go
var doc string

// Rule is the imports rule.
var Rule = &analysis.Rule{
	Name:  "imports",
	Doc:   analysis.ExtractDoc(doc, "imports"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		imp, ok := n.(*ast.ImportDecl)
		if !ok {
			return true
		}
		for _, spec := range imp.Specs {
			path, ok := spec.Path.Value()
			if !ok || !strings.HasPrefix(path, "go:") {
				continue
			}
			if slices.Contains(p.Host.GoModules, path) {
				continue
			}
			d := p.Diag(diagnostics.SourceType, code, spec.Path.Span, "import %q is not an allow-listed Go binding", path)
			if len(p.Host.GoModules) == 0 {
				d.Help = "this host registers no go: bindings; use a standard-library module (require(\"json\"), fs, http, ...) or a host that registers this one"
			} else {
				d.Help = "allow-listed: " + strings.Join(p.Host.GoModules, ", ")
			}
			p.Report(d)
		}
		return false
	})
}
