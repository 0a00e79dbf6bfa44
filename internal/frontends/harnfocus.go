package frontends

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	harnchecker "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	harnbinding "github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/grammar/harn/syntaxdiag"
	"github.com/harnlang/harn-check/grammar/tsflat"
	"github.com/harnlang/harn-check/grammar/tsutil"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/manifest"
)

// The focused Harn check: after an edit inside one isolated body (see
// harnedit.go), the check of the new version lowers and checks only the
// top-level items the edited body's diagnostics can depend on, from the
// editor's tree, without parsing any text again; the previous version's
// diagnostics, facts and manifest stand for the rest.
//
// What the edited body can depend on, found by the names it spells:
//
//   - Inference declares every top-level name before it checks anything
//     (functions by signature, types, structs, enums, interfaces, impls
//     by the type they extend, registries, bindings), so a body sees
//     another item only through a name. The check keeps every item that
//     declares a name the edited item spells, then every item declaring
//     a name a kept item spells, to a fixed point (an item's own name
//     does not count: its other declarations come with whatever reaches
//     the name). A kept isolated function or pipeline other than the
//     edited one keeps its signature only: its body reaches no other
//     item.
//   - Of the functions of one name only the last one's body is checked:
//     an edited function keeps every declaration of its name.
//   - A top-level binding (let, var, const) can change type after its
//     declaration: a module-level statement narrows it, and the first
//     assignment of a `var x = nil`, in any body, gives it its type. For
//     every binding kept, the module-level statements spelling its name
//     are kept, and for a `var` every item spelling it, whole. A body
//     that spells a `var` itself could change its type for every other
//     item: it is not checked apart (spellsMutable), nor is it blanked
//     by the reduced check.
//   - Imports and overrides are always kept; comments never (only lint
//     rules read them).
//   - The one rule that reads every name in scope, the undefined-name
//     rule (its suggestions), is not answered here: its diagnostic inside
//     the edited item sends the check to the reduced text, which keeps
//     every declaration.
//   - The sites are the previous version's (no site is in an isolated
//     body), those after the edited item moved by the lines and bytes
//     the edit added; the check requires that nothing but the edited
//     item follows the edit on its line, so no site changes column. The
//     manifest and the admitted sites are the previous version's when
//     no line moved (harnPrior.census: the manifest its sites give, also
//     when it failed), else made again from the moved sites.
//
// Everything left out is as if blanked to spaces: the kept items keep
// their offsets in the new text, which is the text the checker reads.

// Classes of top-level items for the focused check.
const (
	// topStatement: kept when it spells a kept binding's name.
	topStatement uint8 = iota
	// topDecl: kept when it declares a name the kept items spell.
	topDecl
	// topAlways: always kept (imports, overrides, a shebang, a kind the
	// focused check does not know).
	topAlways
	// topComment: never kept.
	topComment
)

// harnTop is what the focused check knows of one top-level item of a
// version: its class and the top-level names it spells (ids of the
// harnScope), outside its body and inside it.
type harnTop struct {
	class     uint8
	sig, body []int32
	// function: a function declaration, whose name decides whether its
	// body is checked (of the declarations of one name, the last one's).
	function bool
}

// harnScope is the top level of the line of versions checked since a
// whole check: the names the items declare, which no edit inside an
// isolated body changes (declarations are outside such bodies).
type harnScope struct {
	index map[string]int32
	// vars marks the names a variable declaration declares, mutable
	// those a `var` declares; defs lists, per name, the items declaring
	// it.
	vars, mutable []bool
	defs          [][]int32
	// users lists, per binding name (vars), the items spelling it, in
	// the version the scope was made from: an item edited since
	// (harnPrior.dirty) is looked at in its own version instead.
	users [][]int32
}

// declNode returns the node of a top-level item that the focused check
// classifies: the declaration under its attributes.
func declNode(n *sitter.Node) *sitter.Node {
	if n.Kind() == "attributed_declaration" {
		if d := n.ChildByFieldName("declaration"); d != nil {
			return d
		}
	}
	return n
}

