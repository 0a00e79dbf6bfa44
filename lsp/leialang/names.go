package leialang

import (
	"context"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	leiagrammar "github.com/harnlang/harn-check/grammar/leia"
	"github.com/harnlang/harn-check/lang/leia/stdlib"
	"github.com/harnlang/harn-check/lang/model"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// hoisted are the Leia declaration kinds (of locals.scm) visible in their
// whole scope.
var hoisted = map[string]bool{"function": true, "import": true, "label": true}

// notUse are the identifiers locals.scm captures that name no variable:
// fields, methods, keys, tags and goto labels.
var notUse = map[string]string{"field_expression": "field", "method_call_expression": "method",
	"pair": "key", "tagged_block": "tag", "tagged_string": "tag", "goto_statement": "label"}

func resolverOptions() names.Options {
	return names.Options{
		Locals:  leiagrammar.LocalsQuery(),
		Hoisted: hoisted,
		NotUse: func(n *sitter.Node) bool {
			p := n.Parent()
			if p == nil {
				return false
			}
			field, ok := notUse[p.Kind()]
			if !ok {
				return false
			}
			c := p.ChildByFieldName(field)
			return c != nil && c.StartByte() == n.StartByte() && c.EndByte() == n.EndByte()
		},
		Declaration: func(n *sitter.Node, kind string) *sitter.Node {
			for p := n.Parent(); p != nil; p = p.Parent() {
				switch p.Kind() {
				case "function_declaration", "tool_declaration", "agent_declaration", "const_declaration",
					"short_var_declaration", "import_spec", "label_statement", "for_statement":
					return p
				case "parameters":
					if fn := p.Parent(); fn != nil {
						return fn // the parameter's function, up to its body
					}
				}
			}
			return n.Parent()
		},
		Doc: func(decl *sitter.Node, src []byte) string {
			return names.CommentsAbove(decl, src, []string{"comment"}, false)
		},
	}
}

// keywords are the words highlights.scm captures as keywords.
// They are read from the query at first use: every process that links
// the language (harn-check run too) would otherwise pay for the two
// expressions and the scan when it starts.
var keywords = sync.OnceValue(func() []string {
	var out []string
	group := regexp.MustCompile(`(?s)\[([^\]]*)\]\s*@keyword[\w.]*`)
	word := regexp.MustCompile(`"([a-z_]+)"`)
	for _, g := range group.FindAllStringSubmatch(leiagrammar.HighlightsQuery(), -1) {
		for _, w := range word.FindAllStringSubmatch(g[1], -1) {
			out = append(out, w[1])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
})

// Features are Leia's syntax-level editor features: tokens and folds from
// the embedded tsquery.Features, and definition, references, hover and
// completion of names resolved through locals.scm.
type Features struct {
	tsquery.Features
	names *names.Resolver
}

func (f *Features) index(s features.Snapshot) *names.Index {
	t, ok := s.Doc.Tree.(*tsquery.Tree)
	if !ok || t == nil || t.T == nil {
		return nil
	}
	return f.names.Index(t.T, s.Doc.Text)
}

// Definition implements features.Features: the declaration of the name at
// offset in this file.
func (f *Features) Definition(_ context.Context, s features.Snapshot, offset int) ([]features.Location, error) {
	if n, ok := checkedNameAt(s, offset); ok {
		if n.def < 0 {
			return nil, nil
		}
		return []features.Location{{Span: n.d.Span}}, nil
	}
	ix := f.index(s)
	if ix == nil {
		return nil, nil
	}
	if d := ix.ResolveAt(offset); d != nil {
		return []features.Location{{Span: d.Span}}, nil
	}
	return nil, nil
}

// References implements features.Features: the uses in this file of the
// declaration the name at offset resolves to.
func (f *Features) References(_ context.Context, s features.Snapshot, offset int, includeDeclaration bool) ([]features.Location, error) {
	ix := f.index(s)
	if ix == nil {
		return nil, nil
	}
	var decl diagnostics.Span
	var occ []diagnostics.Span
	if n, ok := checkedNameAt(s, offset); ok {
		if n.def < 0 {
			return nil, nil
		}
		decl, occ = n.d.Span, n.e.Occurrences(n.def)
	} else {
		d := ix.ResolveAt(offset)
		if d == nil {
			return nil, nil
		}
		decl, occ = d.Span, ix.Uses(d)
	}
	var out []features.Location
	for _, sp := range occ {
		if sp != decl || includeDeclaration {
			out = append(out, features.Location{Span: sp})
		}
	}
	return out, nil
}

// Hover implements features.Features: the declaration the name at offset
// resolves to, as written, with the comment above it; for a predeclared
// name or a standard-library member, its signature and doc. A name the
// checker's model resolved is described from the nodes around its
// declaration (names.Resolver.DefAt): the syntax index of the whole file,
// which a version just changed would have to bring up to date first, is
// built only when the model does not answer.
func (f *Features) Hover(_ context.Context, s features.Snapshot, offset int) (*features.Hover, error) {
	t, ok := s.Doc.Tree.(*tsquery.Tree)
	if !ok || t == nil || t.T == nil {
		return nil, nil
	}
	var ix *names.Index
	var d *names.Def
	var use diagnostics.Span
	if n, checked := checkedNameAt(s, offset); checked {
		// The declaration the checker resolves the name to, as the
		// syntax describes it (or as the model does).
		use, ok = n.use, n.def >= 0
		if ok {
			d = describe(f.names.DefAt(t.T.RootNode(), s.Doc.Text, n.d.Span), n.d)
		}
	} else {
		ix = f.index(s)
		d = ix.ResolveAt(offset)
		use, ok = ix.NameAt(offset)
	}
	if d == nil {
		// A predeclared name or standard-library member: its signature
		// and doc from lang/leia/stdlib.
		if n := nameNodeAt(s, offset); n != nil {
			if ix == nil {
				ix = f.index(s)
			}
			if e := builtinOf(ix, n, s.Doc.Text); e != nil {
				return &features.Hover{Span: names.NodeSpan(n), Markdown: builtinHover(e)}, nil
			}
		}
		return nil, nil
	}
	if !ok {
		return nil, nil
	}
	return &features.Hover{Span: use, Markdown: names.HoverText("leia", s.Doc.Text, d)}, nil
}

// describe returns the syntax's description of a definition of the
// checker's model (names.Resolver.DefAt: its declaration as written and
// the comment above it), or one made of the model's facts for a
// declaration the syntax does not list under that name.
func describe(d *names.Def, m model.Def) *names.Def {
	if d != nil && d.Name == m.Name {
		return d
	}
	return &names.Def{Name: m.Name, Kind: m.Kind, Span: m.Span, Decl: m.Span}
}

// nameNodeAt returns the identifier at offset or just before it.
func nameNodeAt(s features.Snapshot, offset int) *sitter.Node {
	tree, ok := s.Doc.Tree.(*tsquery.Tree)
	if !ok || tree == nil {
		return nil
	}
	for _, off := range []int{offset, offset - 1} {
		if off < 0 {
			continue
		}
		n := tree.T.RootNode().DescendantForByteRange(uint(off), uint(off))
		if n != nil && n.Kind() == "identifier" {
			return n
		}
	}
	return nil
}

func identByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// Completion implements features.Features: the names visible at offset,
// the keywords and, once a letter is typed, Leia's predeclared names
// (lang/leia/stdlib), by the
// typed prefix; after "module." the members the standard-library table
// knows; nothing after ":" or after "." on other values.
func (f *Features) Completion(_ context.Context, s features.Snapshot, offset int) ([]features.CompletionItem, error) {
	src := s.Doc.Text
	ix := f.index(s)
	if ix == nil || offset < 0 || offset > len(src) {
		return nil, nil
	}
	start := offset
	for start > 0 && identByte(src[start-1]) {
		start--
	}
	prefix := strings.ToLower(string(src[start:offset]))
	replace := diagnostics.Span{Start: start, End: offset}
	if start > 0 && src[start-1] == '.' {
		return memberCompletions(ix, src, start, prefix, replace), nil
	}
	if start > 0 && src[start-1] == ':' {
		return nil, nil
	}
	var out []features.CompletionItem
	seen := map[string]bool{}
	for _, d := range ix.Visible(start) {
		if !strings.HasPrefix(strings.ToLower(d.Name), prefix) {
			continue
		}
		seen[d.Name] = true
		kind := features.CompletionVariable
		if d.Kind == "function" {
			kind = features.CompletionFunction
		}
		detail := strings.TrimSpace(string(src[d.Decl.Start:d.Decl.End]))
		if i := strings.IndexByte(detail, '\n'); i >= 0 {
			detail = strings.TrimSpace(detail[:i]) + " …"
		}
		out = append(out, features.CompletionItem{Label: d.Name, Kind: kind, Detail: detail, Documentation: d.Doc, Replace: replace})
	}
	for _, k := range keywords() {
		if !seen[k] && strings.HasPrefix(k, prefix) {
			seen[k] = true
			out = append(out, features.CompletionItem{Label: k, Kind: features.CompletionKeyword, Replace: replace})
		}
	}
	// The predeclared names (about a hundred) once a letter is typed.
	for _, g := range stdlib.Globals() {
		if prefix == "" || seen[g.Name] || !strings.HasPrefix(strings.ToLower(g.Name), prefix) {
			continue
		}
		out = append(out, builtinItem(g, g.Name, replace))
	}
	return out, nil
}

// memberCompletions offers the known members of the standard-library
// module named before the "." at start, unless a local shadows it.
func memberCompletions(ix *names.Index, src []byte, start int, prefix string, replace diagnostics.Span) []features.CompletionItem {
	end := start - 1
	b := end
	for b > 0 && identByte(src[b-1]) {
		b--
	}
	module := string(src[b:end])
	if module == "" || b > 0 && (src[b-1] == '.' || src[b-1] == ':') {
		return nil
	}
	for _, d := range ix.Visible(b) {
		if d.Name == module {
			return nil
		}
	}
	g := stdlib.Lookup(module)
	if g == nil || g.Kind != stdlib.Module {
		return nil
	}
	var members []string
	for name := range g.Members {
		if strings.HasPrefix(strings.ToLower(name), prefix) {
			members = append(members, name)
		}
	}
	sort.Strings(members)
	var out []features.CompletionItem
	for _, name := range members {
		out = append(out, builtinItem(g.Members[name], name, replace))
	}
	return out
}

// builtinItem is the completion of a predeclared name or module member.
func builtinItem(e *stdlib.Entry, label string, replace diagnostics.Span) features.CompletionItem {
	it := features.CompletionItem{Label: label, Documentation: e.Doc, Replace: replace}
	switch e.Kind {
	case stdlib.Function:
		it.Kind = features.CompletionFunction
		it.Detail = e.Signature()
	case stdlib.Module:
		it.Kind = features.CompletionModule
		it.Detail = "module " + e.Name
	default:
		it.Kind = features.CompletionVariable
		it.Detail = e.Name
	}
	if e.Scope == stdlib.EvaluateOnly {
		it.Detail += " (inside evaluate blocks only)"
	}
	return it
}

// symbolKinds maps the top-level declaration kinds of locals.scm to
// symbol kinds.
var symbolKinds = map[string]features.SymbolKind{"function": features.SymbolFunction,
	"constant": features.SymbolConstant, "var": features.SymbolVariable}

// DocumentSymbols implements features.Features: the file's top-level
// functions, tools, agents, constants and variables, from locals.scm.
func (f *Features) DocumentSymbols(_ context.Context, s features.Snapshot) ([]features.Symbol, error) {
	ix := f.index(s)
	if ix == nil {
		return nil, nil
	}
	var out []features.Symbol
	for _, d := range ix.Defs() {
		kind, ok := symbolKinds[d.Kind]
		if d.Scope != 0 || !ok {
			continue
		}
		detail := strings.Join(strings.Fields(string(s.Doc.Text[d.Span.End:max(d.Span.End, d.Decl.End)])), " ")
		out = append(out, features.Symbol{Name: d.Name, Kind: kind, Detail: detail,
			Span: diagnostics.Span{Start: min(d.Decl.Start, d.Span.Start), End: max(d.Decl.End, d.Span.End)}, SelectionSpan: d.Span})
	}
	slices.SortFunc(out, func(a, b features.Symbol) int { return a.SelectionSpan.Start - b.SelectionSpan.Start })
	return out, nil
}

// WorkspaceSymbols implements features.Features over the open Leia
// documents: their top-level declarations whose name contains query
// (case-insensitive).
func (f *Features) WorkspaceSymbols(ctx context.Context, w features.Workspace, query string) ([]features.WorkspaceSymbol, error) {
	q := strings.ToLower(query)
	var out []features.WorkspaceSymbol
	for _, d := range w.Documents() {
		if !strings.HasSuffix(d.URI, Extension) {
			continue
		}
		syms, _ := f.DocumentSymbols(ctx, features.Snapshot{Doc: d, Workspace: w})
		for _, s := range syms {
			if strings.Contains(strings.ToLower(s.Name), q) {
				out = append(out, features.WorkspaceSymbol{Name: s.Name, Kind: s.Kind,
					Location: features.Location{Path: d.Path, Span: s.SelectionSpan}})
			}
		}
	}
	return out, nil
}

// checkedName is a name as the checker's model resolves it.
type checkedName struct {
	e *model.Edited
	// def indexes the model's definitions, -1 when the checker resolved
	// no name at the offset; d is that definition and use the name's
	// span, in the document's text.
	def int
	d   model.Def
	use diagnostics.Span
}

// checkedNameAt returns what the checker's model says about the name at
// offset, false when the features answer from the syntax-only resolver
// (features.Document.Names: the document has no tree or a syntax error,
// no check gave a model, or the text there changed since).
func checkedNameAt(s features.Snapshot, offset int) (checkedName, bool) {
	t, ok := s.Doc.Tree.(*tsquery.Tree)
	if !ok || t == nil || t.T == nil {
		return checkedName{}, false
	}
	n, ok := s.Doc.NameAt(!t.T.RootNode().HasError(), offset)
	return checkedName{e: n.Model, def: n.Def, d: n.Decl, use: n.Use}, ok
}
