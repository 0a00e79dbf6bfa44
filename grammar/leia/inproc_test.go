package leia

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/generate/difftest"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/grammar/leia/binding"
)

// inProcess parses with the committed parser through package binding; it
// answers the same questions the difftest helper program answered before
// the generated parser was committed. TestGeneratedFilesCurrent keeps the
// committed parser equal to what grammar.js generates.
type inProcess struct{}

func startParser(t *testing.T) inProcess {
	t.Helper()
	return inProcess{}
}

func (inProcess) ParseFile(path string, full bool) (*difftest.Result, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return inProcess{}.ParseText(src, full)
}

func (inProcess) ParseText(src []byte, full bool) (*difftest.Result, error) {
	tree := binding.ParseTree(src, nil)
	if tree == nil {
		return &difftest.Result{Err: "the parser gave up (budget exhausted)"}, nil
	}
	defer tree.Close()
	root := tree.RootNode()
	res := &difftest.Result{HasError: root.HasError(), EditMismatch: -1}
	if full {
		res.Sexp = root.ToSexp()
	}
	return res, nil
}

// Edits applies edits one at a time, reparsing incrementally, and records
// the first edit after which the incremental tree differs from a fresh one.
func (inProcess) Edits(src []byte, edits []difftest.Edit, full bool) (*difftest.Result, error) {
	res := &difftest.Result{EditMismatch: -1}
	tree := binding.ParseTree(src, nil)
	if tree == nil {
		return &difftest.Result{Err: "the parser gave up (budget exhausted)"}, nil
	}
	for i, e := range edits {
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			tree.Close()
			return nil, fmt.Errorf("edit %d: range %d..%d outside %d bytes", i, e.Start, e.End, len(src))
		}
		next := append(append(append([]byte{}, src[:e.Start]...), e.Insert...), src[e.End:]...)
		tree.Edit(&sitter.InputEdit{
			StartByte: uint(e.Start), OldEndByte: uint(e.End), NewEndByte: uint(e.Start + len(e.Insert)),
			StartPosition: pointAt(src, e.Start), OldEndPosition: pointAt(src, e.End),
			NewEndPosition: pointAt(next, e.Start+len(e.Insert)),
		})
		inc := binding.ParseTree(next, tree)
		tree.Close()
		fresh := binding.ParseTree(next, nil)
		if inc == nil || fresh == nil {
			return &difftest.Result{Err: fmt.Sprintf("edit %d: the parser gave up", i)}, nil
		}
		a, b := inc.RootNode().ToSexp(), fresh.RootNode().ToSexp()
		fresh.Close()
		if a != b && res.EditMismatch < 0 {
			res.EditMismatch, res.Incremental, res.Fresh = i, a, b
		}
		tree, src = inc, next
	}
	res.HasError = tree.RootNode().HasError()
	if full {
		res.Sexp = tree.RootNode().ToSexp()
	}
	tree.Close()
	return res, nil
}

func pointAt(src []byte, off int) sitter.Point {
	row := uint(bytes.Count(src[:off], []byte{'\n'}))
	col := uint(off - (bytes.LastIndexByte(src[:off], '\n') + 1))
	return sitter.Point{Row: row, Column: col}
}

// lowered is one source parsed and lowered in process.
type lowered struct {
	Name string
	Dump string
	// Errors counts the parse errors lowering found; Malformed the tokens
	// the lexer could not read as written (ast.Error.Token set), which are
	// no ERROR node of the tree.
	Errors    int
	Malformed int
	HasError  bool
}

// lowerAll parses and lowers each named source with package binding.
func lowerAll(t *testing.T, names []string, srcs map[string][]byte) map[string]lowered {
	t.Helper()
	out := map[string]lowered{}
	for _, n := range names {
		src := srcs[n]
		tree := binding.ParseTree(src, nil)
		if tree == nil {
			t.Fatalf("%s: the parser gave up", n)
		}
		root := tree.RootNode()
		file := ast.Lower(binding.Snapshot(root), src)
		l := lowered{Name: n, Dump: ast.Dump(file), HasError: root.HasError()}
		for _, e := range file.Errors {
			if e.Token != "" {
				l.Malformed++
			} else {
				l.Errors++
			}
		}
		out[n] = l
		tree.Close()
	}
	return out
}

// TestGeneratedFilesCurrent regenerates the parser from grammar.js and
// requires the committed files under src/ to be byte-identical, so the
// tests that parse through package binding test the grammar as written.
func TestGeneratedFilesCurrent(t *testing.T) {
	out := generated(t)
	for name, want := range map[string][]byte{
		"parser.c": out.ParserC, "tree_sitter/parser.h": out.ParserH,
		"grammar.json": out.GrammarJSON, "node-types.json": out.NodeTypesJSON,
	} {
		got, err := os.ReadFile(filepath.Join("src", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("src/%s is not what grammar.js generates; run `go generate ./grammar/leia`", name)
		}
	}
}
