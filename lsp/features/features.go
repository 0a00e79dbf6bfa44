// Package features is the boundary between the language server and the
// language front ends: the editor features a language can offer (hover,
// definition, references, symbols, semantic tokens, folding, completion,
// signature help, rename), stated in plain data, byte offsets and spans,
// so that a front end implements them without knowing LSP or JSON.
//
// A front end implements Features, embedding Unimplemented for what it
// does not offer yet; its Language value (package language) carries them
// as its editor facet, and the server is given the list of languages
// (cmd/leia-lsp assembles it, so front ends never import the server).
// The server answers every request for a language without features with
// an empty result.
//
// Invariants: no protocol or JSON types; offsets are UTF-8 bytes into
// Snapshot.Doc.Text; results carry no positions in other units.
package features

import (
	"context"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/lang/model"
)

// Document is one version of a file as a feature sees it.
type Document struct {
	// Path is the file's path ("" for an unsaved buffer; then URI names it).
	Path string
	URI  string
	// Version is the editor's version of Text.
	Version int32
	Text    []byte
	// Tree is the version's syntax tree from the language's
	// cache.Syntax (the front end's own type), nil when it has none.
	Tree any
	// Analysis returns the version's check result, the one harn-check
	// reports for the text (diagnostics and, for Harn, the predicate-site
	// manifest), computed at most once per version and shared with the
	// published diagnostics. Nil when the document has no language.
	Analysis func() (driver.Result, error)
	// Model returns the checker's semantic model of the document: that
	// of the latest check that gave one, seen from this version's text
	// (model.Edited), waiting for a check only when none has completed
	// since the document was opened. Nil when the document has no
	// language, or no model.
	Model func() *model.Edited
	// Facts returns the front end's facts (driver.Result.Facts) of the
	// two latest checks of the document that gave any, this version's or
	// earlier ones', latest first, without waiting for a check: empty
	// until one has completed. Nil when the document has no language.
	Facts func() []CheckFacts
}

// CheckFacts are the front end's facts (driver.Result.Facts) of a check
// of one version of a document, and that version's text.
type CheckFacts struct {
	Text  []byte
	Facts any
}

// Names returns the checker's model of the document for a request at
// offset, or nil when a feature answers from its syntax-only resolver
// instead: the document does not parse (parsed is false: the checker
// resolved a tree with errors), no check gave a model, or the text at
// offset was edited since the latest one.
func (d Document) Names(parsed bool, offset int) *model.Edited {
	if !parsed || d.Model == nil {
		return nil
	}
	e := d.Model()
	if !e.Known(offset) || offset > 0 && !e.Known(offset-1) {
		return nil
	}
	return e
}

// CheckedName is what the checker's model says about the name at an
// offset of a document.
type CheckedName struct {
	// Model is the model the answer comes from.
	Model *model.Edited
	// Def indexes the model's definitions, -1 when the checker resolved
	// no name at the offset; Decl is that definition and Use the name's
	// span, in the document's text.
	Def  int
	Decl model.Def
	Use  diagnostics.Span
}

// NameAt returns what the checker's model says about the name at offset,
// false when a feature answers from its syntax-only resolver instead (see
// Names).
func (d Document) NameAt(parsed bool, offset int) (CheckedName, bool) {
	e := d.Names(parsed, offset)
	if e == nil {
		return CheckedName{}, false
	}
	def, use, ok := e.At(offset)
	if !ok {
		return CheckedName{}, false
	}
	n := CheckedName{Model: e, Def: def, Use: use}
	if def >= 0 {
		if n.Decl, ok = e.Def(def); !ok {
			return CheckedName{}, false
		}
	}
	return n, true
}

// Workspace is the state shared by all documents: the open documents
// overlay the files on disk, so cross-file results see unsaved edits.
type Workspace interface {
	// Roots are the workspace folders the client opened.
	Roots() []string
	// Documents returns the open documents.
	Documents() []Document
	// ReadFile returns an open document's text, or the file on disk.
	ReadFile(path string) ([]byte, error)
}

