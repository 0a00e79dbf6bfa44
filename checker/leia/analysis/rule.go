package analysis

import (
	framework "github.com/harnlang/harn-check/checker/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

// Rule is one named check of the Leia checker.
type Rule = framework.Rule[*Pass]

// Checker is how tests check one Leia file with chosen rules; see
// checker/leia's Checker.
type Checker = framework.Checker[*Pass]

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
	// HostModules lists the globals the embedder installs beside Leia's
	// predeclared names (a project's harn.toml [leia] host_modules).
	HostModules []string
	// HostDeclared says the embedder's bindings are known (a project's
	// [leia] table, or a non-empty GoModules): a `go:` import outside
	// GoModules is then an error; without it the program may target an
	// embedder the checker does not know, and the import is a warning.
	HostDeclared bool
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
	*framework.Pass
	// File is the file's syntax tree.
	File *ast.File
	// Facts are what the resolver and the AI-dialect lowering recorded.
	Facts *semantic.Facts
	// Host serves files and compilers; never nil.
	Host *Host
	// Rule is the rule being run.
	Rule *Rule
}

// RunRules runs rules (and their requirements) over one file, sending the
// listed rules' diagnostics to report. A nil host serves nothing.
func RunRules(rules []*Rule, path string, src []byte, file *ast.File, facts *semantic.Facts, host *Host, report func(diagnostics.Diagnostic)) {
	if host == nil {
		host = &Host{}
	}
	framework.Run(rules, path, src, report, func(base *framework.Pass, r *Rule) *Pass {
		return &Pass{Pass: base, File: file, Facts: facts, Host: host, Rule: r}
	})
}

// Diag builds a diagnostic of code at span with a formatted message; the
// severity is the registry's.
func (p *Pass) Diag(source diagnostics.Source, code string, span ast.Span, format string, args ...any) diagnostics.Diagnostic {
	return p.New(source, code, Span(span), format, args...)
}

// Text returns the source text of span.
func (p *Pass) Text(span ast.Span) string { return p.Slice(Span(span)) }

// Span converts a syntax span to a diagnostics span.
func Span(s ast.Span) diagnostics.Span { return diagnostics.Span{Start: s.Start, End: s.End} }

// ExtractDoc returns the documentation of rule name from its doc.go
// source (framework.ExtractDoc).
func ExtractDoc(src, name string) *framework.Doc { return framework.ExtractDoc(src, name) }
