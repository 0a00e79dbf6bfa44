// Package names resolves the names of a tree-sitter tree from the
// grammar's locals.scm (scopes, @local.definition.KIND and
// @local.reference captures) plus an optional query for declarations
// locals.scm leaves out: for any language, the declaration a use refers
// to, every use of a declaration and the names visible at a point. The
// language front ends of the server (lsp/harnlang, lsp/leialang) build
// definition, references, hover, completion and local rename on it.
//
// Resolution is lexical: a use resolves in the nearest enclosing scope
// declaring its name, to the last declaration before it, or to any
// declaration of a hoisted kind (functions, types, imports: visible in
// their whole scope). A declaration whose node is itself a scope (a named
// function) belongs to the enclosing scope.
//
// Invariants: no LSP types; spans are byte offsets into the indexed text;
// an index is immutable once built, and a broken tree gives a partial
// index, never a panic.
package names

import (
	"bytes"
	"context"
	"fmt"
	"github.com/harnlang/harn-check/grammar/tsutil"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/tsflat"
)

// Options describe a language to a Resolver.
type Options struct {
	// Locals is the text of the grammar's queries/locals.scm.
	Locals string
	// Extra is an optional query for declarations Locals leaves out: a
	// capture named KIND declares the captured identifier with that kind,
	// and captures named "type.reference" are uses that resolve to
	// declarations of kind TypeKind only.
	Extra string
	// TypeKind is the kind type references resolve to ("type").
	TypeKind string
	// Hoisted are the kinds visible in their whole scope.
	Hoisted map[string]bool
	// NotUse reports identifiers that name no variable although
	// locals.scm captures them as references (a member's property).
	NotUse func(n *sitter.Node) bool
	// Declaration returns the node hover shows for a declared name of a
	// kind (default: the name's parent).
	Declaration func(name *sitter.Node, kind string) *sitter.Node
	// Doc returns the documentation above a declaration node ("" for none).
	Doc func(decl *sitter.Node, src []byte) string
	// Annotate may record language facts about a declaration (the module
	// an import names) in Def.Module.
	Annotate func(d *Def, name *sitter.Node, src []byte)
}

// Def is one declared name.
type Def struct {
	Name, Kind string
	// Span is the name; Decl what hover shows (the declaration up to its
	// body); Doc the documentation above it.
	Span, Decl diagnostics.Span
	Doc        string
	// Scope indexes Index.Scopes.
	Scope int
	// Module is set by Options.Annotate (for an import: the module path).
	Module string

	// extra marks a declaration of the Extra query; declNode is the span
	// of the declaration's node.
	extra    bool
	declNode diagnostics.Span
}

// Ref is one use of a name.
type Ref struct {
	Name string
	Span diagnostics.Span
	// Type marks a type reference, resolving to TypeKind declarations only.
	Type bool
}

// Index is the names of one tree.
type Index struct {
	// Scopes are sorted by start, outer first; Scopes[0] is the file and
	// Parent[i] the scope enclosing scope i (-1 for the file).
	Scopes []diagnostics.Span
	Parent []int
	Defs   []*Def
	Refs   []Ref
	ByName map[string][]*Def
	ByDef  map[diagnostics.Span]*Def
	ByRef  map[diagnostics.Span]Ref

	hoisted  map[string]bool
	typeKind string
	// raw are the captures the index was built from, kept to build the
	// index of the next version of the text from (rebuild).
	raw rawNames
}

// cacheSize is how many indexes a Resolver keeps: the documents being
// worked on, each at its current version (a new version's index replaces
// that of the version it was brought up to date from).
const cacheSize = 8

type cached struct {
	tree *sitter.Tree
	src  []byte
	ix   *Index
}

// Resolver builds the Index of a language's trees.
type Resolver struct {
	opts          Options
	locals, extra *sitter.Query

	mu    sync.Mutex
	cache []cached // oldest first
}

// New compiles the queries of opts for lang. An error names the query and
// position.
func New(lang *sitter.Language, opts Options) (*Resolver, error) {
	r := &Resolver{opts: opts}
	var qerr *sitter.QueryError
	if r.locals, qerr = sitter.NewQuery(lang, opts.Locals); qerr != nil {
		return nil, fmt.Errorf("locals.scm:%d:%d: %s", qerr.Row+1, qerr.Column+1, qerr.Message)
	}
	if opts.Extra != "" {
		if r.extra, qerr = sitter.NewQuery(lang, opts.Extra); qerr != nil {
			return nil, fmt.Errorf("declaration query:%d:%d: %s", qerr.Row+1, qerr.Column+1, qerr.Message)
		}
	}
	return r, nil
}

