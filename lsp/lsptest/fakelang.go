// Package lsptest drives leia-lsp through the protocol in tests: an
// in-process client speaking JSON-RPC over pipes, and Fake, a tiny language
// whose diagnostics and features tests control, a language.Language value
// like the real front ends, which a test lists in lsp.Options.Languages.
//
// The Fake language exists so that the server, the harness and the editor
// test can be proven before the Harn and Leia front ends exist. It is
// compiled into leia-lsp only with the build tag leialsptest.
package lsptest

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/language"
	"github.com/harnlang/harn-check/lsp/features"
)

// FakeExtension and FakeLanguageID select the Fake language.
const (
	FakeExtension  = ".fake"
	FakeLanguageID = "fake"
)

// The Fake language's rules:
//
//   - the word "bad" is an error, FAKE-BAD-001 (a code with no explanation
//     page), fixed by replacing it with "good"; from the second occurrence
//     on it points at the first as related information;
//   - the word "warn" is HARN-LNT-079 (a registered code, so it links its
//     explanation), with two fixes: replace with "ok", or delete it.
//
// Its features work on words ([A-Za-z_][A-Za-z0-9_]*): hover names the
// word and counts it; definition is its first occurrence; references are
// all; "def NAME" lines are function symbols; lines ending in "{" fold to
// the next line that is "}"; "def" is a keyword token and digits are number
// tokens; completion offers the document's words; rename renames every
// occurrence; workspace symbols are the "def" symbols of the open Fake
// documents. Hovering the word "panic" panics, for robustness tests.
var (
	wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	numRE  = regexp.MustCompile(`[0-9]+`)
)

// Fake is the Fake language: its check and its editor features.
var Fake = language.Language{Name: "Fake", Extension: FakeExtension, Check: fakeCheck,
	Editor: func() (language.Editor, error) { return language.Editor{Features: fake{}}, nil }}

func words(src []byte) [][]int { return wordRE.FindAllIndex(src, -1) }

func fakeCheck(req driver.Request) driver.Result {
	path, src := req.Path, req.Source
	var ds []diagnostics.Diagnostic
	var firstBad *diagnostics.Span
	for _, w := range words(src) {
		span := diagnostics.Span{Start: w[0], End: w[1]}
		switch string(src[w[0]:w[1]]) {
		case "bad":
			d := diagnostics.New(path, diagnostics.SourceLint, "FAKE-BAD-001", span, "the word \"bad\" is not allowed")
			d.Help = "write \"good\" instead"
			d.Fixes = []diagnostics.Fix{{Title: `Replace with "good"`, Edits: []diagnostics.TextEdit{{Span: span, NewText: "good"}}}}
			if firstBad == nil {
				firstBad = &span
			} else {
				d.Related = []diagnostics.Related{{Span: *firstBad, Message: "first \"bad\" is here"}}
			}
			ds = append(ds, d)
		case "warn":
			d := diagnostics.New(path, diagnostics.SourceLint, "HARN-LNT-079", span, "the word \"warn\" is discouraged")
			d.Fixes = []diagnostics.Fix{
				{Title: `Replace with "ok"`, Edits: []diagnostics.TextEdit{{Span: span, NewText: "ok"}}},
				{Title: `Delete "warn"`, Edits: []diagnostics.TextEdit{{Span: span}}},
			}
			ds = append(ds, d)
		}
	}
	diagnostics.Sort(ds)
	return driver.Result{Diagnostics: ds}
}

type fake struct{ features.Unimplemented }

// wordAt returns the word containing offset (or ending at it).
func wordAt(src []byte, offset int) (string, diagnostics.Span, bool) {
	for _, w := range words(src) {
		if w[0] <= offset && offset <= w[1] {
			return string(src[w[0]:w[1]]), diagnostics.Span{Start: w[0], End: w[1]}, true
		}
	}
	return "", diagnostics.Span{}, false
}

func occurrences(src []byte, word string) []diagnostics.Span {
	var out []diagnostics.Span
	for _, w := range words(src) {
		if string(src[w[0]:w[1]]) == word {
			out = append(out, diagnostics.Span{Start: w[0], End: w[1]})
		}
	}
	return out
}

func (fake) Hover(_ context.Context, s features.Snapshot, offset int) (*features.Hover, error) {
	w, span, ok := wordAt(s.Doc.Text, offset)
	if !ok {
		return nil, nil
	}
	if w == "panic" {
		panic("fake language: hover on \"panic\"")
	}
	return &features.Hover{Span: span, Markdown: fmt.Sprintf("word `%s` (%d occurrences)", w, len(occurrences(s.Doc.Text, w)))}, nil
}

func (fake) Definition(_ context.Context, s features.Snapshot, offset int) ([]features.Location, error) {
	w, _, ok := wordAt(s.Doc.Text, offset)
	if !ok {
		return nil, nil
	}
	return []features.Location{{Span: occurrences(s.Doc.Text, w)[0]}}, nil
}

