package manifest

import (
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lang/harn/types"
)

// codeNoManifest is the predicate-source diagnostic explaining a null
// manifest.
const codeNoManifest = "HARN-MAN-001"

// FromCheck returns the predicate_manifest of a checked Harn file: the
// encoded document of the sites its import closure declares, or nil (JSON
// null) when the file or a transitive import failed checking, since the
// census would then be incomplete. When an import is to blame, one
// `predicate` diagnostic (HARN-MAN-001) says which; the file's own errors
// already explain a null manifest and get no extra note.
func FromCheck(path string, src []byte, res *harn.Result) (json.RawMessage, []diagnostics.Diagnostic) {
	if res.Failed {
		if d, ok := noManifest(path, res); ok {
			return nil, []diagnostics.Diagnostic{d}
		}
		return nil, nil
	}
	content := func(p string) []byte {
		if p == path {
			return src
		}
		c, _ := res.Content(p)
		return c
	}
	var facts []SiteFacts
	for _, s := range res.Sites {
		if !s.Declared() {
			continue
		}
		f := SiteFacts{Source: s.Source, ID: s.ID, Method: s.Method, Line: s.Line, Column: runeColumn(content(s.Source), s.Span.Start, s.Column)}
		for _, q := range s.Questions {
			f.Questions = append(f.Questions, Question{ID: q.ID, Kind: q.Kind, Instructions: q.Instructions, Labels: q.Labels})
		}
		input := s.InputDeclared
		if input == nil {
			input = s.Input
		}
		if input != nil {
			f.InputTypeCanonical = types.Canonical(input)
		}
		facts = append(facts, f)
	}
	return Build(facts).Encode(), nil
}

// runeColumn converts a byte offset in src to a 1-based column in code
// points; without the source it keeps the checker's byte column.
func runeColumn(src []byte, offset, byteColumn int) int {
	if src == nil || offset > len(src) {
		return byteColumn
	}
	lineStart := offset
	for lineStart > 0 && src[lineStart-1] != '\n' && src[lineStart-1] != '\r' {
		lineStart--
	}
	return utf8.RuneCount(src[lineStart:offset]) + 1
}

// importFailures are the codes with which the checker reports an import
// that could not be checked.
var importFailures = []string{"HARN-MOD-001", "HARN-MOD-007"}

// noManifest explains which imported modules made the census incomplete;
// ok is false when only the file's own errors did.
func noManifest(path string, res *harn.Result) (diagnostics.Diagnostic, bool) {
	ownErrors := false
	var related []diagnostics.Related
	for _, d := range res.Diagnostics {
		if d.Severity != diagnostics.Error {
			continue
		}
		if slices.Contains(importFailures, d.Code) {
			related = append(related, diagnostics.Related{Path: d.Path, Span: d.Span, Message: d.Message})
			continue
		}
		ownErrors = true
	}
	if len(related) == 0 {
		return diagnostics.Diagnostic{}, false
	}
	msg := "no predicate-site manifest: an imported module failed checking, so the sites of the import closure cannot all be listed"
	if len(related) > 1 {
		msg = fmt.Sprintf("no predicate-site manifest: %d imported modules failed checking, so the sites of the import closure cannot all be listed", len(related))
	}
	if ownErrors {
		msg += " (this file has errors too)"
	}
	d := diagnostics.New(path, diagnostics.SourcePredicate, codeNoManifest, diagnostics.Span{}, msg)
	d.Related = related
	d.Help = "fix the errors reported for the imported modules; the manifest is null rather than incomplete"
	return d, true
}