// Index returns the index of tree over src, built once per tree and text:
// requests on the same document version share it.
func (r *Resolver) Index(tree *sitter.Tree, src []byte) *Index {
	return r.IndexContext(context.Background(), tree, src)
}

// IndexContext is Index for a request that may be cancelled: when ctx is
// done before the index is built, it stops (a large file's index takes
// seconds and as much memory as its check), keeps nothing and returns
// nil.
func (r *Resolver) IndexContext(ctx context.Context, tree *sitter.Tree, src []byte) *Index {
	r.mu.Lock()
	for _, c := range r.cache {
		if c.tree == tree && bytes.Equal(c.src, src) {
			r.mu.Unlock()
			return c.ix
		}
	}
	// The latest index of a text that shares most of src (the previous
	// version of the document) is brought up to date instead.
	var base cached
	bestP, bestS := 0, 0
	for _, c := range r.cache {
		p, s := tsutil.CommonEnds(c.src, src)
		if p+s > bestP+bestS {
			base, bestP, bestS = c, p, s
		}
	}
	r.mu.Unlock()
	var ix *Index
	if base.ix != nil && bestP+bestS >= len(src)/2 {
		ix = r.rebuild(ctx, base.ix, base.src, tree, src, bestP, bestS)
	}
	if ix == nil {
		ix = r.build(ctx, tree, src)
	} else {
		rebuilds.Add(1)
	}
	if ctx.Err() != nil {
		return nil // built from part of the captures
	}
	r.mu.Lock()
	if base.ix != nil && bestP+bestS >= len(src)/2 {
		// The index of an earlier version of the same document: it has
		// been superseded, and keeping it would keep its tree and text
		// alive with it, a copy of the document per version.
		r.cache = slices.DeleteFunc(r.cache, func(c cached) bool { return c.ix == base.ix })
	}
	r.cache = append(r.cache, cached{tree, src, ix})
	if len(r.cache) > cacheSize {
		r.cache = r.cache[1:]
	}
	r.mu.Unlock()
	return ix
}

// rebuilds counts the indexes built from an earlier version's.
var rebuilds atomic.Int64

// Rebuilds returns how many indexes this process built from the index of
// an earlier version of the text: tests and benchmarks read it to see
// that the incremental path is taken.
func Rebuilds() int64 { return rebuilds.Load() }

// Forget drops the cached indexes (for measuring the first request).
func (r *Resolver) Forget() {
	r.mu.Lock()
	r.cache = nil
	r.mu.Unlock()
}

func (r *Resolver) build(ctx context.Context, tree *sitter.Tree, src []byte) *Index {
	root := tree.RootNode()
	fileEnd := max(len(src), int(root.EndByte()))
	raw, _ := r.collect(ctx, root, src, diagnostics.Span{Start: 0, End: fileEnd}, fileEnd) // whole: keeps every capture
	raw.tops, raw.topErrors = topsOf(root)
	return r.finish(raw, fileEnd)
}

// cancelEvery is how many query matches collect reads between looks at
// its context: a few milliseconds' work.
const cancelEvery = 4096

// rawNames are the captures of the queries over a tree or a part of it,
// in the order the queries return them: definitions and uses of locals.scm
// before those of the Extra query (Def.extra, Ref.Type).
type rawNames struct {
	scopes []diagnostics.Span
	defs   []*Def
	refs   []Ref
	// tops are the spans of the tree's top-level nodes; topErrors marks
	// those with a syntax error.
	tops      []diagnostics.Span
	topErrors []bool
}

// topsOf returns the spans of root's children and which have errors.
func topsOf(root *sitter.Node) ([]diagnostics.Span, []bool) {
	kids := tsflat.ChildSpans(root, false)
	out, errs := make([]diagnostics.Span, len(kids)), make([]bool, len(kids))
	for i, c := range kids {
		out[i], errs[i] = diagnostics.Span{Start: int(c.Start), End: int(c.End)}, c.HasError
	}
	return out, errs
}

