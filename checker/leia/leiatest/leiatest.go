// Package leiatest runs Leia checker rules over fixture files, in the
// manner of golang.org/x/tools/go/analysis/analysistest.
//
// A fixture is a .leia file under a rule's testdata directory. A comment
// `// want CODE` or `// want CODE "regexp"` (several may follow one
// `want`) on a line expects a diagnostic of that code starting on that
// line, whose message matches the regexp; `// want-N ...` expects it N
// lines above (for lines that cannot carry a comment, such as directives). Run fails on every expected
// diagnostic that is missing and on every diagnostic that was not
// expected, so a line without `want` asserts silence. Each fixture also
// has a golden file beside it (NAME.golden: one "line:column CODE message"
// per diagnostic) that pins exact positions and messages; `go test
// -update` rewrites goldens but never adds expectations. A fixture whose
// diagnostics offer fixes has a NAME.fixed golden: the text after applying
// the first fix of each diagnostic.
package leiatest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

var update = flag.Bool("update", false, "rewrite .golden and .fixed files of Leia checker fixtures")

type want struct {
	line int
	code string
	re   *regexp.Regexp
	used bool
}

var wantRe = regexp.MustCompile(`//\s*want(-[0-9]+)?\s+(.*)$`)
var wantItem = regexp.MustCompile(`((?:LEIA[0-9]{4})|(?:RHAI-[A-Z]+-[0-9]{3}))(?:\s+"((?:[^"\\]|\\.)*)")?`)

func expectations(t *testing.T, name string, src []byte) []*want {
	var out []*want
	for i, line := range strings.Split(string(src), "\n") {
		m := wantRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		line := i + 1
		if m[1] != "" {
			n, _ := strconv.Atoi(m[1][1:])
			line -= n
		}
		for _, it := range wantItem.FindAllStringSubmatch(m[2], -1) {
			w := &want{line: line, code: it[1]}
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

// Options configure Run.
type Options struct {
	// Host is passed to the checker (validators, go: allow-list).
	Host *analysis.Host
}

// Run checks every .leia file directly under dir with rules (all rules
// when none are given). Only the rules' codes and syntax errors are
// compared, so a fixture for one rule is not disturbed by another's.
func Run(t *testing.T, dir string, rules ...*analysis.Rule) {
	t.Helper()
	RunWith(t, dir, Options{}, rules...)
}

// RunWith is Run with options.
func RunWith(t *testing.T, dir string, opts Options, rules ...*analysis.Rule) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.leia"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s", dir)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { runFile(t, f, opts, rules) })
	}
}

// Diagnostics returns what the checker reports for src, filtered to the
// rules' codes and syntax errors.
func Diagnostics(path string, src []byte, opts Options, rules []*analysis.Rule) []diagnostics.Diagnostic {
	copts := leia.Options{Host: opts.Host}
	if len(rules) > 0 {
		copts.Rules = rules
	}
	res := leia.Check(path, src, copts)
	var codes []string
	for _, r := range rules {
		codes = append(codes, r.Codes...)
	}
	var out []diagnostics.Diagnostic
	for _, d := range res.Diagnostics {
		if len(codes) == 0 || slices.Contains(codes, d.Code) || d.Code == "LEIA1001" {
			out = append(out, d)
		}
	}
	return out
}

func runFile(t *testing.T, path string, opts Options, rules []*analysis.Rule) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ds := Diagnostics(path, src, opts, rules)
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
	compareGolden(t, strings.TrimSuffix(path, ".leia")+".golden", golden.String())
	fixed, any := ApplyFixes(src, ds)
	fpath := strings.TrimSuffix(path, ".leia") + ".fixed"
	if any {
		compareGolden(t, fpath, string(fixed))
	} else if _, err := os.Stat(fpath); err == nil {
		t.Errorf("%s exists but no diagnostic offers a fix", filepath.Base(fpath))
	}
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

// ApplyFixes applies the first fix of each diagnostic to src, skipping a
// fix whose edits overlap one already taken; any reports whether a fix was
// offered at all.
func ApplyFixes(src []byte, ds []diagnostics.Diagnostic) (out []byte, any bool) {
	var edits []diagnostics.TextEdit
	for _, d := range ds {
		if len(d.Fixes) == 0 {
			continue
		}
		any = true
		clash := false
		for _, e := range d.Fixes[0].Edits {
			for _, o := range edits {
				if e.Span.Start < o.Span.End && o.Span.Start < e.Span.End || e.Span.Start == o.Span.Start {
					clash = true
				}
			}
		}
		if !clash {
			edits = append(edits, d.Fixes[0].Edits...)
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Span.Start > edits[j].Span.Start })
	out = append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.Span.Start], append([]byte(e.NewText), out[e.Span.End:]...)...)
	}
	return out, any
}
