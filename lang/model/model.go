// Package model is the semantic model of a checked file as a checker
// exports it: the names the file declares (definitions), the identifiers
// that refer to them (uses) and the scopes they live in, in byte spans
// into the checked text. The Harn and Leia checkers build one while they
// resolve names (checker/harn/infer, lang/leia/semantic); the language
// server answers definition, references, rename, document highlight and
// hover from it, so that the editor and the checker's undefined-name
// diagnostics never disagree about what a name denotes.
//
// A Model is immutable once built. Edited maps a model of one version of
// a text onto a later version without copying it, for an editor that
// answers from the latest complete check while the next one runs.
package model

import (
	"slices"
	"sort"

	"github.com/harnlang/harn-check/diagnostics"
)

// Def is one declared name.
type Def struct {
	Name string
	// Kind is the language's word for the declaration: "function",
	// "parameter", "variable", "constant", "type", "import", ...
	Kind string
	// Span is the declaring identifier; for a name a whole-module import
	// brings in, the import.
	Span diagnostics.Span
	// Module is the module an imported name comes from, as written in the
	// import ("./helpers"); "" for other names.
	Module string
	// Scope indexes Model.Scopes: the scope the name is declared in, or
	// -1 when the checker does not say.
	Scope int32
	// Type is the type the checker inferred for the name, as the
	// language writes it ("string", "number", ...), "" when it does not
	// know one or does not record types in the model.
	Type string
}

// Use is an identifier that refers to a declared name.
type Use struct {
	Span diagnostics.Span
	// Def indexes the model's definitions (Model.Def).
	Def int32
}

// Scope is one lexical scope.
type Scope struct {
	Span diagnostics.Span
	// Parent indexes Model.Scopes; -1 for an outermost scope.
	Parent int32
}

// Model is a checked file's names.
type Model struct {
	// defs are the declarations, in the order the checker met them
	// (Model.Def); a definition's kind, module and type are one entry of
	// attrs, which most definitions share: a Def in full takes 88 bytes,
	// and an editor keeps a model per checked version.
	defs  []storedDef
	attrs []defAttrs
	// Uses are sorted by start and never overlap.
	Uses []Use
	// Scopes are the scopes the checker opened, in the order it opened
	// them (nil when the checker records none).
	Scopes []Scope
	// Within, when set, says the model is of part of the text only (an
	// editor's incremental check of an edit inside one declaration): its
	// names within that span are the text's, and outside it those of the
	// model of an earlier version hold (Merge).
	Within *diagnostics.Span

	// byDef are the indexes of the definitions that have a span of their own
	// (not the import several names share), sorted by start; the uses of
	// definition d are Uses[i] for i in usesIdx[usesAt[d]:usesAt[d+1]]
	// (one array for all definitions: a slice per definition took 24
	// bytes each, more than the uses themselves).
	byDef   []int32
	usesAt  []int32
	usesIdx []int32
}

// storedDef is a definition as a model keeps it (40 bytes).
type storedDef struct {
	name  string
	span  diagnostics.Span
	scope int32
	// attrs indexes Model.attrs.
	attrs int32
}

// defAttrs are the kind, module and type of definitions.
type defAttrs struct{ kind, module, typ string }

// Def returns definition i (0 <= i < NumDefs).
func (m *Model) Def(i int) Def {
	d := m.defs[i]
	a := m.attrs[d.attrs]
	return Def{Name: d.name, Kind: a.kind, Span: d.span, Module: a.module, Scope: d.scope, Type: a.typ}
}

// NumDefs is the number of definitions.
func (m *Model) NumDefs() int {
	if m == nil {
		return 0
	}
	return len(m.defs)
}

// attrsIndex finds or adds the entry of Model.attrs for a, with index
// the entries so far by value.
func (m *Model) attrsIndex(index map[defAttrs]int32, a defAttrs) int32 {
	i, ok := index[a]
	if !ok {
		i = int32(len(m.attrs))
		m.attrs = append(m.attrs, a)
		index[a] = i
	}
	return i
}

// Builder records a model while a checker resolves names.
type Builder struct {
	m     Model
	bySpn map[defKey]int32
	// attrs indexes Model.attrs by value: each kind, module and type is
	// kept once (a checker formats each definition's type anew).
	attrs map[defAttrs]int32
}

