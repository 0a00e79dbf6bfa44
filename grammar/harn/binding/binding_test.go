package binding

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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
	if len(diags) != 1 || !strings.HasPrefix(diags[0].Message, "Expected name, `)` or `...`") {
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

// TestSnapshotFlags: every node of the Go copy has the kind, span and flags
// the tree reports directly, on valid and broken inputs (ERROR and MISSING
// nodes included).
func TestSnapshotFlags(t *testing.T) {
	sources := []string{
		"fn f() {\n  let x = (1 +\n}\n",
		"let xs = [1, 2\nlog(xs)\n",
		"fn f(a: int, +) { }\n",
		"match v { \"a\" => { } }\n",
		"let s = \"abc\nlet t = 1\n",
		"block {\n  let a = request_approval(\"x\", quorum: 2)\n",
		"/* c */ let y = obj.m<int>() // d\n",
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*", "*.harn"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, string(src))
	}
	var errs, missing int
	var compare func(path string, a, b lower.Node)
	compare = func(path string, a, b lower.Node) {
		if a.Kind() != b.Kind() || a.StartByte() != b.StartByte() || a.EndByte() != b.EndByte() ||
			a.IsNamed() != b.IsNamed() || a.IsError() != b.IsError() || a.IsMissing() != b.IsMissing() ||
			a.IsExtra() != b.IsExtra() || a.ChildCount() != b.ChildCount() {
			t.Errorf("%s: tree node %s [%d,%d) named=%v error=%v missing=%v extra=%v, snapshot %s [%d,%d) named=%v error=%v missing=%v extra=%v",
				path, a.Kind(), a.StartByte(), a.EndByte(), a.IsNamed(), a.IsError(), a.IsMissing(), a.IsExtra(),
				b.Kind(), b.StartByte(), b.EndByte(), b.IsNamed(), b.IsError(), b.IsMissing(), b.IsExtra())
			return
		}
		if a.IsError() {
			errs++
		}
		if a.IsMissing() {
			missing++
		}
		for i := 0; i < a.ChildCount(); i++ {
			if a.FieldNameForChild(i) != b.FieldNameForChild(i) {
				t.Errorf("%s: child %d field %q, snapshot %q", path, i, a.FieldNameForChild(i), b.FieldNameForChild(i))
			}
			compare(path+"/"+a.Kind(), a.Child(i), b.Child(i))
		}
	}
	for _, src := range sources {
		tree := ParseTree([]byte(src), nil)
		compare("", Wrap(tree.RootNode()), Snapshot(tree))
		tree.Close()
	}
	if errs == 0 || missing == 0 {
		t.Errorf("inputs gave %d ERROR and %d MISSING nodes; the test needs both", errs, missing)
	}
}

// TestStampMatchesCSources: binding/parser_stamp.go holds the digest of the
// C sources it compiles, so a scanner or parser change without `go generate
// ./grammar/harn` fails here rather than leaving a stale build cached.
func TestStampMatchesCSources(t *testing.T) {
	h := sha256.New()
	for _, name := range []string{"parser.c", "scanner.c"} {
		data, err := os.ReadFile(filepath.Join("..", "src", name))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s %d\n", name, len(data))
		h.Write(data)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != cSourcesDigest {
		t.Errorf("src/parser.c and src/scanner.c digest %s, stamp %s: run go generate ./grammar/harn", got, cSourcesDigest)
	}
}
