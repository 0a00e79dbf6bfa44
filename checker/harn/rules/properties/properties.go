package properties

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/english"
	"github.com/harnlang/harn-check/lang/harn/types"
)

const code = "HARN-TYP-008"

//go:embed doc.go
var doc string

// Rule is the properties rule.
var Rule = &analysis.Rule{
	Name:  "properties",
	Doc:   analysis.ExtractDoc(doc, "properties"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, r := range p.Facts.Reads {
		if r.Kind != "property" || r.Field == "" {
			continue
		}
		kind := scalar(r.Recv)
		if kind == "" {
			continue
		}
		d := p.Diag(diagnostics.SourceType, code, r.NameSpan, "cannot access property `%s` on %s", r.Field, kind)
		d.Help = english.A(kind) + " has no properties; read the field from the value that holds it"
		if kind == "nil" {
			d.Help = "the value is always nil here; use ?. to read through a value that may be nil"
		}
		p.Report(d)
	}
}

// scalar names the kind of a value without properties, or "".
func scalar(t types.Type) string {
	switch u := types.Unalias(t).(type) {
	case *types.Basic:
		switch u.Kind {
		case types.Int, types.Float, types.Bool, types.Nil:
			return u.String()
		}
	case *types.Literal:
		if b, ok := u.Base().(*types.Basic); ok && b.Kind != types.String {
			return b.String()
		}
	}
	return ""
}
