package features

import (
	"context"

	"github.com/harnlang/harn-check/diagnostics"
)

// The interfaces below are optional features a language may add to
// Features: the server type-asserts for them and answers requests of a
// language without one with an empty result (or, for document highlight,
// from References). They are separate from Features so that a front end
// grows them one at a time without touching the others.

// SelectionRanger answers selection ranges ("expand selection").
type SelectionRanger interface {
	// SelectionRanges returns, for each offset, the spans around it from
	// the innermost outwards, each containing the one before; nil for an
	// offset with nothing around it.
	SelectionRanges(ctx context.Context, s Snapshot, offsets []int) ([][]diagnostics.Span, error)
}

// Link is a document link: Span (e.g. an import's path string) opens the
// file Target (an absolute path).
type Link struct {
	Span    diagnostics.Span
	Target  string
	Tooltip string
}

// Linker answers document links.
type Linker interface {
	DocumentLinks(ctx context.Context, s Snapshot) ([]Link, error)
}

// Lens is a code lens: a command shown above Span. Command names a
// command the client executes with Arguments (see the server's
// documentation of the leia-lsp commands).
type Lens struct {
	Span      diagnostics.Span
	Title     string
	Command   string
	Arguments []any
}

// Lenser answers code lenses.
type Lenser interface {
	CodeLenses(ctx context.Context, s Snapshot) ([]Lens, error)
}

// Callable is a function-like declaration in a call hierarchy.
type Callable struct {
	Name, Detail string
	Kind         SymbolKind
	// Path is the file ("" for the request's file); Span covers the whole
	// declaration, SelectionSpan its name.
	Path                string
	Span, SelectionSpan diagnostics.Span
}

// Call is one edge of a call hierarchy: the callable at the other end and
// the spans of the calls (in the caller's file).
type Call struct {
	Other Callable
	Spans []diagnostics.Span
}

// CallHierarchy answers call hierarchy requests.
type CallHierarchy interface {
	// PrepareCallHierarchy returns the callable named at offset.
	PrepareCallHierarchy(ctx context.Context, s Snapshot, offset int) ([]Callable, error)
	// IncomingCalls returns the callables that call c (which s.Doc holds).
	IncomingCalls(ctx context.Context, s Snapshot, c Callable) ([]Call, error)
	// OutgoingCalls returns the callables c calls.
	OutgoingCalls(ctx context.Context, s Snapshot, c Callable) ([]Call, error)
}

// InlayHint is a label shown at an offset: a type after a binding's name
// (Kind "type") or something else (Kind "parameter" or "").
type InlayHint struct {
	Offset int
	Label  string
	Kind   string
	// PaddingLeft puts a space before the label.
	PaddingLeft bool
}

// InlayHinter answers inlay hints within a span of the document.
type InlayHinter interface {
	InlayHints(ctx context.Context, s Snapshot, within diagnostics.Span) ([]InlayHint, error)
}

// CommandRun is the command of the run and replay code lenses: its one
// argument is {"argv": [...]} (plus what the lens is about), the
// harn-check command line the client runs in the file's folder.
const CommandRun = "leia-lsp.run"