// Snapshot is the context of a request: the document it is about and the
// workspace around it.
type Snapshot struct {
	Doc       Document
	Workspace Workspace
}

// Location is a span in a file; an empty Path means the request's file.
type Location struct {
	Path string
	Span diagnostics.Span
}

// Hover is what a hover shows.
type Hover struct {
	// Span is the range the hover is about (e.g. the identifier).
	Span diagnostics.Span
	// Markdown is the content.
	Markdown string
}

// SymbolKind is a symbol's kind, numbered as the protocol numbers them.
type SymbolKind int

// The symbol kinds front ends use.
const (
	SymbolModule     SymbolKind = 2
	SymbolClass      SymbolKind = 5
	SymbolMethod     SymbolKind = 6
	SymbolProperty   SymbolKind = 7
	SymbolField      SymbolKind = 8
	SymbolEnum       SymbolKind = 10
	SymbolInterface  SymbolKind = 11
	SymbolFunction   SymbolKind = 12
	SymbolVariable   SymbolKind = 13
	SymbolConstant   SymbolKind = 14
	SymbolString     SymbolKind = 15
	SymbolEnumMember SymbolKind = 22
	SymbolStruct     SymbolKind = 23
	SymbolEvent      SymbolKind = 24
	SymbolTypeParam  SymbolKind = 26
)

// Symbol is a document symbol with its children.
type Symbol struct {
	Name, Detail string
	Kind         SymbolKind
	// Span covers the whole declaration; SelectionSpan its name.
	Span, SelectionSpan diagnostics.Span
	Children            []Symbol
}

// WorkspaceSymbol is a symbol found by a workspace-wide query.
type WorkspaceSymbol struct {
	Name, Container string
	Kind            SymbolKind
	Location        Location
}

// Token is one semantic token: a span within one line and a type and
// modifiers named from TokenTypes and TokenModifiers.
type Token struct {
	Span      diagnostics.Span
	Type      string
	Modifiers []string
}

// TokenTypes and TokenModifiers are the semantic token legend the server
// announces: the protocol's standard names. A front end producing tokens
// from queries/highlights.scm converts each capture with TokenForCapture,
// so editor colours follow the same queries; a token with a type outside
// the legend is dropped.
var (
	TokenTypes = []string{"namespace", "type", "class", "enum", "interface", "struct", "typeParameter",
		"parameter", "variable", "property", "enumMember", "event", "function", "method", "macro",
		"keyword", "modifier", "comment", "string", "number", "regexp", "operator", "decorator", "label"}
	TokenModifiers = []string{"declaration", "definition", "readonly", "static", "deprecated",
		"abstract", "async", "modification", "documentation", "defaultLibrary"}
)

// Fold is a folding range over whole lines of Span; Kind is "comment",
// "imports", "region" or "".
type Fold struct {
	Span diagnostics.Span
	Kind string
}

// CompletionKind is a completion item's kind, numbered as the protocol
// numbers them.
type CompletionKind int

// The completion kinds front ends use.
const (
	CompletionMethod     CompletionKind = 2
	CompletionFunction   CompletionKind = 3
	CompletionField      CompletionKind = 5
	CompletionVariable   CompletionKind = 6
	CompletionModule     CompletionKind = 9
	CompletionProperty   CompletionKind = 10
	CompletionEnumMember CompletionKind = 20
	CompletionKeyword    CompletionKind = 14
	CompletionSnippet    CompletionKind = 15
	CompletionConstant   CompletionKind = 21
	CompletionStruct     CompletionKind = 22
)