// collect runs the queries over the nodes of root within span (the whole
// file, or the top-level declarations an edit changed) and returns their
// captures. A capture reaching out of span (other than the file's own
// scope) makes it fail: span does not cut the tree between declarations.
// So does ctx being done (checked every cancelEvery matches).
func (r *Resolver) collect(ctx context.Context, root *sitter.Node, src []byte, span diagnostics.Span, fileEnd int) (rawNames, bool) {
	var raw rawNames
	whole := span.Start == 0 && span.End == fileEnd
	inside := func(sp diagnostics.Span) bool { return whole || sp.Start >= span.Start && sp.End <= span.End }
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	if !whole {
		// The end is exclusive: one byte more keeps a zero-length node
		// (a missing token) at the span's end.
		qc.SetByteRange(uint(span.Start), uint(span.End+1))
	}
	names := r.locals.CaptureNames()
	matches := qc.Matches(r.locals, root, src)
	for i, m := 0, matches.Next(); m != nil; i, m = i+1, matches.Next() {
		if i%cancelEvery == 0 && ctx.Err() != nil {
			return raw, false
		}
		for _, c := range m.Captures {
			name := names[c.Index]
			sp := NodeSpan(&c.Node)
			if name == "local.scope" && sp.Start == 0 && sp.End == fileEnd {
				continue // the file's scope, Scopes[0]
			}
			if !inside(sp) {
				return raw, false
			}
			switch {
			case name == "local.scope":
				raw.scopes = append(raw.scopes, sp)
			case strings.HasPrefix(name, "local.definition."):
				raw.defs = append(raw.defs, r.def(c.Node, strings.TrimPrefix(name, "local.definition."), src, false))
			case name == "local.reference":
				if r.opts.NotUse == nil || !r.opts.NotUse(&c.Node) {
					raw.refs = append(raw.refs, Ref{Name: c.Node.Utf8Text(src), Span: sp})
				}
			}
		}
	}
	if r.extra != nil {
		dnames := r.extra.CaptureNames()
		matches = qc.Matches(r.extra, root, src)
		for i, m := 0, matches.Next(); m != nil; i, m = i+1, matches.Next() {
			if i%cancelEvery == 0 && ctx.Err() != nil {
				return raw, false
			}
			for _, c := range m.Captures {
				sp := NodeSpan(&c.Node)
				if !inside(sp) {
					return raw, false
				}
				if name := dnames[c.Index]; name == "type.reference" {
					raw.refs = append(raw.refs, Ref{Name: c.Node.Utf8Text(src), Span: sp, Type: true})
				} else {
					raw.defs = append(raw.defs, r.def(c.Node, name, src, true))
				}
			}
		}
	}
	return raw, true
}

// def describes the declaration of the name n of kind; its scope is found
// once every scope is known (finish).
func (r *Resolver) def(n sitter.Node, kind string, src []byte, extra bool) *Def {
	d := &Def{Name: n.Utf8Text(src), Kind: kind, Span: NodeSpan(&n), extra: extra}
	declNode := n.Parent()
	if r.opts.Declaration != nil {
		declNode = r.opts.Declaration(&n, kind)
	}
	if declNode == nil {
		declNode = &n
	}
	d.Decl = HeaderSpan(declNode, src)
	d.declNode = NodeSpan(declNode)
	if r.opts.Doc != nil {
		d.Doc = r.opts.Doc(declNode, src)
	}
	if r.opts.Annotate != nil {
		r.opts.Annotate(d, &n, src)
	}
	return d
}

