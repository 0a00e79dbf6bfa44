package harnlang

import (
	"slices"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"strings"
	"unicode/utf8"

	harnchecker "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/infer"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/tsutil"
	"github.com/harnlang/harn-check/lang/harn/builtins"
	"github.com/harnlang/harn-check/lang/harn/types"
	"github.com/harnlang/harn-check/lsp/features"
)

// placeholder stands for the member name being typed in the text checked
// for completion.
const placeholder = "harnlsp_member"

// memberCompletion offers the members of the receiver of the "." before
// start: the fields of a record (for a union, the fields every member
// has first, then those only some variants have, marked as needing
// narrowing), the members of a capability (harness.llm.evaluate), and the
// methods and properties of built-in kinds (strings, lists, dicts, ...)
// from the builtin table. The
// receiver's type comes from the facts of the latest check that typed
// it, when the text up to the receiver's end is the same there (the
// version before the "." was typed: checkedReceiverType); otherwise from
// the checker's facts for the text with the
// word under the cursor replaced by a placeholder name, so that a
// half-typed access (`o.` at the end of a line) still parses and the
// receiver stays a member read's object. Narrowing (an arm of
// `match o.kind`) applies either way.
func memberCompletion(s features.Snapshot, start, offset int) []features.CompletionItem {
	src := s.Doc.Text
	dot := start - 1
	if dot < 0 || src[dot] != '.' {
		return nil
	}
	end := dot
	if end > 0 && src[end-1] == '?' { // `x?.name`
		end--
	}
	after := offset // the rest of the word under the cursor goes too
	for after < len(src) && identByte(src[after]) {
		after++
	}
	t, ok := checkedReceiverType(s, end)
	if !ok {
		// A check of the whole text (a large file's takes a while).
		patched := make([]byte, 0, len(src)+len(placeholder))
		patched = append(patched, src[:start]...)
		patched = append(patched, placeholder...)
		patched = append(patched, src[after:]...)
		if t, ok = postfixEndingAt(typeFacts(s, patched, nil, true), end); !ok {
			return nil
		}
	}
	prefix := string(src[start:offset])
	replace := diagnostics.Span{Start: start, End: offset}
	var out []features.CompletionItem
	for _, it := range membersOf(t) {
		if strings.HasPrefix(it.Label, prefix) {
			it.Replace = replace
			out = append(out, it)
		}
	}
	return out
}

// checkedReceiverType returns the type of the receiver expression ending
// at end from the facts of one of the latest checks of the document,
// without waiting for a check: one of a text the same as this version's
// up to end, which typed an expression ending there (the version before
// the "." was typed, or this one if it parses that far).
func checkedReceiverType(s features.Snapshot, end int) (types.Type, bool) {
	if s.Doc.Facts == nil {
		return nil, false
	}
	for _, c := range s.Doc.Facts() {
		if p, _ := tsutil.CommonEnds(c.Text, s.Doc.Text); p < end {
			continue // the receiver was edited since
		}
		var facts *analysis.Facts
		delta := 0
		switch f := c.Facts.(type) {
		case *analysis.Facts:
			facts = f
		case *harnchecker.EditedFacts:
			facts, delta = f.At(end, end)
		}
		if t, ok := postfixEndingAt(facts, end+delta); ok {
			return t, true
		}
	}
	return nil, false
}

// membersOf lists the completion items for the members of a value of
// type t.
func membersOf(t types.Type) []features.CompletionItem {
	t = types.StripNil(t)
	ms := types.Members(t)
	var records []*types.Record
	var out []features.CompletionItem
	seen := map[string]bool{}
	add := func(items []features.CompletionItem) {
		for _, it := range items {
			if !seen[it.Label] {
				seen[it.Label] = true
				out = append(out, it)
			}
		}
	}
	for _, m := range ms {
		switch u := types.Unalias(m).(type) {
		case *types.Record:
			records = append(records, u)
		case *types.Capability:
			add(capabilityItems(u))
			if kind := infer.MethodKind(u); kind != "" {
				add(builtinItems(kind))
			}
		default:
			if kind := infer.MethodKind(u); kind != "" {
				add(builtinItems(kind))
			}
		}
	}
	add(recordItems(records, len(ms)))
	return out
}

// recordItems lists the fields of the records among a type's n members:
// those on every member first (when every member is a record), then the
// fields only some variants have, marked as needing narrowing.
func recordItems(records []*types.Record, n int) []features.CompletionItem {
	if len(records) == 0 {
		return nil
	}
	var names []string
	typesOf := map[string][]types.Type{}
	count := map[string]int{}
	optional := map[string]bool{}
	for _, r := range records {
		for _, f := range r.Fields {
			if count[f.Name] == 0 {
				names = append(names, f.Name)
			}
			count[f.Name]++
			typesOf[f.Name] = append(typesOf[f.Name], f.Type)
			optional[f.Name] = optional[f.Name] || f.Optional
		}
	}
	var common, partial []features.CompletionItem
	for _, name := range names {
		ft := types.NewUnion(typesOf[name]...)
		it := features.CompletionItem{Label: name, Kind: features.CompletionField, Detail: clip(ft.String(), 100)}
		if optional[name] {
			it.Detail += " (optional)"
		}
		if count[name] == len(records) && len(records) == n {
			common = append(common, it)
			continue
		}
		it.Detail += " (only on some variants: narrow first)"
		it.Documentation = "Present on " + variantList(records, name) + "; check the variant (e.g. `match x.kind`) before reading it."
		partial = append(partial, it)
	}
	return append(common, partial...)
}

