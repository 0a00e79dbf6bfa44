package leia

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/input"
)

// TestGrammarPrepares evaluates grammar.js and runs the generator's
// validation stage: unknown rule names, rules matching the empty string,
// bad precedences or reserved words fail here before any parser exists.
func TestGrammarPrepares(t *testing.T) {
	v := loadVocab(t)
	g := v.input
	checks := []struct {
		what      string
		got, want string
	}{
		{"name", g.Name, "leia"},
		// No word token: incremental reparsing would rebuild every
		// top-level statement starting with a name (grammar.js).
		{"word", g.Word, ""},
		{"first rule", g.Rules[0].Name, "source_file"},
		{"supertypes", strings.Join(g.Supertypes, ","), "_statement,_expression"},
		{"has extras", boolString(g.HasExtras), "true"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.what, c.got, c.want)
		}
	}
	if n := len(v.prepared.Syntax.Externals); n != len(g.Externals) {
		t.Errorf("prepared grammar has %d externals, grammar.js declares %d", n, len(g.Externals))
	}
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// TestGrammarRejectsBrokenVariants proves the validation stage is really
// consulted: the same grammar with an unknown rule reference, or with a
// rule that matches the empty string, must fail.
func TestGrammarRejectsBrokenVariants(t *testing.T) {
	src, err := os.ReadFile("grammar.js")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, old, new, wantErr string
	}{
		{
			name:    "unknown rule",
			old:     "break_statement: _ => 'break',",
			new:     "break_statement: $ => $.no_such_rule,",
			wantErr: "no_such_rule",
		},
		{
			name:    "empty rule",
			old:     "break_statement: _ => 'break',",
			new:     "break_statement: _ => optional('break'),",
			wantErr: "empty string",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(string(src), c.old) {
				t.Fatalf("grammar.js no longer contains %q; update the test", c.old)
			}
			dir := t.TempDir()
			path := dir + "/grammar.js"
			if err := os.WriteFile(path, []byte(strings.Replace(string(src), c.old, c.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := buildVocab(path)
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("error = %v, want one mentioning %q", err, c.wantErr)
			}
		})
	}
}

var (
	enumRe   = regexp.MustCompile(`(?s)enum TokenType \{(.*?)\};`)
	scanFnRe = regexp.MustCompile(`\btree_sitter_leia_external_scanner_(\w+)\s*\(`)
)

// TestScannerMatchesExternals checks that src/scanner.c numbers its tokens
// in the order of grammar.js's externals (the generated parser passes
// valid_symbols in that order) and defines the five scanner entry points.
func TestScannerMatchesExternals(t *testing.T) {
	v := loadVocab(t)
	src, err := os.ReadFile("src/scanner.c")
	if err != nil {
		t.Fatal(err)
	}
	m := enumRe.FindSubmatch(src)
	if m == nil {
		t.Fatal("src/scanner.c has no `enum TokenType { ... };`")
	}
	var enum []string
	for _, line := range strings.Split(string(m[1]), "\n") {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		line = strings.TrimSuffix(line, ",")
		if line != "" {
			enum = append(enum, line)
		}
	}
	var externals []string
	for _, e := range v.input.Externals {
		if e.Type != input.Symbol {
			t.Fatalf("external %+v is not a symbol", e)
		}
		externals = append(externals, strings.ToUpper(strings.TrimPrefix(e.Name, "_")))
	}
	if strings.Join(enum, " ") != strings.Join(externals, " ") {
		t.Errorf("scanner.c TokenType = %v\ngrammar.js externals = %v", enum, externals)
	}
	got := map[string]bool{}
	for _, fm := range scanFnRe.FindAllSubmatch(src, -1) {
		got[string(fm[1])] = true
	}
	for _, fn := range []string{"create", "destroy", "scan", "serialize", "deserialize"} {
		if !got[fn] {
			t.Errorf("scanner.c does not define tree_sitter_leia_external_scanner_%s", fn)
		}
	}
}
