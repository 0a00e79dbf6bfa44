package frontends

import (
	"bytes"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"

	sitter "github.com/tree-sitter/go-tree-sitter"

	harnchecker "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	harnbinding "github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/grammar/tsflat"
	"github.com/harnlang/harn-check/grammar/tsutil"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/lang/model"
	"github.com/harnlang/harn-check/manifest"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// Incremental Harn checking in the editor.
//
// After an edit inside the body of one top-level function or pipeline, the
// check of the new version re-checks that body with the declarations,
// top-level statements and the bodies its diagnostics can depend on, and
// keeps the previous version's diagnostics everywhere else. What a
// declaration's diagnostics depend on, and why the rest cannot change:
//
//   - The module's names and their types come from the declarations'
//     signatures, which are all kept (only bodies are left out), and from
//     the imports, which must hash as before.
//   - A function's body reaches other declarations only through its
//     signature, unless its result type is inferred (kept: not isolated),
//     it is an evaluation helper (`-> ...Outcome`, kept), or its
//     parameters can receive the LLM capability or a policy (erased,
//     record or generic types: kept). An isolated function has a declared
//     result type and parameters of primitive types only (int, float,
//     string, bool); a pipeline is never called with a typed signature.
//   - A body that names the harness, the LLM capability, an evaluation
//     method, tool_define, or declares types, interfaces, impls or nested
//     functions is not isolated (sites, registries and type scopes).
//   - The one flow a plain body still carries, the LLM capability passed
//     on as a value, only changes the wording of hidden-call diagnostics:
//     a file with any hidden call is checked whole.
//   - A syntax error anywhere changes how certain unresolved names are
//     (Facts.Degraded): the old and the new version must both parse
//     without error.
//   - Only the site messages quote line numbers: when the edit adds or
//     removes lines, a kept message that says "line" forces a whole check.
//
// The edited declaration is checked in a copy of the new text whose
// isolated bodies (other than the edited one) are blanked to spaces, with
// the newlines kept, so every offset, line and column is the same as in
// the new text. Whenever a condition is not met, or the pieces do not fit
// (a diagnostic straddling the edited declaration, one in another file,
// a catalog diagnostic), the whole file is checked. The lsp package's
// TestIncrementalCheckEqualsFresh and FuzzIncrementalCheckEqualsFresh
// compare the result with a fresh check after every random edit.

// incrementalChecks counts the checks answered incrementally.
var incrementalChecks atomic.Int64

// focusedChecks counts the incremental Leia checks that lowered and
// checked only the statements the edit can reach (leiafocus.go).
var focusedChecks atomic.Int64

// FocusedChecks returns how many incremental checks of this process
// checked only the statements an edit can reach: tests read it to see
// that the focused path is taken.
func FocusedChecks() int64 { return focusedChecks.Load() }

// IncrementalChecks returns how many checks this process answered
// incrementally, from an earlier version's check: tests and benchmarks
// read it to see that the incremental path is taken.
func IncrementalChecks() int64 { return incrementalChecks.Load() }

// The earlier checks whose facts an incremental result keeps alive
// (EditedFacts regions) are at most fewFactsOwners, or at most
// maxFactsOwners when those besides the largest hold together no more
// inferred expressions than maxOwnedShare of the largest's or
// minOwnedBudget, whichever is more: past that, the file is checked
// whole. A focused check's facts are those of a few items, so typing in
// one body after another keeps one whole check's facts and many small
// ones.
const (
	fewFactsOwners = 4
	maxFactsOwners = 32
	maxOwnedShare  = 0.5
	minOwnedBudget = 4096
)

// harnPrior is what a Harn check keeps for checking a later version of
// the same document incrementally (driver.Result.Incremental).
type harnPrior struct {
	path        string
	catalogFile string
	limits      limits.Limits
	src         []byte
	items       []harnItem
	// diags are the file's own diagnostics as the checker sorted them,
	// without the manifest's notes.
	diags    []diagnostics.Diagnostic
	ownError bool
	failed   bool
	hidden   bool
	// syntaxError: the version's tree has an error, which makes the
	// check treat unresolved names as uncertain everywhere
	// (Facts.Degraded); no later version is checked from it.
	syntaxError bool
	sources     map[string][]byte
	// closure hashes the modules of the import closure besides the file,
	// reads the other files the check read (harn.toml candidates).
	closure map[string]string
	reads   []checkcache.Dep
	// facts are the version's facts (top) and the regions taken from
	// earlier checks, one per item index (nil: top covers it).
	top     *analysis.Facts
	regions []*itemFacts
	// reduced is the text the incremental check of this version checked
	// (nil after a whole check), reducedTree its syntax tree, from which
	// the next one is reparsed incrementally.
	reduced     []byte
	reducedTree *sitter.Tree
	// scope and tops are the top level as the focused check needs it
	// (harnfocus.go), dirty the items edited since scope was made; nil
	// scope when the whole check that started the line gave none.
	scope *harnScope
	tops  []harnTop
	dirty []int
	// census is the predicate-site manifest of the version's sites, the
	// version's own when it passed, the one it would have otherwise (its
	// manifest is null); admitted is its result's (driver.Result).
	census, admitted []byte
	// sites are the evaluation sites of the version and of its import
	// closure (harnchecker.Result.Sites), their lines and spans the
	// version's (shiftSites).
	sites []*harnchecker.Site
}

// reparse parses text with parse, reusing tree, the tree of old, when
// there is one: the one edit between old and text (their common prefix
// and suffix aside) is applied to a copy of it.
func reparse(parse func([]byte, *sitter.Tree) *sitter.Tree, old []byte, tree *sitter.Tree, text []byte) *sitter.Tree {
	if tree == nil {
		return parse(text, nil)
	}
	p, s := tsutil.CommonEnds(old, text)
	edited := tree.Clone()
	defer edited.Close()
	edited.Edit(&sitter.InputEdit{
		StartByte: uint(p), OldEndByte: uint(len(old) - s), NewEndByte: uint(len(text) - s),
		StartPosition: pointAt(old, p), OldEndPosition: pointAt(old, len(old)-s), NewEndPosition: pointAt(text, len(text)-s),
	})
	return parse(text, edited)
}

// pointAt is the tree-sitter point (row, byte column) of offset off.
func pointAt(src []byte, off int) sitter.Point {
	row := bytes.Count(src[:off], []byte("\n"))
	return sitter.Point{Row: uint(row), Column: uint(off - (bytes.LastIndexByte(src[:off], '\n') + 1))}
}

// itemFacts are the facts of one blanked body: those of an earlier check,
// whose text there starts delta bytes after this version's.
type itemFacts struct {
	facts *analysis.Facts
	delta int
}

// harnItem is one top-level declaration of a version.
type harnItem struct {
	start, end int
	// bodyStart and bodyEnd delimit the interior of the body's braces; -1
	// when the item has none.
	bodyStart, bodyEnd int
	// isolated: a function or pipeline whose body cannot change any other
	// declaration's diagnostics, nor be changed by another body.
	isolated bool
}

// primitiveTypes are the parameter types through which neither the LLM
// capability nor a policy can pass.
var primitiveTypes = map[string]bool{"int": true, "float": true, "string": true, "bool": true}

// harnItems lists the top-level declarations of a tree of src.
func harnItems(root *sitter.Node, src []byte) []harnItem {
	tops := tsflat.NamedChildren(root, nil)
	items := make([]harnItem, 0, len(tops))
	for i := range tops {
		c := &tops[i]
		it := harnItem{start: int(c.StartByte()), end: int(c.EndByte()), bodyStart: -1, bodyEnd: -1}
		d := c
		if c.Kind() == "attributed_declaration" {
			if d = c.ChildByFieldName("declaration"); d == nil {
				d = c
			}
		}
		switch d.Kind() {
		case "function_declaration", "pipeline_declaration":
			body := d.ChildByFieldName("body")
			if body == nil || body.Kind() != "block" {
				break
			}
			bs, be := int(body.StartByte()), int(body.EndByte())
			if be-bs < 2 || src[bs] != '{' || src[be-1] != '}' {
				break
			}
			it.bodyStart, it.bodyEnd = bs+1, be-1
			it.isolated = isolatedSignature(d, src) && plainBody(src[it.bodyStart:it.bodyEnd])
		}
		items = append(items, it)
	}
	return items
}

// isolatedSignature reports whether the declaration d (a function or a
// pipeline) passes nothing between its body and its callers but what its
// signature declares.
func isolatedSignature(d *sitter.Node, src []byte) bool {
	if d.Kind() == "pipeline_declaration" {
		return true
	}
	ret := d.ChildByFieldName("return_type")
	if ret == nil || strings.Contains(ret.Utf8Text(src), "Outcome") || d.ChildByFieldName("type_parameters") != nil {
		return false
	}
	params := d.ChildByFieldName("parameters")
	if params == nil {
		return false
	}
	for i := range int(params.NamedChildCount()) {
		p := params.NamedChild(uint(i))
		if p.Kind() != "parameter" {
			return false
		}
		t := p.ChildByFieldName("type")
		if t == nil || !primitiveTypes[t.Utf8Text(src)] {
			return false
		}
	}
	return true
}

// bodyWords are the words that make a body not isolated: the harness and
// its LLM capability, tool registration, and nested imports and
// pipelines.
var bodyWords = map[string]bool{"harness": true, "llm": true, "tool_define": true, "pipeline": true, "import": true}

// declWords start the declarations of types, interfaces, impls and
// functions, which a body may not hold either; as a word followed by a
// name (`struct Point`, `fn helper(`), not as a record key (`type:`) or
// a closure (`fn(x)`).
var declWords = map[string]bool{"type": true, "struct": true, "enum": true, "interface": true, "impl": true, "fn": true}

// plainBody reports whether a body's text has none of bodyWords, no
// declaration (declWords) and no word starting with "evaluate" (strings
// and comments included: a word there only costs a whole check).
func plainBody(b []byte) bool {
	for i := 0; i < len(b); {
		if !wordByte(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && wordByte(b[j]) {
			j++
		}
		w := string(b[i:j])
		if bodyWords[w] || strings.HasPrefix(w, "evaluate") {
			return false
		}
		if declWords[w] {
			k := j
			for k < len(b) && (b[k] == ' ' || b[k] == '\t') {
				k++
			}
			if k == len(b) || k > j && wordByte(b[k]) && (b[k] < '0' || b[k] > '9') {
				return false
			}
		}
		i = j
	}
	return true
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// harnIncremental checks req's source from prior's check of an earlier
// version when the edit between them is confined to one isolated body,
// and returns false when it cannot (the caller checks the whole file).
func harnIncremental(req driver.Request, tree *sitter.Tree, prior *harnPrior, opts harnchecker.Options) (driver.Result, bool) {
	src := req.Source
	lim := req.Limits.Resolved()
	if prior == nil || prior.path != req.Path || prior.catalogFile != req.CatalogFile || prior.limits != lim ||
		prior.hidden || prior.syntaxError || tree == nil || tree.RootNode().HasError() || req.Lint != nil {
		return driver.Result{}, false
	}
	old := prior.src
	items := harnItems(tree.RootNode(), src)
	e, ok := bodyEditOf(old, src, prior.items, items)
	if !ok {
		return driver.Result{}, false
	}
	f, fOld, fNew, delta, linesMoved := e.f, prior.items[e.f], items[e.f], e.delta, e.linesMoved
	// The previous diagnostics outside the edited declaration, shifted.
	before, after, ok := keptDiagnostics(prior.diags, req.Path, fOld, delta, linesMoved, func(dg diagnostics.Diagnostic) bool {
		return dg.Path != req.Path || strings.HasPrefix(dg.Code, "HARN-CFG")
	})
	if !ok {
		return driver.Result{}, false
	}
	// A body spelling a top-level `var` is neither checked apart from the
	// others nor blanked (see spellsMutable).
	tops, dirty := prior.topsAfter(f, src, fNew)
	if tops == nil || prior.scope.spellsMutable(prior.tops[f].body) || prior.scope.spellsMutable(tops[f].body) {
		return driver.Result{}, false
	}
	blanked := slices.Clone(items)
	for i := range blanked {
		if blanked[i].isolated && prior.scope.spellsMutable(tops[i].body) {
			blanked[i].isolated = false
		}
	}
	// The new text with every other isolated body blanked.
	reduced := blankBodies(src, blanked, f)
	rtree := reparse(harnbinding.ParseTree, prior.reduced, prior.reducedTree, reduced)
	opts.Parsed = harnParsed(req.Path, reduced, rtree, lim)
	res := harnchecker.Check(req.Path, reduced, opts)
	if res.Facts == nil || len(res.Facts.HiddenCalls) > 0 {
		return driver.Result{}, false
	}
	if !sameInputs(req, prior, res) {
		return driver.Result{}, false
	}
	kept, reducedOwnError, ok := editedDiagnostics(res.Diagnostics, req.Path, fNew, nil)
	if !ok {
		return driver.Result{}, false
	}
	merged := append(append(before, kept...), after...)
	failed, ownError, ok := mergedFailed(merged, prior, reducedOwnError, res.Failed)
	if !ok {
		return driver.Result{}, false
	}
	sources, ok := relatedSources(merged, req.Path, res.Sources, prior.sources)
	if !ok {
		return driver.Result{}, false
	}
	// The facts: this check's, and for the blanked bodies the earlier
	// checks' that had them.
	regions, edited, ok := priorRegions(prior, blanked, f, res.Facts, func(it harnItem) (int, int, bool) {
		return it.bodyStart, it.bodyEnd, it.isolated
	})
	if !ok {
		return driver.Result{}, false
	}
	synth := *res
	synth.Diagnostics, synth.Failed, synth.Sources = merged, failed, sources
	out := harnResult(req.Path, src, &synth)
	out.Facts = edited
	out.Model = partModel(res.Facts.Model, fNew)
	next := &harnPrior{path: req.Path, catalogFile: req.CatalogFile, limits: lim, src: src, items: items,
		diags: merged, ownError: ownError, failed: failed, sources: sources,
		closure: prior.closure, reads: prior.reads, top: res.Facts, regions: regions, reduced: reduced, reducedTree: rtree,
		scope: prior.scope, tops: tops, dirty: dirty, census: census(req.Path, src, &synth, out), admitted: out.Admitted, sites: res.Sites}
	if rtree != nil {
		runtime.AddCleanup(next, func(t *sitter.Tree) { t.Close() }, rtree)
	}
	out.Incremental = next
	incrementalChecks.Add(1)
	return out, true
}

// editedDiagnostics returns what a check of part of the text (the edited
// item it and what that needs) reports inside the item, standing for a
// whole check's there, and whether any of the check's diagnostics is an
// error; false when they cannot stand for it: one is another file's, a
// control-flow or parse diagnostic, or straddles the item's bounds, or
// refuse (when set) rejects one inside the item.
func editedDiagnostics(diags []diagnostics.Diagnostic, path string, it harnItem, refuse func(diagnostics.Diagnostic) bool) (inside []diagnostics.Diagnostic, anyError, ok bool) {
	for _, dg := range diags {
		if dg.Path != path || strings.HasPrefix(dg.Code, "HARN-CFG") || strings.HasPrefix(dg.Code, "HARN-PAR") {
			return nil, false, false
		}
		if dg.Severity == diagnostics.Error {
			anyError = true
		}
		switch classify(dg.Span, it.start, it.end) {
		case spanInside:
			if refuse != nil && refuse(dg) {
				return nil, false, false
			}
			inside = append(inside, dg)
		case spanStraddles:
			return nil, false, false
		}
	}
	return inside, anyError, true
}

// Where a span lies against the edited declaration.
const (
	spanBefore = iota
	spanInside
	spanAfter
	spanStraddles
)

// classify places a span against the declaration [start, end). A point
// at either end of it straddles: it could belong to the declaration or to
// its neighbour.
func classify(sp diagnostics.Span, start, end int) int {
	if sp.Start == sp.End && (sp.Start == start || sp.Start == end) {
		return spanStraddles
	}
	switch {
	case sp.End <= start:
		return spanBefore
	case sp.Start >= end:
		return spanAfter
	case sp.Start >= start && sp.End <= end:
		return spanInside
	}
	return spanStraddles
}

// shiftDiagnostic moves a diagnostic of path that lies outside the edited
// declaration [start, end) by delta when it is after it; false when one of
// its related locations or fixes is inside the declaration or straddles
// it.
func shiftDiagnostic(d diagnostics.Diagnostic, path string, start, end, delta int) (diagnostics.Diagnostic, bool) {
	move := func(sp diagnostics.Span) (diagnostics.Span, bool) {
		switch classify(sp, start, end) {
		case spanBefore:
			return sp, true
		case spanAfter:
			return diagnostics.Span{Start: sp.Start + delta, End: sp.End + delta}, true
		}
		return sp, false
	}
	var ok bool
	if d.Span, ok = move(d.Span); !ok {
		return d, false
	}
	if len(d.Related) > 0 {
		rel := make([]diagnostics.Related, len(d.Related))
		copy(rel, d.Related)
		for i := range rel {
			if rel[i].Path != "" && rel[i].Path != path {
				continue
			}
			if rel[i].Span, ok = move(rel[i].Span); !ok {
				return d, false
			}
		}
		d.Related = rel
	}
	if len(d.Fixes) > 0 {
		fixes := make([]diagnostics.Fix, len(d.Fixes))
		copy(fixes, d.Fixes)
		for i := range fixes {
			edits := make([]diagnostics.TextEdit, len(fixes[i].Edits))
			copy(edits, fixes[i].Edits)
			for j := range edits {
				if edits[j].Path != "" && edits[j].Path != path {
					continue
				}
				if edits[j].Span, ok = move(edits[j].Span); !ok {
					return d, false
				}
			}
			fixes[i].Edits = edits
		}
		d.Fixes = fixes
	}
	return d, true
}

// harnPriorOf records what a whole check of the file learnt, for checking
// a later version incrementally.
func harnPriorOf(req driver.Request, tree *sitter.Tree, res *harnchecker.Result, out driver.Result) *harnPrior {
	if tree == nil || res.Facts == nil || req.Session == nil || req.Lint != nil {
		return nil
	}
	pr := &harnPrior{path: req.Path, catalogFile: req.CatalogFile, limits: req.Limits.Resolved(), src: req.Source,
		items: harnItems(tree.RootNode(), req.Source), diags: res.Diagnostics, failed: res.Failed,
		hidden: len(res.Facts.HiddenCalls) > 0, syntaxError: tree.RootNode().HasError(), sources: res.Sources, closure: map[string]string{},
		reads: depsOf(res.Reads), top: res.Facts, census: census(req.Path, req.Source, res, out), admitted: out.Admitted, sites: res.Sites}
	pr.regions = make([]*itemFacts, len(pr.items))
	pr.scope, pr.tops = newHarnScope(tree.RootNode(), req.Source, pr.items)
	for _, d := range res.Diagnostics {
		if d.Severity == diagnostics.Error {
			pr.ownError = true
			break
		}
	}
	self := absPath(req.Path)
	for _, m := range req.Session.Modules() {
		if m.Path != self {
			pr.closure[m.Path] = m.SHA256
		}
	}
	return pr
}

// census returns the manifest of res's sites (out its driver result):
// out's, or when res failed the one FromCheck gives them as if it had
// not.
func census(path string, src []byte, res *harnchecker.Result, out driver.Result) []byte {
	if !res.Failed {
		return out.Manifest
	}
	passed := *res
	passed.Failed = false
	m, _ := manifest.FromCheck(path, src, &passed)
	return m
}

func depsOf(reads []harnchecker.Read) []checkcache.Dep {
	out := make([]checkcache.Dep, 0, len(reads))
	for _, r := range reads {
		dep := checkcache.Dep{Path: r.Path}
		if !r.Missing {
			dep.SHA256 = checkcache.HashBytes(r.Content)
		}
		out = append(out, dep)
	}
	return out
}

func equalDeps(a, b []checkcache.Dep) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// absPath is the path as driver.Session.RecordModule keys modules.
func absPath(p string) string {
	p = filepath.FromSlash(p)
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// partModel marks m, the semantic model of an incremental check of the
// edited item it (the other bodies blanked or left out), as holding for
// that item only (model.Model.Within): the editor keeps the earlier
// model's names elsewhere.
func partModel(m *model.Model, it harnItem) *model.Model {
	if m == nil {
		return nil
	}
	m.Within = &diagnostics.Span{Start: it.start, End: it.end}
	return m
}
