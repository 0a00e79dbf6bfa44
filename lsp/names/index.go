package names

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/harnlang/harn-check/diagnostics"
)

// Index is the names of one tree.
//
// Its captures are kept per top-level node of the tree (a chunk), with
// spans relative to the node's start: the index of the next version of
// the text shares the chunks of the nodes an edit did not touch, placed at
// their nodes' new starts, and collects only the edited nodes again
// (Resolver.IndexContext), so that bringing it up to date costs what the
// edited nodes hold and a few words per top-level node, not what the file
// holds. Declarations are handed out with spans in the indexed text, each
// made once per index when first asked for (a *Def of an index is the
// same pointer wherever it is found). Scopes are numbered in order of
// their start, enclosing ones first; scope 0 is the file.
type Index struct {
	fileEnd  int
	hoisted  map[string]bool
	typeKind string
	// tops are the spans of the tree's top-level nodes; topErrors marks
	// those with a syntax error.
	tops      []diagnostics.Span
	topErrors []bool
	// chunks[i] holds the captures within tops[i], relative to starts[i]
	// and ending by ends[i]. When a capture lies within no top-level node
	// (whole), one chunk from 0 holds them all.
	chunks       []*chunk
	starts, ends []int
	whole        bool
	// scopeBase[i] is the number of scopes of chunks[:i] (scope l of
	// chunk i is scope 1+scopeBase[i]+l of the index); defBase the same
	// for declarations, numbering made.
	scopeBase, defBase []int

	// made holds the declarations handed out, by number.
	made []atomic.Pointer[Def]
	// file are the declarations of the file's scope, in index order, and
	// by name; all every declaration and use, in index order.
	fileOnce sync.Once
	fileDefs []*Def
	fileBy   map[string][]*Def
	allOnce  sync.Once
	allDefs  []*Def
	allRefs  []Ref
}

// chunk is the captures of one top-level node, spans relative to its
// start. It is immutable once made, and shared by the indexes of the
// versions of a text that did not edit its node.
type chunk struct {
	// scopes are sorted by start, enclosing ones first; parent[l] is the
	// scope enclosing scope l (-1: the file).
	scopes []diagnostics.Span
	parent []int32
	// defs are the declarations, those of locals.scm (defs[:nDefs]) before
	// those of the Extra query, each in match order; Def.Scope is a scope
	// of the chunk, -1 for the file. refs are the uses, those of
	// locals.scm (refs[:nRefs]) before the type references.
	defs         []Def
	refs         []Ref
	nDefs, nRefs int
	// fileDefs are the indexes of the declarations in the file's scope.
	fileDefs []int32

	// The lookup maps are made when the chunk is first looked into.
	lookOnce sync.Once
	byDef    map[diagnostics.Span]int32
	byRef    map[diagnostics.Span]int32
	byName   map[string][]int32
}

func (c *chunk) look() {
	c.lookOnce.Do(func() {
		c.byDef = make(map[diagnostics.Span]int32, len(c.defs))
		c.byName = make(map[string][]int32, len(c.defs))
		for i, d := range c.defs {
			c.byDef[d.Span] = int32(i)
			c.byName[d.Name] = append(c.byName[d.Name], int32(i))
		}
		c.byRef = make(map[diagnostics.Span]int32, len(c.refs))
		for i, r := range c.refs {
			c.byRef[r.Span] = int32(i)
		}
	})
}

// newChunk makes the chunk of the captures raw within a top-level node
// starting at start, whose spans are absolute.
func newChunk(raw rawNames, start int, hoisted map[string]bool) *chunk {
	rel := func(sp diagnostics.Span) diagnostics.Span {
		return diagnostics.Span{Start: sp.Start - start, End: sp.End - start}
	}
	c := &chunk{}
	c.scopes = make([]diagnostics.Span, len(raw.scopes))
	for i, sc := range raw.scopes {
		c.scopes[i] = rel(sc)
	}
	slices.SortFunc(c.scopes, func(a, b diagnostics.Span) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return b.End - a.End
	})
	c.scopes = slices.Clip(slices.Compact(c.scopes))
	c.parent = make([]int32, len(c.scopes))
	for i := range c.scopes {
		c.parent[i] = int32(c.innermost(c.scopes[i], i))
	}
	seenDef := make(map[diagnostics.Span]bool, len(raw.defs))
	c.defs = make([]Def, 0, len(raw.defs))
	for _, rd := range raw.defs {
		if seenDef[rd.Span] {
			continue
		}
		seenDef[rd.Span] = true
		d := *rd
		d.Span, d.Decl, d.declNode = rel(d.Span), rel(d.Decl), rel(d.declNode)
		d.Scope = c.innermost(d.Span, len(c.scopes))
		if hoisted[d.Kind] && d.Scope >= 0 && c.scopes[d.Scope] == d.declNode {
			// A named function is a scope of its own; its name belongs to
			// the enclosing one.
			d.Scope = int(c.parent[d.Scope])
		}
		if !d.extra {
			c.nDefs++
		}
		if d.Scope < 0 {
			c.fileDefs = append(c.fileDefs, int32(len(c.defs)))
		}
		c.defs = append(c.defs, d)
	}
	seenRef := make(map[diagnostics.Span]bool, len(raw.refs))
	c.refs = make([]Ref, 0, len(raw.refs))
	for _, r := range raw.refs {
		if seenRef[r.Span] {
			continue
		}
		seenRef[r.Span] = true
		if !r.Type {
			c.nRefs++
		}
		r.Span = rel(r.Span)
		c.refs = append(c.refs, r)
	}
	return c
}

