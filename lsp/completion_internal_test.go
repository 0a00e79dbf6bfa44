package lsp

import (
	"encoding/json"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
)

// TestEncodeCompletionListAsMarshaled: for a client that resolves nothing,
// the list is byte for byte what encoding/json gives for the
// protocol.CompletionList of the items (strings that need escapes,
// snippets, items with and without a span to replace).
func TestEncodeCompletionListAsMarshaled(t *testing.T) {
	word := diagnostics.Span{Start: 3, End: 5}
	toRange := func(sp diagnostics.Span) protocol.Range {
		return protocol.Range{Start: protocol.Position{Line: 1, Character: protocol.UInteger(sp.Start)},
			End: protocol.Position{Line: 2, Character: protocol.UInteger(sp.End)}}
	}
	for _, tc := range []struct {
		name  string
		items []features.CompletionItem
	}{
		{"none", nil},
		{"plain", []features.CompletionItem{{Label: "len", Kind: features.CompletionFunction, Detail: "len(x) -> int", Documentation: "The length.", Replace: word}}},
		{"escapes", []features.CompletionItem{
			{Label: "a<b>&c", Kind: features.CompletionVariable, Detail: "say \"hi\"\\\n\t", Documentation: "```harn\nx: list<string>\n```\u2028\u2029é\x01", Replace: word},
			{Label: "bad\xffutf8", Kind: features.CompletionKeyword, Replace: word},
		}},
		{"snippet and default span", []features.CompletionItem{
			{Label: "match", Kind: features.CompletionSnippet, InsertText: "match ${1:x} {\n}", Snippet: true, Replace: word},
			{Label: "when", Kind: features.CompletionSnippet, InsertText: "when $1", Snippet: true},
			{Label: "plain", Kind: features.CompletionKeyword},
			{Label: "other", Kind: features.CompletionField, Replace: diagnostics.Span{Start: 7, End: 7}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := encodeCompletionList(completionClient{}, toRange, tc.items, 0)
			want, err := json.Marshal(marshaledList(toRange, tc.items))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("encoded\n%s\nencoding/json gives\n%s", got, want)
			}
		})
	}
}

// marshaledList is the protocol.CompletionList of items with every field.
func marshaledList(toRange func(diagnostics.Span) protocol.Range, items []features.CompletionItem) protocol.CompletionList {
	out := protocol.CompletionList{Items: []protocol.CompletionItem{}}
	for _, it := range items {
		ci := protocol.CompletionItem{Label: it.Label, Kind: ptr(protocol.CompletionItemKind(it.Kind))}
		if it.Detail != "" {
			ci.Detail = ptr(it.Detail)
		}
		if it.Documentation != "" {
			ci.Documentation = protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: it.Documentation}
		}
		text := it.Label
		if it.InsertText != "" {
			text = it.InsertText
		}
		if it.Snippet {
			ci.InsertTextFormat = ptr(protocol.InsertTextFormatSnippet)
		}
		if it.Replace != (diagnostics.Span{}) {
			ci.TextEdit = protocol.TextEdit{Range: toRange(it.Replace), NewText: text}
		} else if it.InsertText != "" {
			ci.InsertText = ptr(text)
		}
		out.Items = append(out.Items, ci)
	}
	return out
}

// TestResolvableListsKept: a list stays resolvable while fewer than
// keptLists others are given after it; a reply given again counts as
// given last.
func TestResolvableListsKept(t *testing.T) {
	var r resolvableLists
	items := func(label string) []features.CompletionItem { return []features.CompletionItem{{Label: label}} }
	first := r.keep(items("first"))
	second := r.keep(items("second"))
	for range keptLists - 2 {
		r.keep(items("other"))
	}
	if l := r.list(first); len(l) != 1 || l[0].Label != "first" {
		t.Fatalf("first list after %d others: %v", keptLists-1, l)
	}
	r.given(first, items("first"))
	r.keep(items("other"))
	if l := r.list(first); len(l) != 1 || l[0].Label != "first" {
		t.Errorf("first list given again, then one more: %v", l)
	}
	if l := r.list(second); l != nil {
		t.Errorf("second list after %d others: %v, want forgotten", keptLists, l)
	}
	if l := r.list(0); l != nil {
		t.Errorf("token 0: %v", l)
	}
}
