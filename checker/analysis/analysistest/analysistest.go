// Package analysistest runs checker rules of either language over fixture
// files, in the manner of golang.org/x/tools/go/analysis/analysistest.
//
// A fixture is a file with the language's extension under a rule's
// testdata directory. A comment `// want CODE` or `// want CODE "regexp"`
// (several may follow one `want`) on a line expects a diagnostic of that
// code starting on that line, whose message matches the regexp; `// want-N
// ...` expects it N lines above (for lines that cannot carry a comment).
// Run fails on every expected diagnostic that is missing and on every
// diagnostic that was not expected, so a line without `want` asserts
// silence. Only the codes of the rules under test and the language's
// syntax errors are compared (all codes when no rule is named), so a
// fixture for one rule is not disturbed by another's.
//
// Each fixture has a golden file beside it (NAME.golden: one "line:column
// CODE message" per diagnostic) pinning exact positions and messages, and,
// when its diagnostics offer fixes, NAME.fixed: the text after one pass of
// diagnostics.ApplyFixes (unsafe fixes included). `go test -update`
// rewrites goldens but never adds expectations.
//
// RunFixes is stricter, for directories of fix fixtures: every fixture
// must offer a fix, every fix must apply in one pass, and the fixed text
// checked again must offer none.
package analysistest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/checker/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

var update = flag.Bool("update", false, "rewrite .golden and .fixed files of checker fixtures")

type want struct {
	line int
	code string
	re   *regexp.Regexp
	used bool
}

var wantRe = regexp.MustCompile(`//\s*want(-[0-9]+)?\s+(.*)$`)
var wantItem = regexp.MustCompile(`((?:HARN|RHAI)-[A-Z]+-[0-9]{3}|LEIA[0-9]{4})(?:\s+"((?:[^"\\]|\\.)*)")?`)

// expectations parses the want comments of src.
func expectations(t *testing.T, name string, src []byte) []*want {
	var out []*want
	for i, line := range strings.Split(string(src), "\n") {
		m := wantRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		at := i + 1
		if m[1] != "" {
			n, _ := strconv.Atoi(m[1][1:])
			at -= n
		}
		for _, it := range wantItem.FindAllStringSubmatch(m[2], -1) {
			w := &want{line: at, code: it[1]}
			if it[2] != "" {
				re, err := regexp.Compile(strings.ReplaceAll(it[2], `\"`, `"`))
				if err != nil {
					t.Fatalf("%s:%d: bad want regexp: %v", name, i+1, err)
				}
				w.re = re
			}
			out = append(out, w)
		}
	}
	return out
}

// fixtures lists the fixture files directly under dir.
func fixtures[P any](t *testing.T, dir string, c analysis.Checker[P]) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*"+c.Ext))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s fixtures in %s", c.Language, dir)
	}
	return files
}

// Run checks every fixture directly under dir with rules (every rule when
// none is given).
func Run[P any](t *testing.T, dir string, c analysis.Checker[P], rules ...*analysis.Rule[P]) {
	t.Helper()
	for _, f := range fixtures(t, dir, c) {
		t.Run(filepath.Base(f), func(t *testing.T) { runFile(t, f, c, rules) })
	}
}

// Diagnostics returns what the checker reports for one fixture, filtered
// as Run filters: the rules' codes and the syntax errors.
func Diagnostics[P any](c analysis.Checker[P], path string, src []byte, rules []*analysis.Rule[P]) []diagnostics.Diagnostic {
	var codes []string
	for _, r := range rules {
		codes = append(codes, r.Codes...)
	}
	var out []diagnostics.Diagnostic
	for _, d := range c.Check(path, src, rules) {
		if len(codes) == 0 || slices.Contains(codes, d.Code) || c.Always(d.Code) {
			out = append(out, d)
		}
	}
	return out
}

func runFile[P any](t *testing.T, path string, c analysis.Checker[P], rules []*analysis.Rule[P]) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ds := Diagnostics(c, path, src, rules)
	name := filepath.Base(path)
	wants := expectations(t, name, src)
	li := diagnostics.NewLineIndex(src)
	var golden strings.Builder
	for _, d := range ds {
		pos := li.RuneColumn(d.Span.Start)
		pos.Line, pos.Column = pos.Line+1, pos.Column+1
		fmt.Fprintf(&golden, "%d:%d %s %s\n", pos.Line, pos.Column, d.Code, d.Message)
		matched := false
		for _, w := range wants {
			if w.used || w.line != pos.Line || w.code != d.Code {
				continue
			}
			if w.re != nil && !w.re.MatchString(d.Message) {
				continue
			}
			w.used, matched = true, true
			break
		}
		if !matched {
			t.Errorf("%s:%d:%d: unexpected diagnostic %s %s", name, pos.Line, pos.Column, d.Code, d.Message)
		}
	}
	for _, w := range wants {
		if !w.used {
			re := ""
			if w.re != nil {
				re = " matching " + w.re.String()
			}
			t.Errorf("%s:%d: missing diagnostic %s%s", name, w.line, w.code, re)
		}
	}
	base := strings.TrimSuffix(path, c.Ext)
	compareGolden(t, base+".golden", golden.String())
	fpath := base + ".fixed"
	if !slices.ContainsFunc(ds, func(d diagnostics.Diagnostic) bool { return len(d.Fixes) > 0 }) {
		if _, err := os.Stat(fpath); err == nil {
			t.Errorf("%s exists but no diagnostic offers a fix", filepath.Base(fpath))
		}
		return
	}
	res, err := diagnostics.ApplyFixes(src, ds, diagnostics.FixOptions{Unsafe: true})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	compareGolden(t, fpath, string(res.Text))
}

func compareGolden(t *testing.T, gpath, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(gpath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	exp, err := os.ReadFile(gpath)
	if err != nil {
		t.Fatalf("missing golden %s (run go test -update): %v", gpath, err)
	}
	if string(exp) != got {
		t.Errorf("%s differs\n--- got\n%s--- want\n%s", filepath.Base(gpath), got, exp)
	}
}

// RunFixes checks every fixture directly under dir with rules (every rule
// when none is given), applies the fixes its diagnostics offer and
// compares the result with NAME.fixed beside it. A fixture whose check
// offers no fix fails, and so does one whose fixes do not all apply in
// one pass, or whose fixed text still draws a fix or a syntax error from
// the same rules: applying the fixes must settle what they fix.
func RunFixes[P any](t *testing.T, dir string, c analysis.Checker[P], rules ...*analysis.Rule[P]) {
	t.Helper()
	for _, f := range fixtures(t, dir, c) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ds := Diagnostics(c, f, src, rules)
			if !slices.ContainsFunc(ds, func(d diagnostics.Diagnostic) bool { return len(d.Fixes) > 0 }) {
				t.Fatalf("%s: no diagnostic offers a fix", f)
			}
			res, err := diagnostics.ApplyFixes(src, ds, diagnostics.FixOptions{Unsafe: true})
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, d := range res.Deferred {
				t.Errorf("%s: the %s fix %q overlaps another", f, d.Code, d.Fixes[0].Title)
			}
			compareGolden(t, strings.TrimSuffix(f, c.Ext)+".fixed", string(res.Text))
			again := filepath.Join(t.TempDir(), filepath.Base(f))
			if err := os.WriteFile(again, res.Text, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, d := range Diagnostics(c, again, res.Text, rules) {
				if len(d.Fixes) > 0 || c.Always(d.Code) {
					t.Errorf("%s: after the fixes still %s %s", f, d.Code, d.Message)
				}
			}
		})
	}
}
