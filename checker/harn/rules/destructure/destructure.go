package destructure

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/english"
	"github.com/harnlang/harn-check/lang/harn/types"
)

const code = "HARN-TYP-009"

//go:embed doc.go
var doc string

// Rule is the destructure rule.
var Rule = &analysis.Rule{
	Name:  "destructure",
	Doc:   analysis.ExtractDoc(doc, "destructure"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, d := range p.Facts.Destructures {
		kind := kindOf(d.Value)
		if kind == "" || fits(kind, d) {
			continue
		}
		pattern, want := "{...}", "a dict"
		if d.List {
			pattern, want = "[...]", "a list"
		}
		diag := p.Diag(diagnostics.SourceType, code, d.Span, "cannot destructure %s with %s pattern", kind, pattern)
		diag.Help = "this takes apart " + want + "; the value is " + english.A(kind)
		p.Report(diag)
	}
}

// fits reports whether a value of kind may be taken apart by d.
func fits(kind string, d analysis.Destructure) bool {
	if d.List {
		return kind == "list"
	}
	return kind == "dict"
}

// kindOf names the runtime kind of a value of type t when it is certain:
// "dict", "list", "string", "int", "float" or "bool"; "" otherwise.
func kindOf(t types.Type) string {
	switch u := types.Unalias(t).(type) {
	case *types.Basic:
		switch u.Kind {
		case types.Int, types.Float, types.Bool, types.String:
			return u.String()
		}
	case *types.Literal:
		return kindOf(u.Base())
	case *types.List, *types.Tuple:
		return "list"
	case *types.Dict, *types.Record:
		return "dict"
	}
	return ""
}