// finish builds the index of a file fileEnd bytes long from its captures.
func (r *Resolver) finish(raw rawNames, fileEnd int) *Index {
	// The maps are made at their final size: growing them rehashed every
	// entry several times, for every version of a large document.
	ix := &Index{ByName: make(map[string][]*Def, len(raw.defs)), ByDef: make(map[diagnostics.Span]*Def, len(raw.defs)),
		ByRef: make(map[diagnostics.Span]Ref, len(raw.refs)), Refs: make([]Ref, 0, len(raw.refs)), Defs: make([]*Def, 0, len(raw.defs)),
		hoisted: r.opts.Hoisted, typeKind: r.opts.TypeKind, raw: raw}
	ix.Scopes = append(ix.Scopes, diagnostics.Span{Start: 0, End: fileEnd})
	ix.Parent = append(ix.Parent, -1)
	for _, ref := range raw.refs {
		ix.addRef(ref)
	}
	outer := slices.Clone(raw.scopes)
	slices.SortFunc(outer, func(a, b diagnostics.Span) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return b.End - a.End
	})
	outer = slices.Compact(outer)
	ix.Scopes = append(ix.Scopes[:1], outer...)
	for i := 1; i < len(ix.Scopes); i++ {
		ix.Parent = append(ix.Parent, ix.Innermost(ix.Scopes[i], i))
	}
	// The index's own copies of the declarations, in one allocation.
	own := make([]Def, len(raw.defs))
	for i, rd := range raw.defs {
		if _, dup := ix.ByDef[rd.Span]; dup {
			continue
		}
		own[i] = *rd
		d := &own[i]
		d.Scope = ix.Innermost(d.Span, len(ix.Scopes))
		if ix.hoisted[d.Kind] && d.Scope > 0 && ix.Scopes[d.Scope] == d.declNode {
			// A named function is a scope of its own; its name belongs to
			// the enclosing one.
			d.Scope = ix.Parent[d.Scope]
		}
		ix.Defs = append(ix.Defs, d)
		ix.ByName[d.Name] = append(ix.ByName[d.Name], d)
		ix.ByDef[d.Span] = d
	}
	return ix
}

