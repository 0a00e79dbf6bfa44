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
	content := sourceOf(path, src, res)
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

// sourceOf returns the content of a module of the check: src for the
// checked file, the checker's copy for an import.
func sourceOf(path string, src []byte, res *harn.Result) func(string) []byte {
	return func(p string) []byte {
		if p == path {
			return src
		}
		c, _ := res.Content(p)
		return c
	}
}

// LiteralSite is one literal evaluation site: a call written
// recv.evaluate*("id", ...) on a receiver of static type HarnessLlm, with
// a literal id (and, for evaluate_predicate, a literal question). Line
// and Column are the manifest's (1-based, code points, the call's start).
type LiteralSite struct {
	Source string `json:"source"`
	ID     string `json:"id"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// LiteralSites lists the literal evaluation sites of a checked file's
// import closure, also when the file failed checking (where the manifest
// is null): a run refuses an evaluation from anywhere else (an erased
// receiver, a computed property, a method value) before dispatch. A site
// refused only for its route, policy, questions or input is listed:
// runtime admission owns those refusals. On a file that passes checking
// the list is exactly the manifest's sites.
func LiteralSites(path string, src []byte, res *harn.Result) []LiteralSite {
	content := sourceOf(path, src, res)
	out := []LiteralSite{}
	for _, s := range res.Sites {
		if s.ReceiverProblem != "" || s.IDProblem != "" || s.QuestionTextProblem != "" || s.ID == "" {
			continue
		}
		out = append(out, LiteralSite{Source: s.Source, ID: s.ID, Line: s.Line, Column: runeColumn(content(s.Source), s.Span.Start, s.Column)})
	}
	return out
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