// newHarnScope records the top level of a version of src (root its tree,
// items its top-level items) for focused checks of later versions; nil
// when the tree does not list the items.
func newHarnScope(root *sitter.Node, src []byte, items []harnItem) (*harnScope, []harnTop) {
	kids := tsflat.NamedChildren(root, nil)
	if len(kids) != len(items) {
		return nil, nil
	}
	sc := &harnScope{index: map[string]int32{}}
	tops := make([]harnTop, len(items))
	def := func(name string, item int, isVar, isMutable bool) {
		if name == "" {
			return
		}
		id, ok := sc.index[name]
		if !ok {
			id = int32(len(sc.defs))
			sc.index[name] = id
			sc.defs = append(sc.defs, nil)
			sc.vars = append(sc.vars, false)
			sc.mutable = append(sc.mutable, false)
		}
		if !slices.Contains(sc.defs[id], int32(item)) {
			sc.defs[id] = append(sc.defs[id], int32(item))
		}
		sc.vars[id] = sc.vars[id] || isVar
		sc.mutable[id] = sc.mutable[id] || isMutable
	}
	text := func(n *sitter.Node) string {
		if n == nil {
			return ""
		}
		return string(src[n.StartByte():n.EndByte()])
	}
	for i := range kids {
		d := declNode(&kids[i])
		switch d.Kind() {
		case "line_comment", "block_comment":
			tops[i].class = topComment
		case "function_declaration", "pipeline_declaration", "tool_declaration", "skill_declaration",
			"eval_pack_declaration", "struct_declaration", "enum_declaration", "type_alias_declaration",
			"interface_declaration":
			tops[i].class = topDecl
			def(text(d.ChildByFieldName("name")), i, false, false)
		case "impl_declaration":
			tops[i].class = topDecl
			def(text(d.ChildByFieldName("type")), i, false, false)
			if body := d.ChildByFieldName("body"); body != nil {
				methods := tsflat.NamedChildren(body, nil)
				for j := range methods {
					def(text(declNode(&methods[j]).ChildByFieldName("name")), i, false, false)
				}
			}
		case "variable_declaration":
			tops[i].class = topDecl
			mutable := text(d.ChildByFieldName("kind")) == "var"
			if p := d.ChildByFieldName("pattern"); p != nil {
				eachWord(src[p.StartByte():p.EndByte()], func(w []byte) { def(string(w), i, true, mutable) })
			}
		case "import_declaration", "override_declaration", "shebang":
			tops[i].class = topAlways
		default:
			if strings.HasSuffix(d.Kind(), "_declaration") {
				tops[i].class = topAlways
			} else {
				tops[i].class = topStatement
			}
		}
	}
	sc.users = make([][]int32, len(sc.defs))
	stamp := make([]int32, len(sc.defs))
	for i, it := range items {
		if tops[i].class == topComment {
			continue
		}
		tops[i].function = declNode(&kids[i]).Kind() == "function_declaration"
		tops[i].sig, tops[i].body = sc.refs(src, it, i, int32(i+1), stamp)
		for _, ids := range [2][]int32{tops[i].sig, tops[i].body} {
			for _, id := range ids {
				if sc.vars[id] && !slices.Contains(sc.users[id], int32(i)) {
					sc.users[id] = append(sc.users[id], int32(i))
				}
			}
		}
	}
	return sc, tops
}