// rebuild builds the index of tree over src from base, the index of an
// earlier text old: src is old with [p, len(old)-s) replaced. Only the
// top-level declarations the edit touches (and the declaration after
// them, whose doc comment may have changed) are queried again; the
// captures before them are kept and those after shifted. It returns nil
// when the edit does not fall between top-level declarations cleanly.
func (r *Resolver) rebuild(ctx context.Context, base *Index, old []byte, tree *sitter.Tree, src []byte, p, s int) *Index {
	root := tree.RootNode()
	fileEnd := max(len(src), int(root.EndByte()))
	if base.Scopes[0].End != len(old) || fileEnd != len(src) {
		return nil
	}
	newEnd, delta := len(src)-s, len(src)-len(old)
	tops, topErrors := topsOf(root)
	n := len(tops)
	lo, hi := n, -1
	for i, t := range tops {
		if t.End >= p && lo == n {
			lo = i
		}
		if t.Start <= newEnd {
			hi = i
		}
	}
	// The declarations after the edit up to the first that is not a
	// comment and was there before the edit, at its shifted place: the
	// doc comment above a declaration is part of its captures, and a
	// statement the edit made (text that was a comment) cuts the run of
	// comments above the next declaration.
	existed := func(t diagnostics.Span) bool {
		old := diagnostics.Span{Start: t.Start - delta, End: t.End - delta}
		i := sort.Search(len(base.raw.tops), func(k int) bool { return base.raw.tops[k].Start >= old.Start })
		return i < len(base.raw.tops) && base.raw.tops[i] == old
	}
	for hi+1 < n {
		hi++
		if !strings.Contains(root.Child(uint(hi)).Kind(), "comment") && tops[hi].Start > newEnd && existed(tops[hi]) {
			break
		}
	}
	span := diagnostics.Span{Start: p, End: newEnd}
	if lo <= hi && lo < n {
		span.Start = min(span.Start, tops[lo].Start)
		span.End = max(span.End, tops[hi].End)
	}
	oldSpan := diagnostics.Span{Start: span.Start, End: span.End - delta}
	// The top-level nodes outside the span must be those of the old tree,
	// at the same place: their captures are kept.
	var keptNew, keptOld []diagnostics.Span
	for _, t := range tops {
		if t.End <= span.Start {
			keptNew = append(keptNew, t)
		} else if t.Start >= span.End {
			keptNew = append(keptNew, diagnostics.Span{Start: t.Start - delta, End: t.End - delta})
		}
	}
	for _, t := range base.raw.tops {
		if t.End <= oldSpan.Start || t.Start >= oldSpan.End {
			keptOld = append(keptOld, t)
		}
	}
	if !slices.Equal(keptNew, keptOld) {
		return nil
	}
	// Error recovery may parse the same text differently after an edit
	// elsewhere: the kept nodes must have parsed without error, then and
	// now.
	for i, t := range tops {
		if (t.End <= span.Start || t.Start >= span.End) && topErrors[i] {
			return nil
		}
	}
	for i, t := range base.raw.tops {
		if (t.End <= oldSpan.Start || t.Start >= oldSpan.End) && base.raw.topErrors[i] {
			return nil
		}
	}
	// where places an old span: -1 before the edited part, 1 after it, 0
	// inside; ok false when it straddles a boundary (a point at one
	// could be on either side).
	where := func(sp diagnostics.Span) (int, bool) {
		switch {
		case sp.Start == sp.End && (sp.Start == oldSpan.Start || sp.Start == oldSpan.End):
			return 0, false
		case sp.End <= oldSpan.Start:
			return -1, true
		case sp.Start >= oldSpan.End:
			return 1, true
		case sp.Start >= oldSpan.Start && sp.End <= oldSpan.End:
			return 0, true
		}
		return 0, false
	}
	shift := func(sp diagnostics.Span) diagnostics.Span {
		return diagnostics.Span{Start: sp.Start + delta, End: sp.End + delta}
	}
	mid, ok := r.collect(ctx, root, src, span, fileEnd)
	if !ok {
		return nil
	}
	raw := rawNames{defs: make([]*Def, 0, len(base.raw.defs)+len(mid.defs)), refs: make([]Ref, 0, len(base.raw.refs)+len(mid.refs))}
	var after []diagnostics.Span
	for _, sc := range base.raw.scopes {
		w, ok := where(sc)
		if !ok {
			return nil
		}
		switch w {
		case -1:
			raw.scopes = append(raw.scopes, sc)
		case 1:
			after = append(after, shift(sc))
		}
	}
	raw.scopes = append(append(raw.scopes, mid.scopes...), after...)
	// The kept uses after the edit, per pass (the storage reused by the
	// second); those before it go straight to raw.refs.
	var rafter []Ref
	for _, extra := range []bool{false, true} {
		var before, after []*Def
		var moved []Def // the shifted copies, in one allocation
		for _, d := range base.raw.defs {
			if d.extra != extra {
				continue
			}
			w, ok := where(d.Span)
			if !ok {
				return nil
			}
			switch w {
			case -1:
				before = append(before, d)
			case 1:
				if moved == nil {
					moved = make([]Def, 0, len(base.raw.defs)-len(before))
				}
				moved = append(moved, *d)
				m := &moved[len(moved)-1]
				m.Span, m.Decl, m.declNode = shift(d.Span), shift(d.Decl), shift(d.declNode)
				after = append(after, m)
			}
		}
		raw.defs = append(raw.defs, before...)
		for _, d := range mid.defs {
			if d.extra == extra {
				raw.defs = append(raw.defs, d)
			}
		}
		raw.defs = append(raw.defs, after...)
		rafter = rafter[:0]
		for _, ref := range base.raw.refs {
			if ref.Type != extra {
				continue
			}
			w, ok := where(ref.Span)
			if !ok {
				return nil
			}
			switch w {
			case -1:
				raw.refs = append(raw.refs, ref)
			case 1:
				ref.Span = shift(ref.Span)
				rafter = append(rafter, ref)
			}
		}
		for _, ref := range mid.refs {
			if ref.Type == extra {
				raw.refs = append(raw.refs, ref)
			}
		}
		raw.refs = append(raw.refs, rafter...)
	}
	raw.tops, raw.topErrors = tops, topErrors
	return r.finish(raw, fileEnd)
}

// Diff describes the first difference between ix and want, for tests
// that compare an index brought up to date with one built afresh; "" when
// their exported fields are equal.
func (ix *Index) Diff(want *Index) string {
	switch {
	case !reflect.DeepEqual(ix.Scopes, want.Scopes):
		return fmt.Sprintf("scopes %v, want %v", ix.Scopes, want.Scopes)
	case !reflect.DeepEqual(ix.Parent, want.Parent):
		return fmt.Sprintf("parents %v, want %v", ix.Parent, want.Parent)
	case !reflect.DeepEqual(ix.Refs, want.Refs):
		for i := range min(len(ix.Refs), len(want.Refs)) {
			if ix.Refs[i] != want.Refs[i] {
				return fmt.Sprintf("ref %d %v, want %v (%d refs, want %d)", i, ix.Refs[i], want.Refs[i], len(ix.Refs), len(want.Refs))
			}
		}
		return fmt.Sprintf("%d refs, want %d", len(ix.Refs), len(want.Refs))
	}
	for i := range min(len(ix.Defs), len(want.Defs)) {
		if g, w := ix.Defs[i], want.Defs[i]; !reflect.DeepEqual(g, w) {
			return fmt.Sprintf("def %d %s: %+v (doc %q), want %+v (doc %q)", i, g.Name, *g, g.Doc, *w, w.Doc)
		}
	}
	if len(ix.Defs) != len(want.Defs) {
		return fmt.Sprintf("%d defs, want %d", len(ix.Defs), len(want.Defs))
	}
	return ""
}

