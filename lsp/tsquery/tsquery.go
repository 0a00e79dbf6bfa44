// Package tsquery derives a language's syntax-level editor features from
// its tree-sitter grammar and query files, the same for every language:
// a cache.Syntax that keeps one tree per document version and reparses
// incrementally, semantic tokens from queries/highlights.scm and folding
// ranges from queries/folds.scm.
//
// A front end with a tree-sitter binding plugs in through the editor
// facet of its language.Language value:
//
//	syn := tsquery.NewSyntax(binding.Language())
//	q, err := tsquery.NewQueries(binding.Language(), highlightsSCM, foldsSCM)
//	return language.Editor{Syntax: syn, Features: tsquery.Features{Queries: q}}, err
//
// (embedding Features in its own implementation to add hover and the
// rest).
//
// Invariants: no LSP types (results are features values in byte spans);
// highlight precedence is tree-sitter's: the first pattern that matches a
// node wins, and a node nested in another paints over it.
package tsquery

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/tsflat"
	"github.com/harnlang/harn-check/grammar/tsutil"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/features"
)

// Tree is a document version's tree-sitter tree.
type Tree struct {
	T *sitter.Tree
	// Src is the text T was parsed from.
	Src []byte

	chains   map[uint16]bool
	nestOnce sync.Once
	nest     tsflat.Depths
	// prevTops, when set, are the measures of the previous version's
	// tree, which this one was reparsed from, once that tree is measured:
	// they give the nesting of every top-level child the reparse reused.
	// tops are this tree's, for the next version's. Each tree holds its
	// tops apart from itself, so that a version never measured (typing
	// outran the checks) does not keep the one before it, its text and
	// the one before that, alive.
	prevTops, tops *topsOf
}

// topsOf holds the measures of a tree's top-level children once known.
type topsOf struct {
	atomic.Pointer[[]topNest]
}

// topNest is the nesting (tsflat.Depths' Depth and Chain) of the subtree
// of one top-level child of a tree's root, and that subtree
// (tsflat.Subtree): 16 bytes, a file's top level has thousands.
type topNest struct {
	subtree      uint64
	depth, chain int32
}

// NestingCrossing reports whether the tree nests deeper than maxDepth
// levels or chains longer than maxChain (tsflat.Crossing), computed once
// per tree: editor features walk trees level by level (and tree-sitter's
// parent lookup costs a walk from the root), so a tree past the limits
// gets none.
func (t *Tree) NestingCrossing(maxDepth, maxChain int) (at, depth, limit int, over bool) {
	t.nestOnce.Do(func() {
		if d, ok := t.nestByTops(); ok && d.Depth <= maxDepth && d.Chain <= maxChain {
			t.nest = d
			return
		}
		recs := tsflat.Walk(t.T.RootNode(), nil)
		t.nest = tsflat.Nesting(recs, t.chains)
		if t.nest.Depth > maxDepth || t.nest.Chain > maxChain {
			// Keep the offset of the record where the limit is crossed.
			a, _, _, _ := tsflat.Crossing(recs, t.chains, maxDepth, maxChain)
			t.nest.DepthAt = int(recs[a].StartByte)
		}
	})
	switch {
	case t.nest.Depth > maxDepth:
		return t.nest.DepthAt, t.nest.Depth, maxDepth, true
	case t.nest.Chain > maxChain:
		return t.nest.DepthAt, t.nest.Chain, maxChain, true
	}
	return 0, 0, 0, false
}

