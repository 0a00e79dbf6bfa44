package harn

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate"
	"github.com/harnlang/harn-check/grammar/generate/dsl"
	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

// The grammar is evaluated and generated once per test binary.
var (
	loadOnce   sync.Once
	grammarRaw []byte
	generated  *generate.Output
	loadErr    error
)

// load evaluates grammar.js and generates the parser from it.
func load(t *testing.T) ([]byte, *generate.Output) {
	t.Helper()
	loadOnce.Do(func() {
		grammarRaw, loadErr = dsl.GrammarJSON("grammar.js")
		if loadErr != nil {
			return
		}
		generated, loadErr = generate.Generate(grammarRaw, generate.Options{})
	})
	if loadErr != nil {
		t.Fatalf("grammar.js: %v", loadErr)
	}
	return grammarRaw, generated
}

// TestGrammarPrepares runs grammar.js through the generator's validation and
// normalisation stage, which rejects unknown rule names, rules matching the
// empty string, bad precedences and the like.
func TestGrammarPrepares(t *testing.T) {
	raw, err := dsl.GrammarJSON("grammar.js")
	if err != nil {
		t.Fatalf("evaluating grammar.js: %v", err)
	}
	g, err := input.Parse(raw)
	if err != nil {
		t.Fatalf("decoding grammar.json: %v", err)
	}
	if g.Name != "harn" {
		t.Errorf("grammar name = %q, want harn", g.Name)
	}
	if g.Word != "identifier" {
		t.Errorf("word = %q, want identifier", g.Word)
	}
	p, err := prepare.Prepare(g)
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	// The scanner's token order is fixed by enum TokenType in scanner.c.
	want := []string{"_newline", "block_comment", "string_content", "multiline_string_content", "raw_string", "_error_sentinel"}
	if len(p.Syntax.Externals) != len(want) {
		t.Fatalf("externals = %d, want %d", len(p.Syntax.Externals), len(want))
	}
	for i, ext := range p.Syntax.Externals {
		if ext.Name != want[i] {
			t.Errorf("external %d = %q, want %q (scanner.c enum order)", i, ext.Name, want[i])
		}
	}
}

// TestGrammarGenerates runs the whole generator, which fails on unresolved
// LR conflicts and on conflicts declared but never needed.
func TestGrammarGenerates(t *testing.T) {
	_, out := load(t)
	if len(out.ParserC) == 0 || len(out.NodeTypesJSON) == 0 {
		t.Fatal("generator produced empty output")
	}
	t.Logf("states %d (large %d), symbols %d, tokens %d, lex states %d",
		out.Stats.States, out.Stats.LargeStates, out.Stats.Symbols, out.Stats.Tokens, out.Stats.LexStates)
}

// writeParserDir writes a parser source directory (generated parser.c and
// header plus the hand-written scanner) for the helper builder.
func writeParserDir(t *testing.T, out *generate.Output) string {
	t.Helper()
	dir := t.TempDir()
	scanner, err := os.ReadFile(filepath.Join("src", "scanner.c"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"parser.c":             out.ParserC,
		"tree_sitter/parser.h": out.ParserH,
		"scanner.c":            scanner,
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
