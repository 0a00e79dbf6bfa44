package imports

import (
	_ "embed"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
)

const (
	code           = "LEIA4006"
	codeUndeclared = "LEIA4012"
)

//go:embed doc.go
var doc string

// Rule is the imports rule.
var Rule = &analysis.Rule{
	Name:  "imports",
	Doc:   analysis.ExtractDoc(doc, "imports"),
	Codes: []string{code, codeUndeclared},
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
			if !p.Host.HostDeclared && len(p.Host.GoModules) == 0 {
				d := p.Diag(diagnostics.SourceType, codeUndeclared, spec.Path.Span, "import %q needs a Go binding the embedder registers, and no project declares it", path)
				d.Help = "declare the bindings of the embedding program in harn.toml: [leia] go_modules = [\"" + path + "\"]; harn-check's own runtime registers none"
				p.Report(d)
				continue
			}
			d := p.Diag(diagnostics.SourceType, code, spec.Path.Span, "import %q is not an allow-listed Go binding", path)
			if len(p.Host.GoModules) == 0 {
				d.Help = "the project declares no go: bindings ([leia] go_modules in harn.toml); use a standard-library module (require(\"json\"), fs, http, ...) or declare this one"
			} else {
				d.Help = "allow-listed: " + strings.Join(p.Host.GoModules, ", ")
			}
			p.Report(d)
		}
		return false
	})
}
