package frontends

import (
	"bytes"
	"runtime"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	leiachecker "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	leiabinding "github.com/harnlang/harn-check/grammar/leia/binding"
	"github.com/harnlang/harn-check/grammar/tsflat"
	"github.com/harnlang/harn-check/grammar/tsutil"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// Incremental Leia checking in the editor.
//
// After an edit inside the body of one top-level function (`func
// name(...) { ... }`, or `name := func(...) { ... }`), the check of the new version re-checks that body with the
// rest of the file, every other isolated body blanked, and keeps the
// previous version's diagnostics everywhere else. Why the rest cannot
// change, and the edited body cannot see what was blanked:
//
//   - Leia has no implicit globals: a body declares nothing another
//     declaration can see. The names a body reads are the file's top-level
//     declarations and the predeclared ones, all kept (only bodies are
//     blanked), and a function's parameters, which are outside its body.
//   - No rule reports at a top-level declaration from what the bodies do
//     with it (unused locals are reported inside function bodies only), and
//     a call's arity diagnostics read the callee's parameters, not its
//     body. They do read whether anything assigns the callee's name (and
//     so do the rules that follow a name to its value): a body that
//     assigns a name a top-level declaration could have (lexically: a
//     name before `=`, `+=`, `++`, ..., fields and elements aside, spelt
//     somewhere outside the bodies and not one of its parameters) is not
//     isolated.
//   - What a body could contribute to the whole file is the AI dialect
//     (tools, agents, models, turns, prompts and the registries they fill),
//     evaluate blocks and eval, imports and require, and code compiled at
//     run time (load, dofile, script.*), which turns undeclared reads
//     everywhere into warnings: a body that names any of these (bodyWords,
//     strings and comments included) or holds a backquoted literal is not
//     isolated, so it is never blanked and its edits check the whole file.
//   - Syntax: the old and the new version must both parse without error
//     (error recovery and the expected-token messages depend on the parse
//     state); then the editor's tree is the tree a fresh parse gives.
//   - Only messages that quote line numbers could change with lines
//     added above them: when the edit adds or removes lines, a kept
//     diagnostic that says "line" forces a whole check.
//
// The edited body is checked in a copy of the new text whose other
// isolated bodies are blanked to spaces, newlines kept, so every offset,
// line and column is the new text's. Whenever a condition is not met, or
// the pieces do not fit (a diagnostic straddling the edited declaration or
// in another file, the files read differing), the whole file is checked.
// The lsp package's TestIncrementalCheckEqualsFresh and
// FuzzIncrementalCheckEqualsFresh compare the result with a fresh check
// after every random edit.

// leiaPrior is what a Leia check keeps for checking a later version of
// the same document incrementally (driver.Result.Incremental).
type leiaPrior struct {
	path  string
	src   []byte
	items []harnItem
	// diags are the check's diagnostics before suppression comments
	// apply; deps the files it read.
	diags []diagnostics.Diagnostic
	deps  []checkcache.Dep
	// reduced is the text the incremental check of this version checked
	// (nil after a whole check), reducedTree its syntax tree, from which
	// the next one is reparsed incrementally.
	reduced     []byte
	reducedTree *sitter.Tree
	// scope is the top level as the focused check needs it (leiafocus.go),
	// nil when the whole check that started the line of versions gave no
	// facts.
	scope *leiaScope
}

// leiaParsed lowers t, an editor's Leia tree of src, as leiachecker.Check
// parses src itself (binding.Parse, default options), or returns nil, and
// the check parses src afresh, when there is no tree, the tree has a
// syntax error, or the fresh parse would refuse the text before parsing.
func leiaParsed(path string, src []byte, t *sitter.Tree, _ limits.Limits) *leiachecker.Parsed {
	if t == nil || t.RootNode().HasError() {
		return nil
	}
	if _, _, over := tsutil.BracketDepthOver(src, limits.PrescanDepth(0)); over {
		return nil
	}
	file, syntax := leiabinding.Lowered(path, src, t)
	return &leiachecker.Parsed{File: file, Syntax: syntax}
}

// leiaBodyWords are the words that keep a function body from being
// isolated (see the comment above).
var leiaBodyWords = map[string]bool{
	"llm": true, "agent": true, "agents": true, "tool": true, "tools": true, "turn": true, "model": true, "models": true,
	"prompt": true, "messages": true, "budget": true, "quote": true, "defaults": true,
	"evaluate": true, "eval": true, "import": true, "require": true,
	"load": true, "loadfile": true, "dofile": true, "loadstring": true, "script": true,
}

// leiaPlainBody reports whether a body's text has none of leiaBodyWords
// and no backquote, and returns the names it assigns (assignedNames);
// false also when it assigns something assignedNames cannot name.
func leiaPlainBody(b []byte) ([][]byte, bool) {
	if bytes.IndexByte(b, '`') >= 0 {
		return nil, false
	}
	for i := 0; i < len(b); {
		if !wordByte(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && wordByte(b[j]) {
			j++
		}
		if leiaBodyWords[string(b[i:j])] {
			return nil, false
		}
		i = j
	}
	return assignedNames(b)
}

// assignedNames returns the names b assigns: the name before each
// assignment operator (`=`, `+=`, `-=`, `*=`, `/=`, `++`, `--`, in code,
// strings and comments alike) other than an element (`]`) or a field
// (`.name`); false when an operator follows anything else, or a name
// that is one of several targets (a comma before it).
func assignedNames(b []byte) ([][]byte, bool) {
	var out [][]byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		var opStart int
		switch {
		case c == '=':
			if i+1 < len(b) && b[i+1] == '=' {
				i++ // ==
				continue
			}
			if i > 0 && bytes.IndexByte([]byte("=!<>:"), b[i-1]) >= 0 {
				continue
			}
			opStart = i
			if i > 0 && bytes.IndexByte([]byte("+-*/"), b[i-1]) >= 0 {
				opStart = i - 1
			}
		case (c == '+' || c == '-') && i+1 < len(b) && b[i+1] == c:
			opStart = i
			i++
		default:
			continue
		}
		// The token before the operator.
		k := opStart
		for k > 0 && (b[k-1] == ' ' || b[k-1] == '\t') {
			k--
		}
		if k > 0 && b[k-1] == ']' {
			continue
		}
		e := k
		for k > 0 && wordByte(b[k-1]) {
			k--
		}
		if k == e {
			return nil, false // not a name: a call's result, a parenthesis, a literal
		}
		j := k
		for j > 0 && (b[j-1] == ' ' || b[j-1] == '\t') {
			j--
		}
		if j > 0 && b[j-1] == '.' {
			continue // a field
		}
		if j > 0 && b[j-1] == ',' {
			return nil, false
		}
		out = append(out, b[k:e])
	}
	return out, true
}

// hasWord reports whether w occurs in text as a whole word.
func hasWord(text, w []byte) bool {
	for off := 0; ; {
		i := bytes.Index(text[off:], w)
		if i < 0 {
			return false
		}
		a, z := off+i, off+i+len(w)
		if (a == 0 || !wordByte(text[a-1])) && (z == len(text) || !wordByte(text[z])) {
			return true
		}
		off = a + 1
	}
}

// leiaItems lists the top-level statements of a Leia tree of src; a
// function (leiaFunction) has its body's interior and is isolated when
// the body is plain (leiaPlainBody). A name a body assigns keeps it from
// being isolated unless it is one of the function's parameters or no
// word outside the functions' bodies spells it (then no top-level
// declaration does: the name is the body's own local).
func leiaItems(root *sitter.Node, src []byte) []harnItem {
	tops := tsflat.NamedChildren(root, nil)
	n := len(tops)
	items := make([]harnItem, 0, n)
	params := make([][]byte, n)
	assigned := make([][][]byte, n)
	for i := range n {
		c := &tops[i]
		it := harnItem{start: int(c.StartByte()), end: int(c.EndByte()), bodyStart: -1, bodyEnd: -1}
		if fn := leiaFunction(c); fn != nil {
			body, ps := fn.ChildByFieldName("body"), fn.ChildByFieldName("parameters")
			if body != nil && ps != nil && body.Kind() == "block" {
				bs, be := int(body.StartByte()), int(body.EndByte())
				if be-bs >= 2 && src[bs] == '{' && src[be-1] == '}' {
					it.bodyStart, it.bodyEnd = bs+1, be-1
					assigned[i], it.isolated = leiaPlainBody(src[it.bodyStart:it.bodyEnd])
					params[i] = src[ps.StartByte():ps.EndByte()]
				}
			}
		}
		items = append(items, it)
	}
	// The text outside the bodies, in pieces.
	var outside [][]byte
	at := 0
	for _, it := range items {
		if it.bodyStart >= 0 {
			outside = append(outside, src[at:it.bodyStart])
			at = it.bodyEnd
		}
	}
	outside = append(outside, src[at:])
	for i := range items {
		for _, w := range assigned[i] {
			if !items[i].isolated {
				break
			}
			if hasWord(params[i], w) {
				continue
			}
			for _, o := range outside {
				if hasWord(o, w) {
					items[i].isolated = false
					break
				}
			}
		}
	}
	return items
}

// leiaFunction returns the function of a top-level statement that is one:
// `func name(...) { ... }`, or `name := func(...) { ... }` (one name, one
// function literal); nil for any other.
func leiaFunction(c *sitter.Node) *sitter.Node {
	switch c.Kind() {
	case "function_declaration":
		return c
	case "short_var_declaration":
		left, right := c.ChildByFieldName("left"), c.ChildByFieldName("right")
		if left == nil || right == nil || left.NamedChildCount() != 1 || right.NamedChildCount() != 1 ||
			left.NamedChild(0).Kind() != "identifier" {
			return nil
		}
		if fn := right.NamedChild(0); fn.Kind() == "function_literal" {
			return fn
		}
	}
	return nil
}

// leiaSyntaxCode reports whether a diagnostic comes from the parser.
func leiaSyntaxCode(d diagnostics.Diagnostic) bool {
	return d.Code == leiabinding.SyntaxCode || strings.HasPrefix(d.Code, "HARN-LIM")
}

// mentionsLine reports whether a diagnostic's words could quote a line
// number.
func mentionsLine(d diagnostics.Diagnostic) bool {
	if strings.Contains(d.Message, "line") || strings.Contains(d.Help, "line") {
		return true
	}
	for _, r := range d.Related {
		if strings.Contains(r.Message, "line") {
			return true
		}
	}
	for _, f := range d.Fixes {
		if strings.Contains(f.Title, "line") {
			return true
		}
	}
	return false
}

// leiaPriorOf records what a whole check of a clean version learnt, for
// checking a later version incrementally; nil for a version with syntax
// errors.
func leiaPriorOf(req driver.Request, tree *sitter.Tree, out driver.Result, res *leiachecker.Result) *leiaPrior {
	if tree.RootNode().HasError() {
		return nil
	}
	for _, d := range out.Diagnostics {
		if leiaSyntaxCode(d) {
			return nil
		}
	}
	items := leiaItems(tree.RootNode(), req.Source)
	return &leiaPrior{path: req.Path, src: req.Source, items: items,
		diags: out.Diagnostics, deps: out.Deps, scope: newLeiaScope(req.Source, items, res)}
}

// leiaIncremental checks req's source from prior's check of an earlier
// version when the edit between them is confined to one isolated body,
// and returns false when it cannot (the caller checks the whole file).
func leiaIncremental(req driver.Request, tree *sitter.Tree, prior *leiaPrior) (driver.Result, bool) {
	src := req.Source
	if prior == nil || prior.path != req.Path || tree.RootNode().HasError() {
		return driver.Result{}, false
	}
	if out, ok := leiaFocused(req, tree, prior); ok {
		return out, true
	}
	old := prior.src
	items := leiaItems(tree.RootNode(), src)
	e, ok := bodyEditOf(old, src, prior.items, items)
	if !ok {
		return driver.Result{}, false
	}
	f, fOld, fNew, delta, linesMoved := e.f, prior.items[e.f], items[e.f], e.delta, e.linesMoved
	before, after, ok := keptDiagnostics(prior.diags, req.Path, fOld, delta, linesMoved, func(dg diagnostics.Diagnostic) bool {
		return dg.Path != req.Path || leiaSyntaxCode(dg)
	})
	if !ok {
		return driver.Result{}, false
	}
	var inside []diagnostics.Diagnostic
	reduced := blankBodies(src, items, f)
	rtree := reparse(leiabinding.ParseTree, prior.reduced, prior.reducedTree, reduced)
	if rtree == nil {
		return driver.Result{}, false
	}
	keep := false
	defer func() {
		if !keep {
			rtree.Close()
		}
	}()
	parsed := leiaParsed(req.Path, reduced, rtree, limits.Limits{})
	if parsed == nil {
		return driver.Result{}, false
	}
	res, checked := leiaCheckFacts(req.Path, reduced, req.ReadFile, nil, parsed)
	if !equalDeps(res.Deps, prior.deps) {
		return driver.Result{}, false
	}
	for _, dg := range res.Diagnostics {
		if dg.Path != req.Path || leiaSyntaxCode(dg) {
			return driver.Result{}, false
		}
		switch classify(dg.Span, fNew.start, fNew.end) {
		case spanInside:
			inside = append(inside, dg)
		case spanStraddles:
			return driver.Result{}, false
		}
	}
	merged := append(append(before, inside...), after...)
	out := driver.Result{Diagnostics: merged, Deps: res.Deps}
	if req.Model {
		out.Model = partModel(checked.Facts.Model(), fNew)
	}
	next := &leiaPrior{path: req.Path, src: src, items: items, diags: merged, deps: res.Deps, reduced: reduced, reducedTree: rtree, scope: prior.scope}
	keep = true
	runtime.AddCleanup(next, func(t *sitter.Tree) { t.Close() }, rtree)
	out.Incremental = next
	incrementalChecks.Add(1)
	return out, true
}

// bodyEdit is the one edit between two versions of a file, inside the
// body of the isolated item f: delta is the change in length, linesMoved
// whether it adds or removes lines.
type bodyEdit struct {
	f          int
	delta      int
	linesMoved bool
}

// bodyEditOf returns the edit between old and src, whose top-level items
// are prior and items, when it is inside one isolated body
// (editedItem).
func bodyEditOf(old, src []byte, prior, items []harnItem) (bodyEdit, bool) {
	p, s := tsutil.CommonEnds(old, src)
	oldEnd, newEnd := len(old)-s, len(src)-s
	delta := len(src) - len(old)
	f, ok := editedItem(prior, items, p, oldEnd, delta)
	if !ok {
		return bodyEdit{}, false
	}
	linesMoved := bytes.Count(old[p:oldEnd], []byte("\n")) != bytes.Count(src[p:newEnd], []byte("\n"))
	return bodyEdit{f: f, delta: delta, linesMoved: linesMoved}, true
}

// isolatedBodyAt returns the index of the item whose body holds [p,
// end), when that item is isolated; -1 otherwise.
func isolatedBodyAt(items []harnItem, p, end int) int {
	for i, it := range items {
		if it.bodyStart >= 0 && p >= it.bodyStart && end <= it.bodyEnd {
			if !it.isolated {
				return -1
			}
			return i
		}
	}
	return -1
}

// editedItem returns the index of the isolated item whose body holds the
// edit [p, oldEnd) of the old items (the same item, isolated, in the new
// ones), when every item keeps its place (shifted by delta after the
// edited one) and its isolation; false otherwise.
func editedItem(prior, items []harnItem, p, oldEnd, delta int) (int, bool) {
	if len(items) != len(prior) {
		return 0, false
	}
	f := isolatedBodyAt(prior, p, oldEnd)
	if f < 0 || !items[f].isolated {
		return 0, false
	}
	for i, it := range items {
		o := prior[i]
		d := 0
		if i > f {
			d = delta
		}
		if i == f {
			if it.start != o.start || it.bodyStart != o.bodyStart || it.bodyEnd != o.bodyEnd+delta || it.end != o.end+delta {
				return 0, false
			}
			continue
		}
		if it.start != o.start+d || it.end != o.end+d || it.bodyStart >= 0 != (o.bodyStart >= 0) ||
			it.bodyStart >= 0 && (it.bodyStart != o.bodyStart+d || it.bodyEnd != o.bodyEnd+d) || it.isolated != o.isolated {
			return 0, false
		}
	}
	return f, true
}

// keptDiagnostics returns the diagnostics of an earlier version outside
// its edited item fOld, shifted by delta when after it, split into those
// before and after the item; false when one cannot be kept: reject says
// so, it straddles the item or has a related location or fix inside it,
// or the edit moved lines and it may quote a line number.
func keptDiagnostics(diags []diagnostics.Diagnostic, path string, fOld harnItem, delta int, linesMoved bool,
	reject func(diagnostics.Diagnostic) bool) (before, after []diagnostics.Diagnostic, ok bool) {
	for _, dg := range diags {
		if reject(dg) {
			return nil, nil, false
		}
		where := classify(dg.Span, fOld.start, fOld.end)
		switch where {
		case spanInside:
			continue
		case spanStraddles:
			return nil, nil, false
		}
		if linesMoved && mentionsLine(dg) {
			return nil, nil, false
		}
		moved, ok := shiftDiagnostic(dg, path, fOld.start, fOld.end, delta)
		if !ok {
			return nil, nil, false
		}
		if where == spanAfter {
			after = append(after, moved)
		} else {
			before = append(before, moved)
		}
	}
	return before, after, true
}

// blankBodies returns a copy of src whose isolated bodies other than item
// f's are spaces, newlines kept.
func blankBodies(src []byte, items []harnItem, f int) []byte {
	reduced := make([]byte, len(src))
	copy(reduced, src)
	for i, it := range items {
		if i == f || !it.isolated {
			continue
		}
		for j := it.bodyStart; j < it.bodyEnd; j++ {
			if c := reduced[j]; c != '\n' && c != '\r' {
				reduced[j] = ' '
			}
		}
	}
	return reduced
}