// innermost returns the innermost of the chunk's scopes[:limit] holding
// sp (relative), -1 for none: the last scope starting at or before sp
// that holds it, found by a binary search and a walk up the enclosing
// scopes.
func (c *chunk) innermost(sp diagnostics.Span, limit int) int {
	k := sort.Search(limit, func(k int) bool { return c.scopes[k].Start > sp.Start }) - 1
	for k >= 0 {
		s := c.scopes[k]
		if s.Start <= sp.Start && sp.End <= s.End && s != sp {
			return k
		}
		if k >= len(c.parent) || k >= limit {
			k--
			continue
		}
		k = int(c.parent[k])
	}
	return -1
}

// newIndex makes the index of chunks (one per top-level node of tops,
// or one whole) of a text fileEnd bytes long.
func (r *Resolver) newIndex(fileEnd int, tops []diagnostics.Span, topErrors []bool, chunks []*chunk, whole bool) *Index {
	ix := &Index{fileEnd: fileEnd, hoisted: r.opts.Hoisted, typeKind: r.opts.TypeKind,
		tops: tops, topErrors: topErrors, chunks: chunks, whole: whole}
	n := len(chunks)
	ix.starts, ix.ends = make([]int, n), make([]int, n)
	ix.scopeBase, ix.defBase = make([]int, n+1), make([]int, n+1)
	for i, c := range chunks {
		if whole {
			ix.starts[i], ix.ends[i] = 0, fileEnd
		} else {
			ix.starts[i], ix.ends[i] = tops[i].Start, tops[i].End
		}
		ix.scopeBase[i+1] = ix.scopeBase[i] + len(c.scopes)
		ix.defBase[i+1] = ix.defBase[i] + len(c.defs)
	}
	ix.made = make([]atomic.Pointer[Def], ix.defBase[n])
	return ix
}

// def returns declaration j of chunk i, as handed out.
func (ix *Index) def(i, j int) *Def {
	p := &ix.made[ix.defBase[i]+j]
	if d := p.Load(); d != nil {
		return d
	}
	d := ix.chunks[i].defs[j]
	start := ix.starts[i]
	shift := func(sp diagnostics.Span) diagnostics.Span {
		return diagnostics.Span{Start: sp.Start + start, End: sp.End + start}
	}
	d.Span, d.Decl, d.declNode = shift(d.Span), shift(d.Decl), shift(d.declNode)
	d.Scope = ix.scopeOf(i, d.Scope)
	if p.CompareAndSwap(nil, &d) {
		return &d
	}
	return p.Load()
}

// scopeOf numbers scope l of chunk i in the index.
func (ix *Index) scopeOf(i, l int) int {
	if l < 0 {
		return 0
	}
	return 1 + ix.scopeBase[i] + l
}

// chunkOfScope returns the chunk of scope sc (> 0) and its number there.
func (ix *Index) chunkOfScope(sc int) (int, int) {
	i := sort.SearchInts(ix.scopeBase, sc) - 1 // the last base below sc
	return i, sc - 1 - ix.scopeBase[i]
}

// chunksHolding calls f with each chunk whose node holds sp (two when sp
// is empty and sits where one node ends and the next starts), and the
// span relative to it, until f returns true.
func (ix *Index) chunksHolding(sp diagnostics.Span, f func(i int, rel diagnostics.Span) bool) {
	i := sort.SearchInts(ix.starts, sp.Start+1) - 1 // the last starting at or before sp
	for k := i; k >= 0 && k >= i-1; k-- {
		if ix.starts[k] <= sp.Start && sp.End <= ix.ends[k] {
			if f(k, diagnostics.Span{Start: sp.Start - ix.starts[k], End: sp.End - ix.starts[k]}) {
				return
			}
		}
	}
}

