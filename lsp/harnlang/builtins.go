package harnlang

import (
	"slices"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lang/harn/builtins"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
)

// The standard library's builtins, namespaces and runtime globals come
// from the one table the checker types calls with (lang/harn/builtins):
// completion offers all of it, signature help and hover read parameter
// names, types and docs from it. A name the file declares shadows a
// builtin of the same name everywhere the declaration is visible.

// builtinMarkdown renders a builtin for hover and completion docs.
func builtinMarkdown(b *builtins.Builtin) string {
	var sb strings.Builder
	sb.WriteString("```harn\n")
	sb.WriteString(b.String())
	sb.WriteString("\n```\n\n")
	sb.WriteString(b.Doc)
	sb.WriteString(footer(b.Category, b.Needs))
	return sb.String()
}

func globalMarkdown(g *builtins.Global) string {
	return "```harn\n" + g.Name + ": " + g.TypeText + "\n```\n\n" + g.Doc + footer(g.Category, g.Needs)
}

func namespaceMarkdown(ns string) string {
	var sb strings.Builder
	sb.WriteString("```harn\n")
	sb.WriteString(ns)
	sb.WriteString("\n```\n\nNamespace of the standard library:")
	for _, m := range builtins.Members(ns) {
		sb.WriteString(" `" + m.Member + "`")
	}
	sb.WriteString(".")
	return sb.String()
}

// footer names the table section and the host capabilities.
func footer(category string, needs []builtins.Capability) string {
	s := "\n\n*builtin*"
	for _, c := range builtins.Categories() {
		if c.ID == category {
			s = "\n\n*builtin · " + c.Title + "*"
		}
	}
	if len(needs) > 0 {
		parts := make([]string, len(needs))
		for i, n := range needs {
			parts[i] = string(n)
		}
		s += " · needs " + strings.Join(parts, ", ")
	}
	return s
}

// builtinCompletions offers the builtin functions, globals and
// namespaces whose names start with prefix (case-insensitively) and that
// no visible declaration shadows, sorted by name.
func builtinCompletions(prefix string, seen map[string]bool, replace diagnostics.Span) []features.CompletionItem {
	var out []features.CompletionItem
	for _, b := range builtinCompletionItems() {
		if seen[b.item.Label] || !strings.HasPrefix(b.lower, prefix) {
			continue
		}
		seen[b.item.Label] = true
		it := b.item
		it.Replace = replace
		out = append(out, it)
	}
	return out
}

// builtinItem is the completion item of one builtin name, and the name in
// lower case.
type builtinItem struct {
	lower string
	item  features.CompletionItem
}

// builtinCompletionItems are the completion items of the builtin
// functions, then the globals, then the namespaces (a name is offered
// once, as the first of these it names), sorted by name: made at the
// first completion, since the table does not change while the process
// runs and every completion on an empty word offers all of them.
var builtinCompletionItems = sync.OnceValue(func() []builtinItem {
	var out []builtinItem
	seen := map[string]bool{}
	add := func(it features.CompletionItem) {
		if !seen[it.Label] {
			seen[it.Label] = true
			out = append(out, builtinItem{lower: strings.ToLower(it.Label), item: it})
		}
	}
	for _, b := range builtins.All() {
		if b.Namespace == "" {
			add(features.CompletionItem{Label: b.Name, Kind: features.CompletionFunction, Detail: b.String(), Documentation: builtinMarkdown(b)})
		}
	}
	for _, g := range builtins.Globals() {
		add(features.CompletionItem{Label: g.Name, Kind: features.CompletionConstant, Detail: g.Name + ": " + g.TypeText, Documentation: globalMarkdown(g)})
	}
	for _, ns := range builtins.Namespaces() {
		add(features.CompletionItem{Label: ns, Kind: features.CompletionModule, Detail: "namespace " + ns, Documentation: namespaceMarkdown(ns)})
	}
	slices.SortFunc(out, func(a, b builtinItem) int { return strings.Compare(a.item.Label, b.item.Label) })
	return out
})

