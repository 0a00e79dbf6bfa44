package harnlang

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	sitter "github.com/tree-sitter/go-tree-sitter"

	harnchecker "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
	"github.com/harnlang/harn-check/lsp/features"
)

// The inference facts hover and member completion read come from the
// Harn checker run on the request's text, its imports served by the
// workspace (open buffers first). For the document's own text they are the
// facts of the check that published its diagnostics (driver.Result.Facts,
// one check per version). A completion's patched copy, or a document
// without an analysis, is checked here; the last document check and the
// last completion check are kept, keyed by document version, so
// successive hovers on one version check once
// (BenchmarkTyped5000: 13 ms for the first hover on a 5,000-line file,
// 0.2 ms after, against 25-30 ms for its semantic tokens).

type factsKey struct {
	uri     string
	version int32
	size    int
	patched bool
}

// factsCache keeps the last document's facts and the last completion's,
// so that hovers between completions stay cached.
var factsCache struct {
	sync.Mutex
	entry [2]factsEntry // [0] the document's text, [1] a patched copy
}

type factsEntry struct {
	key   factsKey
	src   []byte
	facts *analysis.Facts
}

func slot(patched bool) int {
	if patched {
		return 1
	}
	return 0
}

// typeFacts returns the inference facts of src checked as the document
// s.Doc (its path and imports). tree, when not nil, is src's syntax tree
// and spares a parse. patched says src is not the document's text (a
// completion's repaired copy); such a result is cached under its own key.
func typeFacts(s features.Snapshot, src []byte, tree *sitter.Tree, patched bool) *analysis.Facts {
	if !patched && s.Doc.Analysis != nil && string(src) == string(s.Doc.Text) {
		// The document's own check, shared with its diagnostics, has the
		// facts: waiting for it (it may be running now) costs less than
		// a second check of the same text, and on a large file two
		// checks at once would double the server's memory.
		r, err := s.Doc.Analysis()
		if err != nil {
			// The request was cancelled (no one waits for its answer)
			// or the checker failed (a second check would fail the
			// same way): no facts rather than a check of our own.
			return nil
		}
		if facts, ok := r.Facts.(*analysis.Facts); ok && facts != nil {
			return facts
		}
	}
	key := factsKey{uri: s.Doc.URI, version: s.Doc.Version, size: len(src), patched: patched}
	factsCache.Lock()
	if e := factsCache.entry[slot(patched)]; e.facts != nil && e.key == key && string(e.src) == string(src) {
		factsCache.Unlock()
		return e.facts
	}
	factsCache.Unlock()

	path := s.Doc.Path
	if path == "" {
		path = "untitled.harn"
	}
	opts := harnchecker.Options{Loader: harnchecker.LoaderFunc(func(p string) ([]byte, error) {
		if s.Workspace == nil {
			return nil, errNoWorkspace
		}
		return s.Workspace.ReadFile(p)
	})}
	if tree != nil {
		opts.Parsed = &harnchecker.Parsed{File: fileOf(tree, src)}
	}
	factsChecks.Add(1)
	res := harnchecker.Check(path, src, opts)
	if res.Facts == nil {
		return nil
	}
	factsCache.Lock()
	factsCache.entry[slot(patched)] = factsEntry{key: key, src: append([]byte(nil), src...), facts: res.Facts}
	factsCache.Unlock()
	return res.Facts
}

// factsChecks counts the checks typeFacts ran itself (tests read it).
var factsChecks atomic.Int64

type noWorkspace struct{}

func (noWorkspace) Error() string { return "no workspace" }

var errNoWorkspace error = noWorkspace{}

// exprType returns the recorded type of the expression spanning exactly
// [start, end) that is a name, member read, call, index or parenthesised
// expression (the widest such when several share the span), and whether
// one was found. A type of any counts as not found: it says nothing.
func exprType(facts *analysis.Facts, start, end int) (types.Type, bool) {
	var best types.Type
	for _, x := range postfixExprsEndingAt(facts, end) {
		if x.start == start && (best == nil || types.IsGradual(best)) {
			best = x.t
		}
	}
	return best, best != nil
}

