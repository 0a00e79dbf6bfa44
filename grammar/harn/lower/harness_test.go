package lower

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/harnlang/harn-check/grammar/generate"
	"github.com/harnlang/harn-check/grammar/generate/difftest"
	"github.com/harnlang/harn-check/grammar/generate/dsl"
)

// jsonNode is a syntax tree node as the dumper prints it; it implements
// Node, the way the Go binding's adapter will.
type jsonNode struct {
	K string      `json:"k"`
	N bool        `json:"n"`
	E bool        `json:"e"`
	M bool        `json:"m"`
	X bool        `json:"x"`
	S int         `json:"s"`
	T int         `json:"t"`
	F []string    `json:"f"`
	C []*jsonNode `json:"c"`
}

func (n *jsonNode) Kind() string                   { return n.K }
func (n *jsonNode) StartByte() int                 { return n.S }
func (n *jsonNode) EndByte() int                   { return n.T }
func (n *jsonNode) IsNamed() bool                  { return n.N }
func (n *jsonNode) IsError() bool                  { return n.E }
func (n *jsonNode) IsMissing() bool                { return n.M }
func (n *jsonNode) IsExtra() bool                  { return n.X }
func (n *jsonNode) ChildCount() int                { return len(n.C) }
func (n *jsonNode) Child(i int) Node               { return n.C[i] }
func (n *jsonNode) FieldNameForChild(i int) string { return n.F[i] }

var (
	dumperOnce sync.Once
	dumperBin  string
	dumperErr  error
)

// buildDumper generates the Harn parser from grammar.js and links it with
// the scanner and go-tree-sitter into a dumper program, cached by content.
func buildDumper() (string, error) {
	raw, err := dsl.GrammarJSON(filepath.Join("..", "grammar.js"))
	if err != nil {
		return "", err
	}
	out, err := generate.Generate(raw, generate.Options{})
	if err != nil {
		return "", err
	}
	scanner, err := os.ReadFile(filepath.Join("..", "src", "scanner.c"))
	if err != nil {
		return "", err
	}
	mainSrc, err := os.ReadFile(filepath.Join("testdata", "dumper.go.txt"))
	if err != nil {
		return "", err
	}
	langSrc, err := os.ReadFile(filepath.Join("testdata", "lang.go.txt"))
	if err != nil {
		return "", err
	}
	goSum, err := difftest.RepoGoSum()
	if err != nil {
		return "", err
	}
	goMod := fmt.Sprintf("module harnlowerdump\n\ngo 1.23\n\nrequire github.com/tree-sitter/go-tree-sitter %s\n\nrequire github.com/mattn/go-pointer v0.0.1 // indirect\n", difftest.BindingVersion)
	files := map[string][]byte{
		"go.mod":                    []byte(goMod),
		"go.sum":                    goSum,
		"main.go":                   mainSrc,
		"lang/lang.go":              langSrc,
		"lang/parser.c":             out.ParserC,
		"lang/tree_sitter/parser.h": out.ParserH,
		"lang/scanner.c":            scanner,
	}
	h := sha256.New()
	for _, name := range []string{"go.mod", "go.sum", "main.go", "lang/lang.go", "lang/parser.c", "lang/tree_sitter/parser.h", "lang/scanner.c"} {
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(files[name]))
		h.Write(files[name])
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "harn-check", "harn-lower", hex.EncodeToString(h.Sum(nil))[:20])
	bin := filepath.Join(dir, "dumper")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return "", err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", "dumper", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=1", "GOFLAGS=-mod=readonly")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the tree dumper: %v\n%s", err, msg)
	}
	return bin, nil
}

// parseAll parses the sources with the generated parser.
func parseAll(t *testing.T, sources []string) []*jsonNode {
	t.Helper()
	dumperOnce.Do(func() { dumperBin, dumperErr = buildDumper() })
	if dumperErr != nil {
		t.Fatalf("%v", dumperErr)
	}
	in, err := json.Marshal(sources)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(dumperBin)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dumper: %v: %s", err, stderr.String())
	}
	var trees []*jsonNode
	if err := json.Unmarshal(out, &trees); err != nil {
		t.Fatalf("dumper output: %v", err)
	}
	if len(trees) != len(sources) {
		t.Fatalf("dumper returned %d trees for %d sources", len(trees), len(sources))
	}
	return trees
}
