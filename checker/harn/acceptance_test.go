package harn_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/builtins"
)

// TestAcceptance runs the whole checker over programs shaped like the
// seed's examples (clean) and their mutations, each of which must produce
// exactly its code and nothing else.
func TestAcceptance(t *testing.T) {
	analysistest.Run(t, "testdata/acceptance", harn.Checker)
}

// TestQuiet: ordinary, partly untyped Harn programs produce no diagnostic
// at all (gradual code must not drown in noise).
func TestQuiet(t *testing.T) {
	analysistest.Run(t, "testdata/quiet", harn.Checker)
}

// TestCorpus: our own valid Harn programs, covering the language's
// declarations, scopes and flow typing and every category of the
// standard library, check with no diagnostic at all.
func TestCorpus(t *testing.T) {
	analysistest.Run(t, "testdata/corpus", harn.Checker)
}

// TestCorpusCoversEveryCategory: the corpus calls at least one builtin of
// every section of the builtin table (or reads one of its globals), so a
// signature that rejects ordinary use shows up in TestCorpus.
func TestCorpusCoversEveryCategory(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.harn")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	covered := map[string]int{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res := harn.Check(f, src, harn.Options{Loader: harn.OSLoader{}})
		for _, c := range res.Facts.Calls {
			if b := builtins.Lookup(c.Name); c.Builtin && b != nil {
				covered[b.Category]++
			}
		}
		for e := range res.Facts.Types {
			if id, ok := e.(*ast.Ident); ok {
				if g := builtins.LookupGlobal(id.Name); g != nil {
					covered[g.Category]++
				}
			}
		}
	}
	for _, c := range builtins.Categories() {
		if covered[c.ID] == 0 {
			t.Errorf("the corpus uses nothing of category %s (%s)", c.ID, c.Title)
		}
	}
}
