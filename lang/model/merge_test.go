package model

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
)

// mergeByBuilder is Merge as the plain recording of every definition and
// use into a Builder (the checker's own way of making a model), which
// Merge does without a map of all definitions nor a sort of all uses: the
// reference TestMergeEqualsBuilder compares it with.
func mergeByBuilder(base *Model, baseText []byte, part *Model, now []byte) *Model {
	if base == nil || part == nil || part.Within == nil {
		return nil
	}
	w := *part.Within
	if !EditWithin(baseText, now, w) {
		return nil
	}
	e := Through(base, baseText, now)
	inside := func(sp diagnostics.Span) bool { return w.Start <= sp.Start && sp.End <= w.End }
	b := NewBuilder()
	b.Scope(diagnostics.Span{Start: 0, End: len(now)}, -1)
	def := func(d Def) int32 {
		if d.Scope != 0 {
			d.Scope = -1
		}
		return b.Def(d)
	}
	for _, d := range part.view().Defs {
		if inside(d.Span) {
			def(d)
		}
	}
	for _, u := range part.Uses {
		if inside(u.Span) {
			b.Use(u.Span, def(part.Def(int(u.Def))))
		}
	}
	partInside := map[defKey]bool{}
	for _, d := range part.view().Defs {
		if inside(d.Span) {
			partInside[defKey{d.Span, d.Name}] = true
		}
	}
	baseDefs := make([]int32, base.NumDefs())
	for i := range baseDefs {
		baseDefs[i] = -1
		if d, ok := e.Def(i); ok {
			if inside(d.Span) && !partInside[defKey{d.Span, d.Name}] {
				continue
			}
			baseDefs[i] = def(d)
		}
	}
	for _, u := range base.Uses {
		if sp, ok := e.toNew(u.Span); ok && !inside(sp) && baseDefs[u.Def] >= 0 {
			b.Use(sp, baseDefs[u.Def])
		}
	}
	return b.Model()
}

// randomModel records a model of a text of n bytes: names of one to three
// letters at random places, some declared twice, some sharing a span (a
// whole-module import), uses at other places referring to any of them,
// a few at a definition's own name or recorded twice.
func randomModel(r *rand.Rand, n int, within *diagnostics.Span, at func() int) *Model {
	b := NewBuilder()
	b.Scope(diagnostics.Span{Start: 0, End: n}, -1)
	names := []string{"a", "b", "cd", "efg", "x"}
	var defs []int32
	var spans []diagnostics.Span
	for range 1 + r.IntN(12) {
		start := at()
		sp := diagnostics.Span{Start: start, End: start + 1 + r.IntN(3)}
		d := b.Def(Def{Name: names[r.IntN(len(names))], Kind: "variable", Span: sp, Scope: int32(r.IntN(3)), Type: "int"})
		defs, spans = append(defs, d), append(spans, sp)
		if r.IntN(5) == 0 { // another name at the same span
			defs = append(defs, b.Def(Def{Name: names[r.IntN(len(names))], Kind: "import", Span: sp}))
		}
	}
	for range r.IntN(20) {
		d := defs[r.IntN(len(defs))]
		switch r.IntN(8) {
		case 0:
			b.Use(spans[r.IntN(len(spans))], d) // at a definition's span
		default:
			start := at()
			b.Use(diagnostics.Span{Start: start, End: start + 1 + r.IntN(3)}, d)
		}
	}
	m := b.Model()
	m.Within = within
	return m
}

// TestMergeEqualsBuilder: on random models of random texts and random
// edits within a declaration, Merge gives the very model (definitions,
// uses and lookup tables) that recording the same definitions and uses
// into a Builder gives.
func TestMergeEqualsBuilder(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	merged := 0
	for iter := range 3000 {
		n := 40 + r.IntN(60)
		old := make([]byte, n)
		for i := range old {
			old[i] = byte('a' + r.IntN(3))
		}
		base := randomModel(r, n, nil, func() int { return r.IntN(n - 4) })
		// The declaration w (in the new text) and an edit within it.
		ws := r.IntN(n - 10)
		we := ws + 5 + r.IntN(n-ws-5)
		p := ws + r.IntN(we-ws)
		cut := min(r.IntN(3), we-p)
		ins := []byte("zz")[:r.IntN(3)]
		now := append(append(append([]byte{}, old[:p]...), ins...), old[p+cut:]...)
		w := diagnostics.Span{Start: ws, End: we + len(ins) - cut}
		if w.End > len(now) || w.End <= w.Start {
			continue
		}
		// part's names: mostly within w, some at base's definitions
		// outside it (moved), which its uses refer to.
		part := randomModel(r, len(now), &w, func() int {
			if r.IntN(4) == 0 {
				return r.IntN(len(now) - 4)
			}
			return w.Start + r.IntN(max(1, w.End-w.Start-3))
		})
		if r.IntN(2) == 0 && base.NumDefs() > 0 {
			// A use within w of one of base's definitions, as the part's
			// check records a top-level name: the same name and span.
			e := Through(base, old, now)
			if d, ok := e.Def(r.IntN(base.NumDefs())); ok {
				b := NewBuilder()
				for _, pd := range part.view().Defs {
					b.Def(pd)
				}
				for _, u := range part.Uses {
					b.Use(u.Span, u.Def)
				}
				x := b.Def(d)
				b.Use(diagnostics.Span{Start: w.Start, End: w.Start + 1}, x)
				part = b.Model()
				part.Within = &w
			}
		}
		got, want := Merge(base, old, part, now), mergeByBuilder(base, old, part, now)
		if want != nil {
			merged++
		}
		if !reflect.DeepEqual(got.view(), want.view()) {
			t.Fatalf("iteration %d: Merge\n%+v\nwant\n%+v\nbase %+v\npart %+v", iter, got.view(), want.view(), base.view(), part.view())
		}
	}
	if merged < 1000 {
		t.Errorf("only %d of 3000 random edits merged", merged)
	}
}

// modelView is a model as its users read it, with its indexes: two
// models that read the same may store their kinds, modules and types in
// other orders.
type modelView struct {
	Defs            []Def
	Uses            []Use
	Scopes          []Scope
	Within          *diagnostics.Span
	ByDef           []int32
	UsesAt, UsesIdx []int32
}

// view returns m as its users read it; nil for nil.
func (m *Model) view() *modelView {
	if m == nil {
		return nil
	}
	v := &modelView{Uses: m.Uses, Scopes: m.Scopes, Within: m.Within, ByDef: m.byDef, UsesAt: m.usesAt, UsesIdx: m.usesIdx}
	for i := range m.NumDefs() {
		v.Defs = append(v.Defs, m.Def(i))
	}
	return v
}