// nestByTops measures the tree's nesting (Depth and Chain; not where)
// top-level child by top-level child, reusing the previous version's
// measure of every child whose subtree the reparse reused (the same
// subtree, tsflat.Subtree, nests the same): only the children an edit
// reached are walked, and no diff of the trees is needed. It records
// the children's measures for the next version, and returns false when
// the root could start a chain with a child (then the tree is walked
// whole).
func (t *Tree) nestByTops() (tsflat.Depths, bool) {
	root := t.T.RootNode()
	if t.chains[root.KindId()] {
		return tsflat.Depths{}, false
	}
	var prev []topNest
	if t.prevTops != nil {
		if p := t.prevTops.Load(); p != nil {
			prev = *p
		}
		t.prevTops = nil // the previous measures need not stay reachable
	}
	// The children's spans and subtrees in one call; the children
	// themselves only when one must be walked (the edited ones).
	spans := tsflat.ChildSpans(root, false)
	tops := make([]topNest, len(spans))
	out := tsflat.Depths{Depth: 1, DepthAt: -1, ChainAt: -1}
	var kids []sitter.Node
	var buf []tsflat.Record
	var m reuse
	for i, sp := range spans {
		tn := topNest{subtree: sp.Subtree}
		if k, ok := m.find(prev, sp.Subtree); ok {
			tn.depth, tn.chain = prev[k].depth, prev[k].chain
			nestReused.Add(1)
		} else {
			// The child found from the root, with no listing of them all
			// unless it is empty.
			n := tsflat.ChildAt(root, sp.Start, sp.End, false)
			if n == nil || tsflat.Subtree(n) != sp.Subtree {
				if kids == nil {
					kids = tsflat.Children(root, nil)
				}
				n = &kids[i]
			}
			buf = tsflat.Walk(n, buf)
			d := tsflat.Nesting(buf, t.chains)
			tn.depth, tn.chain = int32(min(d.Depth, math.MaxInt32)), int32(min(d.Chain, math.MaxInt32))
		}
		tops[i] = tn
		out.Depth = max(out.Depth, int(tn.depth)+1)
		out.Chain = max(out.Chain, int(tn.chain))
	}
	if t.tops != nil {
		t.tops.Store(&tops)
	}
	return out, true
}

// reuse finds the previous version's measures of reused subtrees: they
// come in the same order as before, so each is looked for just after the
// last one found; once several children in a row are not there
// (statements inserted or deleted), in a map of them all. A child an
// edit reached is new and found nowhere: looking it up in a map made for
// it would cost more than the rest of the search.
type reuse struct {
	next, misses int
	at           map[uint64]int
}

// reuseWindow is how many of the previous children after the last one
// reused find looks at, and how many misses in a row make it use the map.
const reuseWindow = 4

// find returns the index in prev of the child with subtree, false when
// the previous tree had none (or none after the last found).
func (r *reuse) find(prev []topNest, subtree uint64) (int, bool) {
	if subtree == 0 || len(prev) == 0 {
		return 0, false
	}
	for k := r.next; k < min(len(prev), r.next+reuseWindow); k++ {
		if prev[k].subtree == subtree {
			r.next, r.misses = k+1, 0
			return k, true
		}
	}
	if r.misses++; r.misses < reuseWindow && r.at == nil {
		return 0, false
	}
	if r.at == nil {
		r.at = make(map[uint64]int, len(prev))
		for k := len(prev) - 1; k >= 0; k-- {
			r.at[prev[k].subtree] = k // the first of equal ones
		}
	}
	k, ok := r.at[subtree]
	if !ok || k < r.next {
		return 0, false
	}
	r.next, r.misses = k+1, 0
	return k, true
}

// nestReused counts the top-level children whose nesting was taken from
// the previous version's tree (for tests).
var nestReused atomic.Int64

// Close releases the tree.
func (t *Tree) Close() { t.T.Close() }

// Sitter returns the tree-sitter tree (nil for a nil Tree), so that a
// checker can reuse it (internal/frontends.SitterTree).
func (t *Tree) Sitter() *sitter.Tree {
	if t == nil {
		return nil
	}
	return t.T
}

// Sexp returns the tree as tree-sitter's S-expression, printed without
// overflowing the C stack at any depth (tsflat.SexpOf).
func (t *Tree) Sexp() string {
	return tsflat.SexpOf(t.T.RootNode(), tsflat.NamesOf(t.T.Language()), t.Src)
}

// Syntax is a cache.Syntax for one tree-sitter language.
type Syntax struct {
	lang    *sitter.Language
	parsers sync.Pool
	// chains are the kinds whose chains count apart from nesting (see
	// tsflat.Nesting).
	chains map[uint16]bool
}

