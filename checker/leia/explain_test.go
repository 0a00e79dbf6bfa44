package leia_test

import (
	"io/fs"

	"testing"

	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/runtime/rhai"
	"github.com/harnlang/harn-check/runtime/validator"
)

// explainHost reads nothing (every validator path is missing) and
// compiles with the real validator contract.
var explainHost = &analysis.Host{
	ReadFile: func(string) ([]byte, error) { return nil, &fs.PathError{Op: "open", Err: fs.ErrNotExist} },
	CompileValidator: func(label string, src []byte) *analysis.ValidatorProblem {
		if _, cerr := validator.Compile(label, string(src), rhai.Limits{}); cerr != nil {
			return &analysis.ValidatorProblem{Code: cerr.Code, Message: cerr.Message}
		}
		return nil
	},
}

// TestExplainExamples runs the Wrong and Right examples of the explanation
// page of every code the Leia rules report: the code must fire for the
// wrong example and not for the right one, and neither may have other
// errors.
func TestExplainExamples(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range leia.Rules {
		for _, code := range r.Codes {
			if seen[code] {
				continue
			}
			seen[code] = true
			info, ok := diagnostics.Lookup(code)
			if !ok {
				t.Errorf("%s: no explanation page", code)
				continue
			}
			t.Run(code, func(t *testing.T) {
				if info.Wrong.Lang != "leia" || info.Right.Lang != "leia" {
					t.Fatalf("examples are %q and %q, want leia", info.Wrong.Lang, info.Right.Lang)
				}
				wrong := checkFor(code, info.Wrong.Code)
				if !has(wrong, code) {
					t.Errorf("wrong example does not produce %s:\n%s\ngot %v", code, info.Wrong.Code, wrong)
				}
				for _, d := range wrong {
					if d.Severity == diagnostics.Error && d.Code != code {
						t.Errorf("wrong example has another error: %s %s", d.Code, d.Message)
					}
				}
				for _, d := range checkFor(code, info.Right.Code) {
					if d.Code == code || d.Severity == diagnostics.Error {
						t.Errorf("right example reports %s %s:\n%s", d.Code, d.Message, info.Right.Code)
					}
				}
			})
		}
	}
	if len(seen) < 15 {
		t.Fatalf("only %d codes", len(seen))
	}
}

func check(src string) []diagnostics.Diagnostic {
	return leia.Check("example.leia", []byte(src), leia.Options{Host: explainHost}).Diagnostics
}

// declaredHost is explainHost in a project that declares its embedder's
// bindings (harn.toml [leia]), none of them go:net/http.
var declaredHost = func() *analysis.Host { h := *explainHost; h.HostDeclared = true; return &h }()

// checkFor checks an example of code's page: LEIA4006's are in a project
// that declares its bindings.
func checkFor(code, src string) []diagnostics.Diagnostic {
	if code == "LEIA4006" {
		return leia.Check("example.leia", []byte(src), leia.Options{Host: declaredHost}).Diagnostics
	}
	return check(src)
}

func has(ds []diagnostics.Diagnostic, code string) bool {
	for _, d := range ds {
		if d.Code == code {
			return true
		}
	}
	return false
}
