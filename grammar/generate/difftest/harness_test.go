package difftest

import (
	"bytes"
	"context"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/grammar/generate/difftest/npmcache"
)

// jsonSrc fetches tree-sitter-json and copies its src directory to a temp
// dir, applying replacements to parser.c.
func patchedJSON(t *testing.T, replace ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("downloads and builds tree-sitter-json from npm; run without -short")
	}
	dir, err := npmcache.Fetch(context.Background(), npmcache.Grammars[0])
	if errors.Is(err, npmcache.ErrUnreachable) {
		t.Skipf("SKIP: needs the network (the npm registry, offline here): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	files, err := sourceFiles(filepath.Join(dir, "src"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	for name, data := range files {
		if name == "parser.c" {
			for i := 0; i+1 < len(replace); i += 2 {
				if !bytes.Contains(data, []byte(replace[i])) {
					t.Fatalf("parser.c has no %q to patch", replace[i])
				}
				data = bytes.Replace(data, []byte(replace[i]), []byte(replace[i+1]), 1)
			}
		}
		p := filepath.Join(out, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestHarnessDetectsDifferences is the negative control: a parser that
// differs from the official one only in one symbol name must be caught by
// both the static check and the tree comparison.
func TestHarnessDetectsDifferences(t *testing.T) {
	goSum, err := RepoGoSum()
	if err != nil {
		t.Fatal(err)
	}
	official := startHelper(t, patchedJSON(t), goSum)
	renamed := startHelper(t, patchedJSON(t, `[sym_pair] = "pair",`, `[sym_pair] = "pear",`), goSum)
	oi, err := official.Info()
	if err != nil {
		t.Fatal(err)
	}
	ri, err := renamed.Info()
	if err != nil {
		t.Fatal(err)
	}
	if d := firstSymbolDiff(ri.Symbols, oi.Symbols); !strings.Contains(d, "pear") {
		t.Errorf("symbol diff does not show the renamed symbol: %s", d)
	}
	cases := []struct {
		input    string
		wantSame bool
	}{
		{`[1, "a", null]`, true},
		{`{"k": 1}`, false},
	}
	for _, c := range cases {
		a, err := official.ParseText([]byte(c.input), true)
		if err != nil {
			t.Fatal(err)
		}
		b, err := renamed.ParseText([]byte(c.input), true)
		if err != nil {
			t.Fatal(err)
		}
		if same := a.Hash == b.Hash; same != c.wantSame {
			t.Errorf("%s: same tree = %v, want %v\n%s", c.input, same, c.wantSame, sexpDiff(b.Sexp, a.Sexp))
		}
		if same := a.Sexp == b.Sexp; same != c.wantSame {
			t.Errorf("%s: S-expressions equal = %v, want %v", c.input, same, c.wantSame)
		}
	}
}

// TestHelperCrashAndHang checks that a parser that aborts or loops forever is
// reported as ErrCrash or ErrHang, and that the helper recovers.
func TestHelperCrashAndHang(t *testing.T) {
	goSum, err := RepoGoSum()
	if err != nil {
		t.Fatal(err)
	}
	src := patchedJSON(t,
		`#include "tree_sitter/parser.h"`, "#include \"tree_sitter/parser.h\"\n#include <stdlib.h>",
		"START_LEXER();\n", "START_LEXER();\n  if (lookahead == '~') abort();\n  if (lookahead == '`') for (;;) {}\n")
	h := startHelper(t, src, goSum)
	h.Timeout = 2 * time.Second
	h.SlowRetry = false
	cases := []struct {
		input   string
		wantErr error
	}{
		{`[1]`, nil},
		{`[~]`, ErrCrash},
		{`[2]`, nil},
		{"[`]", ErrHang},
		{`[3]`, nil},
	}
	for _, c := range cases {
		r, err := h.ParseText([]byte(c.input), false)
		if !errors.Is(err, c.wantErr) {
			t.Fatalf("%s: error %v, want %v", c.input, err, c.wantErr)
		}
		if err == nil && (r.Hash == "" || r.HasError) {
			t.Fatalf("%s: bad result %+v", c.input, r)
		}
	}
}

func TestRandomEditsApply(t *testing.T) {
	text := []byte("func main() {\n\tprintln(\"hi\")\n}\n")
	a := RandomEdits(rand.New(rand.NewSource(3)), text, 50)
	b := RandomEdits(rand.New(rand.NewSource(3)), text, 50)
	if len(a) != 50 {
		t.Fatalf("got %d edits", len(a))
	}
	cur := append([]byte(nil), text...)
	for i, e := range a {
		if e.Start < 0 || e.End < e.Start || e.End > len(cur) {
			t.Fatalf("edit %d: %d..%d outside %d bytes", i, e.Start, e.End, len(cur))
		}
		if e.Start != b[i].Start || e.End != b[i].End || !bytes.Equal(e.Insert, b[i].Insert) {
			t.Fatalf("edit %d: not deterministic for one seed", i)
		}
		cur = append(append(append([]byte(nil), cur[:e.Start]...), e.Insert...), cur[e.End:]...)
	}
	if bytes.Equal(cur, text) {
		t.Fatal("50 edits left the text unchanged")
	}
	m := Mutate(rand.New(rand.NewSource(4)), text)
	if bytes.Equal(m, text) {
		t.Fatal("Mutate returned the input unchanged")
	}
}

func TestLanguageName(t *testing.T) {
	cases := []struct {
		src, want string
		err       bool
	}{
		{"TS_PUBLIC const TSLanguage *tree_sitter_json(void) {\n", "json", false},
		{"extern const TSLanguage *tree_sitter_lua(void) {\n", "lua", false},
		{"const TSLanguage * tree_sitter_my_lang ( void ) {", "my_lang", false},
		{"const TSLanguage *tree_sitter_json(void);\n", "", true},
		{"int main(void) {}", "", true},
	}
	for _, c := range cases {
		got, err := LanguageName([]byte(c.src))
		if (err != nil) != c.err || got != c.want {
			t.Errorf("LanguageName(%q) = %q, %v; want %q, error %v", c.src, got, err, c.want, c.err)
		}
	}
}

func TestSpread(t *testing.T) {
	var in []Sample
	for i := range 10 {
		in = append(in, Sample{Name: string(rune('a' + i))})
	}
	cases := []struct {
		n    int
		want string
	}{{3, "adg"}, {5, "acegi"}, {0, "abcdefghij"}, {20, "abcdefghij"}}
	for _, c := range cases {
		var got strings.Builder
		for _, s := range Spread(in, c.n) {
			got.WriteString(s.Name)
		}
		if got.String() != c.want {
			t.Errorf("Spread(10, %d) = %s, want %s", c.n, got.String(), c.want)
		}
	}
}

func TestResolveMode(t *testing.T) {
	withGen := t.TempDir()
	os.MkdirAll(filepath.Join(withGen, "grammar", "generate"), 0o755)
	os.WriteFile(filepath.Join(withGen, "grammar", "generate", "generate.go"),
		[]byte("package generate\n\nfunc Generate(b []byte, o Options) (*Output, error) {\n\treturn nil, nil\n}\n"), 0o644)
	onlyTest := t.TempDir()
	os.MkdirAll(filepath.Join(onlyTest, "grammar", "generate"), 0o755)
	os.WriteFile(filepath.Join(onlyTest, "grammar", "generate", "x_test.go"),
		[]byte("package generate\n\nfunc Generate() {}\n"), 0o644)
	cases := []struct {
		mode Mode
		repo string
		want Mode
	}{
		{ModeAuto, withGen, ModeGenerated},
		{ModeAuto, onlyTest, ModeOfficial},
		{ModeAuto, t.TempDir(), ModeOfficial},
		{ModeOfficial, withGen, ModeOfficial},
		{ModeGenerated, onlyTest, ModeGenerated},
	}
	for _, c := range cases {
		if got := Resolve(c.mode, c.repo); got != c.want {
			t.Errorf("Resolve(%s, %s) = %s, want %s", c.mode, c.repo, got, c.want)
		}
	}
	t.Setenv("HARN_DIFFTEST_OURS", "bogus")
	if _, err := ModeFromEnv(); err == nil {
		t.Error("ModeFromEnv accepted HARN_DIFFTEST_OURS=bogus")
	}
}
