package analysis

import (
	"fmt"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/diagnostics"
)

// Rule is one named check over one file; P is the language's pass type
// (a pointer to a struct embedding *Pass).
type Rule[P any] struct {
	// Name identifies the rule: its package name, usable in
	// configuration and on the command line. A lint rule carries the name
	// upstream's linter gives it ("unused-variable").
	Name string
	// Doc is the rule's documentation (Doc.Text); its first line is the
	// title.
	Doc *Doc
	// Codes lists every diagnostic code the rule may report.
	Codes []string
	// Requires lists rules that must run before this one on the same
	// file; their results (Pass.Export) are read with Pass.ResultOf. The
	// graph is acyclic.
	Requires []*Rule[P]
	// Run inspects the pass and reports through it.
	Run func(P)
	// Aliases are other names the rule answers to in a selection
	// (upstream names the same rule twice).
	Aliases []string
	// OptIn marks a lint rule that runs only when selected by name or
	// code (upstream's off-by-default rules); Select leaves it out of the
	// defaults.
	OptIn bool
}

// Pass is what a rule sees of one file whatever the language.
type Pass struct {
	// Path is the file's path as the user named it.
	Path string
	// Src is the file's source.
	Src []byte

	rule    any
	report  func(diagnostics.Diagnostic)
	shared  *shared
	results map[any]any
}

// shared is what the passes of one Run share.
type shared struct {
	lines *diagnostics.LineIndex
}

// Report records a diagnostic, filling in the file's path when empty.
func (p *Pass) Report(d diagnostics.Diagnostic) {
	if d.Path == "" {
		d.Path = p.Path
	}
	p.report(d)
}

// New builds a diagnostic of code at span with a formatted message; the
// severity is the registry's.
func (p *Pass) New(source diagnostics.Source, code string, span diagnostics.Span, format string, args ...any) diagnostics.Diagnostic {
	return diagnostics.New(p.Path, source, code, span, fmt.Sprintf(format, args...))
}

// Slice returns the source text of span, or "" when it is out of range.
func (p *Pass) Slice(span diagnostics.Span) string {
	if span.Start < 0 || span.End > len(p.Src) || span.Start > span.End {
		return ""
	}
	return string(p.Src[span.Start:span.End])
}

// Lines returns the file's line index, built once per Run.
func (p *Pass) Lines() *diagnostics.LineIndex {
	if p.shared.lines == nil {
		p.shared.lines = diagnostics.NewLineIndex(p.Src)
	}
	return p.shared.lines
}

// Line returns the 1-based line of a byte offset.
func (p *Pass) Line(off int) int { return p.Lines().Line(off) + 1 }

// Export records the running rule's result for the rules that require it.
func (p *Pass) Export(v any) { p.results[p.rule] = v }

// ResultOf returns the result a required rule exported (nil when it
// exported none). rule is a *Rule of the same language.
func (p *Pass) ResultOf(rule any) any { return p.results[rule] }

// Run runs rules over one file: every rule once, each after the rules it
// requires, otherwise in list order. newPass makes the language's pass for
// a rule from the shared part. Diagnostics of the listed rules go to
// report; those of rules run only as requirements are dropped.
func Run[P any](rules []*Rule[P], path string, src []byte, report func(diagnostics.Diagnostic), newPass func(base *Pass, r *Rule[P]) P) {
	listed := make(map[*Rule[P]]bool, len(rules))
	for _, r := range rules {
		listed[r] = true
	}
	sh := &shared{}
	results := map[any]any{}
	for _, r := range Order(rules) {
		rep := report
		if !listed[r] {
			rep = func(diagnostics.Diagnostic) {}
		}
		base := &Pass{Path: path, Src: src, rule: r, report: rep, shared: sh, results: results}
		r.Run(newPass(base, r))
	}
}

// Order returns rules and their requirements, transitively, each once,
// every rule after those it requires and otherwise in list order. A cycle
// (a programming error the rule tests catch through Validate) is broken
// at the edge that closes it.
func Order[P any](rules []*Rule[P]) []*Rule[P] {
	var out []*Rule[P]
	state := map[*Rule[P]]int{} // 1 visiting, 2 done
	var visit func(r *Rule[P])
	visit = func(r *Rule[P]) {
		if state[r] != 0 {
			return
		}
		state[r] = 1
		for _, q := range r.Requires {
			visit(q)
		}
		state[r] = 2
		out = append(out, r)
	}
	for _, r := range rules {
		visit(r)
	}
	return out
}

