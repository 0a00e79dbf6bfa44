package leia

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/ast/*.golden")

// TestLowerRealTrees lowers every corpus case and example from real parse
// trees: lowering reports errors exactly when the tree has ERROR or MISSING
// nodes (so nothing is silently dropped and nothing valid is rejected).
func TestLowerRealTrees(t *testing.T) {
	srcs := samples(t)
	var names []string
	for n := range srcs {
		names = append(names, n)
	}
	errorCase := map[string]bool{}
	for _, c := range loadCorpus(t) {
		errorCase[c.file+"/"+c.title] = c.hasAttr(":error")
	}
	res := lowerAll(t, names, srcs)
	for _, n := range names {
		r, ok := res[n]
		if !ok {
			t.Errorf("%s: no result", n)
			continue
		}
		if (r.Errors > 0) != r.HasError {
			t.Errorf("%s: lowering found %d errors, tree has error = %v\n%s", n, r.Errors, r.HasError, r.Dump)
		}
		// Only the corpus case about malformed numbers has such tokens.
		if want := strings.Contains(n, "malformed token"); (r.Malformed > 0) != want {
			t.Errorf("%s: lowering found %d malformed tokens, want some = %v", n, r.Malformed, want)
		}
		if r.HasError != errorCase[n] {
			t.Errorf("%s: tree has error = %v, want %v", n, r.HasError, errorCase[n])
		}
	}
}

// TestASTGoldens lowers testdata/ast/*.leia from real parse trees and
// compares each dump with its .golden file (refresh with -update).
func TestASTGoldens(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "ast", "*.leia"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/ast/*.leia inputs")
	}
	srcs := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = data
	}
	res := lowerAll(t, files, srcs)
	for _, f := range files {
		golden := strings.TrimSuffix(f, ".leia") + ".golden"
		got := res[f].Dump
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%v (run with -update to create it)", err)
			continue
		}
		if got != string(want) {
			t.Errorf("%s: lowered AST differs from %s:\n%s", f, golden, got)
		}
	}
}
