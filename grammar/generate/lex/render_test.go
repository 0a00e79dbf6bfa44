package lex

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/ir"
)

var update = flag.Bool("update", false, "rewrite golden files")

// renderGrammar is a small grammar exercising every rendering form:
// ADVANCE_MAP, ranges, negated classes, a large Unicode set, SKIP, EOF and
// a keyword DFA.
func renderGrammar(t *testing.T) (*Grammar, *Table, *Table, []int) {
	t.Helper()
	var rules []*input.Rule
	for _, s := range []string{"{", "}", "(", ")", "[", "]", ";", ",", ".", "=", "==", "+", "-", "*", "/"} {
		rules = append(rules, str(s))
	}
	word := len(rules)
	rules = append(rules,
		pat(`[a-zA-Z_][a-zA-Z_0-9]*`),
		str("if"), str("else"),
		pat(`"([^"\\\n]|\\.)*"`),
		pat(`\p{Greek}+`),
		pat(`#[^\n]*`),
		immediate(pat(`[^"]+`)),
	)
	g := mustExpand(t, []*input.Rule{pat(`\s`), str("\\\n")}, rules...)
	n := len(g.Variables)
	var all ir.TokenSet
	for i := 0; i < n-1; i++ {
		all.Add(i)
	}
	follow := make([]ir.TokenSet, n)
	for i := range follow {
		follow[i] = all.Clone()
	}
	m := NewConflictMap(g, follow)
	inputs := []LexStateInput{{Tokens: all, EOF: true}, {Tokens: set(word, 9, 10), EOF: false}, {Tokens: set(n-1, 18)}}
	var states []ir.TokenSet
	for _, in := range inputs {
		states = append(states, in.Tokens)
	}
	c := NewCoincidentIndex(n, states)
	kw := IdentifyKeywords(g, word, m, c, states)
	if !kw.Equal(set(word+1, word+2)) {
		t.Fatalf("keywords %v", kw.Slice())
	}
	main, kwt, of := BuildLexTables(g, inputs, word, kw, m, c)
	return g, main, kwt, of
}

func symbolNames(g *Grammar) func(int) string {
	return func(i int) string {
		return fmt.Sprintf("%s", DefaultSymbolName(g.Variables[i].Name, g.Variables[i].Kind))
	}
}