// Validate checks a rule list: unique non-empty names, a documentation
// whose title starts with "NAME:" and mentions every code, at least one
// code, each with an explanation page, and an acyclic Requires graph.
func Validate[P any](rules []*Rule[P]) error {
	var errs []string
	names := map[string]bool{}
	for _, r := range Order(rules) {
		if r.Name == "" || names[r.Name] {
			errs = append(errs, fmt.Sprintf("rule name %q empty or duplicated", r.Name))
		}
		names[r.Name] = true
		doc := r.Doc.Text()
		title, _, _ := strings.Cut(doc, "\n")
		if !strings.HasPrefix(title, r.Name+":") {
			errs = append(errs, fmt.Sprintf("%s: doc title %q does not start with the rule name", r.Name, title))
		}
		if len(r.Codes) == 0 {
			errs = append(errs, r.Name+": no codes")
		}
		for _, c := range r.Codes {
			if !strings.Contains(doc, c) {
				errs = append(errs, fmt.Sprintf("%s: doc does not mention %s", r.Name, c))
			}
			if _, ok := diagnostics.Lookup(c); !ok {
				errs = append(errs, fmt.Sprintf("%s: code %s has no explanation page", r.Name, c))
			}
		}
		if len(strings.Split(doc, "\n")) < 5 {
			errs = append(errs, r.Name+": doc is only a title")
		}
		if cyclic(r) {
			errs = append(errs, r.Name+": its requirements lead back to it")
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// cyclic reports whether r is reachable from its own requirements.
func cyclic[P any](r *Rule[P]) bool {
	seen := map[*Rule[P]]bool{}
	stack := append([]*Rule[P](nil), r.Requires...)
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if q == r {
			return true
		}
		if seen[q] {
			continue
		}
		seen[q] = true
		stack = append(stack, q.Requires...)
	}
	return false
}

// Doc is a rule's documentation, cut out of its package's doc.go the
// first time it is read: every rule package makes its rules when it is
// initialised, in every process, and most processes never read a doc.
type Doc struct {
	src, name string
	once      sync.Once
	text      string
}

// ExtractDoc returns the documentation of rule name in the source of a
// rule package's doc.go: the text of its package comment after the
// heading "# Rule name" up to the next "# Rule" heading (a package may
// define several rules), comment markers removed. The first line is the
// title. Text panics when the heading is missing, so a rule cannot ship
// undocumented (every rule's test validates its docs).
func ExtractDoc(src, name string) *Doc { return &Doc{src: src, name: name} }

// TextDoc returns a documentation given as its text.
func TextDoc(text string) *Doc {
	d := &Doc{text: text}
	d.once.Do(func() {})
	return d
}

// Text returns the documentation ("" for a nil Doc).
func (d *Doc) Text() string {
	if d == nil {
		return ""
	}
	d.once.Do(func() { d.text = extractDoc(d.src, d.name) })
	return d.text
}

// extractDoc is ExtractDoc's text.
func extractDoc(src, name string) string {
	// The heading is found with one search, and only the rule's own
	// lines are walked and copied.
	heading := "# Rule " + name
	// The package comment ends at the package clause.
	comment := src
	if strings.HasPrefix(src, "package ") {
		comment = ""
	} else if i := strings.Index(src, "\npackage "); i >= 0 {
		comment = src[:i+1]
	}
	body, found := "", false
	for from := 0; !found; {
		i := strings.Index(comment[from:], heading)
		if i < 0 {
			break
		}
		i += from
		from = i + len(heading)
		// A heading is a line of its own: "//", spaces, the heading,
		// spaces.
		start := strings.LastIndexByte(comment[:i], '\n') + 1
		end := strings.IndexByte(comment[from:], '\n')
		if end < 0 {
			end = len(comment)
		} else {
			end += from
		}
		if strings.TrimSpace(strings.TrimPrefix(comment[start:i], "//")) == "" && strings.TrimSpace(comment[from:end]) == "" {
			body, found = comment[min(end+1, len(comment)):], true
		}
	}
	if !found {
		panic("analysis: doc.go has no \"" + heading + "\" heading")
	}
	var b strings.Builder
	b.Grow(len(body))
	for rest, more := body, body != ""; more; {
		var l string
		l, rest, more = strings.Cut(rest, "\n")
		l = strings.TrimPrefix(strings.TrimPrefix(l, "//"), " ")
		if strings.HasPrefix(strings.TrimSpace(l), "# Rule ") {
			break
		}
		b.WriteByte('\n')
		b.WriteString(l)
	}
	return strings.TrimSpace(b.String())
}

// Checker is how the fixture harness and other tests check one file of a
// language with chosen rules.
type Checker[P any] struct {
	// Language names the language in messages ("Harn").
	Language string
	// Ext is the extension of the language's files (".harn").
	Ext string
	// Check checks the file at path with content src, running rules
	// (every rule when nil), and returns its diagnostics sorted.
	Check func(path string, src []byte, rules []*Rule[P]) []diagnostics.Diagnostic
	// Always reports whether a code is compared in every fixture whatever
	// rules run: the syntax errors.
	Always func(code string) bool
}
