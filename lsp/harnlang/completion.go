package harnlang

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/diagnostics"
	harngrammar "github.com/harnlang/harn-check/grammar/harn"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
)

// keywords are the words highlights.scm captures as keywords, so
// completion offers exactly the grammar's keywords.
// They are read from the query at first use: every process that links
// the language (harn-check run too) would otherwise pay for the two
// expressions and the scan when it starts.
var keywords = sync.OnceValue(func() []string {
	var out []string
	group := regexp.MustCompile(`(?s)\[([^\]]*)\]\s*@keyword[\w.]*`)
	word := regexp.MustCompile(`"([a-z_]+)"`)
	for _, g := range group.FindAllStringSubmatch(harngrammar.HighlightsQuery(), -1) {
		for _, w := range word.FindAllStringSubmatch(g[1], -1) {
			out = append(out, w[1])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
})

func identByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// Completion implements features.Features with what syntax knows: the
// names visible at offset (declared before it in an enclosing scope, or
// hoisted: functions, types, imports), then the whole builtin table
// (functions, runtime globals, namespaces) that no visible name shadows,
// then the keywords, filtered by the word being typed; nothing inside a
// comment or string. After "ns." for a builtin namespace it offers the
// namespace's members; after another "." the receiver's members from its
// inferred type (memberCompletion).
func (f *Features) Completion(_ context.Context, s features.Snapshot, offset int) ([]features.CompletionItem, error) {
	src := s.Doc.Text
	if offset < 0 || offset > len(src) {
		return nil, nil
	}
	start := offset
	for start > 0 && identByte(src[start-1]) {
		start--
	}
	prefix := strings.ToLower(string(src[start:offset]))
	tree, done := treeOf(s.Doc)
	defer done()
	if start > 0 && src[start-1] == '.' {
		if tree != nil {
			index := func() *names.Index { return f.names.Index(tree, src) }
			if items, ok := namespaceCompletion(index, src, start, offset); ok {
				return items, nil
			}
		}
		return memberCompletion(s, start, offset), nil
	}
	if tree == nil {
		return nil, nil
	}
	ix := f.names.Index(tree, src)
	if items, ok := f.outcomeCompletion(tree, ix, src, start, offset); ok {
		return items, nil
	}
	if items, ok := f.labelCompletion(tree, ix, src, start, offset); ok {
		return items, nil
	}
	if n := tree.RootNode().DescendantForByteRange(uint(max(start-1, 0)), uint(max(start-1, 0))); n != nil {
		for p := n; p != nil; p = p.Parent() {
			switch p.Kind() {
			case "line_comment", "block_comment", "string", "raw_string", "multiline_string":
				if int(p.StartByte()) < start && start < int(p.EndByte()) {
					return nil, nil
				}
			}
		}
	}
	replace := diagnostics.Span{Start: start, End: offset}
	var out []features.CompletionItem
	seen := map[string]bool{}
	here := diagnostics.Span{Start: offset, End: offset}
	for sc := ix.Innermost(here); sc >= 0; sc = ix.Parent(sc) {
		var local []features.CompletionItem
		for _, d := range ix.Declared(sc) {
			if seen[d.Name] || !strings.HasPrefix(strings.ToLower(d.Name), prefix) {
				continue
			}
			if !hoisted[d.Kind] && d.Span.End > start {
				continue // declared later, or the word being typed itself
			}
			seen[d.Name] = true
			local = append(local, features.CompletionItem{Label: d.Name, Kind: completionKind(d.Kind),
				Detail: firstLine(string(src[d.Decl.Start:d.Decl.End])), Documentation: d.Doc, Replace: replace})
		}
		slices.SortFunc(local, func(a, b features.CompletionItem) int { return strings.Compare(a.Label, b.Label) })
		out = append(out, local...)
	}
	out = append(out, builtinCompletions(prefix, seen, replace)...)
	for _, k := range keywords() {
		if !seen[k] && strings.HasPrefix(k, prefix) {
			out = append(out, features.CompletionItem{Label: k, Kind: features.CompletionKeyword, Replace: replace})
		}
	}
	return out, nil
}

func completionKind(kind string) features.CompletionKind {
	switch kind {
	case kindFunction, "pipeline", "tool":
		return features.CompletionFunction
	case kindType:
		return features.CompletionStruct
	case kindImport, "skill", "eval_pack":
		return features.CompletionModule
	}
	return features.CompletionVariable
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " …"
	}
	return s
}

func replaceSpan(start, end int) diagnostics.Span { return diagnostics.Span{Start: start, End: end} }
