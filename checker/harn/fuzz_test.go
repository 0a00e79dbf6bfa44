package harn_test

import (
	"os"
	"path/filepath"
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
)

// FuzzCheck feeds arbitrary source through parse and the whole checker:
// it must never panic or hang, whatever the input.
func FuzzCheck(f *testing.F) {
	for _, pattern := range []string{"testdata/*/*.harn", "rules/*/testdata/*.harn", "../../examples/*/*.harn"} {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	f.Add([]byte("import \"./x\"\nfn f(o: PredicateOutcome) { match o.kind { \"verdict\" -> { o.value } } }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		loader := harn.MapLoader{"x.harn": []byte("pub fn g() { return h }\n")}
		res := harn.Check("fuzz.harn", src, harn.Options{Loader: loader})
		for _, d := range res.Diagnostics {
			if d.Span.Start < 0 || d.Span.End > len(src) || d.Span.Start > d.Span.End {
				t.Fatalf("diagnostic %s span %v outside the %d-byte source", d.Code, d.Span, len(src))
			}
		}
	})
}