type defKey struct {
	span diagnostics.Span
	name string
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder {
	return &Builder{bySpn: map[defKey]int32{}, attrs: map[defAttrs]int32{}}
}

// Def records a declaration and returns its index; a second declaration
// of the same name at the same span (a name declared ahead of its
// statement and then at it) is the first one.
func (b *Builder) Def(d Def) int32 {
	if b == nil {
		return -1
	}
	k := defKey{d.Span, d.Name}
	if i, ok := b.bySpn[k]; ok {
		return i
	}
	i := int32(len(b.m.defs))
	b.m.defs = append(b.m.defs, storedDef{name: d.Name, span: d.Span, scope: d.Scope, attrs: b.m.attrsIndex(b.attrs, defAttrs{d.Kind, d.Module, d.Type})})
	b.bySpn[k] = i
	return i
}

// Use records that the identifier at span refers to definition def (a
// Def's index); a negative def is ignored.
func (b *Builder) Use(span diagnostics.Span, def int32) {
	if b == nil || def < 0 || span.End <= span.Start {
		return
	}
	b.m.Uses = append(b.m.Uses, Use{Span: span, Def: def})
}

// Scope records a scope and returns its index.
func (b *Builder) Scope(span diagnostics.Span, parent int32) int32 {
	if b == nil {
		return -1
	}
	b.m.Scopes = append(b.m.Scopes, Scope{Span: span, Parent: parent})
	return int32(len(b.m.Scopes) - 1)
}

// Model returns the model recorded. The builder must not be used after.
// Uses of one span recorded twice keep the first; a use at a
// definition's own span is dropped (the definition covers it).
//
// The model is what an editor keeps of each checked version, so it is
// copied out of the builder's growing arrays at its exact size (appends
// leave up to half of an array unused) and holds none of the builder's
// maps.
func (b *Builder) Model() *Model {
	if b == nil {
		return nil
	}
	uses := b.m.Uses
	slices.SortStableFunc(uses, func(x, y Use) int { return x.Span.Start - y.Span.Start })
	out := uses[:0]
	for _, u := range uses {
		if _, def := b.bySpn[defKey{u.Span, b.m.defs[u.Def].name}]; def {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Span.End > u.Span.Start {
			continue
		}
		out = append(out, u)
	}
	m := &Model{defs: exact(b.m.defs), attrs: exact(b.m.attrs), Uses: exact(out), Scopes: exact(b.m.Scopes), Within: b.m.Within}
	m.index()
	b.m, b.bySpn, b.attrs = Model{}, nil, nil
	return m
}

// exact returns a copy of s with no spare capacity, nil for an empty s.
func exact[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	out := make([]T, len(s))
	copy(out, s)
	return out
}

// clipped is s without spare capacity (made at its final size), nil when
// empty, as exact returns it without the copy.
func clipped[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clip(s)
}

// index builds byDef, usesAt and usesIdx.
func (m *Model) index() {
	// The definitions by start (stable: a checker's order among those
	// starting together), without those sharing their span with another
	// (found side by side once sorted).
	byStart := make([]int32, len(m.defs))
	for i := range byStart {
		byStart[i] = int32(i)
	}
	if !slices.IsSortedFunc(byStart, func(x, y int32) int { return m.defs[x].span.Start - m.defs[y].span.Start }) {
		slices.SortStableFunc(byStart, func(x, y int32) int { return m.defs[x].span.Start - m.defs[y].span.Start })
	}
	m.byDef = make([]int32, 0, len(byStart))
	for i := 0; i < len(byStart); {
		// The run of definitions starting at the same offset.
		j := i + 1
		for j < len(byStart) && m.defs[byStart[j]].span.Start == m.defs[byStart[i]].span.Start {
			j++
		}
		for _, x := range byStart[i:j] {
			shared := false
			for _, y := range byStart[i:j] {
				if x != y && m.defs[x].span == m.defs[y].span {
					shared = true
					break
				}
			}
			if !shared {
				m.byDef = append(m.byDef, x)
			}
		}
		i = j
	}
	m.byDef = slices.Clip(m.byDef)
	// Count each definition's uses, turn the counts into offsets, then
	// place the uses in order (so each definition's are in source order).
	m.usesAt = make([]int32, len(m.defs)+1)
	for _, u := range m.Uses {
		m.usesAt[u.Def+1]++
	}
	for d := range m.defs {
		m.usesAt[d+1] += m.usesAt[d]
	}
	m.usesIdx = make([]int32, len(m.Uses))
	next := slices.Clone(m.usesAt[:len(m.defs)])
	for i, u := range m.Uses {
		m.usesIdx[next[u.Def]] = int32(i)
		next[u.Def]++
	}
}

// usesOf returns the indexes of definition def's uses in Uses, in source
// order.
func (m *Model) usesOf(def int) []int32 {
	return m.usesIdx[m.usesAt[def]:m.usesAt[def+1]]
}

// At returns the definition the name at offset denotes and the span of
// that name (a use, or the definition's own name), or -1 when no
// recorded name covers offset. A name ending at offset counts (an
// editor's cursor after its last letter) unless another starts there.
func (m *Model) At(offset int) (def int, span diagnostics.Span) {
	if m == nil {
		return -1, diagnostics.Span{}
	}
	for _, off := range []int{offset, offset - 1} {
		if off < 0 {
			continue
		}
		if i := sort.Search(len(m.Uses), func(i int) bool { return m.Uses[i].Span.End > off }); i < len(m.Uses) && m.Uses[i].Span.Start <= off {
			return int(m.Uses[i].Def), m.Uses[i].Span
		}
		// The last definition starting at or before off.
		if k := sort.Search(len(m.byDef), func(i int) bool { return m.defs[m.byDef[i]].span.Start > off }) - 1; k >= 0 {
			if d := m.defs[m.byDef[k]]; off < d.span.End {
				return int(m.byDef[k]), d.span
			}
		}
	}
	return -1, diagnostics.Span{}
}

// Occurrences returns the spans of a definition's name and of every use
// of it, in source order.
func (m *Model) Occurrences(def int) []diagnostics.Span {
	if m == nil || def < 0 || def >= len(m.defs) {
		return nil
	}
	uses := m.usesOf(def)
	out := make([]diagnostics.Span, 0, 1+len(uses))
	out = append(out, m.defs[def].span)
	for _, u := range uses {
		out = append(out, m.Uses[u].Span)
	}
	slices.SortFunc(out, func(a, b diagnostics.Span) int { return a.Start - b.Start })
	return slices.CompactFunc(out, func(a, b diagnostics.Span) bool { return a == b })
}