// refs returns the ids of the top-level names item i spells outside its
// body and inside it, each once, but for the names it declares itself
// (its other declarations come with whatever reaches the name); mark is
// a number no other call with the same stamp array uses (nil stamp: a
// fresh one).
func (sc *harnScope) refs(src []byte, it harnItem, i int, mark int32, stamp []int32) (sig, body []int32) {
	if stamp == nil {
		stamp, mark = make([]int32, len(sc.defs)), 1
	}
	// Two marks per item: -mark for the signature, mark for the body, so
	// that a name spelt in both is listed in both.
	scan := func(text []byte, m int32, out *[]int32) {
		eachWord(text, func(w []byte) {
			if id, ok := sc.index[string(w)]; ok && stamp[id] != m {
				stamp[id] = m
				if !slices.Contains(sc.defs[id], int32(i)) {
					*out = append(*out, id)
				}
			}
		})
	}
	if it.bodyStart < 0 {
		scan(src[it.start:it.end], -mark, &sig)
		return sig, nil
	}
	scan(src[it.start:it.bodyStart], -mark, &sig)
	scan(src[it.bodyEnd:it.end], -mark, &sig)
	scan(src[it.bodyStart:it.bodyEnd], mark, &body)
	return sig, body
}

// Ways an item is kept by the focused check.
const (
	keptNot uint8 = iota
	// keptSignature: an isolated function or pipeline, its body hollowed.
	keptSignature
	keptWhole
)

// closure returns how the focused check of item f keeps each item (see
// the comment at the top of the file). tops are the version's, dirty the
// items edited since the scope was made.
func (sc *harnScope) closure(items []harnItem, tops []harnTop, dirty []int, f int) []uint8 {
	keep := make([]uint8, len(items))
	seen := make([]bool, len(sc.defs))
	var queue []int32
	add := func(ids []int32) {
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				queue = append(queue, id)
			}
		}
	}
	mark := func(j int, whole bool) {
		prev := keep[j]
		next := keptWhole
		if !whole && items[j].isolated {
			next = keptSignature
		}
		if next <= prev {
			return
		}
		keep[j] = next
		if prev == keptNot {
			add(tops[j].sig)
		}
		if next == keptWhole {
			add(tops[j].body)
		}
	}
	mark(f, true)
	if tops[f].function {
		for id := range sc.defs {
			if slices.Contains(sc.defs[id], int32(f)) {
				add([]int32{int32(id)})
			}
		}
	}
	for j := range tops {
		if tops[j].class == topAlways {
			mark(j, true)
		}
	}
	for len(queue) > 0 {
		id := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, j := range sc.defs[id] {
			mark(int(j), false)
		}
		if !sc.vars[id] {
			continue
		}
		// A binding's type can change where it is used: any item that
		// uses a `var`, a module-level statement for any binding.
		user := func(j int) bool { return sc.mutable[id] || tops[j].class == topStatement }
		for _, j := range sc.users[id] {
			if !slices.Contains(dirty, int(j)) && user(int(j)) {
				mark(int(j), true)
			}
		}
		for _, j := range dirty {
			if user(j) && (slices.Contains(tops[j].sig, id) || slices.Contains(tops[j].body, id)) {
				mark(j, true)
			}
		}
	}
	return keep
}

