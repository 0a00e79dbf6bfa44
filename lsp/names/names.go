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
	tops, topErrors := topsOf(root)
	if chunks, ok := r.split(raw, tops); ok {
		return r.newIndex(fileEnd, tops, topErrors, chunks, false)
	}
	return r.newIndex(fileEnd, tops, topErrors, []*chunk{newChunk(raw, 0, r.opts.Hoisted)}, true)
}

// split makes the chunks of tops, the top-level nodes, from raw, their
// captures; false when a capture (its declaration's node included) is
// within none of them. An empty capture where one node ends and the next
// starts belongs to the first.
func (r *Resolver) split(raw rawNames, tops []diagnostics.Span) ([]*chunk, bool) {
	parts := make([]rawNames, len(tops))
	find := func(sp diagnostics.Span) int {
		i := sort.Search(len(tops), func(k int) bool { return tops[k].End >= sp.End })
		if i < len(tops) && tops[i].Start <= sp.Start {
			return i
		}
		return -1
	}
	within := func(i int, sp diagnostics.Span) bool { return tops[i].Start <= sp.Start && sp.End <= tops[i].End }
	for _, sc := range raw.scopes {
		i := find(sc)
		if i < 0 {
			return nil, false
		}
		parts[i].scopes = append(parts[i].scopes, sc)
	}
	for _, d := range raw.defs {
		i := find(d.Span)
		if i < 0 || !within(i, d.Decl) || !within(i, d.declNode) {
			return nil, false
		}
		parts[i].defs = append(parts[i].defs, d)
	}
	for _, ref := range raw.refs {
		i := find(ref.Span)
		if i < 0 {
			return nil, false
		}
		parts[i].refs = append(parts[i].refs, ref)
	}
	chunks := make([]*chunk, len(tops))
	for i, part := range parts {
		chunks[i] = newChunk(part, tops[i].Start, r.opts.Hoisted)
	}
	return chunks, true
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
	rootSpan := NodeSpan(root)
	names := r.locals.CaptureNames()
	matches := qc.Matches(r.locals, root, src)
	for i, m := 0, matches.Next(); m != nil; i, m = i+1, matches.Next() {
		if i%cancelEvery == 0 && ctx.Err() != nil {
			return raw, false
		}
		for _, c := range m.Captures {
			name := names[c.Index]
			sp := NodeSpan(&c.Node)
			if name == "local.scope" && (sp.Start == 0 && sp.End == fileEnd || sp == rootSpan) {
				// The file's scope, scope 0 (the root node starts after
				// any blank lines the file starts with).
				continue
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

// rebuild builds the index of tree over src from base, the index of an
// earlier text old: src is old with [p, len(old)-s) replaced. Only the
// top-level nodes the edit touches (and the declarations after them up
// to one that was there before, whose doc comment may have changed) are
// queried again; the chunks of the others are shared with base. It
// returns nil when the edit does not fall between top-level nodes
// cleanly.
func (r *Resolver) rebuild(ctx context.Context, base *Index, old []byte, tree *sitter.Tree, src []byte, p, s int) *Index {
	root := tree.RootNode()
	fileEnd := max(len(src), int(root.EndByte()))
	if base.whole || base.fileEnd != len(old) || fileEnd != len(src) {
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
		i := sort.Search(len(base.tops), func(k int) bool { return base.tops[k].Start >= old.Start })
		return i < len(base.tops) && base.tops[i] == old
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
	// The top-level nodes kept are the runs before and after the span
	// that are those of the old tree at the same place (moved by the edit
	// after it) and parsed without error, then and now (error recovery may
	// parse the same text differently after an edit elsewhere): their
	// chunks are shared. The nodes between the runs are queried again,
	// the span grown to hold them (a syntax error the edit made, or one
	// next to it, is queried again with it).
	nOld := len(base.tops)
	before := sort.Search(n, func(k int) bool { return tops[k].End > span.Start })
	after := n - sort.Search(n, func(k int) bool { return tops[k].Start >= span.End })
	for k := range before {
		if k >= nOld || tops[k] != base.tops[k] || topErrors[k] || base.topErrors[k] {
			before = k
			break
		}
	}
	for k := range after {
		i, j := n-1-k, nOld-1-k
		if j < before || tops[i].Start-delta != base.tops[j].Start || tops[i].End-delta != base.tops[j].End || topErrors[i] || base.topErrors[j] {
			after = k
			break
		}
	}
	if before+after > n || before+after > nOld {
		return nil
	}
	mid := tops[before : n-after]
	if len(mid) > 0 {
		span.Start = min(span.Start, mid[0].Start)
		span.End = max(span.End, mid[len(mid)-1].End)
	}
	if before > 0 && tops[before-1].End > span.Start || after > 0 && tops[n-after].Start < span.End {
		return nil
	}
	raw, ok := r.collect(ctx, root, src, span, fileEnd)
	if !ok {
		return nil
	}
	// An empty capture where a kept node ends and the span starts belongs
	// to that node (split gives it to the first node holding it), which
	// the old tree may not have had.
	empty := func(sp diagnostics.Span) bool {
		return sp.Start == sp.End && sp.Start == span.Start && before > 0 && tops[before-1].End == span.Start
	}
	for _, sc := range raw.scopes {
		if empty(sc) {
			return nil
		}
	}
	for _, d := range raw.defs {
		if empty(d.Span) {
			return nil
		}
	}
	for _, ref := range raw.refs {
		if empty(ref.Span) {
			return nil
		}
	}
	made, ok := r.split(raw, mid)
	if !ok {
		return nil
	}
	chunks := make([]*chunk, 0, n)
	chunks = append(chunks, base.chunks[:before]...)
	chunks = append(chunks, made...)
	chunks = append(chunks, base.chunks[nOld-after:]...)
	return r.newIndex(fileEnd, tops, topErrors, chunks, false)
}

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
