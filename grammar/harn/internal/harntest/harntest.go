// Package harntest parses Harn sources with a parser generated on the fly
// from grammar/harn/grammar.js, for the tests of the packages that consume
// syntax trees (lowering, syntax diagnostics) before the Go binding with a
// committed parser exists.
//
// It generates parser.c with grammar/generate, links it with src/scanner.c
// and go-tree-sitter into a small dumper program (built once per content
// hash under the user cache directory), and decodes the dumped trees into
// Tree values, which implement lower.Node.
package harntest

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/harnlang/harn-check/grammar/generate"
	"github.com/harnlang/harn-check/grammar/generate/difftest"
	"github.com/harnlang/harn-check/grammar/generate/dsl"
	"github.com/harnlang/harn-check/grammar/harn/lower"
)

//go:embed dumper.go.txt
var dumperMain []byte

//go:embed lang.go.txt
var dumperLang []byte

// Tree is a syntax tree node as the dumper prints it.
type Tree struct {
	K string   `json:"k"`
	N bool     `json:"n"`
	E bool     `json:"e"`
	M bool     `json:"m"`
	X bool     `json:"x"`
	S int      `json:"s"`
	T int      `json:"t"`
	F []string `json:"f"`
	C []*Tree  `json:"c"`
	// XP, on ERROR nodes, lists what the parser would have accepted there.
	XP []string `json:"xp"`
}

// Expected implements syntaxdiag.Expecter.
func (n *Tree) Expected() []string { return n.XP }

// Kind implements lower.Node.
func (n *Tree) Kind() string { return n.K }

// StartByte implements lower.Node.
func (n *Tree) StartByte() int { return n.S }

// EndByte implements lower.Node.
func (n *Tree) EndByte() int { return n.T }

// IsNamed implements lower.Node.
func (n *Tree) IsNamed() bool { return n.N }

// IsError implements lower.Node.
func (n *Tree) IsError() bool { return n.E }

// IsMissing implements lower.Node.
func (n *Tree) IsMissing() bool { return n.M }

// IsExtra implements lower.Node.
func (n *Tree) IsExtra() bool { return n.X }

// ChildCount implements lower.Node.
func (n *Tree) ChildCount() int { return len(n.C) }

// Child implements lower.Node.
func (n *Tree) Child(i int) lower.Node { return n.C[i] }

// FieldNameForChild implements lower.Node.
func (n *Tree) FieldNameForChild(i int) string { return n.F[i] }

// HasError reports whether the tree holds an ERROR or MISSING node.
func (n *Tree) HasError() bool {
	if n.E || n.M {
		return true
	}
	for _, c := range n.C {
		if c.HasError() {
			return true
		}
	}
	return false
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// grammarDir is grammar/harn, found from this file's location.
func grammarDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func build() (string, error) {
	dir := grammarDir()
	raw, err := dsl.GrammarJSON(filepath.Join(dir, "grammar.js"))
	if err != nil {
		return "", err
	}
	out, err := generate.Generate(raw, generate.Options{})
	if err != nil {
		return "", err
	}
	scanner, err := os.ReadFile(filepath.Join(dir, "src", "scanner.c"))
	if err != nil {
		return "", err
	}
	goSum, err := difftest.RepoGoSum()
	if err != nil {
		return "", err
	}
	goMod := fmt.Sprintf("module harnlowerdump\n\ngo 1.23\n\nrequire github.com/tree-sitter/go-tree-sitter %s\n\nrequire github.com/mattn/go-pointer v0.0.1 // indirect\n", difftest.BindingVersion)
	names := []string{"go.mod", "go.sum", "main.go", "lang/lang.go", "lang/parser.c", "lang/tree_sitter/parser.h", "lang/scanner.c"}
	files := map[string][]byte{
		"go.mod":                    []byte(goMod),
		"go.sum":                    goSum,
		"main.go":                   dumperMain,
		"lang/lang.go":              dumperLang,
		"lang/parser.c":             out.ParserC,
		"lang/tree_sitter/parser.h": out.ParserH,
		"lang/scanner.c":            scanner,
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", runtime.Version())
	for _, name := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(files[name]))
		h.Write(files[name])
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	work := filepath.Join(cache, "harn-check", "harn-dumper", hex.EncodeToString(h.Sum(nil))[:20])
	bin := filepath.Join(work, "dumper")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	for _, name := range names {
		p := filepath.Join(work, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return "", err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", "dumper.tmp", ".")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=1", "GOFLAGS=-mod=readonly")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("harntest: building the tree dumper: %v\n%s", err, msg)
	}
	if err := os.Rename(filepath.Join(work, "dumper.tmp"), bin); err != nil {
		return "", err
	}
	return bin, nil
}

// Parse parses each source with the generated Harn parser.
func Parse(sources []string) ([]*Tree, error) {
	buildOnce.Do(func() { binPath, buildErr = build() })
	if buildErr != nil {
		return nil, buildErr
	}
	in, err := json.Marshal(sources)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(binPath)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("harntest: dumper: %v: %s", err, stderr.String())
	}
	var trees []*Tree
	if err := json.Unmarshal(out, &trees); err != nil {
		return nil, fmt.Errorf("harntest: dumper output: %w", err)
	}
	if len(trees) != len(sources) {
		return nil, fmt.Errorf("harntest: %d trees for %d sources", len(trees), len(sources))
	}
	return trees, nil
}