// NewSyntax returns the Syntax of lang. chainKinds names the node kinds
// the language's lowering flattens without recursion (Harn's union_type),
// whose chains count apart from nesting, as the checker counts them.
func NewSyntax(lang *sitter.Language, chainKinds ...string) *Syntax {
	s := &Syntax{lang: lang, chains: map[uint16]bool{}}
	for _, k := range chainKinds {
		if id := lang.IdForNodeKind(k, true); id != 0 {
			s.chains[id] = true
		}
	}
	return s
}

// Parse implements cache.Syntax: it copies prev, applies the edits to the
// copy and reparses with it, leaving prev untouched.
func (s *Syntax) Parse(prev cache.Tree, edits []cache.Edit, text []byte) cache.Tree {
	p, _ := s.parsers.Get().(*sitter.Parser)
	if p == nil {
		p = sitter.NewParser()
		if err := p.SetLanguage(s.lang); err != nil {
			panic(fmt.Sprintf("tsquery: %v", err)) // a build problem, not an input one
		}
	}
	defer s.parsers.Put(p)
	var old *sitter.Tree
	pt, _ := prev.(*Tree)
	if pt != nil {
		old = pt.T.Clone()
		defer old.Close()
		for _, e := range edits {
			old.Edit(InputEdit(e))
		}
	}
	t := tsutil.Parse(p, text, old)
	if t == nil {
		return nil
	}
	out := &Tree{T: t, Src: text, chains: s.chains, tops: &topsOf{}}
	if pt != nil {
		out.prevTops = pt.tops
	}
	return out
}

// InputEdit converts a cache.Edit to tree-sitter's form.
func InputEdit(e cache.Edit) *sitter.InputEdit {
	return &sitter.InputEdit{
		StartByte: e.StartByte, OldEndByte: e.OldEndByte, NewEndByte: e.NewEndByte,
		StartPosition:  sitter.Point{Row: e.StartPoint.Row, Column: e.StartPoint.Column},
		OldEndPosition: sitter.Point{Row: e.OldEndPoint.Row, Column: e.OldEndPoint.Column},
		NewEndPosition: sitter.Point{Row: e.NewEndPoint.Row, Column: e.NewEndPoint.Column},
	}
}

// Queries holds a language's compiled highlight and fold queries.
type Queries struct {
	highlights, folds *sitter.Query
	// styles[i] is the token of highlight capture i; ok false for
	// captures that are not tokens (punctuation).
	styles []style
}

type style struct {
	typ  string
	mods []string
	ok   bool
}

// NewQueries compiles the highlight and fold queries of lang; either may
// be empty. A query error names the file and its row and column.
func NewQueries(lang *sitter.Language, highlights, folds string) (*Queries, error) {
	q := &Queries{}
	var qerr *sitter.QueryError
	if highlights != "" {
		if q.highlights, qerr = sitter.NewQuery(lang, highlights); qerr != nil {
			return nil, fmt.Errorf("highlights.scm:%d:%d: %s", qerr.Row+1, qerr.Column+1, qerr.Message)
		}
		for _, name := range q.highlights.CaptureNames() {
			typ, mods, ok := features.TokenForCapture(name)
			q.styles = append(q.styles, style{typ, mods, ok})
		}
	}
	if folds != "" {
		if q.folds, qerr = sitter.NewQuery(lang, folds); qerr != nil {
			return nil, fmt.Errorf("folds.scm:%d:%d: %s", qerr.Row+1, qerr.Column+1, qerr.Message)
		}
	}
	return q, nil
}

// capture is one highlight capture of a node.
type capture struct {
	start, end int
	pattern    uint
	capture    uint32
}

