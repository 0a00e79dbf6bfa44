package model

import (
	"slices"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/tsutil"
)

// Edited is a model of one version of a text seen from a later version,
// without copying it: the one edit between the two (tsutil.CommonEnds)
// replaced a part of the old text, and the names in or touching that part
// are unknown (the next check will know them); every other span moves by
// the edit's change of length.
type Edited struct {
	m *Model
	// The edit replaced old[p:oldEnd] by new[p:newEnd].
	p, oldEnd, newEnd int
}

// Through returns m, a model of the text old, as seen from the text now.
func Through(m *Model, old, now []byte) *Edited {
	if m == nil {
		return nil
	}
	e := &Edited{m: m, p: len(old), oldEnd: len(old), newEnd: len(now)}
	if string(old) != string(now) {
		p, s := tsutil.CommonEnds(old, now)
		e.p, e.oldEnd, e.newEnd = p, len(old)-s, len(now)-s
	}
	return e
}

// Unchanged reports whether the model is of this very text.
func (e *Edited) Unchanged() bool { return e != nil && e.p == e.oldEnd && e.oldEnd == e.newEnd }

// Known reports whether offset of the new text is outside the edited
// part, where the model still says what each name denotes.
func (e *Edited) Known(offset int) bool {
	if e == nil {
		return false
	}
	if e.Unchanged() {
		return true
	}
	return offset < e.p || offset > e.newEnd
}

// toOld converts an offset of the new text outside the edited part.
func (e *Edited) toOld(offset int) int {
	if offset < e.p {
		return offset
	}
	return offset - e.newEnd + e.oldEnd
}

// toNew converts a span of the old text, false when it is in or touches
// the edited part (an identifier the edit may have lengthened).
func (e *Edited) toNew(sp diagnostics.Span) (diagnostics.Span, bool) {
	if e.Unchanged() {
		return sp, true
	}
	if sp.End < e.p {
		return sp, true
	}
	if sp.Start > e.oldEnd {
		d := e.newEnd - e.oldEnd
		return diagnostics.Span{Start: sp.Start + d, End: sp.End + d}, true
	}
	return diagnostics.Span{}, false
}

// At returns the definition the name at offset denotes (Model.At) and
// the name's span, in the new text; ok is false when offset is in the
// edited part. A def of -1 with ok set means the checker resolved no
// name there.
func (e *Edited) At(offset int) (def int, span diagnostics.Span, ok bool) {
	if !e.Known(offset) || offset > 0 && !e.Known(offset-1) {
		return -1, diagnostics.Span{}, false
	}
	d, sp := e.m.At(e.toOld(offset))
	if d < 0 {
		return -1, diagnostics.Span{}, true
	}
	sp, ok = e.toNew(sp)
	if !ok {
		return -1, diagnostics.Span{}, false
	}
	return d, sp, true
}

// Def returns definition def with its span in the new text; ok is false
// when the declaration is in the edited part.
func (e *Edited) Def(def int) (Def, bool) {
	if e == nil || def < 0 || def >= e.m.NumDefs() {
		return Def{}, false
	}
	d := e.m.Def(def)
	sp, ok := e.toNew(d.Span)
	d.Span = sp
	return d, ok
}

// Occurrences returns the spans, in the new text, of definition def's
// name and of its uses outside the edited part (Model.Occurrences).
func (e *Edited) Occurrences(def int) []diagnostics.Span {
	if e == nil {
		return nil
	}
	occ := e.m.Occurrences(def)
	out := occ[:0]
	for _, sp := range occ {
		if n, ok := e.toNew(sp); ok {
			out = append(out, n)
		}
	}
	return out
}

// Model returns the model of the old text.
func (e *Edited) Model() *Model {
	if e == nil {
		return nil
	}
	return e.m
}

