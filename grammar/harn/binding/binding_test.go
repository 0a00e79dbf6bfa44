package binding

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/lower"
)

// TestLanguageLoads parses every example through the binding: no syntax
// diagnostics and a lowered tree with items.
func TestLanguageLoads(t *testing.T) {
	if Language().AbiVersion() == 0 {
		t.Fatal("language reports ABI 0")
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*", "*.harn"))
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, diags := Parse(f, src)
		if len(diags) != 0 {
			t.Errorf("%s: %d syntax diagnostics, first: %s", f, len(diags), diags[0].Message)
		}
		if len(file.Items) == 0 || len(file.Errors) != 0 {
			t.Errorf("%s: %d items, %d errors", f, len(file.Items), len(file.Errors))
		}
	}
}

func TestBrokenInput(t *testing.T) {
	file, diags := Parse("x.harn", []byte("fn f() {\n  let x = (1 +\n"))
	if len(diags) == 0 || len(file.Errors) == 0 {
		t.Errorf("broken input: %d diagnostics, %d tree errors", len(diags), len(file.Errors))
	}
	// The parse table's lookahead names what was expected.
	_, diags = Parse("x.harn", []byte("fn f(a: int, +) { }\n"))
	if len(diags) != 1 || !strings.HasSuffix(diags[0].Message, "expected a name, `)` or `...`") {
		t.Errorf("diagnostics = %+v", diags)
	}
}

// TestSnapshotMatchesAdapter: lowering from the Go copy of the tree and
// from the direct node adapter gives the same syntax tree.
func TestSnapshotMatchesAdapter(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*", "*.harn"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tree := ParseTree(src, nil)
		a := ast.Dump(lower.File(src, Wrap(tree.RootNode())))
		b := ast.Dump(lower.File(src, Snapshot(tree)))
		tree.Close()
		if a != b {
			t.Errorf("%s: snapshot lowering differs from adapter lowering", f)
		}
	}
}