// Tokens returns the semantic tokens of tree over src, in document order,
// never overlapping and each within one line.
func (q *Queries) Tokens(tree *sitter.Tree, src []byte) []features.Token {
	if q.highlights == nil || tree == nil {
		return nil
	}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	// The first pattern matching a node wins: keep, per node range, the
	// capture of the lowest pattern index.
	best := map[[2]int]capture{}
	matches := qc.Matches(q.highlights, tree.RootNode(), src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		for _, c := range m.Captures {
			k := [2]int{int(c.Node.StartByte()), int(c.Node.EndByte())}
			if k[0] >= k[1] {
				continue
			}
			if old, ok := best[k]; !ok || m.PatternIndex < old.pattern {
				best[k] = capture{k[0], k[1], m.PatternIndex, c.Index}
			}
		}
	}
	caps := make([]capture, 0, len(best))
	for _, c := range best {
		caps = append(caps, c)
	}
	// Paint outer nodes first so nested ones override them.
	slices.SortFunc(caps, func(a, b capture) int {
		if d := (b.end - b.start) - (a.end - a.start); d != 0 {
			return d
		}
		return a.start - b.start
	})
	paint := make([]int32, len(src)) // style index + 1; 0 = nothing
	for _, c := range caps {
		v := int32(c.capture) + 1
		if !q.styles[c.capture].ok {
			v = -1 // claimed by a non-token capture such as punctuation
		}
		for i := c.start; i < min(c.end, len(src)); i++ {
			paint[i] = v
		}
	}
	var out []features.Token
	for i := 0; i < len(src); {
		if src[i] == '\n' || src[i] == '\r' {
			i++ // tokens never span lines
			continue
		}
		v := paint[i]
		j := i + 1
		for j < len(src) && paint[j] == v && src[j] != '\n' && src[j] != '\r' {
			j++
		}
		if v > 0 {
			st := q.styles[v-1]
			out = append(out, features.Token{Span: diagnostics.Span{Start: i, End: j}, Type: st.typ, Modifiers: st.mods})
		}
		i = j
	}
	return mergeAdjacent(out)
}

// mergeAdjacent joins touching tokens of the same style on one line (two
// captures of one style side by side are one token to the editor).
func mergeAdjacent(ts []features.Token) []features.Token {
	out := ts[:0]
	for _, t := range ts {
		if n := len(out); n > 0 && out[n-1].Span.End == t.Span.Start && out[n-1].Type == t.Type &&
			slices.Equal(out[n-1].Modifiers, t.Modifiers) {
			out[n-1].Span.End = t.Span.End
			continue
		}
		out = append(out, t)
	}
	return out
}

// Folds returns the folding ranges of tree: every node captured by the
// fold query, once per range, comments marked as such.
func (q *Queries) Folds(tree *sitter.Tree, src []byte) []features.Fold {
	if q.folds == nil || tree == nil {
		return nil
	}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	seen := map[diagnostics.Span]bool{}
	var out []features.Fold
	matches := qc.Matches(q.folds, tree.RootNode(), src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		for _, c := range m.Captures {
			sp := diagnostics.Span{Start: int(c.Node.StartByte()), End: int(c.Node.EndByte())}
			if seen[sp] {
				continue
			}
			seen[sp] = true
			kind := ""
			if strings.Contains(c.Node.Kind(), "comment") {
				kind = "comment"
			}
			out = append(out, features.Fold{Span: sp, Kind: kind})
		}
	}
	slices.SortFunc(out, func(a, b features.Fold) int {
		if a.Span.Start != b.Span.Start {
			return a.Span.Start - b.Span.Start
		}
		return b.Span.End - a.Span.End
	})
	return out
}

// Features serves semantic tokens and folding ranges from Queries over the
// document's tsquery Tree; embed it to add the other features.
type Features struct {
	features.Unimplemented
	Queries *Queries
}

func treeOf(s features.Snapshot) *sitter.Tree {
	if t, ok := s.Doc.Tree.(*Tree); ok && t != nil {
		return t.T
	}
	return nil
}

// SemanticTokens implements features.Features.
func (f Features) SemanticTokens(_ context.Context, s features.Snapshot) ([]features.Token, error) {
	return f.Queries.Tokens(treeOf(s), s.Doc.Text), nil
}

// FoldingRanges implements features.Features.
func (f Features) FoldingRanges(_ context.Context, s features.Snapshot) ([]features.Fold, error) {
	return f.Queries.Folds(treeOf(s), s.Doc.Text), nil
}