// variantList names the records among records that have field name, by
// their `kind` tag when they have one.
func variantList(records []*types.Record, name string) string {
	var out []string
	for _, r := range records {
		if _, ok := r.Lookup(name); !ok {
			continue
		}
		label := r.String()
		if k, ok := r.Lookup("kind"); ok {
			label = "kind " + k.Type.String()
		} else if r.Nominal != "" {
			label = r.Nominal
		}
		label = clip(label, 60)
		out = append(out, label)
	}
	return strings.Join(out, ", ")
}

// capabilityItems lists a capability's members, sorted: methods and
// nested capabilities.
func capabilityItems(c *types.Capability) []features.CompletionItem {
	var out []features.CompletionItem
	for name, mt := range c.Members {
		it := features.CompletionItem{Label: name, Detail: mt.String()}
		switch mt.(type) {
		case *types.Func:
			it.Kind = features.CompletionMethod
			it.Detail = c.Name + "." + name + funcSignature(mt.(*types.Func))
		case *types.Capability:
			it.Kind = features.CompletionModule
		default:
			it.Kind = features.CompletionProperty
			it.Detail = c.Name + "." + name + " (not described to the checker)"
		}
		out = append(out, it)
	}
	slices.SortFunc(out, func(a, b features.CompletionItem) int { return strings.Compare(a.Label, b.Label) })
	return out
}

// builtinItems lists the properties, then the methods, of a built-in
// kind from the builtin table, each under its own name (aliases are
// resolved by hover and signature help, not offered).
func builtinItems(kind string) []features.CompletionItem {
	var out []features.CompletionItem
	for _, p := range builtins.Properties(kind) {
		out = append(out, features.CompletionItem{Label: p.Member, Kind: features.CompletionProperty,
			Detail: kind + " property: " + p.ResultText, Documentation: p.Doc})
	}
	for _, m := range builtins.Methods(kind) {
		out = append(out, features.CompletionItem{Label: m.Member, Kind: features.CompletionMethod,
			Detail: m.String(), Documentation: memberDoc(m)})
	}
	return out
}

// memberDoc is a method or property's doc with its aliases.
func memberDoc(m *builtins.Builtin) string {
	if len(m.Aliases) == 0 {
		return m.Doc
	}
	return m.Doc + "\n\nAlso called " + strings.Join(m.Aliases, ", ") + "."
}

// clip shortens s to at most n bytes (at a UTF-8 boundary) plus "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// funcSignature renders a function type with its parameter names:
// "(id: string, policy?: EvaluationPolicy) -> EvaluationOutcome".
func funcSignature(f *types.Func) string {
	parts := make([]string, len(f.Params))
	for i, p := range f.Params {
		name := p.Name
		if p.Optional {
			name += "?"
		}
		if f.Variadic && i == len(f.Params)-1 {
			name = "..." + name
		}
		parts[i] = name + ": " + p.Type.String()
	}
	return "(" + strings.Join(parts, ", ") + ") -> " + f.Result.String()
}

// kindMember returns the builtin table's entry for the member a member
// expression names on a value of a built-in kind: the method when the
// expression is called (an alias resolves to its entry), else the
// property; nil when the receiver's checked type is no built-in kind or
// the kind has no such member.
func kindMember(s features.Snapshot, tree *sitter.Tree, m *sitter.Node) *builtins.Builtin {
	obj := m.ChildByFieldName("object")
	prop := m.ChildByFieldName("property")
	if obj == nil || prop == nil {
		return nil
	}
	start, end := int(obj.StartByte()), int(obj.EndByte())
	facts, delta := spanFacts(s, tree, start, end)
	t, ok := exprType(facts, start+delta, end+delta)
	if !ok {
		return nil
	}
	kind := infer.MethodKind(types.StripNil(t))
	name := prop.Utf8Text(s.Doc.Text)
	if p := m.Parent(); p != nil && p.Kind() == "call_expression" {
		if fn := p.ChildByFieldName("function"); fn != nil && fn.StartByte() == m.StartByte() && fn.EndByte() == m.EndByte() {
			return builtins.LookupMethod(kind, name)
		}
	}
	return builtins.LookupProperty(kind, name)
}

// kindMemberHover is the hover of a method name of a built-in kind: the
// table's signature and doc. A property read keeps the hover of a member
// read (the expression and its type).
func kindMemberHover(s features.Snapshot, tree *sitter.Tree, offset int) *features.Hover {
	n := tree.RootNode().NamedDescendantForByteRange(uint(offset), uint(offset))
	if n == nil || n.Parent() == nil || n.Parent().Kind() != "member_expression" {
		return nil
	}
	if prop := n.Parent().ChildByFieldName("property"); prop == nil || prop.StartByte() != n.StartByte() {
		return nil
	}
	b := kindMember(s, tree, n.Parent())
	if b == nil || b.Property {
		return nil
	}
	return &features.Hover{Span: nodeSpan(n), Markdown: "```harn\n" + b.String() + "\n```\n\n" + memberDoc(b)}
}