// harnFocused is the focused check of req's source after an edit inside
// one isolated body of prior's version; false when it does not apply
// (the caller tries the reduced check, then the whole one).
func harnFocused(req driver.Request, tree *sitter.Tree, prior *harnPrior, opts harnchecker.Options) (driver.Result, bool) {
	sc := prior.scope
	src, old := req.Source, prior.src
	lim := req.Limits.Resolved()
	if sc == nil || req.Lint != nil || prior.path != req.Path || prior.catalogFile != req.CatalogFile || prior.limits != lim || prior.hidden || prior.syntaxError {
		return driver.Result{}, false
	}
	root := tree.RootNode()
	if root.HasError() || int(root.NamedChildCount()) != len(prior.items) {
		return driver.Result{}, false
	}
	p, s := tsutil.CommonEnds(old, src)
	oldEnd, newEnd := len(old)-s, len(src)-s
	delta := len(src) - len(old)
	f := isolatedBodyAt(prior.items, p, oldEnd)
	if f < 0 {
		return driver.Result{}, false
	}
	kids := tsflat.NamedChildren(root, nil)
	if len(kids) != len(prior.items) {
		return driver.Result{}, false
	}
	// The edited item: the same declaration, its body grown by delta,
	// still isolated. Every other item's text is unchanged, so its item is
	// the earlier one, shifted when after the edit.
	fOld := prior.items[f]
	fNew := fOld
	fNew.end += delta
	fNew.bodyEnd += delta
	node := &kids[f]
	d := declNode(node)
	if int(node.StartByte()) != fNew.start || int(node.EndByte()) != fNew.end {
		return driver.Result{}, false
	}
	if body := d.ChildByFieldName("body"); body == nil || body.Kind() != "block" ||
		int(body.StartByte()) != fNew.bodyStart-1 || int(body.EndByte()) != fNew.bodyEnd+1 {
		return driver.Result{}, false
	}
	if !plainBody(src[fNew.bodyStart:fNew.bodyEnd]) {
		return driver.Result{}, false
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
	// No site changes column: the rest of the edit's line is the edited
	// item's (the sites below move by the lines the edit added).
	nextStart := len(src)
	if f+1 < len(items) {
		nextStart = items[f+1].start
	}
	lineDelta := bytes.Count(src[p:newEnd], []byte("\n")) - bytes.Count(old[p:oldEnd], []byte("\n"))
	linesMoved := lineDelta != 0
	if bytes.IndexByte(src[newEnd:nextStart], '\n') < 0 {
		return driver.Result{}, false
	}
	before, after, ok := keptDiagnostics(prior.diags, req.Path, fOld, delta, linesMoved, func(dg diagnostics.Diagnostic) bool {
		return dg.Path != req.Path || strings.HasPrefix(dg.Code, "HARN-CFG") || dg.Code == limits.CodeNesting ||
			strings.HasPrefix(dg.Code, "HARN-PAR") && classify(dg.Span, fOld.start, fOld.end) != spanBefore && classify(dg.Span, fOld.start, fOld.end) != spanAfter
	})
	if !ok {
		return driver.Result{}, false
	}
	tops, dirty := prior.topsAfter(f, src, fNew)
	if tops == nil || sc.spellsMutable(prior.tops[f].body) || sc.spellsMutable(tops[f].body) {
		return driver.Result{}, false
	}
	keep := sc.closure(items, tops, dirty, f)
	var kept []*sitter.Node
	var hollow [][2]int
	for i, k := range keep {
		switch k {
		case keptSignature:
			hollow = append(hollow, [2]int{items[i].bodyStart - 1, items[i].bodyEnd + 1})
			fallthrough
		case keptWhole:
			kept = append(kept, &kids[i])
		}
	}
	// Syntax: the tree has no error, so what the edited item could report
	// is the lexical scan's, of its own text (the other items' are the
	// previous version's, kept).
	if !syntaxdiag.Clean(src, fNew.start, fNew.end) {
		return driver.Result{}, false
	}
	file, ok := harnbinding.LoweredTops(req.Path, src, root, kept, hollow,
		harnbinding.Options{MaxNesting: lim.Nesting, MaxSyntaxErrors: lim.SyntaxErrors})
	if !ok {
		return driver.Result{}, false
	}
	opts.Parsed = &harnchecker.Parsed{File: file}
	res := harnchecker.Check(req.Path, src, opts)
	if res.Facts == nil || len(res.Facts.HiddenCalls) > 0 || !sameInputs(req, prior, res) {
		return driver.Result{}, false
	}
	// An undefined-name diagnostic inside the item can depend on names
	// this check left out (harnNameCodes).
	inside, reducedOwnError, ok := editedDiagnostics(res.Diagnostics, req.Path, fNew, func(dg diagnostics.Diagnostic) bool { return harnNameCodes[dg.Code] })
	if !ok {
		return driver.Result{}, false
	}
	merged := append(append(before, inside...), after...)
	failed, ownError, ok := mergedFailed(merged, prior, reducedOwnError, res.Failed)
	if !ok {
		return driver.Result{}, false
	}
	sources, ok := relatedSources(merged, req.Path, res.Sources, prior.sources)
	if !ok {
		return driver.Result{}, false
	}
	regions, edited, ok := priorRegions(prior, items, f, res.Facts, func(it harnItem) (int, int, bool) { return it.start, it.end, true })
	if !ok {
		return driver.Result{}, false
	}
	// The sites: the previous version's, those after the edited item
	// moved; the manifest they give is the previous one unless lines
	// moved.
	sites := shiftSites(prior.sites, req.Path, fOld.end, delta, lineDelta)
	census, admitted := prior.census, prior.admitted
	if linesMoved {
		withSites := *res
		withSites.Sites, withSites.Failed = sites, false
		census, _ = manifest.FromCheck(req.Path, src, &withSites)
		var err error
		if admitted, err = json.Marshal(manifest.LiteralSites(req.Path, src, &withSites)); err != nil {
			return driver.Result{}, false
		}
	}
	out := driver.Result{Diagnostics: merged, Sources: sources, Facts: edited, Admitted: admitted}
	out.Model = partModel(res.Facts.Model, fNew)
	if len(res.Reads) > 0 {
		out.Deps = depsOf(res.Reads)
	}
	if failed {
		// The manifest is null; its note reads the diagnostics only.
		var notes []diagnostics.Diagnostic
		out.Manifest, notes = manifest.FromCheck(req.Path, src, &harnchecker.Result{Diagnostics: merged, Failed: true})
		out.Diagnostics = append(slices.Clip(out.Diagnostics), notes...)
	} else {
		out.Manifest = census
	}
	out.Incremental = &harnPrior{path: req.Path, catalogFile: req.CatalogFile, limits: lim, src: src, items: items,
		diags: merged, ownError: ownError, failed: failed, sources: sources,
		closure: prior.closure, reads: prior.reads, top: res.Facts, regions: regions,
		scope: sc, tops: tops, dirty: dirty, census: census, admitted: admitted, sites: sites}
	incrementalChecks.Add(1)
	focusedChecks.Add(1)
	return out, true
}

// shiftSites returns the evaluation sites after an edit that moved the
// text of path from offset end on by delta bytes and lineDelta lines (no
// site is on the edit's last line after it): the sites of path from end
// on are copies whose line and span (what the manifest reads of a
// site's place) are so moved, the others the same.
func shiftSites(sites []*harnchecker.Site, path string, end, delta, lineDelta int) []*harnchecker.Site {
	if delta == 0 && lineDelta == 0 {
		return sites
	}
	out := slices.Clone(sites)
	for i, st := range out {
		if st.Source != path || st.Span.Start < end {
			continue
		}
		moved := *st
		moved.Line += lineDelta
		moved.Span = ast.Span{Start: st.Span.Start + delta, End: st.Span.End + delta}
		out[i] = &moved
	}
	return out
}

// spellsMutable reports whether ids, the names a body spells, hold a
// `var` binding of the top level: a body assigning one can change its
// type for every other item (a `var x = nil` takes the type of its first
// assignment), so such a body is not checked apart from the others.
func (sc *harnScope) spellsMutable(ids []int32) bool {
	for _, id := range ids {
		if sc.mutable[id] {
			return true
		}
	}
	return false
}

// harnNameCodes are the undefined-name rule's codes: such a diagnostic in
// the edited item can depend on every name in scope (its suggestion).
var harnNameCodes = map[string]bool{"HARN-NAM-001": true, "HARN-NAM-002": true}

// topsAfter returns the focused check's view of the items after an edit
// inside item f's body (fNew its new extent in src): prior's, with f's
// names read again, and the items edited since the scope was made.
func (prior *harnPrior) topsAfter(f int, src []byte, fNew harnItem) ([]harnTop, []int) {
	if prior.scope == nil || len(prior.tops) != len(prior.items) {
		return nil, nil
	}
	tops := slices.Clone(prior.tops)
	tops[f].sig, tops[f].body = prior.scope.refs(src, fNew, f, 0, nil)
	dirty := prior.dirty
	if !slices.Contains(dirty, f) {
		dirty = append(slices.Clip(dirty), f)
	}
	return tops, dirty
}

// sameInputs reports whether a check of a later version read the same
// imports and other files as prior's.
func sameInputs(req driver.Request, prior *harnPrior, res *harnchecker.Result) bool {
	if req.Session != nil {
		self := absPath(req.Path)
		n := 0
		for _, m := range req.Session.Modules() {
			if m.Path == self {
				continue
			}
			if sha, ok := prior.closure[m.Path]; !ok || sha != m.SHA256 {
				return false
			}
			n++
		}
		if n != len(prior.closure) {
			return false
		}
	}
	return equalDeps(depsOf(res.Reads), prior.reads)
}

// mergedFailed returns whether the merged diagnostics of an incremental
// check make the file fail, and whether it has errors of its own; false
// when that cannot be told from the pieces (the earlier version had
// errors and so has the re-checked part, which may owe its failure to
// them).
func mergedFailed(merged []diagnostics.Diagnostic, prior *harnPrior, reducedOwnError, reducedFailed bool) (failed, ownError, ok bool) {
	for _, dg := range merged {
		if dg.Severity == diagnostics.Error {
			ownError = true
			break
		}
	}
	switch {
	case ownError:
		return true, true, true
	case !prior.ownError:
		return prior.failed, false, true
	case !reducedOwnError:
		return reducedFailed, false, true
	}
	return false, false, false
}

// relatedSources collects the imported files the merged diagnostics
// point into, from this check's or the earlier one's; false when one is
// in neither.
func relatedSources(merged []diagnostics.Diagnostic, path string, now, before map[string][]byte) (map[string][]byte, bool) {
	sources := map[string][]byte{}
	for _, dg := range merged {
		for _, r := range dg.Related {
			if r.Path == "" || r.Path == path {
				continue
			}
			if b, ok := now[r.Path]; ok {
				sources[r.Path] = b
			} else if b, ok := before[r.Path]; ok {
				sources[r.Path] = b
			} else {
				return nil, false
			}
		}
	}
	return sources, true
}

// priorRegions gives the items but f for which span says so the facts of
// the check that last had their text (prior's regions, or prior's own
// facts), over the span it returns, and makes the version's EditedFacts
// with top for the rest; false past the bound on the checks it keeps
// alive (fewFactsOwners).
func priorRegions(prior *harnPrior, items []harnItem, f int, top *analysis.Facts, span func(harnItem) (int, int, bool)) ([]*itemFacts, *harnchecker.EditedFacts, bool) {
	regions := make([]*itemFacts, len(items))
	owners := map[*analysis.Facts]bool{top: true}
	edited := &harnchecker.EditedFacts{Facts: top}
	for i, it := range items {
		start, end, ok := span(it)
		if i == f || !ok {
			continue
		}
		o := prior.items[i]
		r := prior.regions[i]
		if r == nil {
			r = &itemFacts{facts: prior.top}
		}
		regions[i] = &itemFacts{facts: r.facts, delta: r.delta + o.start - it.start}
		owners[r.facts] = true
		edited.Regions = append(edited.Regions, harnchecker.FactsRegion{Start: start, End: end, Facts: r.facts, Delta: regions[i].delta})
	}
	if len(owners) <= fewFactsOwners {
		return regions, edited, true
	}
	if len(owners) > maxFactsOwners {
		return nil, nil, false
	}
	largest, all := 0, 0
	for o := range owners {
		largest, all = max(largest, len(o.Types)), all+len(o.Types)
	}
	if float64(all-largest) > max(maxOwnedShare*float64(largest), minOwnedBudget) {
		return nil, nil, false
	}
	return regions, edited, true
}