func renderAll(t *testing.T, g *Grammar, main, kw *Table) string {
	t.Helper()
	var b strings.Builder
	sym := symbolNames(g)
	if err := RenderLexHelpersNamed(&b, sym, main, kw); err != nil {
		t.Fatal(err)
	}
	if err := RenderLexFunction(&b, "ts_lex", main, sym); err != nil {
		t.Fatal(err)
	}
	if err := RenderLexFunction(&b, "ts_lex_keywords", kw, sym); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRenderGolden(t *testing.T) {
	g, main, kw, _ := renderGrammar(t)
	got := renderAll(t, g, main, kw)
	for _, want := range []string{"ADVANCE_MAP(", "set_contains(", "lookahead != 0 &&", "if (eof) ADVANCE(", "SKIP(", "static const TSCharacterRange"} {
		if !strings.Contains(got, want) {
			t.Errorf("rendered lexer lacks %q", want)
		}
	}
	// Determinism: a fresh build renders the same bytes.
	g2, main2, kw2, _ := renderGrammar(t)
	if again := renderAll(t, g2, main2, kw2); again != got {
		t.Error("two builds rendered different C")
	}
	path := filepath.Join("testdata", "render.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if got != string(want) {
		t.Errorf("rendered lexer differs from %s (run with -update after checking)", path)
	}
}

const cPrelude = `
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
typedef uint16_t TSStateId;
typedef uint16_t TSSymbol;
typedef struct TSLexer TSLexer;
struct TSLexer {
  int32_t lookahead;
  TSSymbol result_symbol;
  void (*advance)(TSLexer *, bool);
  void (*mark_end)(TSLexer *);
  bool (*eof)(const TSLexer *);
};
typedef struct { int32_t start; int32_t end; } TSCharacterRange;
static inline bool set_contains(const TSCharacterRange *ranges, uint32_t len, int32_t lookahead) {
  uint32_t index = 0, size = len;
  while (size > 1) {
    uint32_t half = size / 2, mid = index + half;
    if (lookahead >= ranges[mid].start && lookahead <= ranges[mid].end) return true;
    else if (lookahead > ranges[mid].end) index = mid;
    size -= half;
  }
  return lookahead >= ranges[index].start && lookahead <= ranges[index].end;
}
#define START_LEXER() bool result = false; bool skip = false; (void)skip; bool eof = false; \
  int32_t lookahead; goto start; next_state: lexer->advance(lexer, skip); start: skip = false; lookahead = lexer->lookahead;
#define ADVANCE(s) { state = s; goto next_state; }
#define ADVANCE_MAP(...) { static const uint16_t map[] = { __VA_ARGS__ }; \
  for (uint32_t i = 0; i < sizeof(map) / sizeof(map[0]); i += 2) { \
    if (map[i] == lookahead) { state = map[i + 1]; goto next_state; } } }
#define SKIP(s) { skip = true; state = s; goto next_state; }
#define ACCEPT_TOKEN(s) result = true; lexer->result_symbol = s; lexer->mark_end(lexer);
#define END_STATE() return result;
`

const cDriver = `
typedef struct { TSLexer l; const int32_t *text; int len, pos, start, end; } Lx;
static void adv(TSLexer *l, bool skip) { Lx *x = (Lx *)l; if (x->pos < x->len) x->pos++; if (skip) x->start = x->pos;
  x->l.lookahead = x->pos < x->len ? x->text[x->pos] : 0; }
static void mark(TSLexer *l) { Lx *x = (Lx *)l; x->end = x->pos; }
static bool at_eof(const TSLexer *l) { const Lx *x = (const Lx *)l; return x->pos >= x->len; }
int main(int argc, char **argv) {
  int32_t buf[256]; int entry;
  char line[1024];
  while (fgets(line, sizeof line, stdin)) {
    int n = 0; char *p = line; int kw = 0;
    if (sscanf(p, "%d", &entry) != 1) break;
    if (entry < 0) { kw = 1; entry = 0; }
    p = strchr(p, ':') + 1;
    while (*p && *p != '\n') { int c; sscanf(p, "%x", &c); buf[n++] = c; p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p); }
    Lx x = {{0}, buf, n, 0, 0, -1};
    x.l.advance = adv; x.l.mark_end = mark; x.l.eof = at_eof; x.l.lookahead = n ? buf[0] : 0;
    bool ok = kw ? ts_lex_keywords(&x.l, entry) : ts_lex(&x.l, entry);
    if (ok) printf("%d %d %d\n", x.l.result_symbol, x.start, x.end); else printf("none\n");
  }
  return 0;
}
`

// TestRenderedCMatchesDFA compiles the rendered lexer with gcc and checks
// that it lexes like the DFA it came from.
func TestRenderedCMatchesDFA(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	g, main, kw, of := renderGrammar(t)
	var src strings.Builder
	src.WriteString(cPrelude)
	src.WriteString("enum {\n  ts_builtin_sym_end = 0,\n")
	for i, v := range g.Variables {
		fmt.Fprintf(&src, "  %s = %d,\n", DefaultSymbolName(v.Name, v.Kind), i+1)
	}
	src.WriteString("};\n")
	src.WriteString(renderAll(t, g, main, kw))
	src.WriteString(cDriver)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lex.c"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "lex")
	if out, err := exec.Command(gcc, "-O0", "-w", "-o", bin, filepath.Join(dir, "lex.c")).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	inputs := []struct {
		entry int
		text  string
	}{
		{of[0], "{"}, {of[0], "=="}, {of[0], "= ="}, {of[0], "  foo_1 bar"}, {of[0], "if"}, {of[0], "\"a\\\"b\" x"},
		{of[0], "\"unterminated"}, {of[0], "ψλ ab"}, {of[0], "# comment\nx"}, {of[0], ""}, {of[0], "   "},
		{of[0], "\\\n+"}, {of[0], "\x00"}, {of[0], "@"}, {of[1], "=x"}, {of[2], "abc\"d"}, {of[2], "\""},
		{-1, "if"}, {-1, "else"}, {-1, "el"}, {-1, "iff"},
	}
	var stdin strings.Builder
	for _, in := range inputs {
		fmt.Fprintf(&stdin, "%d:", in.entry)
		for i, r := range []rune(in.text) {
			if i > 0 {
				stdin.WriteString(",")
			}
			fmt.Fprintf(&stdin, "%x", r)
		}
		stdin.WriteString("\n")
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(stdin.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(inputs) {
		t.Fatalf("driver printed %d lines for %d inputs", len(lines), len(inputs))
	}
	for i, in := range inputs {
		tb, entry := main, in.entry
		if entry < 0 {
			tb, entry = kw, 0
		}
		tok, start, end := runSpan(tb, entry, in.text)
		want := "none"
		if tok != AcceptNone {
			sym := tok + 1
			if tok == AcceptEOF {
				sym = 0
			}
			want = fmt.Sprintf("%d %d %d", sym, start, end)
		}
		if lines[i] != want {
			t.Errorf("input %q from state %d: C lexer says %q, DFA says %q", in.text, in.entry, lines[i], want)
		}
	}
}
