// Package diagnostics is the one diagnostic model shared by the harn-check
// CLI, the language server and the runtime: what a finding is (code,
// severity, message, byte span, related spans, help, fixes), the registry
// that documents every code the product can emit, the line index that turns
// byte offsets into line/column positions in every unit the outputs need,
// and the renderers (text, JSON, SARIF, GitHub workflow commands).
//
// Invariants: the package knows no language. Spans are UTF-8 byte offsets,
// half-open; line and column are derived, never stored as the source of
// truth. Renderers are deterministic: same input, same bytes.
package diagnostics

import (
	"cmp"
	"slices"
)

// Severity ranks a diagnostic. The zero value is Error so that a forgotten
// severity can only make output stricter.
type Severity int

// The severities, most severe first.
const (
	Error Severity = iota
	Warning
	Info
	Hint
)

// String returns the lower-case name used in every output format.
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	case Hint:
		return "hint"
	}
	return "error"
}

// ParseSeverity is the inverse of Severity.String.
func ParseSeverity(s string) (Severity, bool) {
	for _, v := range []Severity{Error, Warning, Info, Hint} {
		if v.String() == s {
			return v, true
		}
	}
	return Error, false
}

// Span is a half-open range of UTF-8 byte offsets in one file.
type Span struct {
	Start int
	End   int
}

// Len returns the number of bytes the span covers.
func (s Span) Len() int { return s.End - s.Start }

// Related points at another location that explains a diagnostic, such as
// the declaration of a label or the earlier use of an id.
type Related struct {
	// Path is the file the span is in; empty means the diagnostic's file.
	Path    string
	Span    Span
	Message string
}

// TextEdit replaces the bytes of Span with NewText.
type TextEdit struct {
	// Path is the file to edit; empty means the diagnostic's file.
	Path    string
	Span    Span
	NewText string
}

// Fix is a suggested change that resolves a diagnostic.
type Fix struct {
	// Title says what the fix does, e.g. "Replace with \"approve\"".
	Title string
	Edits []TextEdit
	// Unsafe marks a fix that may change what the program does or drop
	// code a reader should look at first (as ruff's unsafe fixes): an
	// editor still offers it, but `--fix` applies it only with
	// `--unsafe-fixes`.
	Unsafe bool
}

// Source names the stage that produced a diagnostic, as in Harn's JSON
// envelope.
type Source string

// The sources used by the product.
const (
	SourceType      Source = "type"
	SourceLint      Source = "lint"
	SourceLexer     Source = "lexer"
	SourceParser    Source = "parser"
	SourceIO        Source = "io"
	SourcePredicate Source = "predicate"
	SourcePreflight Source = "preflight"
	SourceInvariant Source = "invariant"
	SourceValidator Source = "validator"
	SourceSetup     Source = "setup"
)

// Diagnostic is one finding about one file.
type Diagnostic struct {
	// Path is the file the diagnostic is about, as the user named it.
	Path     string
	Source   Source
	Code     string
	Severity Severity
	Message  string
	// Span is the primary location. A zero-length span marks a point.
	Span    Span
	Related []Related
	// Help is one extra sentence telling the user what to do.
	Help  string
	Fixes []Fix
}

// New returns a diagnostic with the registry's default severity for code.
// An unregistered code is a programming error caught by the registry test;
// at run time it falls back to Error.
func New(path string, source Source, code string, span Span, message string) Diagnostic {
	sev := Error
	if info, ok := Lookup(code); ok {
		sev = info.Severity
	}
	return Diagnostic{Path: path, Source: source, Code: code, Severity: sev, Message: message, Span: span}
}

// Sort orders diagnostics by path, start, end, severity, code and message,
// the order every renderer prints in.
func Sort(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Span.Start, b.Span.Start),
			cmp.Compare(a.Span.End, b.Span.End),
			cmp.Compare(a.Severity, b.Severity),
			cmp.Compare(a.Code, b.Code),
			cmp.Compare(a.Message, b.Message),
		)
	})
}

// Worst returns the most severe severity among ds, and false when ds is
// empty.
func Worst(ds []Diagnostic) (Severity, bool) {
	if len(ds) == 0 {
		return Hint, false
	}
	w := Hint
	for _, d := range ds {
		w = min(w, d.Severity)
	}
	return w, true
}
