package leia

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/harnlang/harn-check/grammar/generate/difftest"
)

var update = flag.Bool("update", false, "rewrite testdata/ast/*.golden")

// lowerHelperMain is a program linking the generated parser, the scanner
// and package ast: it reads [{name, src}] as JSON on stdin, parses and
// lowers each source, and writes [{name, dump, errors}]. It stands in for
// the Go binding until the generated parser is committed.
const lowerHelperMain = `package main

// #cgo CFLAGS: -I${SRCDIR} -std=c11 -O1
// #include "tree_sitter/parser.h"
// const TSLanguage *tree_sitter_leia(void);
import "C"

import (
	"encoding/json"
	"os"
	"unsafe"

	"github.com/harnlang/harn-check/grammar/leia/ast"
	sitter "github.com/tree-sitter/go-tree-sitter"
)

type node struct{ n *sitter.Node }

func wrap(n *sitter.Node) ast.TreeNode {
	if n == nil {
		return nil
	}
	return node{n}
}

func (x node) Kind() string                   { return x.n.Kind() }
func (x node) StartByte() uint                { return x.n.StartByte() }
func (x node) EndByte() uint                  { return x.n.EndByte() }
func (x node) IsNamed() bool                  { return x.n.IsNamed() }
func (x node) IsError() bool                  { return x.n.IsError() }
func (x node) IsMissing() bool                { return x.n.IsMissing() }
func (x node) ChildCount() int                { return int(x.n.ChildCount()) }
func (x node) Child(i int) ast.TreeNode       { return wrap(x.n.Child(uint(i))) }
func (x node) FieldNameForChild(i int) string { return x.n.FieldNameForChild(uint32(i)) }

type in struct {
	Name string
	Src  string
}

type out struct {
	Name     string
	Dump     string
	Errors   int
	HasError bool
}

func main() {
	var ins []in
	if err := json.NewDecoder(os.Stdin).Decode(&ins); err != nil {
		panic(err)
	}
	p := sitter.NewParser()
	if err := p.SetLanguage(sitter.NewLanguage(unsafe.Pointer(C.tree_sitter_leia()))); err != nil {
		panic(err)
	}
	var outs []out
	for _, x := range ins {
		src := []byte(x.Src)
		tree := p.Parse(src, nil)
		f := ast.Lower(wrap(tree.RootNode()), src)
		outs = append(outs, out{x.Name, ast.Dump(f), len(f.Errors), tree.RootNode().HasError()})
		tree.Close()
	}
	json.NewEncoder(os.Stdout).Encode(outs)
}
`

type lowered struct {
	Name     string
	Dump     string
	Errors   int
	HasError bool
}

var (
	lowerOnce sync.Once
	lowerBin  string
	lowerErr  error
)

// lowerHelper builds the lowering helper in a fixed directory under the
// difftest cache (so the C compile of parser.c is reused between runs).
func lowerHelper(t *testing.T) string {
	t.Helper()
	out := generated(t)
	lowerOnce.Do(func() {
		lowerBin, lowerErr = buildLowerHelper(out.ParserC, out.ParserH)
	})
	if lowerErr != nil {
		t.Fatalf("building the lowering helper: %v", lowerErr)
	}
	return lowerBin
}

func buildLowerHelper(parserC, parserH []byte) (string, error) {
	cache, err := difftest.CacheDir()
	if err != nil {
		return "", err
	}
	root, err := difftest.RepoRoot()
	if err != nil {
		return "", err
	}
	sum, err := difftest.RepoGoSum()
	if err != nil {
		return "", err
	}
	scanner, err := os.ReadFile(filepath.Join("src", "scanner.c"))
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "leia-lower-helper")
	goMod := fmt.Sprintf("module leialowerhelper\n\ngo 1.26\n\nrequire (\n\tgithub.com/harnlang/harn-check v0.0.0\n\tgithub.com/tree-sitter/go-tree-sitter %s\n)\n\nrequire github.com/mattn/go-pointer v0.0.1 // indirect\n\nreplace github.com/harnlang/harn-check => %s\n", difftest.BindingVersion, root)
	files := map[string][]byte{
		"go.mod":               []byte(goMod),
		"go.sum":               sum,
		"main.go":              []byte(lowerHelperMain),
		"parser.c":             parserC,
		"scanner.c":            scanner,
		"tree_sitter/parser.h": parserH,
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, data) {
			continue // keep the mtime so the build cache stays valid
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return "", err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", "helper", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=1", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build in %s: %v\n%s", dir, err, out)
	}
	return filepath.Join(dir, "helper"), nil
}

// lowerAll parses and lowers sources with the helper.
func lowerAll(t *testing.T, names []string, srcs map[string][]byte) map[string]lowered {
	t.Helper()
	type in struct{ Name, Src string }
	var ins []in
	for _, n := range names {
		ins = append(ins, in{n, string(srcs[n])})
	}
	data, err := json.Marshal(ins)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(lowerHelper(t))
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("lowering helper: %v\n%s", err, stderr.String())
	}
	var res []lowered
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	m := map[string]lowered{}
	for _, r := range res {
		m[r.Name] = r
	}
	return m
}

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