// Scopes returns the number of scopes, the file's included.
func (ix *Index) Scopes() int { return 1 + ix.scopeBase[len(ix.chunks)] }

// Scope returns the span of scope sc (0 is the file).
func (ix *Index) Scope(sc int) diagnostics.Span {
	if sc <= 0 {
		return diagnostics.Span{Start: 0, End: ix.fileEnd}
	}
	i, l := ix.chunkOfScope(sc)
	s := ix.chunks[i].scopes[l]
	return diagnostics.Span{Start: s.Start + ix.starts[i], End: s.End + ix.starts[i]}
}

// Parent returns the scope enclosing scope sc, -1 for the file.
func (ix *Index) Parent(sc int) int {
	if sc <= 0 {
		return -1
	}
	i, l := ix.chunkOfScope(sc)
	return ix.scopeOf(i, int(ix.chunks[i].parent[l]))
}

// Innermost returns the innermost scope holding sp (0, the file, when no
// other does): the last scope starting at or before sp that holds it, or
// the nearest of its enclosing scopes that does.
func (ix *Index) Innermost(sp diagnostics.Span) int {
	n := ix.Scopes()
	c := sort.Search(n-1, func(k int) bool { return ix.Scope(k+1).Start > sp.Start })
	for c > 0 {
		s := ix.Scope(c)
		if s.Start <= sp.Start && sp.End <= s.End && s != sp {
			return c
		}
		c = ix.Parent(c)
	}
	return 0
}

// Hoisted reports whether declarations of kind are visible in their whole
// scope.
func (ix *Index) Hoisted(kind string) bool { return ix.hoisted[kind] }

// file makes the declarations of the file's scope.
func (ix *Index) file() {
	ix.fileOnce.Do(func() {
		n := 0
		for _, c := range ix.chunks {
			n += len(c.fileDefs)
		}
		ix.fileDefs = make([]*Def, 0, n)
		ix.fileBy = make(map[string][]*Def, n)
		for _, extra := range []bool{false, true} {
			for i, c := range ix.chunks {
				for _, j := range c.fileDefs {
					if (int(j) >= c.nDefs) == extra {
						d := ix.def(i, int(j))
						ix.fileDefs = append(ix.fileDefs, d)
						ix.fileBy[d.Name] = append(ix.fileBy[d.Name], d)
					}
				}
			}
		}
	})
}

// Declared returns the declarations of scope sc, in index order.
func (ix *Index) Declared(sc int) []*Def {
	if sc <= 0 {
		ix.file()
		return ix.fileDefs
	}
	i, l := ix.chunkOfScope(sc)
	var out []*Def
	for j, d := range ix.chunks[i].defs {
		if d.Scope == l {
			out = append(out, ix.def(i, j))
		}
	}
	return out
}

// declaredNamed returns the declarations of scope sc named name, in index
// order.
func (ix *Index) declaredNamed(sc int, name string) []*Def {
	if sc <= 0 {
		ix.file()
		return ix.fileBy[name]
	}
	i, l := ix.chunkOfScope(sc)
	c := ix.chunks[i]
	c.look()
	var out []*Def
	for _, j := range c.byName[name] {
		if c.defs[j].Scope == l {
			out = append(out, ix.def(i, int(j)))
		}
	}
	return out
}

// all makes every declaration and use, in index order: locals.scm's
// before the Extra query's.
func (ix *Index) all() {
	ix.allOnce.Do(func() {
		ix.allDefs = make([]*Def, 0, ix.defBase[len(ix.chunks)])
		nr := 0
		for _, c := range ix.chunks {
			nr += len(c.refs)
		}
		ix.allRefs = make([]Ref, 0, nr)
		for _, extra := range []bool{false, true} {
			for i, c := range ix.chunks {
				lo, hi := 0, c.nDefs
				if extra {
					lo, hi = c.nDefs, len(c.defs)
				}
				for j := lo; j < hi; j++ {
					ix.allDefs = append(ix.allDefs, ix.def(i, j))
				}
				refs := c.refs[:c.nRefs]
				if extra {
					refs = c.refs[c.nRefs:]
				}
				for _, r := range refs {
					r.Span.Start += ix.starts[i]
					r.Span.End += ix.starts[i]
					ix.allRefs = append(ix.allRefs, r)
				}
			}
		}
	})
}