func (ix *Index) addRef(r Ref) {
	if _, ok := ix.ByRef[r.Span]; ok {
		return
	}
	ix.Refs = append(ix.Refs, r)
	ix.ByRef[r.Span] = r
}

// Hoisted reports whether declarations of kind are visible in their whole
// scope.
func (ix *Index) Hoisted(kind string) bool { return ix.hoisted[kind] }

// Innermost returns the innermost scope among Scopes[:limit] holding sp
// (0, the file, when none does). Scopes are sorted by start (enclosing
// ones first) and nest, so it is the last scope starting at or before sp
// that holds it, found by a binary search and a walk up the enclosing
// scopes: not a scan of every scope, which made indexing a large file
// quadratic.
func (ix *Index) Innermost(sp diagnostics.Span, limit int) int {
	limit = min(limit, len(ix.Scopes))
	if limit <= 1 {
		return 0
	}
	// c is the last of Scopes[1:limit] starting at or before sp.
	c := sort.Search(limit-1, func(k int) bool { return ix.Scopes[k+1].Start > sp.Start })
	for c > 0 {
		s := ix.Scopes[c]
		if s.Start <= sp.Start && sp.End <= s.End && s != sp {
			return c
		}
		if c >= len(ix.Parent) {
			c-- // parents are computed in order; not known yet
			continue
		}
		c = ix.Parent[c]
	}
	return 0
}

