package harntest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

// ApplyFixes applies the first fix of every diagnostic that has one to
// src, as an editor's "fix all" would, and returns the new text. Edits
// that overlap or fall outside src are an error naming the diagnostic.
func ApplyFixes(src []byte, ds []diagnostics.Diagnostic) ([]byte, error) {
	type edit struct {
		diagnostics.TextEdit
		code string
	}
	var edits []edit
	for _, d := range ds {
		if len(d.Fixes) == 0 {
			continue
		}
		for _, e := range d.Fixes[0].Edits {
			if e.Span.Start < 0 || e.Span.Start > e.Span.End || e.Span.End > len(src) {
				return nil, fmt.Errorf("%s fix %q: edit %d-%d outside the %d-byte source", d.Code, d.Fixes[0].Title, e.Span.Start, e.Span.End, len(src))
			}
			edits = append(edits, edit{e, d.Code})
		}
	}
	slices.SortStableFunc(edits, func(a, b edit) int { return a.Span.Start - b.Span.Start })
	var out []byte
	at := 0
	for i, e := range edits {
		if i > 0 && e.Span.Start < edits[i-1].Span.End {
			return nil, fmt.Errorf("%s fix: edit at %d overlaps the %s edit ending at %d", e.code, e.Span.Start, edits[i-1].code, edits[i-1].Span.End)
		}
		out = append(out, src[at:e.Span.Start]...)
		out = append(out, e.NewText...)
		at = e.Span.End
	}
	return append(out, src[at:]...), nil
}

// RunFixes checks every .harn file directly under dir with rules (all
// when none), applies the fixes its diagnostics carry and compares the
// result with NAME.fixed beside it (`go test -update` rewrites it). A
// fixture whose check offers no fix fails, and so does a fixed text on
// which the same rules still offer a fix: applying the fixes must settle
// what they fix.
func RunFixes(t *testing.T, dir string, rules ...*analysis.Rule) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.harn"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fix fixtures in %s", dir)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			ds, src, err := Diagnostics(f, rules)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(ds, func(d diagnostics.Diagnostic) bool { return len(d.Fixes) > 0 }) {
				t.Fatalf("%s: no diagnostic offers a fix", f)
			}
			fixed, err := ApplyFixes(src, ds)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			gpath := strings.TrimSuffix(f, ".harn") + ".fixed"
			if *update {
				if err := os.WriteFile(gpath, fixed, 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				exp, err := os.ReadFile(gpath)
				if err != nil {
					t.Fatalf("missing golden %s (run go test -update): %v", gpath, err)
				}
				if string(exp) != string(fixed) {
					t.Errorf("%s: fixed text differs from %s\n--- got\n%s--- want\n%s", f, filepath.Base(gpath), fixed, exp)
				}
			}
			again := filepath.Join(t.TempDir(), filepath.Base(f))
			if err := os.WriteFile(again, fixed, 0o644); err != nil {
				t.Fatal(err)
			}
			rest, _, err := Diagnostics(again, rules)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range rest {
				if len(d.Fixes) > 0 || strings.HasPrefix(d.Code, "HARN-PAR-") {
					t.Errorf("%s: after the fixes still %s %s", f, d.Code, d.Message)
				}
			}
		})
	}
}