// CompletionItem is one completion proposal.
type CompletionItem struct {
	Label, Detail string
	// Documentation is Markdown.
	Documentation string
	Kind          CompletionKind
	// InsertText replaces Label when set; Snippet marks it as an LSP
	// snippet with $1 placeholders.
	InsertText string
	Snippet    bool
	// Replace is the span the item replaces (the word being typed); a
	// zero span means the client's default.
	Replace diagnostics.Span
}

// Parameter is one parameter of a signature.
type Parameter struct {
	Label, Documentation string
}

// Signature is one signature of a callable.
type Signature struct {
	Label, Documentation string
	Parameters           []Parameter
}

// SignatureHelp is the active call's signatures.
type SignatureHelp struct {
	Signatures      []Signature
	ActiveSignature int
	ActiveParameter int
}

// Features are the editor features of one language. Every method may
// return a nil result and nil error for "nothing here"; an error is shown
// to the user as a failed request.
type Features interface {
	Hover(ctx context.Context, s Snapshot, offset int) (*Hover, error)
	Definition(ctx context.Context, s Snapshot, offset int) ([]Location, error)
	References(ctx context.Context, s Snapshot, offset int, includeDeclaration bool) ([]Location, error)
	DocumentSymbols(ctx context.Context, s Snapshot) ([]Symbol, error)
	WorkspaceSymbols(ctx context.Context, w Workspace, query string) ([]WorkspaceSymbol, error)
	// SemanticTokens returns the file's tokens in document order.
	SemanticTokens(ctx context.Context, s Snapshot) ([]Token, error)
	FoldingRanges(ctx context.Context, s Snapshot) ([]Fold, error)
	Completion(ctx context.Context, s Snapshot, offset int) ([]CompletionItem, error)
	SignatureHelp(ctx context.Context, s Snapshot, offset int) (*SignatureHelp, error)
	// PrepareRename returns the span of the renameable name at offset, or
	// nil when nothing there can be renamed.
	PrepareRename(ctx context.Context, s Snapshot, offset int) (*diagnostics.Span, error)
	// Rename returns the edits renaming the name at offset to newName
	// across the workspace.
	Rename(ctx context.Context, s Snapshot, offset int, newName string) ([]diagnostics.TextEdit, error)
}

// Unimplemented offers no feature. Embed it to implement Features
// piecemeal.
type Unimplemented struct{}

// Hover implements Features.
func (Unimplemented) Hover(context.Context, Snapshot, int) (*Hover, error) { return nil, nil }

// Definition implements Features.
func (Unimplemented) Definition(context.Context, Snapshot, int) ([]Location, error) { return nil, nil }

// References implements Features.
func (Unimplemented) References(context.Context, Snapshot, int, bool) ([]Location, error) {
	return nil, nil
}

// DocumentSymbols implements Features.
func (Unimplemented) DocumentSymbols(context.Context, Snapshot) ([]Symbol, error) { return nil, nil }

// WorkspaceSymbols implements Features.
func (Unimplemented) WorkspaceSymbols(context.Context, Workspace, string) ([]WorkspaceSymbol, error) {
	return nil, nil
}

// SemanticTokens implements Features.
func (Unimplemented) SemanticTokens(context.Context, Snapshot) ([]Token, error) { return nil, nil }

// FoldingRanges implements Features.
func (Unimplemented) FoldingRanges(context.Context, Snapshot) ([]Fold, error) { return nil, nil }

// Completion implements Features.
func (Unimplemented) Completion(context.Context, Snapshot, int) ([]CompletionItem, error) {
	return nil, nil
}

// SignatureHelp implements Features.
func (Unimplemented) SignatureHelp(context.Context, Snapshot, int) (*SignatureHelp, error) {
	return nil, nil
}

// PrepareRename implements Features.
func (Unimplemented) PrepareRename(context.Context, Snapshot, int) (*diagnostics.Span, error) {
	return nil, nil
}

// Rename implements Features.
func (Unimplemented) Rename(context.Context, Snapshot, int, string) ([]diagnostics.TextEdit, error) {
	return nil, nil
}