// NameAt returns the span of the declared or used name at offset, or just
// before it (an editor's cursor after the last letter).
func (ix *Index) NameAt(offset int) (diagnostics.Span, bool) {
	for _, off := range []int{offset, offset - 1} {
		for sp := range ix.ByRef {
			if sp.Start <= off && off < sp.End {
				return sp, true
			}
		}
		for sp := range ix.ByDef {
			if sp.Start <= off && off < sp.End {
				return sp, true
			}
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
	if d := ix.ByDef[sp]; d != nil {
		return d
	}
	return ix.Resolve(ix.ByRef[sp])
}

// DefAtName returns the declaration whose name is at sp.
func (ix *Index) DefAtName(sp diagnostics.Span) *Def { return ix.ByDef[sp] }

// DefAt returns the declaration whose name is at sp in the tree of root
// over src, as the index of the tree describes it (Index.DefAtName: the same kind,
// declaration, doc and module), or nil. It queries only the nodes around
// sp, so that a feature that knows where a name is declared (from the
// checker's model) describes it without indexing the file. The result's
// Scope is -1: no index numbers the scopes.
func (r *Resolver) DefAt(root *sitter.Node, src []byte, sp diagnostics.Span) *Def {
	if root == nil || sp.Start < 0 || sp.End > len(src) || sp.End <= sp.Start {
		return nil
	}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	qc.SetByteRange(uint(sp.Start), uint(sp.End))
	// The index keeps the first declaration of a span: locals.scm's
	// before the Extra query's, each in the order of its matches.
	for _, q := range []*sitter.Query{r.locals, r.extra} {
		if q == nil {
			continue
		}
		names := q.CaptureNames()
		matches := qc.Matches(q, root, src)
		for m := matches.Next(); m != nil; m = matches.Next() {
			for _, c := range m.Captures {
				if NodeSpan(&c.Node) != sp {
					continue
				}
				name := names[c.Index]
				if q == r.locals && strings.HasPrefix(name, "local.definition.") {
					d := r.def(c.Node, strings.TrimPrefix(name, "local.definition."), src, false)
					d.Scope = -1
					return d
				}
				if q == r.extra && name != "type.reference" {
					d := r.def(c.Node, name, src, true)
					d.Scope = -1
					return d
				}
			}
		}
	}
	return nil
}

// Resolve finds the declaration a use refers to, or nil.
func (ix *Index) Resolve(r Ref) *Def {
	if r.Name == "" {
		return nil
	}
	if d := ix.ByDef[r.Span]; d != nil {
		return d
	}
	cands := ix.ByName[r.Name]
	if len(cands) == 0 {
		return nil
	}
	for sc := ix.Innermost(r.Span, len(ix.Scopes)); sc >= 0; sc = ix.Parent[sc] {
		var best *Def
		for _, d := range cands {
			if d.Scope != sc || r.Type != (ix.typeKind != "" && d.Kind == ix.typeKind) {
				continue
			}
			if d.Span.Start <= r.Span.Start || ix.hoisted[d.Kind] {
				if best == nil || (d.Span.Start <= r.Span.Start && d.Span.Start > best.Span.Start) {
					best = d
				}
			}
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
	for _, r := range ix.Refs {
		if r.Name == d.Name && r.Span != d.Span && ix.Resolve(r) == d {
			out = append(out, r.Span)
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
	for sc := ix.Innermost(here, len(ix.Scopes)); sc >= 0; sc = ix.Parent[sc] {
		for _, d := range ix.Defs {
			if d.Scope != sc || seen[d.Name] || (!ix.hoisted[d.Kind] && d.Span.End > offset) {
				continue
			}
			seen[d.Name] = true
			out = append(out, d)
		}
	}
	return out
}

// NodeSpan is a node's byte span.
func NodeSpan(n *sitter.Node) diagnostics.Span {
	return diagnostics.Span{Start: int(n.StartByte()), End: int(n.EndByte())}
}

// Ancestor returns the nearest ancestor of n of the kind, or nil.
func Ancestor(n *sitter.Node, kind string) *sitter.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == kind {
			return p
		}
	}
	return nil
}

// HeaderSpan is a declaration up to its body field (a function's
// signature), else its first line (imports whole).
func HeaderSpan(n *sitter.Node, src []byte) diagnostics.Span {
	sp := NodeSpan(n)
	if body := n.ChildByFieldName("body"); body != nil {
		sp.End = int(body.StartByte())
	} else if i := bytes.IndexByte(src[sp.Start:sp.End], '\n'); i >= 0 && !strings.HasPrefix(n.Kind(), "import") {
		sp.End = sp.Start + i
	}
	return sp
}

// CommentsAbove returns the comments of the given node kinds directly
// above n (no blank line between), without their markers: "///" and "//"
// lines and "/** */" or "/* */" blocks. With docOnly, only "///" lines and
// "/**" blocks count, and a plain comment ends the run.
func CommentsAbove(n *sitter.Node, src []byte, kinds []string, docOnly bool) string {
	var lines []string
	next := n
	for c := n.PrevSibling(); c != nil; c = c.PrevSibling() {
		if !slices.Contains(kinds, c.Kind()) || int(next.StartPosition().Row)-int(c.EndPosition().Row) > 1 {
			break
		}
		text := c.Utf8Text(src)
		switch {
		case strings.HasPrefix(text, "///"):
			lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(text, "///"), " "))
		case strings.HasPrefix(text, "/**") && text != "/**/", !docOnly && strings.HasPrefix(text, "/*"):
			body := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(text, "/**"), "/*"), "*/")
			bl := strings.Split(body, "\n")
			for i := len(bl) - 1; i >= 0; i-- {
				lines = append(lines, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(bl[i]), "*")))
			}
		case !docOnly && strings.HasPrefix(text, "//"):
			lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(text, "//"), " "))
		default:
			return reverseJoin(lines)
		}
		next = c
	}
	return reverseJoin(lines)
}

func reverseJoin(lines []string) string {
	slices.Reverse(lines)
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// HoverText renders a declaration for hover in the language lang (the
// Markdown code-fence tag): its header, its kind and name, and its doc.
func HoverText(lang string, src []byte, d *Def) string {
	header := strings.TrimSpace(string(src[d.Decl.Start:d.Decl.End]))
	if lines := strings.Split(header, "\n"); len(lines) > 12 {
		header = strings.Join(lines[:12], "\n") + "\n…"
	}
	var b strings.Builder
	b.WriteString("```" + lang + "\n" + header + "\n```\n")
	b.WriteString("*" + strings.ReplaceAll(d.Kind, "_", " ") + "* `" + d.Name + "`")
	if d.Doc != "" {
		b.WriteString("\n\n" + d.Doc)
	}
	return b.String()
}