// Defs returns every declaration, in index order: those of locals.scm,
// then those of the Extra query, each in source order.
func (ix *Index) Defs() []*Def {
	ix.all()
	return ix.allDefs
}

// Refs returns every use, in index order: those of locals.scm, then the
// type references, each in source order.
func (ix *Index) Refs() []Ref {
	ix.all()
	return ix.allRefs
}

// Named returns the declarations of name, in index order.
func (ix *Index) Named(name string) []*Def {
	var out []*Def
	for _, extra := range []bool{false, true} {
		for i, c := range ix.chunks {
			c.look()
			for _, j := range c.byName[name] {
				if (int(j) >= c.nDefs) == extra {
					out = append(out, ix.def(i, int(j)))
				}
			}
		}
	}
	return out
}

// DefAtName returns the declaration whose name is at sp, or nil.
func (ix *Index) DefAtName(sp diagnostics.Span) *Def {
	var out *Def
	ix.chunksHolding(sp, func(i int, rel diagnostics.Span) bool {
		c := ix.chunks[i]
		c.look()
		if j, ok := c.byDef[rel]; ok {
			out = ix.def(i, int(j))
			return true
		}
		return false
	})
	return out
}

// RefAt returns the use at sp; false when no use is there.
func (ix *Index) RefAt(sp diagnostics.Span) (Ref, bool) {
	var out Ref
	found := false
	ix.chunksHolding(sp, func(i int, rel diagnostics.Span) bool {
		c := ix.chunks[i]
		c.look()
		if j, ok := c.byRef[rel]; ok {
			out, found = c.refs[j], true
			out.Span = sp
			return true
		}
		return false
	})
	return out, found
}

// NameAt returns the span of the declared or used name at offset, or just
// before it (an editor's cursor after the last letter).
func (ix *Index) NameAt(offset int) (diagnostics.Span, bool) {
	for _, off := range []int{offset, offset - 1} {
		var out diagnostics.Span
		found := false
		ix.chunksHolding(diagnostics.Span{Start: off, End: off}, func(i int, rel diagnostics.Span) bool {
			c := ix.chunks[i]
			for _, r := range c.refs {
				if r.Span.Start <= rel.Start && rel.Start < r.Span.End {
					out, found = r.Span, true
					break
				}
			}
			if !found {
				for _, d := range c.defs {
					if d.Span.Start <= rel.Start && rel.Start < d.Span.End {
						out, found = d.Span, true
						break
					}
				}
			}
			if found {
				out.Start += ix.starts[i]
				out.End += ix.starts[i]
			}
			return found
		})
		if found {
			return out, true
		}
	}
	return diagnostics.Span{}, false
}

// ResolveAt returns the declaration the name at offset denotes, or nil.
func (ix *Index) ResolveAt(offset int) *Def {
	sp, ok := ix.NameAt(offset)
	if !ok {
		return nil
	}
	if d := ix.DefAtName(sp); d != nil {
		return d
	}
	r, _ := ix.RefAt(sp)
	return ix.Resolve(r)
}

// renaming is a declaration as a rename would make it, for CheckRename:
// d is named newName instead (renamed).
type renaming struct {
	d, renamed *Def
}

// Resolve finds the declaration a use refers to, or nil.
func (ix *Index) Resolve(r Ref) *Def { return ix.resolve(r, nil) }

// resolve is Resolve with the declaration rn.d renamed (nil: none).
func (ix *Index) resolve(r Ref, rn *renaming) *Def {
	if r.Name == "" {
		return nil
	}
	if d := ix.DefAtName(r.Span); d != nil {
		if rn != nil && d == rn.d {
			return rn.renamed
		}
		return d
	}
	for sc := ix.Innermost(r.Span); sc >= 0; sc = ix.Parent(sc) {
		var best *Def
		try := func(d *Def) {
			if r.Type != (ix.typeKind != "" && d.Kind == ix.typeKind) {
				return
			}
			if d.Span.Start <= r.Span.Start || ix.hoisted[d.Kind] {
				if best == nil || (d.Span.Start <= r.Span.Start && d.Span.Start > best.Span.Start) {
					best = d
				}
			}
		}
		for _, d := range ix.declaredNamed(sc, r.Name) {
			if rn == nil || d != rn.d {
				try(d)
			}
		}
		if rn != nil && rn.renamed.Name == r.Name && rn.renamed.Scope == sc {
			try(rn.renamed)
		}
		if best != nil {
			return best
		}
	}
	return nil
}

