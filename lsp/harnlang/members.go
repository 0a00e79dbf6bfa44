package harnlang

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lang/harn/types"
	"github.com/harnlang/harn-check/lsp/features"
)

// placeholder stands for the member name being typed in the text checked
// for completion.
const placeholder = "harnlsp_member"

// builtinMember is a method or property of a built-in value kind, as the
// Harn language reference lists them (§8: the most frequent methods and
// the spec tables for strings, lists and dicts).
type builtinMember struct {
	name     string
	property bool // read without parentheses
	doc      string
}

var stringMembers = []builtinMember{
	{"count", true, "number of characters"},
	{"empty", true, "true when the string has no characters"},
	{"contains", false, "contains(sub): whether sub occurs"},
	{"ends_with", false, "ends_with(suffix)"},
	{"index_of", false, "index_of(sub): first index of sub, or -1"},
	{"lower", false, "lower-cased copy"},
	{"lowercase", false, "lower-cased copy"},
	{"repeat", false, "repeat(n): the string n times"},
	{"replace", false, "replace(old, new): every occurrence replaced"},
	{"split", false, "split(sep): list of parts"},
	{"starts_with", false, "starts_with(prefix)"},
	{"substring", false, "substring(start, end)"},
	{"trim", false, "copy without leading and trailing whitespace"},
	{"upper", false, "upper-cased copy"},
	{"uppercase", false, "upper-cased copy"},
}

var listMembers = []builtinMember{
	{"count", true, "number of elements"},
	{"empty", true, "true when the list has no elements"},
	{"first", true, "first element, or nil"},
	{"last", true, "last element, or nil"},
	{"all", false, "all(f): whether f holds for every element"},
	{"any", false, "any(f): whether f holds for some element"},
	{"chunks", false, "chunks(n): consecutive slices of n elements"},
	{"contains", false, "contains(x): whether x is an element"},
	{"enumerate", false, "pairs of index and element"},
	{"filter", false, "filter(f): the elements f accepts"},
	{"find", false, "find(f): first element f accepts, or nil"},
	{"find_index", false, "find_index(f): index of the first element f accepts, or -1"},
	{"flat_map", false, "flat_map(f): f's lists concatenated"},
	{"fold", false, "fold(init, f): f applied left to right from init"},
	{"index_of", false, "index_of(x): first index of x, or -1"},
	{"map", false, "map(f): f applied to each element"},
	{"min", false, "smallest element"},
	{"push", false, "push(x): append x"},
	{"reduce", false, "reduce(init, f): f applied left to right from init"},
	{"reverse", false, "elements in reverse order"},
	{"skip", false, "skip(n): without the first n elements"},
	{"sort", false, "elements in ascending order"},
	{"sum", false, "sum of the elements"},
	{"take", false, "take(n): the first n elements"},
	{"unique", false, "elements without repeats, first occurrence kept"},
	{"windows", false, "windows(n): overlapping slices of n elements"},
	{"zip", false, "zip(other): pairs of elements at the same index"},
}

var dictMembers = []builtinMember{
	{"count", true, "number of entries"},
	{"empty", true, "true when the dict has no entries"},
	{"entries", false, "key/value pairs, sorted by key"},
	{"filter", false, "filter(f): the entries f accepts"},
	{"get", false, "get(key): the value, or nil"},
	{"has", false, "has(key): whether key is present"},
	{"keys", false, "keys, sorted"},
	{"map_values", false, "map_values(f): f applied to each value"},
	{"merge", false, "merge(other): entries of both, other's winning"},
	{"values", false, "values, in key order"},
}

// memberCompletion offers the members of the receiver of the "." before
// start: the fields of a record (for a union, the fields every member
// has first, then those only some variants have, marked as needing
// narrowing), the members of a capability (harness.llm.evaluate), and the
// common methods and properties of strings, lists and dicts. The
// receiver's type comes from the checker's facts for the text with the
// word under the cursor replaced by a placeholder name, so that a
// half-typed access (`o.` at the end of a line) still parses and the
// receiver stays a member read's object; narrowing (an arm of
// `match o.kind`) applies.
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
	patched := make([]byte, 0, len(src)+len(placeholder))
	patched = append(patched, src[:start]...)
	patched = append(patched, placeholder...)
	patched = append(patched, src[after:]...)
	t, ok := postfixEndingAt(typeFacts(s, patched, nil, true), end)
	if !ok {
		return nil
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
		case *types.List:
			add(builtinItems("list", listMembers))
		case *types.Dict:
			add(builtinItems("dict", dictMembers))
		case *types.Basic:
			if u.Kind == types.String {
				add(builtinItems("string", stringMembers))
			}
		case *types.Literal:
			if _, ok := u.Value.(string); ok {
				add(builtinItems("string", stringMembers))
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

func builtinItems(kind string, ms []builtinMember) []features.CompletionItem {
	out := make([]features.CompletionItem, 0, len(ms))
	for _, m := range ms {
		it := features.CompletionItem{Label: m.name, Kind: features.CompletionMethod,
			Detail: kind + " method", Documentation: m.doc}
		if m.property {
			it.Kind, it.Detail = features.CompletionProperty, kind+" property"
		}
		out = append(out, it)
	}
	return out
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
