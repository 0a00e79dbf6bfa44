package analysis

import (
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
)

// Rule is one named check.
type Rule struct {
	// Name identifies the rule (its package name under checker/leia/rules).
	Name string
	// Doc is the rule's documentation; its first line is the title.
	Doc string
	// Codes lists every diagnostic code the rule may report.
	Codes []string
	// Run inspects the pass and reports through it.
	Run func(*Pass)
}

// Host is what a pass may ask of the embedding checker beyond the file: the
// files a rule reads (a Rhai validator an agent names) and the compiler
// that checks them. Both may be nil: rules that need them then report
// nothing.
type Host struct {
	// ReadFile reads a file relative to the checked file's directory
	// (already joined); an error wrapping fs.ErrNotExist means it is absent.
	ReadFile func(path string) ([]byte, error)
	// CompileValidator compiles an output validator script and returns its
	// problems, nil when it compiles and honours the validator contract.
	CompileValidator func(label string, src []byte) *ValidatorProblem
	// GoModules lists the `go:` import paths the embedder allow-lists.
	GoModules []string
}

// ValidatorProblem is why a validator script was refused.
type ValidatorProblem struct {
	// Code is the validator diagnostic code (RHAI-SYN-001, ...).
	Code    string
	Message string
	// Line and Column locate a syntax error in the script (1-based), 0 if
	// not known.
	Line, Column int
}

// Pass is one rule's view of one checked file.
type Pass struct {
	// Path is the file's path as the user named it.
	Path string
	// Src is the file's source.
	Src []byte
	// File is the file's syntax tree.
	File *ast.File
	// Facts are what the resolver and the AI-dialect lowering recorded.
	Facts *Facts
	// Host serves files and compilers; never nil.
	Host *Host
	// Rule is the rule being run.
	Rule *Rule

	report func(diagnostics.Diagnostic)
	lines  *diagnostics.LineIndex
}

// NewPass returns a pass whose reports go to report.
func NewPass(path string, src []byte, file *ast.File, facts *Facts, host *Host, report func(diagnostics.Diagnostic)) *Pass {
	if host == nil {
		host = &Host{}
	}
	return &Pass{Path: path, Src: src, File: file, Facts: facts, Host: host, report: report}
}

// Report records a diagnostic.
func (p *Pass) Report(d diagnostics.Diagnostic) {
	if d.Path == "" {
		d.Path = p.Path
	}
	p.report(d)
}

// Diag builds a diagnostic of code at span with a formatted message; the
// severity is the registry's.
func (p *Pass) Diag(source diagnostics.Source, code string, span ast.Span, format string, args ...any) diagnostics.Diagnostic {
	return diagnostics.New(p.Path, source, code, Span(span), fmt.Sprintf(format, args...))
}

// Text returns the source text of span.
func (p *Pass) Text(span ast.Span) string {
	if span.Start < 0 || span.End > len(p.Src) || span.Start > span.End {
		return ""
	}
	return string(p.Src[span.Start:span.End])
}

// Line returns the 1-based line of a byte offset.
func (p *Pass) Line(off int) int {
	if p.lines == nil {
		p.lines = diagnostics.NewLineIndex(p.Src)
	}
	return p.lines.Line(off) + 1
}

// Span converts a syntax span to a diagnostics span.
func Span(s ast.Span) diagnostics.Span { return diagnostics.Span{Start: s.Start, End: s.End} }

// ExtractDoc returns the documentation of rule name from the source of a
// rule package's doc.go: the text of its package comment after the heading
// "# Rule name", comment markers removed. It panics when the heading is
// missing, so a rule cannot ship undocumented (every rule's test loads it).
func ExtractDoc(src, name string) string {
	var lines []string
	for _, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(l, "package ") {
			break
		}
		t := strings.TrimPrefix(l, "//")
		lines = append(lines, strings.TrimPrefix(t, " "))
	}
	heading := "# Rule " + name
	for i, l := range lines {
		if strings.TrimSpace(l) == heading {
			return strings.TrimSpace(strings.Join(lines[i+1:], "\n"))
		}
	}
	panic("analysis: doc.go has no \"" + heading + "\" heading")
}
