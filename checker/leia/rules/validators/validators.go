package validators

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

const code = "LEIA3008"

//go:embed doc.go
var doc string

// Rule is the validators rule.
var Rule = &analysis.Rule{
	Name:  "validators",
	Doc:   analysis.ExtractDoc(doc, "validators"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, a := range p.Facts.Agents {
		if a.Config == nil {
			continue
		}
		if f := a.Config.Lookup("on_validator_error"); f != nil {
			if s, ok := semantic.StringValue(f.Value); ok && s != "reject" && s != "accept" {
				d := p.Diag(diagnostics.SourceValidator, code, f.Value.Pos(), "on_validator_error must be \"reject\" or \"accept\", not %q", s)
				d.Help = "reject (the default) refuses an answer the validator cannot judge; accept lets it through unchecked"
				p.Report(d)
			}
		}
		f := a.Config.Lookup("validator")
		if f == nil {
			continue
		}
		rel, ok := semantic.StringValue(f.Value)
		if !ok || p.Host.ReadFile == nil || p.Host.CompileValidator == nil {
			continue
		}
		path := rel
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(p.Path), rel)
		}
		// Refused before anything is read: a file that is not a Rhai
		// script, or one outside the program's folder (the runtime denies
		// it too), must not reach a message.
		if filepath.Ext(rel) != ".rhai" {
			d := p.Diag(diagnostics.SourceValidator, code, f.Value.Pos(), "output validator %q is not a Rhai script: the path must end in .rhai (the file is not read)", rel)
			d.Help = "name the .rhai script that defines fn validate(content)"
			p.Report(d)
			continue
		}
		if _, err := sourcefs.Inside(filepath.Dir(p.Path), rel); err != nil {
			why := sourcefs.Reason(err)
			var out *sourcefs.OutsideError
			if errors.As(err, &out) {
				why = out.Describe() + " of this program"
			}
			d := p.Diag(diagnostics.SourceValidator, code, f.Value.Pos(), "output validator %q is refused: %s (the file is not read)", rel, why)
			d.Help = "keep the validator inside the program's folder; the runtime reads nothing outside it without --allow-fs"
			p.Report(d)
			continue
		}
		src, err := p.Host.ReadFile(path)
		if err != nil {
			why := err.Error()
			if errors.Is(err, fs.ErrNotExist) {
				why = "no such file"
			}
			d := p.Diag(diagnostics.SourceValidator, code, f.Value.Pos(), "cannot read output validator %q: %s", rel, why)
			d.Help = "the path is relative to this file's directory"
			p.Report(d)
			continue
		}
		if prob := p.Host.CompileValidator(rel, src); prob != nil {
			msg := fmt.Sprintf("output validator %q does not compile: %s: %s", rel, prob.Code, prob.Message)
			if prob.Line > 0 {
				msg += fmt.Sprintf(" (line %d, column %d)", prob.Line, prob.Column)
			}
			d := p.Diag(diagnostics.SourceValidator, code, f.Value.Pos(), "%s", msg)
			d.Help = fmt.Sprintf("run harn-check validate %s for the details; see harn-check explain %s", filepath.ToSlash(path), prob.Code)
			p.Report(d)
		}
	}
}
