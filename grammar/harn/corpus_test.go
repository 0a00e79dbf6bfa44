package harn

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/harnlang/harn-check/grammar/generate/difftest"
)

// corpusCase is one test of a tree-sitter corpus file.
type corpusCase struct {
	file  string
	line  int
	title string
	input string
	want  string
}

var (
	bannerRe  = regexp.MustCompile(`^={3,}\s*$`)
	dividerRe = regexp.MustCompile(`^-{3,}\s*$`)
)

// parseCorpus reads tree-sitter's corpus format: a title between two lines
// of `=`, the source, a line of `-`, and the expected S-expression.
func parseCorpus(name string, data []byte) ([]corpusCase, error) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var cases []corpusCase
	i := 0
	for i < len(lines) {
		if strings.TrimSpace(lines[i]) == "" {
			i++
			continue
		}
		if !bannerRe.MatchString(lines[i]) || i+2 >= len(lines) || !bannerRe.MatchString(lines[i+2]) {
			return nil, fmt.Errorf("%s:%d: expected a `===` banner around a title", name, i+1)
		}
		c := corpusCase{file: name, line: i + 2, title: strings.TrimSpace(lines[i+1])}
		i += 3
		start := i
		for i < len(lines) && !dividerRe.MatchString(lines[i]) {
			i++
		}
		if i == len(lines) {
			return nil, fmt.Errorf("%s:%d: case %q has no `---` divider", name, c.line, c.title)
		}
		c.input = strings.TrimPrefix(strings.Join(lines[start:i], "\n"), "\n")
		c.input = strings.TrimRight(c.input, "\n") + "\n"
		i++
		start = i
		for i < len(lines) && !bannerRe.MatchString(lines[i]) {
			i++
		}
		c.want = normalizeSexp(strings.Join(lines[start:i], "\n"))
		if c.want == "" {
			return nil, fmt.Errorf("%s:%d: case %q has no expected tree", name, c.line, c.title)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

var (
	spaceRe      = regexp.MustCompile(`\s+`)
	openSpaceRe  = regexp.MustCompile(`\(\s+`)
	closeSpaceRe = regexp.MustCompile(`\s+\)`)
)

// normalizeSexp makes S-expressions comparable regardless of layout.
func normalizeSexp(s string) string {
	s = strings.TrimSpace(spaceRe.ReplaceAllString(s, " "))
	s = openSpaceRe.ReplaceAllString(s, "(")
	return closeSpaceRe.ReplaceAllString(s, ")")
}

func loadCorpus(t *testing.T) []corpusCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("test", "corpus", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files (%v)", err)
	}
	var all []corpusCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := parseCorpus(filepath.Base(f), data)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, cases...)
	}
	return all
}

var (
	helperOnce sync.Once
	helperBin  string
	helperErr  error
)

// startParser builds (once, cached by content) a helper program linking the
// generated parser with the scanner, and starts it.
func startParser(t *testing.T) *difftest.Helper {
	t.Helper()
	_, out := load(t)
	helperOnce.Do(func() {
		sum, err := difftest.RepoGoSum()
		if err != nil {
			helperErr = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		helperBin, helperErr = difftest.Build(ctx, writeParserDir(t, out), sum)
	})
	if helperErr != nil {
		t.Fatalf("building the Harn parser: %v", helperErr)
	}
	h, err := difftest.Start(helperBin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// TestCorpus parses every corpus case with the generated parser and compares
// the tree, field names included, with the expected S-expression.
func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	h := startParser(t)
	for _, c := range cases {
		t.Run(strings.TrimSuffix(c.file, ".txt")+"/"+c.title, func(t *testing.T) {
			res, err := h.ParseText([]byte(c.input), true)
			if err != nil {
				t.Fatalf("%s:%d: %v", c.file, c.line, err)
			}
			if res.Err != "" {
				t.Fatalf("%s:%d: %s", c.file, c.line, res.Err)
			}
			got := normalizeSexp(res.Sexp)
			if got != c.want {
				t.Errorf("%s:%d: %s\ninput:\n%s\ngot:\n%s\nwant:\n%s", c.file, c.line, c.title, c.input, indentSexp(got), indentSexp(c.want))
			}
		})
	}
}

// indentSexp lays a normalized S-expression out one node per line.
func indentSexp(s string) string {
	var b bytes.Buffer
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(':
			if i > 0 {
				b.WriteByte('\n')
				b.WriteString(strings.Repeat("  ", depth))
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

func TestParseCorpusFormat(t *testing.T) {
	tests := []struct {
		name, text string
		want       []corpusCase
		wantErr    bool
	}{
		{
			name: "two cases",
			text: "===\nA\n===\n\nx\n\n---\n\n(source_file\n  (identifier))\n\n===\nB\n===\ny\n---\n(source_file (identifier))\n",
			want: []corpusCase{
				{title: "A", input: "x\n", want: "(source_file (identifier))"},
				{title: "B", input: "y\n", want: "(source_file (identifier))"},
			},
		},
		{name: "missing divider", text: "===\nA\n===\nx\n", wantErr: true},
		{name: "missing tree", text: "===\nA\n===\nx\n---\n\n", wantErr: true},
		{name: "no banner", text: "x\n---\n(a)\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseCorpus("t.txt", []byte(tt.text))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d cases, want %d", len(got), len(tt.want))
			}
			for i := range got {
				if got[i].title != tt.want[i].title || got[i].input != tt.want[i].input || got[i].want != tt.want[i].want {
					t.Errorf("case %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestExamplesParse parses every Harn program under examples/ and the
// language tour under testdata/programs (every construct of the reference)
// and requires a tree without ERROR or MISSING nodes.
func TestExamplesParse(t *testing.T) {
	var files []string
	for _, root := range []string{filepath.Join("..", "..", "examples"), filepath.Join("testdata", "programs")} {
		var found []string
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".harn") {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(found) == 0 {
			t.Fatalf("no .harn files under %s", root)
		}
		files = append(files, found...)
	}
	h := startParser(t)
	for _, f := range files {
		res, err := h.ParseFile(f, true)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if res.Err != "" || res.HasError {
			t.Errorf("%s: syntax errors:\n%s", f, indentSexp(normalizeSexp(res.Sexp)))
		}
	}
}