// postfixEndingAt returns the type of the widest name, member read, call,
// index or parenthesised expression ending at end: the receiver of a
// member access whose "." is at end.
func postfixEndingAt(facts *analysis.Facts, end int) (types.Type, bool) {
	var best types.Type
	bestStart := end
	for _, x := range postfixExprsEndingAt(facts, end) {
		if x.start > bestStart {
			continue
		}
		if x.start < bestStart || best == nil || types.IsGradual(best) {
			best, bestStart = x.t, x.start
		}
	}
	return best, best != nil
}

// postfixExpr is a typed name, member read, call, index or parenthesised
// expression of a check's facts.
type postfixExpr struct {
	start, end int
	t          types.Type
}

// postfixExprsEndingAt returns the typed postfix expressions of facts
// ending at end.
func postfixExprsEndingAt(facts *analysis.Facts, end int) []postfixExpr {
	xs := postfixExprs(facts)
	i := sort.Search(len(xs), func(k int) bool { return xs[k].end >= end })
	j := i
	for j < len(xs) && xs[j].end == end {
		j++
	}
	return xs[i:j]
}

// postfixIndex keeps the postfix expressions of the facts read last, by
// end: a large file's facts type a hundred thousand expressions, and a
// completion or hover reads those of one place. The facts of the bodies
// an incremental check did not redo are an earlier check's
// (harnchecker.EditedFacts), so one index serves many versions.
var postfixIndex struct {
	sync.Mutex
	// entries are the facts indexed, least recently read first.
	entries []postfixEntry
}

type postfixEntry struct {
	facts *analysis.Facts
	exprs []postfixExpr
}

// postfixIndexSize is how many facts postfixIndex keeps: the base facts
// of a document being edited, and the latest incremental check's.
const postfixIndexSize = 3

// postfixExprs returns the typed postfix expressions of facts sorted by
// end, then start, then type (so that of expressions sharing a span, the
// same one is found every time).
func postfixExprs(facts *analysis.Facts) []postfixExpr {
	if facts == nil {
		return nil
	}
	postfixIndex.Lock()
	for i, e := range postfixIndex.entries {
		if e.facts == facts {
			postfixIndex.entries = append(append(postfixIndex.entries[:i:i], postfixIndex.entries[i+1:]...), e)
			postfixIndex.Unlock()
			return e.exprs
		}
	}
	postfixIndex.Unlock()
	xs := make([]postfixExpr, 0, len(facts.Types))
	for e, t := range facts.Types {
		if t == nil {
			continue
		}
		switch e.(type) {
		case *ast.Ident, *ast.Member, *ast.Call, *ast.Index, *ast.Paren:
		default:
			continue
		}
		p := e.Pos()
		xs = append(xs, postfixExpr{start: p.Start, end: p.End, t: t})
	}
	slices.SortFunc(xs, func(a, b postfixExpr) int {
		if a.end != b.end {
			return a.end - b.end
		}
		if a.start != b.start {
			return a.start - b.start
		}
		return strings.Compare(a.t.String(), b.t.String())
	})
	postfixIndex.Lock()
	defer postfixIndex.Unlock()
	if len(postfixIndex.entries) == postfixIndexSize {
		postfixIndex.entries = append(postfixIndex.entries[:0], postfixIndex.entries[1:]...)
	}
	postfixIndex.entries = append(postfixIndex.entries, postfixEntry{facts: facts, exprs: xs})
	return xs
}

// bindingType returns the type of the binding declared by the name at
// [start, end), for hovers on a declaration itself.
func bindingType(facts *analysis.Facts, start, end int) (types.Type, bool) {
	if facts == nil {
		return nil, false
	}
	for _, b := range facts.Bindings {
		if b.Span.Start == start && b.Span.End == end && b.Type != nil {
			return b.Type, true
		}
	}
	return nil, false
}

