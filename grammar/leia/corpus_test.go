package leia

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// corpusCase is one test of a tree-sitter corpus file.
type corpusCase struct {
	file, title string
	line        int // of the title
	attrs       []string
	source      string
	tree        string // expected S-expression; empty for :error cases
}

func (c corpusCase) hasAttr(a string) bool {
	for _, x := range c.attrs {
		if x == a {
			return true
		}
	}
	return false
}

var (
	headerRe  = regexp.MustCompile(`^={3,}\S*$`)
	dividerRe = regexp.MustCompile(`^-{3,}\S*$`)
)

// parseCorpus splits a corpus file in tree-sitter's format: a title between
// two `===` lines (optionally followed by `:attribute` lines), the source,
// a `---` line, and the expected tree.
func parseCorpus(name, text string) ([]corpusCase, error) {
	lines := strings.Split(text, "\n")
	var cases []corpusCase
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	for i < len(lines) {
		if !headerRe.MatchString(lines[i]) {
			return nil, fmt.Errorf("%s:%d: expected a `===` header line, got %q", name, i+1, lines[i])
		}
		c := corpusCase{file: name, line: i + 2}
		i++
		var title []string
		for i < len(lines) && !headerRe.MatchString(lines[i]) {
			t := strings.TrimSpace(lines[i])
			if strings.HasPrefix(t, ":") {
				c.attrs = append(c.attrs, t)
			} else if t != "" {
				title = append(title, t)
			}
			i++
		}
		if i >= len(lines) {
			return nil, fmt.Errorf("%s:%d: unterminated header", name, c.line)
		}
		i++
		c.title = strings.Join(title, " ")
		start := i
		for i < len(lines) && !dividerRe.MatchString(lines[i]) {
			if headerRe.MatchString(lines[i]) {
				return nil, fmt.Errorf("%s:%d: case %q has no `---` divider", name, c.line, c.title)
			}
			i++
		}
		if i >= len(lines) {
			return nil, fmt.Errorf("%s:%d: case %q has no `---` divider", name, c.line, c.title)
		}
		c.source = strings.Trim(strings.Join(lines[start:i], "\n"), "\n")
		i++
		start = i
		for i < len(lines) && !headerRe.MatchString(lines[i]) {
			i++
		}
		c.tree = strings.TrimSpace(strings.Join(lines[start:i], "\n"))
		cases = append(cases, c)
	}
	return cases, nil
}

// sexpNode is a node of an expected tree.
type sexpNode struct {
	field    string
	typ      string
	children []*sexpNode
}

// parseSexp reads an expected tree: `(type field: (type ...) ...)`, with
// `(MISSING name)` and `(MISSING "x")` allowed as tree-sitter prints them.
func parseSexp(s string) (*sexpNode, error) {
	toks := sexpTokens(s)
	pos := 0
	var node func(field string) (*sexpNode, error)
	node = func(field string) (*sexpNode, error) {
		if pos >= len(toks) || toks[pos] != "(" {
			return nil, fmt.Errorf("expected ( at token %d", pos)
		}
		pos++
		if pos >= len(toks) {
			return nil, fmt.Errorf("unexpected end after (")
		}
		n := &sexpNode{field: field, typ: toks[pos]}
		pos++
		if n.typ == "MISSING" && pos < len(toks) && toks[pos] != ")" && toks[pos] != "(" {
			n.typ = "MISSING " + toks[pos]
			pos++
		}
		for pos < len(toks) && toks[pos] != ")" {
			f := ""
			if strings.HasSuffix(toks[pos], ":") {
				f = strings.TrimSuffix(toks[pos], ":")
				pos++
			}
			c, err := node(f)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, c)
		}
		if pos >= len(toks) {
			return nil, fmt.Errorf("unbalanced parentheses in (%s ...)", n.typ)
		}
		pos++
		return n, nil
	}
	root, err := node("")
	if err != nil {
		return nil, err
	}
	if pos != len(toks) {
		return nil, fmt.Errorf("text after the tree: %v", toks[pos:])
	}
	return root, nil
}

func sexpTokens(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '(' || c == ')':
			toks = append(toks, string(c))
			i++
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			i++
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			toks = append(toks, s[i:min(j+1, len(s))])
			i = j + 1
		default:
			j := i
			for j < len(s) && !strings.ContainsRune("() \n\t\r", rune(s[j])) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks
}

func (n *sexpNode) walk(parent *sexpNode, f func(n, parent *sexpNode)) {
	f(n, parent)
	for _, c := range n.children {
		c.walk(n, f)
	}
}

func loadCorpus(t *testing.T) []corpusCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("test", "corpus", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no corpus files under test/corpus")
	}
	var all []corpusCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := parseCorpus(filepath.Base(f), string(data))
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) == 0 {
			t.Errorf("%s: no cases", f)
		}
		all = append(all, cases...)
	}
	return all
}

// TestCorpusTreesUseGrammarNames checks every expected tree against the
// grammar: node types exist, each field is one its parent node can carry,
// the root is source_file, and titles are unique. It cannot check that the
// parser produces the tree; the corpus runner does that once parser.c
// exists.
func TestCorpusTreesUseGrammarNames(t *testing.T) {
	v := loadVocab(t)
	titles := map[string]string{}
	for _, c := range loadCorpus(t) {
		where := fmt.Sprintf("%s:%d %q", c.file, c.line, c.title)
		if c.title == "" {
			t.Errorf("%s: empty title", where)
		}
		if prev, dup := titles[c.title]; dup {
			t.Errorf("%s: title also used at %s", where, prev)
		}
		titles[c.title] = where
		if strings.TrimSpace(c.source) == "" {
			t.Errorf("%s: empty source", where)
		}
		if c.hasAttr(":error") {
			if c.tree != "" {
				t.Errorf("%s: an :error case carries no tree", where)
			}
			continue
		}
		root, err := parseSexp(c.tree)
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		if root.typ != "source_file" {
			t.Errorf("%s: root is %q, want source_file", where, root.typ)
		}
		root.walk(nil, func(n, parent *sexpNode) {
			if !v.named[n.typ] && !strings.HasPrefix(n.typ, "MISSING") {
				t.Errorf("%s: unknown node type %q", where, n.typ)
			}
			if n.field == "" {
				return
			}
			if parent != nil && !v.nodeFields(parent.typ)[n.field] {
				t.Errorf("%s: %s has no field %q (child %s)", where, parent.typ, n.field, n.typ)
			}
		})
	}
}