// namespaceCompletion offers the members of a builtin namespace after
// `ns.`, when ns is a namespace no declaration shadows at the dot. index
// returns the file's name index, read only after a namespace's name:
// member completion on other receivers needs none.
func namespaceCompletion(index func() *names.Index, src []byte, start, offset int) ([]features.CompletionItem, bool) {
	dot := start - 1
	if dot <= 0 || src[dot] != '.' {
		return nil, false
	}
	wordStart := dot
	for wordStart > 0 && identByte(src[wordStart-1]) {
		wordStart--
	}
	ns := string(src[wordStart:dot])
	if !builtins.IsNamespace(ns) || declared(index(), ns, dot) {
		return nil, false
	}
	prefix := string(src[start:offset])
	replace := diagnostics.Span{Start: start, End: offset}
	var out []features.CompletionItem
	for _, m := range builtins.Members(ns) {
		if strings.HasPrefix(m.Member, prefix) {
			out = append(out, features.CompletionItem{Label: m.Member, Kind: features.CompletionFunction, Detail: m.String(), Documentation: builtinMarkdown(m), Replace: replace})
		}
	}
	return out, true
}

// declared reports whether a declaration of name is visible at offset.
func declared(ix *names.Index, name string, offset int) bool {
	here := diagnostics.Span{Start: offset, End: offset}
	for sc := ix.Innermost(here); sc >= 0; sc = ix.Parent(sc) {
		for _, d := range ix.Declared(sc) {
			if d.Name == name && (hoisted[d.Kind] || d.Span.End <= offset) {
				return true
			}
		}
	}
	return false
}

// builtinAt finds the builtin, global or namespace named at offset: an
// identifier no declaration resolves, or the member of a namespace
// (`stream.map`). It returns hover text and the name's span.
func builtinAt(tree *sitter.Tree, ix *names.Index, src []byte, offset int) (string, diagnostics.Span, bool) {
	n := tree.RootNode().NamedDescendantForByteRange(uint(offset), uint(offset))
	if n == nil {
		return "", diagnostics.Span{}, false
	}
	sp := nodeSpan(n)
	switch n.Kind() {
	case "identifier":
		name := n.Utf8Text(src)
		if p := n.Parent(); p != nil && p.Kind() == "member_expression" {
			if prop := p.ChildByFieldName("property"); prop != nil && nodeSpan(prop) == sp {
				if b := namespaceMember(p, ix, src); b != nil {
					return builtinMarkdown(b), sp, true
				}
				return "", sp, false
			}
		}
		if declared(ix, name, sp.Start) {
			return "", sp, false
		}
		if p := n.Parent(); p != nil && p.Kind() == "member_expression" && builtins.IsNamespace(name) {
			if obj := p.ChildByFieldName("object"); obj != nil && nodeSpan(obj) == sp {
				return namespaceMarkdown(name), sp, true
			}
		}
		if b := builtins.Lookup(name); b != nil {
			return builtinMarkdown(b), sp, true
		}
		if g := builtins.LookupGlobal(name); g != nil {
			return globalMarkdown(g), sp, true
		}
		if builtins.IsNamespace(name) {
			return namespaceMarkdown(name), sp, true
		}
	case "property_identifier", "field_identifier":
		if p := n.Parent(); p != nil && p.Kind() == "member_expression" {
			if b := namespaceMember(p, ix, src); b != nil {
				return builtinMarkdown(b), sp, true
			}
		}
	}
	return "", sp, false
}

// namespaceMember returns the builtin a member expression `ns.name`
// names, when ns is an undeclared namespace.
func namespaceMember(m *sitter.Node, ix *names.Index, src []byte) *builtins.Builtin {
	obj := m.ChildByFieldName("object")
	prop := m.ChildByFieldName("property")
	if obj == nil || prop == nil || obj.Kind() != "identifier" {
		return nil
	}
	ns := obj.Utf8Text(src)
	if !builtins.IsNamespace(ns) || declared(ix, ns, int(obj.StartByte())) {
		return nil
	}
	return builtins.Lookup(ns + "." + prop.Utf8Text(src))
}

// builtinCallSignature is the signature help of a builtin call.
func builtinCallSignature(b *builtins.Builtin, active int) *features.SignatureHelp {
	sig := features.Signature{Label: b.String(), Documentation: b.Doc + footer(b.Category, b.Needs)}
	rest := -1
	for i, p := range b.Params {
		sig.Parameters = append(sig.Parameters, features.Parameter{Label: p.Label()})
		if p.Rest {
			rest = i
		}
	}
	if rest >= 0 && active > rest {
		active = rest
	}
	return &features.SignatureHelp{Signatures: []features.Signature{sig}, ActiveParameter: active}
}