func (fake) References(_ context.Context, s features.Snapshot, offset int, _ bool) ([]features.Location, error) {
	w, _, ok := wordAt(s.Doc.Text, offset)
	if !ok {
		return nil, nil
	}
	var out []features.Location
	for _, sp := range occurrences(s.Doc.Text, w) {
		out = append(out, features.Location{Span: sp})
	}
	return out, nil
}

func (fake) DocumentSymbols(_ context.Context, s features.Snapshot) ([]features.Symbol, error) {
	var out []features.Symbol
	off := 0
	for _, line := range strings.SplitAfter(string(s.Doc.Text), "\n") {
		if name, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "def "); ok && wordRE.MatchString(name) {
			n := wordRE.FindStringIndex(name)
			start := off + 4 + n[0]
			out = append(out, features.Symbol{
				Name: name[n[0]:n[1]], Kind: features.SymbolFunction, Detail: "def",
				Span:          diagnostics.Span{Start: off, End: off + len(strings.TrimRight(line, "\r\n"))},
				SelectionSpan: diagnostics.Span{Start: start, End: start + n[1] - n[0]},
			})
		}
		off += len(line)
	}
	return out, nil
}

func (fake) SemanticTokens(_ context.Context, s features.Snapshot) ([]features.Token, error) {
	var out []features.Token
	for _, w := range wordRE.FindAllIndex(s.Doc.Text, -1) {
		if string(s.Doc.Text[w[0]:w[1]]) == "def" {
			out = append(out, features.Token{Span: diagnostics.Span{Start: w[0], End: w[1]}, Type: "keyword"})
		}
	}
	for _, n := range numRE.FindAllIndex(s.Doc.Text, -1) {
		if n[0] > 0 && wordRE.Match(s.Doc.Text[n[0]-1:n[0]]) {
			continue // digits inside a word
		}
		out = append(out, features.Token{Span: diagnostics.Span{Start: n[0], End: n[1]}, Type: "number", Modifiers: []string{"readonly"}})
	}
	sortTokens(out)
	return out, nil
}

// WorkspaceSymbols offers the "def" symbols of every open Fake document
// whose name contains the query.
func (f fake) WorkspaceSymbols(ctx context.Context, w features.Workspace, query string) ([]features.WorkspaceSymbol, error) {
	var out []features.WorkspaceSymbol
	for _, d := range w.Documents() {
		if !strings.HasSuffix(d.Path, FakeExtension) {
			continue
		}
		syms, _ := f.DocumentSymbols(ctx, features.Snapshot{Doc: d, Workspace: w})
		for _, sym := range syms {
			if strings.Contains(sym.Name, query) {
				out = append(out, features.WorkspaceSymbol{Name: sym.Name, Kind: sym.Kind,
					Container: filepath.Base(d.Path), Location: features.Location{Path: d.Path, Span: sym.SelectionSpan}})
			}
		}
	}
	return out, nil
}

func sortTokens(ts []features.Token) {
	slices.SortStableFunc(ts, func(a, b features.Token) int { return cmp.Compare(a.Span.Start, b.Span.Start) })
}

func (fake) FoldingRanges(_ context.Context, s features.Snapshot) ([]features.Fold, error) {
	var out []features.Fold
	var open []int
	off := 0
	for _, line := range strings.SplitAfter(string(s.Doc.Text), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasSuffix(t, "{"):
			open = append(open, off)
		case t == "}" && len(open) > 0:
			out = append(out, features.Fold{Span: diagnostics.Span{Start: open[len(open)-1], End: off}, Kind: "region"})
			open = open[:len(open)-1]
		}
		off += len(line)
	}
	return out, nil
}

// FakeCompletions counts the completion lists the Fake language has
// computed (tests read it to see a reply reused).
var FakeCompletions atomic.Int64

func (fake) Completion(_ context.Context, s features.Snapshot, offset int) ([]features.CompletionItem, error) {
	FakeCompletions.Add(1)
	seen := map[string]bool{}
	var out []features.CompletionItem
	for _, w := range words(s.Doc.Text) {
		word := string(s.Doc.Text[w[0]:w[1]])
		if !seen[word] && !(w[0] <= offset && offset <= w[1]) {
			seen[word] = true
			out = append(out, features.CompletionItem{Label: word, Kind: features.CompletionVariable})
		}
	}
	return out, nil
}

func (fake) PrepareRename(_ context.Context, s features.Snapshot, offset int) (*diagnostics.Span, error) {
	_, span, ok := wordAt(s.Doc.Text, offset)
	if !ok {
		return nil, nil
	}
	return &span, nil
}

func (fake) Rename(_ context.Context, s features.Snapshot, offset int, newName string) ([]diagnostics.TextEdit, error) {
	w, _, ok := wordAt(s.Doc.Text, offset)
	if !ok {
		return nil, nil
	}
	if !wordRE.MatchString(newName) || wordRE.FindString(newName) != newName {
		return nil, fmt.Errorf("%q is not a word", newName)
	}
	var out []diagnostics.TextEdit
	for _, sp := range occurrences(s.Doc.Text, w) {
		out = append(out, diagnostics.TextEdit{Span: sp, NewText: newName})
	}
	return out, nil
}