// TestCorpusCoversGrammar requires every named node type of the grammar
// to appear in some expected tree, and every dialect form the issue lists
// to appear in some case's source.
func TestCorpusCoversGrammar(t *testing.T) {
	v := loadVocab(t)
	cases := loadCorpus(t)
	seen := map[string]bool{}
	for _, c := range cases {
		if root, err := parseSexp(c.tree); err == nil {
			root.walk(nil, func(n, _ *sexpNode) { seen[n.typ] = true })
		}
	}
	var missing []string
	for _, n := range v.namedTypes() {
		if !seen[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		t.Errorf("node types no corpus tree shows: %s", strings.Join(missing, ", "))
	}

	forms := []struct{ name, re string }{
		{"model block", `(?m)\bmodel\s*\{`},
		{"tool block", `(?m)\btool\s*\{`},
		{"turn block", `(?m)\bturn\s*\{`},
		{"agent block", `(?m)\bagent\s*\{`},
		{"prompt block", `(?m)\bprompt\s*\{`},
		{"prompt template", "prompt`"},
		{"evaluate block", `(?m)^\s*evaluate\s+"`},
		{"bang block", `\w!\s*\{`},
		{"bang template", "\\w!`"},
		{"fenced template", "\\w```"},
		{"shell template", "\\$`"},
		{"quote block", `\bquote\s*\{`},
		{"legacy tool declaration", `(?m)^\s*tool\s+\w+\s*\(`},
		{"legacy requires directive", `//leia:requires`},
		{"legacy param directive", `//leia:param`},
		{"legacy gscript directive", `//gscript:requires`},
		{"legacy agent declaration", `(?m)^\s*agent\s+\w+\s*\(`},
		{"legacy agent declaration without params", `(?m)^\s*agent\s+[a-ce-z]\w*\s*\{`},
		{"legacy flow block", `\}\s*flow\s*\{`},
		{"legacy agent defaults", `(?m)^\s*agent\s+defaults\s*\{`},
		{"legacy agent literal", `:=\s*agent\s*\(`},
		{"legacy models block", `(?m)^\s*models\s*\{`},
		{"legacy messages block", `\bmessages\s*\{`},
		{"legacy budget statement", `(?m)^\s*budget\s*\{[^}]*\}\s*\{`},
		{"file directive", `(?m)^//leia:(build|test|cap|feature)`},
	}
	for _, f := range forms {
		re := regexp.MustCompile(f.re)
		found := false
		for _, c := range cases {
			if re.MatchString(c.source) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no corpus case shows the %s (%s)", f.name, f.re)
		}
	}
}

// TestParseCorpusFormat pins the corpus reader on a small input, including
// the failures it must report.
func TestParseCorpusFormat(t *testing.T) {
	good := "==========\nFirst\n:error\n==========\n\nx := 1\n\n---\n\n==========\nSecond\n==========\n\ny()\n\n---\n\n(source_file (expression_statement (call_expression function: (identifier) arguments: (arguments))))\n"
	cases, err := parseCorpus("good.txt", good)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cases {
		got = append(got, fmt.Sprintf("%s|%v|%s|%d", c.title, c.attrs, c.source, len(c.tree)))
	}
	want := []string{"First|[:error]|x := 1|0", "Second|[]|y()|100"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	root, err := parseSexp(cases[1].tree)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	root.walk(nil, func(n, _ *sexpNode) { types = append(types, n.field+"="+n.typ) })
	if s := strings.Join(types, " "); s != "=source_file =expression_statement =call_expression function=identifier arguments=arguments" {
		t.Errorf("tree walk = %s", s)
	}

	bad := []struct{ name, text, want string }{
		{"no divider", "===\nA\n===\nx\n", "no `---` divider"},
		{"no header", "x := 1\n", "expected a `===` header"},
		{"unterminated header", "===\nA\n", "unterminated header"},
	}
	for _, b := range bad {
		if _, err := parseCorpus(b.name, b.text); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: error = %v, want %q", b.name, err, b.want)
		}
	}
	for _, s := range []string{"(a (b)", "(a) (b)", "a"} {
		if _, err := parseSexp(s); err == nil {
			t.Errorf("parseSexp(%q) succeeded", s)
		}
	}
}

// corpusStats is used by the report: case counts per file.
func corpusStats(cases []corpusCase) map[string]int {
	m := map[string]int{}
	for _, c := range cases {
		m[c.file]++
	}
	return m
}

// TestCorpusCounts logs the number of cases per file and requires each
// topic file to exist.
func TestCorpusCounts(t *testing.T) {
	stats := corpusStats(loadCorpus(t))
	var names []string
	for n := range stats {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%s: %d cases", n, stats[n])
	}
	for _, want := range []string{"statements.txt", "expressions.txt", "literals.txt", "dialects.txt", "ai_current.txt", "ai_legacy.txt", "seed_forms.txt", "errors.txt"} {
		if stats[want] == 0 {
			t.Errorf("corpus file %s is missing or empty", want)
		}
	}
}
