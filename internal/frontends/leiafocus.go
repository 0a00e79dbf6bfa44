package frontends

import (
	"slices"

	sitter "github.com/tree-sitter/go-tree-sitter"

	leiachecker "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	leiabinding "github.com/harnlang/harn-check/grammar/leia/binding"
	"github.com/harnlang/harn-check/grammar/tsflat"
	"github.com/harnlang/harn-check/grammar/tsutil"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/lang/leia/semantic"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// The focused Leia check: after an edit inside one isolated body (see
// leiaedit.go), the check of the new version lowers and checks only the
// top-level statements the edited body's diagnostics can depend on, from
// the editor's tree, without parsing any text again.
//
// Which statements those are comes from the resolver of the whole check
// that started the line of versions: the file's top-level bindings, and
// which statements use each. No edit inside an isolated body changes
// them (such a body declares nothing at the top level and assigns no
// top-level name), so every version checked since shares them.
//
//   - A rule follows a name to the statement declaring it (its value, its
//     parameters, whether it is a tool or an agent), counts the reads and
//     writes of the binding in every statement, and compares declarations
//     of the same name. So the check keeps, with the edited statement,
//     every top-level binding whose name the edited text spells, and for
//     every binding kept the statement declaring it and every statement
//     using it, until nothing more is added. A kept isolated function
//     other than the edited one keeps only its signature: its body reaches
//     no other declaration (leiaedit.go), and its uses are not followed.
//   - The one rule that reads every name in scope and the file's other
//     statements at large, the undefined-name rule (its suggestions, code
//     loaded or evaluated at run time, names only eval declares), is not
//     answered here: a diagnostic of that rule inside the edited statement
//     sends the check to the reduced text of leiaIncremental, which keeps
//     every declaration. A name that resolves without the statements left
//     out resolves the same with them.
//
// Everything left out is as if blanked to spaces: the kept statements keep
// their offsets in the new text, which is the text the rules read.

// leiaNameCodes are the undefined-name rule's codes: such a diagnostic in
// the edited statement can depend on every name in scope.
var leiaNameCodes = map[string]bool{"LEIA4001": true, "LEIA3007": true, "LEIA4010": true, "LEIA4011": true}

// leiaScope is what a focused check needs to know of a version's top
// level (see above), bindings numbered in the resolver's order.
type leiaScope struct {
	// byName lists the top-level bindings of each name.
	byName map[string][]int32
	// declItem is, per binding, the item declaring it; users the items
	// using it (reading or assigning it) outside isolated bodies.
	declItem []int32
	users    [][]int32
	// refs are, per item, the bindings it uses outside an isolated body.
	refs [][]int32
	// outside holds the words spelt outside the functions' bodies: a
	// name an edited body assigns must not be one of them.
	outside map[string]bool
}

// newLeiaScope records the top level of a version from its whole check
// (res, the checker's result), nil when that cannot be done.
func newLeiaScope(src []byte, items []harnItem, res *leiachecker.Result) *leiaScope {
	if res == nil || res.Facts == nil {
		return nil
	}
	sc := &leiaScope{byName: map[string][]int32{}, refs: make([][]int32, len(items)), outside: map[string]bool{}}
	index := map[*semantic.Binding]int32{}
	for _, b := range res.Facts.Bindings {
		if !b.TopLevel || b.Ident == nil {
			continue
		}
		i, ok := itemAt(items, b.Ident.Start)
		if !ok {
			return nil
		}
		n := int32(len(sc.declItem))
		index[b] = n
		sc.byName[b.Name] = append(sc.byName[b.Name], n)
		sc.declItem = append(sc.declItem, int32(i))
	}
	sc.users = make([][]int32, len(sc.declItem))
	for id, b := range res.Facts.Uses {
		n, ok := index[b]
		if !ok {
			continue
		}
		i, ok := itemAt(items, id.Start)
		if !ok {
			return nil
		}
		if it := items[i]; it.isolated && id.Start >= it.bodyStart && id.Start < it.bodyEnd {
			continue
		}
		if !slices.Contains(sc.users[n], int32(i)) {
			sc.users[n] = append(sc.users[n], int32(i))
			sc.refs[i] = append(sc.refs[i], n)
		}
	}
	at := 0
	for _, it := range items {
		if it.bodyStart >= 0 {
			eachWord(src[at:it.bodyStart], func(w []byte) { sc.outside[string(w)] = true })
			at = it.bodyEnd
		}
	}
	eachWord(src[at:], func(w []byte) { sc.outside[string(w)] = true })
	return sc
}

// itemAt returns the index of the item holding offset off.
func itemAt(items []harnItem, off int) (int, bool) {
	i, _ := slices.BinarySearchFunc(items, off, func(it harnItem, off int) int {
		switch {
		case it.end <= off:
			return -1
		case it.start > off:
			return 1
		}
		return 0
	})
	if i < len(items) && items[i].start <= off && off < items[i].end {
		return i, true
	}
	return 0, false
}

// eachWord calls fn with every word (wordByte run) of text.
func eachWord(text []byte, fn func([]byte)) {
	for i := 0; i < len(text); {
		if !wordByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && wordByte(text[j]) {
			j++
		}
		fn(text[i:j])
		i = j
	}
}

// closure returns which items a focused check of item f keeps, fRefs
// being the bindings f's text may use.
func (sc *leiaScope) closure(n, f int, fRefs []int32) []bool {
	keep := make([]bool, n)
	seen := make([]bool, len(sc.declItem))
	queue := []int{f}
	keep[f] = true
	for len(queue) > 0 {
		i := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		refs := sc.refs[i]
		if i == f {
			refs = fRefs
		}
		for _, b := range refs {
			if seen[b] {
				continue
			}
			seen[b] = true
			for _, j := range append([]int32{sc.declItem[b]}, sc.users[b]...) {
				if !keep[j] {
					keep[j] = true
					queue = append(queue, int(j))
				}
			}
		}
	}
	return keep
}

// leiaFocused is the focused check of req's source after an edit inside
// one isolated body of prior's version; false when it does not apply
// (the caller tries the reduced check, then the whole one).
func leiaFocused(req driver.Request, tree *sitter.Tree, prior *leiaPrior) (driver.Result, bool) {
	sc := prior.scope
	src, old := req.Source, prior.src
	root := tree.RootNode()
	if sc == nil || root.HasError() || int(root.NamedChildCount()) != len(prior.items) {
		return driver.Result{}, false
	}
	p, s := tsutil.CommonEnds(old, src)
	oldEnd := len(old) - s
	delta := len(src) - len(old)
	f := isolatedBodyAt(prior.items, p, oldEnd)
	if f < 0 {
		return driver.Result{}, false
	}
	// The top-level statements the check reads are found from the root
	// one by one: listing them all costs a walk of thousands of children.
	var tops []sitter.Node
	top := func(i int, it harnItem) *sitter.Node {
		if tops == nil {
			if n := tsflat.ChildAt(root, uint32(it.start), uint32(it.end), true); n != nil {
				return n
			}
			tops = tsflat.NamedChildren(root, nil)
		}
		return &tops[i]
	}
	// The edited statement: the same function, its body grown by delta,
	// still isolated. Every other statement's text is unchanged, so its
	// item is the earlier one, shifted when after the edit.
	fOld := prior.items[f]
	fNew := fOld
	fNew.end += delta
	fNew.bodyEnd += delta
	node := top(f, fNew)
	fn := leiaFunction(node)
	if fn == nil || int(node.StartByte()) != fNew.start || int(node.EndByte()) != fNew.end {
		return driver.Result{}, false
	}
	body, params := fn.ChildByFieldName("body"), fn.ChildByFieldName("parameters")
	if body == nil || params == nil || body.Kind() != "block" || int(body.StartByte()) != fNew.bodyStart-1 || int(body.EndByte()) != fNew.bodyEnd+1 {
		return driver.Result{}, false
	}
	if _, _, over := tsutil.BracketDepthOver(src, limits.PrescanDepth(0)); over {
		// A fresh check refuses the text before parsing (leiaParsed).
		return driver.Result{}, false
	}
	assigned, plain := leiaPlainBody(src[fNew.bodyStart:fNew.bodyEnd])
	if !plain {
		return driver.Result{}, false
	}
	for _, w := range assigned {
		if !hasWord(src[params.StartByte():params.EndByte()], w) && sc.outside[string(w)] {
			return driver.Result{}, false
		}
	}
	items := make([]harnItem, len(prior.items))
	for i, it := range prior.items {
		if i > f {
			it.start, it.end = it.start+delta, it.end+delta
			if it.bodyStart >= 0 {
				it.bodyStart, it.bodyEnd = it.bodyStart+delta, it.bodyEnd+delta
			}
		}
		items[i] = it
	}
	items[f] = fNew
	linesMoved := bytesCount(old[p:oldEnd], '\n') != bytesCount(src[p:len(src)-s], '\n')
	before, after, ok := keptDiagnostics(prior.diags, req.Path, fOld, delta, linesMoved, func(dg diagnostics.Diagnostic) bool {
		return dg.Path != req.Path || leiaSyntaxCode(dg)
	})
	if !ok {
		return driver.Result{}, false
	}
	// The files the earlier check read must read the same.
	for _, dep := range prior.deps {
		b, err := req.ReadFile(dep.Path)
		if (err != nil) != (dep.SHA256 == "") || err == nil && checkcache.HashBytes(b) != dep.SHA256 {
			return driver.Result{}, false
		}
	}
	var fRefs []int32
	seenWord := map[string]bool{}
	eachWord(src[fNew.start:fNew.end], func(w []byte) {
		if bs, ok := sc.byName[string(w)]; ok && !seenWord[string(w)] {
			seenWord[string(w)] = true
			fRefs = append(fRefs, bs...)
		}
	})
	keep := sc.closure(len(items), f, fRefs)
	var kept []*sitter.Node
	var check []bool
	var hollow [][2]int
	for i := range items {
		if !keep[i] {
			continue
		}
		n := top(i, items[i])
		if int(n.StartByte()) != items[i].start || int(n.EndByte()) != items[i].end {
			return driver.Result{}, false
		}
		kept = append(kept, n)
		check = append(check, i == f)
		if i != f && items[i].isolated {
			hollow = append(hollow, [2]int{items[i].bodyStart - 1, items[i].bodyEnd + 1})
		}
	}
	file, syntax, ok := leiabinding.LoweredTops(req.Path, src, root, kept, check, hollow)
	if !ok {
		return driver.Result{}, false
	}
	res, checked := leiaCheckFacts(req.Path, src, req.ReadFile, nil, &leiachecker.Parsed{File: file, Syntax: syntax})
	for _, dep := range res.Deps {
		if !slices.Contains(prior.deps, dep) {
			return driver.Result{}, false
		}
	}
	var inside []diagnostics.Diagnostic
	for _, dg := range res.Diagnostics {
		if dg.Path != req.Path || leiaSyntaxCode(dg) {
			return driver.Result{}, false
		}
		switch classify(dg.Span, fNew.start, fNew.end) {
		case spanInside:
			if leiaNameCodes[dg.Code] {
				return driver.Result{}, false
			}
			inside = append(inside, dg)
		case spanStraddles:
			return driver.Result{}, false
		}
	}
	merged := append(append(before, inside...), after...)
	out := driver.Result{Diagnostics: merged, Deps: prior.deps}
	if req.Model {
		out.Model = partModel(checked.Facts.Model(), fNew)
	}
	out.Incremental = &leiaPrior{path: req.Path, src: src, items: items, diags: merged, deps: prior.deps, scope: sc}
	incrementalChecks.Add(1)
	focusedChecks.Add(1)
	return out, true
}

func bytesCount(b []byte, c byte) int {
	n := 0
	for _, x := range b {
		if x == c {
			n++
		}
	}
	return n
}