// typeLine renders a type for hover, expanding a named type once; a long
// union is shown as a block with one member a line.
func typeLine(t types.Type) string {
	if u, ok := t.(*types.Union); ok && len(t.String()) > 100 {
		var b strings.Builder
		b.WriteString("type:\n```harn\n")
		for i, m := range u.Members {
			if i > 0 {
				b.WriteString("| ")
			} else {
				b.WriteString("  ")
			}
			b.WriteString(m.String())
			b.WriteString("\n")
		}
		b.WriteString("```")
		return b.String()
	}
	s := "type `" + t.String() + "`"
	if a, ok := t.(*types.Alias); ok && a.Target != nil {
		if d := types.Unalias(a).String(); d != a.Name && len(d) <= 200 {
			s += " = `" + d + "`"
		}
	}
	return s
}

// typeHover is the hover of the expression at offset that a name
// resolution leaves out: a member read (`review.score`, `o.value`), with
// its inferred type. nil when the offset is on no member name.
func typeHover(s features.Snapshot, tree *sitter.Tree, offset int) *features.Hover {
	src := s.Doc.Text
	n := tree.RootNode().NamedDescendantForByteRange(uint(offset), uint(offset))
	if n == nil || n.Kind() != "identifier" {
		return nil
	}
	p := n.Parent()
	if p == nil || p.Kind() != "member_expression" {
		return nil
	}
	if prop := p.ChildByFieldName("property"); prop == nil || prop.StartByte() != n.StartByte() {
		return nil
	}
	facts, delta := spanFacts(s, tree, int(p.StartByte()), int(p.EndByte()))
	t, ok := exprType(facts, int(p.StartByte())+delta, int(p.EndByte())+delta)
	if !ok {
		return nil
	}
	return &features.Hover{Span: nodeSpan(n), Markdown: "```harn\n" + p.Utf8Text(src) + "\n```\n\n" + typeLine(t)}
}

// nameType returns the inferred type of the name use or declaration at
// [start, end), or false.
func nameType(s features.Snapshot, tree *sitter.Tree, start, end int) (types.Type, bool) {
	facts, delta := spanFacts(s, tree, start, end)
	if t, ok := exprType(facts, start+delta, end+delta); ok {
		return t, true
	}
	return bindingType(facts, start+delta, end+delta)
}

// spanFacts returns the facts of the document's check that cover
// [start, end), and the delta converting the document's offsets to
// theirs: after an incremental check, the bodies it did not re-check have
// the facts of an earlier check, at other offsets
// (harnchecker.EditedFacts).
func spanFacts(s features.Snapshot, tree *sitter.Tree, start, end int) (*analysis.Facts, int) {
	if s.Doc.Analysis != nil {
		r, err := s.Doc.Analysis()
		if err != nil {
			return nil, 0 // see typeFacts
		}
		if e, ok := r.Facts.(*harnchecker.EditedFacts); ok && e != nil {
			return e.At(start, end)
		}
	}
	return typeFacts(s, s.Doc.Text, tree, false), 0
}

// evaluateCallee reports whether n, a member_expression, is the callee of
// an evaluation call, whose hover is the site's.
func evaluateCallee(n *sitter.Node, src []byte) bool {
	p := n.Parent()
	if p == nil || p.Kind() != "call_expression" {
		return false
	}
	fn := p.ChildByFieldName("function")
	if fn == nil || fn.StartByte() != n.StartByte() || fn.EndByte() != n.EndByte() {
		return false
	}
	prop := n.ChildByFieldName("property")
	return prop != nil && len(prop.Utf8Text(src)) >= len("evaluate") && prop.Utf8Text(src)[:len("evaluate")] == "evaluate"
}

// forgetFacts drops the cached facts (benchmarks measure a new version).
func forgetFacts() {
	factsCache.Lock()
	factsCache.entry = [2]factsEntry{}
	factsCache.Unlock()
}