// Merge returns the model of the text now from base, the model of an
// earlier version baseText, and part, a model of now that a check of
// only part of the text gave (an editor's incremental check of an edit
// inside one declaration): its names within part.Within are the new
// ones, and base's elsewhere, moved by the edit. It returns nil when the
// edit between the versions reaches outside part.Within (base's names
// there could have changed). The merged model keeps only the top-level
// scope (Scope 0).
func Merge(base *Model, baseText []byte, part *Model, now []byte) *Model {
	if base == nil || part == nil || part.Within == nil {
		return nil
	}
	w := *part.Within
	if !EditWithin(baseText, now, w) {
		return nil
	}
	e := Through(base, baseText, now)
	inside := func(sp diagnostics.Span) bool { return w.Start <= sp.Start && sp.End <= w.End }
	m := &Model{Scopes: []Scope{{Span: diagnostics.Span{Start: 0, End: len(now)}, Parent: -1}}}
	// base's kinds, modules and types, which its definitions keep
	// indexing, and part's added.
	m.attrs = slices.Clone(base.attrs)
	attrs := make(map[defAttrs]int32, len(m.attrs))
	for i, a := range m.attrs {
		attrs[a] = int32(i)
	}
	// A name's definition is recorded once (Builder.Def): part's are few
	// (those within the declaration and those its uses refer to), and
	// base's are distinct from one another, so only part's are looked up.
	added := map[defKey]int32{}
	def := func(d Def) int32 {
		if d.Scope != 0 {
			d.Scope = -1
		}
		k := defKey{d.Span, d.Name}
		if i, ok := added[k]; ok {
			return i
		}
		i := int32(len(m.defs))
		m.defs = append(m.defs, storedDef{name: d.Name, span: d.Span, scope: d.Scope, attrs: m.attrsIndex(attrs, defAttrs{d.Kind, d.Module, d.Type})})
		added[k] = i
		return i
	}
	// part's definitions within the declaration, and the uses there with
	// the definitions they refer to wherever those are (a top-level
	// name: the same span and name as base's, so the same definition).
	for i := range part.NumDefs() {
		if d := part.Def(i); inside(d.Span) {
			def(d)
		}
	}
	var partUses []Use
	for _, u := range part.Uses {
		if inside(u.Span) {
			if d := def(part.Def(int(u.Def))); u.Span.End > u.Span.Start {
				partUses = append(partUses, Use{Span: u.Span, Def: d})
			}
		}
	}
	// base's definitions, moved (a name the edit touched is dropped; one
	// declared within the declaration and used outside it, such as the
	// declaration's own name, is part's), and its uses outside the
	// declaration.
	m.defs = slices.Grow(m.defs, len(base.defs))
	baseDefs := make([]int32, len(base.defs))
	for i, d := range base.defs {
		baseDefs[i] = -1
		sp, ok := e.toNew(d.span)
		if !ok {
			continue
		}
		d.span = sp
		if d.scope != 0 {
			d.scope = -1
		}
		if j, ok := added[defKey{d.span, d.name}]; ok {
			baseDefs[i] = j // part's: within the declaration, or a name it uses
			continue
		}
		if inside(d.span) {
			// Within the declaration only part's definitions hold: one
			// the edit removed without touching its name (`sum := 0`
			// made a label `sum : 0`) is gone.
			continue
		}
		baseDefs[i] = int32(len(m.defs))
		m.defs = append(m.defs, d) // its attrs: base's entry, at the same index in m.attrs
	}
	// The uses in source order: base's (sorted, moved alike) merged with
	// part's (sorted); a use at a definition's own name is dropped, and
	// one overlapping the use before it (Builder.Model). Base's uses are
	// not at its own definitions' names, nor within the declaration: only
	// part's definitions can be at one.
	m.Uses = make([]Use, 0, len(base.Uses)+len(partUses))
	keep := func(u Use) {
		if n := len(m.Uses); n > 0 && m.Uses[n-1].Span.End > u.Span.Start {
			return
		}
		m.Uses = append(m.Uses, u)
	}
	k := 0
	for _, u := range base.Uses {
		sp, ok := e.toNew(u.Span)
		if !ok || inside(sp) || baseDefs[u.Def] < 0 || sp.End <= sp.Start {
			continue
		}
		for k < len(partUses) && partUses[k].Span.Start <= sp.Start {
			keep(partUses[k])
			k++
		}
		if _, own := added[defKey{sp, m.defs[baseDefs[u.Def]].name}]; own {
			continue
		}
		keep(Use{Span: sp, Def: baseDefs[u.Def]})
	}
	for ; k < len(partUses); k++ {
		keep(partUses[k])
	}
	m.defs, m.attrs, m.Uses = clipped(m.defs), clipped(m.attrs), clipped(m.Uses)
	m.index()
	return m
}

// EditWithin reports whether the one edit that turns old into now
// (tsutil.CommonEnds) lies within w, a span of now.
func EditWithin(old, now []byte, w diagnostics.Span) bool {
	if string(old) == string(now) {
		return true
	}
	p, s := tsutil.CommonEnds(old, now)
	return w.Start <= p && len(now)-s <= w.End
}
