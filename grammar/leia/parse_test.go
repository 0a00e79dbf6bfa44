package leia

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate"
	"github.com/harnlang/harn-check/grammar/generate/dsl"
)

// The parser is generated from grammar.js once per test binary; the tests
// that parse use the committed copy through package binding
// (TestGeneratedFilesCurrent keeps the two equal).
var (
	genOnce sync.Once
	genOut  *generate.Output
	genErr  error
)

func generated(t *testing.T) *generate.Output {
	t.Helper()
	genOnce.Do(func() {
		var js []byte
		js, genErr = dsl.GrammarJSON("grammar.js")
		if genErr == nil {
			genOut, genErr = generate.Generate(js, generate.Options{})
		}
	})
	if genErr != nil {
		t.Fatalf("generating the Leia parser: %v", genErr)
	}
	return genOut
}

// TestGrammarGenerates runs the whole generator: unresolved LR conflicts,
// conflicts declared but never needed and other grammar problems fail here.
func TestGrammarGenerates(t *testing.T) {
	out := generated(t)
	if len(out.ParserC) == 0 || len(out.NodeTypesJSON) == 0 {
		t.Fatal("the generator produced empty output")
	}
	for _, w := range out.Warnings {
		t.Errorf("generator warning: %s", w)
	}
	t.Logf("states %d (large %d), symbols %d, tokens %d, lex states %d",
		out.Stats.States, out.Stats.LargeStates, out.Stats.Symbols, out.Stats.Tokens, out.Stats.LexStates)
}

var (
	sexpSpaceRe = regexp.MustCompile(`\s+`)
	sexpOpenRe  = regexp.MustCompile(`\(\s+`)
	sexpCloseRe = regexp.MustCompile(`\s+\)`)
)

// normalizeSexp makes S-expressions comparable regardless of layout.
func normalizeSexp(s string) string {
	s = strings.TrimSpace(sexpSpaceRe.ReplaceAllString(s, " "))
	s = sexpOpenRe.ReplaceAllString(s, "(")
	return sexpCloseRe.ReplaceAllString(s, ")")
}

// indentSexp lays a normalized S-expression out one node per line.
func indentSexp(s string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(':
			if i > 0 {
				b.WriteString("\n" + strings.Repeat("  ", depth))
			}
			depth++
			b.WriteByte(c)
		case ')':
			depth--
			b.WriteByte(c)
		case ' ':
			if i+1 < len(s) && s[i+1] == '(' {
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// TestCorpusParses parses every corpus case with the generated parser:
// ordinary cases must produce exactly the expected tree (fields included),
// :error cases must contain an ERROR or MISSING node.
func TestCorpusParses(t *testing.T) {
	cases := loadCorpus(t)
	h := startParser(t)
	for _, c := range cases {
		t.Run(strings.TrimSuffix(c.file, ".txt")+"/"+c.title, func(t *testing.T) {
			res, err := h.ParseText([]byte(c.source+"\n"), true)
			if err != nil {
				t.Fatalf("%s:%d: %v", c.file, c.line, err)
			}
			if res.Err != "" {
				t.Fatalf("%s:%d: %s", c.file, c.line, res.Err)
			}
			if c.hasAttr(":error") {
				if !res.HasError {
					t.Errorf("%s:%d: %q parsed without an error:\n%s", c.file, c.line, c.title, indentSexp(normalizeSexp(res.Sexp)))
				}
				return
			}
			got, want := normalizeSexp(res.Sexp), normalizeSexp(c.tree)
			if got != want {
				t.Errorf("%s:%d: %s\ninput:\n%s\ngot:\n%s\nwant:\n%s", c.file, c.line, c.title, c.source, indentSexp(got), indentSexp(want))
			}
		})
	}
}

// TestExamplesParse parses every Leia program under examples/ and requires
// a tree without ERROR or MISSING nodes.
func TestExamplesParse(t *testing.T) {
	h := startParser(t)
	var files []string
	err := filepath.WalkDir(filepath.Join("..", "..", "examples"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".leia") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no .leia files under examples/")
	}
	for _, f := range files {
		res, err := h.ParseFile(f, true)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if res.Err != "" || res.HasError {
			t.Errorf("%s: %s\n%s", f, res.Err, indentSexp(normalizeSexp(res.Sexp)))
		}
	}
}
