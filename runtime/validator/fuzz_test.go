package validator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/harnlang/harn-check/runtime/rhai"
)

// FuzzValidateContent runs the example a2ui validator on arbitrary
// answers: every call ends with a verdict within the budget.
func FuzzValidateContent(f *testing.F) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "validators", "validators", "a2ui.rhai"))
	if err != nil {
		f.Fatal(err)
	}
	v, cerr := Compile("a2ui.rhai", string(src), rhai.Limits{})
	if cerr != nil {
		f.Fatal(cerr)
	}
	for _, s := range []string{a2uiAnswer(2000), `{"root": {"component": "Text"}}`, `{"root": 1}`, `[]`, "", "{\"root\": {\"component\": \"Column\", \"children\": [{\"component\": \"X\"}]}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		r := v.Validate(content)
		switch r.Verdict {
		case Pass, Reject:
		case Failure:
			if r.Failure == nil || r.Failure.Kind == "internal_error" || r.Failure.Kind == "bad_return_type" {
				t.Fatalf("unexpected failure %+v", r.Failure)
			}
		default:
			t.Fatalf("verdict %q", r.Verdict)
		}
	})
}
