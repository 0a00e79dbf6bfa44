// Package harntest runs Harn checker rules over fixture files, in the
// manner of golang.org/x/tools/go/analysis/analysistest.
//
// A fixture is a .harn file under a rule's testdata directory. A comment
// `// want CODE` or `// want CODE "regexp"` (several may follow one
// `want`) on a line expects a diagnostic of that code starting on that
// line, whose message matches the regexp. Run fails on every expected
// diagnostic that is missing and on every diagnostic that was not
// expected, so a line without `want` asserts silence. Each fixture also
// has a golden file beside it (NAME.golden: one "line:column CODE message"
// per diagnostic) that pins the exact positions and messages; `go test
// -update` rewrites goldens but never adds expectations.
//
// RunFixes applies the fixes the diagnostics of each fixture offer and
// compares the text with a NAME.fixed golden; ApplyFixes is the edit step.
package harntest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

var update = flag.Bool("update", false, "rewrite .golden files of Harn checker fixtures")

type want struct {
	line int
	code string
	re   *regexp.Regexp
	used bool
}

var wantRe = regexp.MustCompile(`//\s*want\s+(.*)$`)
var wantItem = regexp.MustCompile(`((?:HARN|RHAI)-[A-Z]+-[0-9]{3})(?:\s+"((?:[^"\\]|\\.)*)")?`)

// Expectations parses the want comments of src.
func expectations(t *testing.T, name string, src []byte) []*want {
	var out []*want
	for i, line := range strings.Split(string(src), "\n") {
		m := wantRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, it := range wantItem.FindAllStringSubmatch(m[1], -1) {
			w := &want{line: i + 1, code: it[1]}
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

// Run checks every .harn file directly under dir. With rules, only those
// rules run and only their codes (and syntax errors) are compared; with
// none, the whole checker runs and every diagnostic counts.
func Run(t *testing.T, dir string, rules ...*analysis.Rule) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.harn"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s", dir)
	}
	var codes []string
	for _, r := range rules {
		codes = append(codes, r.Codes...)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { runFile(t, f, rules, codes) })
	}
}

// Diagnostics returns what the checker reports for one fixture file,
// filtered as Run filters.
func Diagnostics(path string, rules []*analysis.Rule) ([]diagnostics.Diagnostic, []byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	opts := harn.Options{Loader: harn.OSLoader{}}
	if len(rules) > 0 {
		opts.Rules = rules
	}
	res := harn.Check(path, src, opts)
	var codes []string
	for _, r := range rules {
		codes = append(codes, r.Codes...)
	}
	var out []diagnostics.Diagnostic
	for _, d := range res.Diagnostics {
		if len(codes) == 0 || slices.Contains(codes, d.Code) || strings.HasPrefix(d.Code, "HARN-PAR-") {
			out = append(out, d)
		}
	}
	return out, src, nil
}

func runFile(t *testing.T, path string, rules []*analysis.Rule, codes []string) {
	ds, src, err := Diagnostics(path, rules)
	if err != nil {
		t.Fatal(err)
	}
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
	gpath := strings.TrimSuffix(path, ".harn") + ".golden"
	if *update {
		if err := os.WriteFile(gpath, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	exp, err := os.ReadFile(gpath)
	if err != nil {
		t.Fatalf("missing golden %s (run go test -update): %v", gpath, err)
	}
	if string(exp) != golden.String() {
		t.Errorf("%s: diagnostics differ from %s\n--- got\n%s--- want\n%s", name, filepath.Base(gpath), golden.String(), exp)
	}
}
