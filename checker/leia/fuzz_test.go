package leia_test

import (
	"os"
	"path/filepath"
	"testing"

	leia "github.com/harnlang/harn-check/checker/leia"
)

// FuzzCheck runs the whole checker on arbitrary text: it must never panic
// and every diagnostic span must lie inside the source. Seeds are the
// clean corpus and every rule fixture.
func FuzzCheck(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/clean/*.leia")
	fixtures, _ := filepath.Glob("rules/*/testdata/*.leia")
	for _, p := range append(seeds, fixtures...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("goto x\nx:\nx:\nbreak\nq { ${ q { ${y} } } }\nagent a(b) { tools: [c, c] caps: [1] } flow { return }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		res := leia.Check("fuzz.leia", src, leia.Options{Host: explainHost})
		for _, d := range res.Diagnostics {
			if d.Span.Start < 0 || d.Span.End > len(src) || d.Span.Start > d.Span.End {
				t.Fatalf("%s span %v outside a %d-byte source: %s", d.Code, d.Span, len(src), d.Message)
			}
			for _, fx := range d.Fixes {
				for _, e := range fx.Edits {
					if e.Span.Start < 0 || e.Span.End > len(src) || e.Span.Start > e.Span.End {
						t.Fatalf("%s fix edit %v outside the source", d.Code, e.Span)
					}
				}
			}
		}
	})
}
