package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// blankImports returns the packages a command's non-test files import for
// their side effects only (the way front ends register with the driver).
func blankImports(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			if imp.Name != nil && imp.Name.Name == "_" {
				out = append(out, strings.Trim(imp.Path.Value, `"`))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestSameLanguagesAsHarnCheck: the server must register every front end
// the CLI registers, or the editor would not show what CI reports.
func TestSameLanguagesAsHarnCheck(t *testing.T) {
	cli := blankImports(t, "../harn-check")
	lsp := blankImports(t, ".")
	for _, p := range cli {
		if !slices.Contains(lsp, p) {
			t.Errorf("cmd/harn-check imports %s for its side effects but cmd/leia-lsp does not", p)
		}
	}
}

// TestBlankImports proves the helper finds registrations, so the test above
// cannot pass by reading nothing.
func TestBlankImports(t *testing.T) {
	dir := t.TempDir()
	src := "package main\n\nimport (\n\t\"fmt\"\n\t_ \"example.com/harn\"\n)\n"
	if err := os.WriteFile(filepath.Join(dir, "languages.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte("package main\n\nimport _ \"example.com/testonly\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := blankImports(t, dir); len(got) != 1 || got[0] != "example.com/harn" {
		t.Errorf("blankImports = %q, want [example.com/harn]", got)
	}
}