// Uses returns the declaration's name and every use resolving to it, in
// source order.
func (ix *Index) Uses(d *Def) []diagnostics.Span {
	out := []diagnostics.Span{d.Span}
	check := func(r Ref) {
		if r.Name == d.Name && r.Span != d.Span && ix.Resolve(r) == d {
			out = append(out, r.Span)
		}
	}
	if d.Scope > 0 {
		// A declaration in a scope of a top-level node is used there only.
		i, _ := ix.chunkOfScope(d.Scope)
		for _, r := range ix.chunks[i].refs {
			r.Span.Start += ix.starts[i]
			r.Span.End += ix.starts[i]
			check(r)
		}
	} else {
		for _, r := range ix.Refs() {
			check(r)
		}
	}
	slices.SortFunc(out, func(a, b diagnostics.Span) int { return a.Start - b.Start })
	return out
}

// Visible returns the declarations visible at offset, innermost scope
// first, each name once (the nearest declaration hides outer ones);
// declarations of non-hoisted kinds count only once they end before
// offset.
func (ix *Index) Visible(offset int) []*Def {
	var out []*Def
	seen := map[string]bool{}
	here := diagnostics.Span{Start: offset, End: offset}
	for sc := ix.Innermost(here); sc >= 0; sc = ix.Parent(sc) {
		for _, d := range ix.Declared(sc) {
			if seen[d.Name] || (!ix.hoisted[d.Kind] && d.Span.End > offset) {
				continue
			}
			seen[d.Name] = true
			out = append(out, d)
		}
	}
	return out
}

// Diff describes the first difference between ix and want, for tests
// that compare an index brought up to date with one built afresh; "" when
// they hold the same scopes, declarations and uses and answer the same
// lookups.
func (ix *Index) Diff(want *Index) string {
	scopes := func(x *Index) (sp []diagnostics.Span, par []int) {
		for sc := range x.Scopes() {
			sp, par = append(sp, x.Scope(sc)), append(par, x.Parent(sc))
		}
		return sp, par
	}
	gs, gp := scopes(ix)
	ws, wp := scopes(want)
	switch {
	case !slices.Equal(gs, ws):
		return fmt.Sprintf("scopes %v, want %v", gs, ws)
	case !slices.Equal(gp, wp):
		return fmt.Sprintf("parents %v, want %v", gp, wp)
	}
	gr, wr := ix.Refs(), want.Refs()
	for i := range min(len(gr), len(wr)) {
		if gr[i] != wr[i] {
			return fmt.Sprintf("ref %d %v, want %v (%d refs, want %d)", i, gr[i], wr[i], len(gr), len(wr))
		}
	}
	if len(gr) != len(wr) {
		return fmt.Sprintf("%d refs, want %d", len(gr), len(wr))
	}
	gd, wd := ix.Defs(), want.Defs()
	for i := range min(len(gd), len(wd)) {
		if g, w := gd[i], wd[i]; !reflect.DeepEqual(*g, *w) {
			return fmt.Sprintf("def %d %s: %+v (doc %q), want %+v (doc %q)", i, g.Name, *g, g.Doc, *w, w.Doc)
		}
	}
	if len(gd) != len(wd) {
		return fmt.Sprintf("%d defs, want %d", len(gd), len(wd))
	}
	same := func(a, b *Def) bool { return a == nil && b == nil || a != nil && b != nil && reflect.DeepEqual(*a, *b) }
	for _, d := range wd {
		if g := ix.DefAtName(d.Span); !same(g, d) {
			return fmt.Sprintf("declaration at %v: %v, want %+v", d.Span, g, *d)
		}
	}
	for _, r := range wr {
		if g, ok := ix.RefAt(r.Span); !ok || g != r {
			return fmt.Sprintf("use at %v: %v %v, want %v", r.Span, g, ok, r)
		}
		if g, w := ix.Resolve(r), want.Resolve(r); !same(g, w) {
			return fmt.Sprintf("use %v resolves to %v, want %v", r, g, w)
		}
	}
	if ix.fileEnd != want.fileEnd || !slices.Equal(ix.tops, want.tops) || !slices.Equal(ix.topErrors, want.topErrors) {
		return fmt.Sprintf("file of %d bytes, %d top-level nodes, want %d, %d", ix.fileEnd, len(ix.tops), want.fileEnd, len(want.tops))
	}
	return ""
}

// ResolveUse returns the declaration the use at sp refers to, nil when no
// use is there or it refers to none.
func (ix *Index) ResolveUse(sp diagnostics.Span) *Def {
	r, ok := ix.RefAt(sp)
	if !ok {
		return nil
	}
	return ix.Resolve(r)
}
