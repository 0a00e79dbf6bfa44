package harn

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/infer"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/lang/harn/imports"
	"github.com/harnlang/harn-check/lang/harn/types"
)

// Result is the outcome of checking one file.
type Result struct {
	// Diagnostics are about the checked file, sorted.
	Diagnostics []diagnostics.Diagnostic
	// Sites are the evaluation sites of the file and of its import
	// closure, in module then source order.
	Sites []*Site
	// Sources holds the imported files that diagnostics point into.
	Sources map[string][]byte
	// Failed is set when the file or any module of its import closure has
	// an error (or an import failed): the site census is incomplete.
	Failed bool
	// File is the checked file's syntax tree; Facts its inference facts.
	// Both are nil when the check ran in a shared Graph (a run keeps only
	// what importers need of each module).
	File  *ast.File
	Facts *analysis.Facts
	// Reads lists the files besides modules that the check read or looked
	// for through the Loader (the harn.toml candidates, walking up from
	// the file), in order, so a cache can tell when the result is stale.
	// The modules of the import closure are listed by Imports.
	Reads []Read

	root *moduleCheck
	memo *runMemo
}

// Read is one file the check depended on.
type Read struct {
	Path string
	// Content is what was read; nil with Missing set when the file did
	// not exist (its absence mattered too).
	Content []byte
	Missing bool
}

// Imports lists every module of the file's import closure except the file
// itself (missing ones marked), in the order a depth-first walk of the
// imports first reaches them. It is computed on demand: a run checking
// every file of a long import chain never builds these lists.
func (r *Result) Imports() []Read {
	if r.root == nil {
		return nil
	}
	var out []Read
	seen := map[string]bool{r.root.path: true}
	stack := []string{r.root.path}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f := r.memo.file(p)
		if f == nil || f.parsed == nil {
			continue
		}
		ts := f.parsed.targets
		for i := len(ts) - 1; i >= 0; i-- {
			t := ts[i]
			if seen[t] {
				continue
			}
			seen[t] = true
			tf := r.memo.file(t)
			if tf == nil || tf.err != nil {
				out = append(out, Read{Path: t, Missing: true})
				continue
			}
			out = append(out, Read{Path: t, Content: tf.src})
			stack = append(stack, t)
		}
	}
	// The stack visits the last pushed first; order reads as found by a
	// walk that takes imports in source order.
	return dfsOrder(r, out)
}

// dfsOrder sorts reads into the preorder of a walk over imports in
// source order.
func dfsOrder(r *Result, reads []Read) []Read {
	pos := map[string]int{}
	n := 0
	seen := map[string]bool{r.root.path: true}
	var stack []string
	stack = append(stack, r.root.path)
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f := r.memo.file(p)
		if f == nil || f.parsed == nil {
			continue
		}
		ts := f.parsed.targets
		var next []string
		for _, t := range ts {
			if !seen[t] {
				seen[t] = true
				pos[t] = n
				n++
				next = append(next, t)
			}
		}
		for i := len(next) - 1; i >= 0; i-- {
			stack = append(stack, next[i])
		}
	}
	sort.SliceStable(reads, func(i, j int) bool { return pos[reads[i].Path] < pos[reads[j].Path] })
	return reads
}

// Content returns the content of a module of the check's closure.
func (r *Result) Content(path string) ([]byte, bool) {
	if r.memo == nil {
		return nil, false
	}
	f := r.memo.file(path)
	if f == nil || f.err != nil {
		return nil, false
	}
	return f.src, true
}

// Graph is the module graph of one run: the checks of many files share it,
// so that each module is read, parsed and checked once, however many of
// them import it, and an import chain or cycle costs time linear in its
// length. Modules are loaded without recursion; the import graph's
// strongly connected components (import cycles) are found with Tarjan's
// algorithm, and modules are checked dependencies first.
//
// Within an import cycle, members are checked in path order: a member sees
// the exports of the members before it and treats imports of the members
// after it as unresolved (checking degrades, as for any import whose
// module could not be checked). Every file of the cycle therefore gets
// the same result whichever file a run checks first, which keeps parallel
// runs deterministic.
//
// A Graph assumes the files it reads do not change while it is used. It is
// safe for concurrent use.
type Graph struct {
	memo *runMemo
	// single marks a graph made for one check (NewSingleCheckGraph).
	single bool
}

// NewGraph returns an empty graph. record, when not nil, is told about
// every module the graph loads: its path, content hash ("" when it does
// not exist or cannot be read) and the paths it imports (see
// checkcache.Module).
func NewGraph(record func(path, sha string, imports []string)) *Graph {
	return &Graph{memo: newRunMemo(record)}
}

// NewSingleCheckGraph returns an empty graph for one check, which records
// the modules it loads like NewGraph's and, like a check without a graph,
// returns the checked file's syntax tree and facts (an editor's check of
// one buffer version, whose features read them).
func NewSingleCheckGraph(record func(path, sha string, imports []string)) *Graph {
	return &Graph{memo: newRunMemo(record), single: true}
}

// Check checks the file at path with content src.
func Check(path string, src []byte, opts Options) *Result {
	g := opts.Graph
	private := g == nil || g.single
	if g == nil {
		g = NewGraph(nil)
	}
	return g.check(path, src, opts, private)
}

// runMemo is a graph's state.
type runMemo struct {
	record func(path, sha string, imports []string)

	mu    sync.Mutex
	files map[string]*loadedFile
	// comp is the import-graph component of each module loaded so far;
	// order numbers components in the order Tarjan's algorithm completes
	// them, every component after the ones it imports.
	comp map[string]*component
	next int
	// checks are component checks under a catalog and rule set.
	checks map[compKey]*compCheck
	// catalogs are the catalogs found walking up from a directory.
	catalogs map[string]*catalogFind
	// modules counts the modules loaded.
	modules int
}

func newRunMemo(record func(path, sha string, imports []string)) *runMemo {
	return &runMemo{record: record, files: map[string]*loadedFile{}, comp: map[string]*component{},
		checks: map[compKey]*compCheck{}, catalogs: map[string]*catalogFind{}}
}

// loadedFile is one module read and parsed.
type loadedFile struct {
	once   sync.Once
	path   string
	src    []byte
	err    error // the read failed
	parsed *parsedModule
}

// parsedModule is a module's syntax tree and its resolved imports.
type parsedModule struct {
	// mu guards file, which a graph shared by a run drops once the
	// module is checked (see release).
	mu      sync.Mutex
	file    *ast.File
	limits  limits.Limits
	imports []*ast.Import
	syntax  []diagnostics.Diagnostic
	// targets are the distinct module paths the module imports, in
	// source order.
	targets []string
}

// tree returns the module's syntax tree: the one parsed at load, or, once
// released, a new parse of src (a module checked again under another
// catalog or rule set; the tree is not kept).
func (pm *parsedModule) tree(path string, src []byte) *ast.File {
	pm.mu.Lock()
	file := pm.file
	pm.mu.Unlock()
	if file != nil {
		return file
	}
	file, _ = binding.ParseWith(path, src, binding.Options{MaxNesting: pm.limits.Nesting, MaxSyntaxErrors: pm.limits.SyntaxErrors})
	return file
}

// release drops the syntax tree. A run's shared graph keeps, of each
// checked module, only what its importers need (exports, sites,
// diagnostics, import declarations); the tree of every module held until
// the end of the run was half of a run's memory, about 50 KB a module.
func (pm *parsedModule) release() {
	pm.mu.Lock()
	pm.file = nil
	pm.mu.Unlock()
}

// component is a strongly connected component of the import graph: one
// module, or the modules of an import cycle.
type component struct {
	// keys are the check keys made for the component (see Forget).
	keys    []compKey
	members []string // sorted
	index   map[string]int
	order   int
	// exits are the components its members import.
	exits []*component
	// chain is the number of components on the longest import chain
	// starting here.
	chain int
}

// compKey names the check of a component under a catalog and rule set.
type compKey struct {
	comp           *component
	catalog, rules string
}

// compCheck is the check of one component: its members checked in path
// order, then what its closure holds.
type compCheck struct {
	once    sync.Once
	done    atomic.Bool
	members map[string]*moduleCheck
	// closureFailed is set when a member or a module the component
	// reaches failed; closureSites when any of them has sites.
	closureFailed, closureSites bool
}

// moduleCheck is the check of one module.
type moduleCheck struct {
	path    string
	src     []byte
	exports *infer.Exports
	diags   []diagnostics.Diagnostic
	sites   []*Site
	failed  bool
	file    *ast.File
	facts   *analysis.Facts
	// imports are the checks of the modules this one resolved, in
	// source order.
	imports []*moduleCheck
	// cause is the first error of this module that is not about an
	// import, or the cause of the first failing import: what a
	// HARN-MOD-007 about this module names.
	cause *rootCause
	// cc is the check of the module's component.
	cc *compCheck
}

// rootCause is an error a chain of failing imports leads to.
type rootCause struct {
	path string
	diag diagnostics.Diagnostic
	// hops is how many imports away from the module the error is.
	hops int
}

// catalogFind is the catalog for files in one directory.
type catalogFind struct {
	once  sync.Once
	cat   *catalog.Catalog
	id    string
	diag  *diagnostics.Diagnostic
	reads []Read
}

func (m *runMemo) file(p string) *loadedFile {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.files[p]
}

// load returns the module at p read through loader (or src, for the
// checked file itself) and parsed, once per graph.
func (m *runMemo) load(p string, src []byte, haveSrc bool, loader Loader, opts Options) *loadedFile {
	m.mu.Lock()
	f := m.files[p]
	if f == nil {
		f = &loadedFile{path: p}
		m.files[p] = f
	}
	m.mu.Unlock()
	f.once.Do(func() {
		switch {
		case haveSrc:
			f.src = src
		case loader == nil:
			f.err = fs.ErrNotExist
		default:
			if f.err = imports.CheckTarget(p); f.err == nil {
				f.src, f.err = loader.ReadFile(p)
			}
		}
		if f.err != nil {
			if m.record != nil {
				m.record(p, "", nil)
			}
			return
		}
		pm := &parsedModule{}
		if pre := opts.Parsed; pre != nil && haveSrc {
			pm.file, pm.syntax = pre.File, pre.Syntax
		} else {
			pm.file, pm.syntax = binding.ParseWith(p, f.src, binding.Options{MaxNesting: opts.Limits.Nesting, MaxSyntaxErrors: opts.Limits.SyntaxErrors})
		}
		pm.limits = opts.Limits
		pm.imports = pm.file.Imports()
		seen := map[string]bool{}
		for _, im := range pm.imports {
			if t, ok := importTarget(p, im); ok && !seen[t] {
				seen[t] = true
				pm.targets = append(pm.targets, t)
			}
		}
		f.parsed = pm
		if m.record != nil {
			sum := sha256.Sum256(f.src)
			m.record(p, hex.EncodeToString(sum[:]), pm.targets)
		}
	})
	return f
}

// importTarget resolves a relative import of the module at p to the path
// of the module it names; std/ and package imports resolve to nothing.
func importTarget(p string, im *ast.Import) (string, bool) {
	spec, ok := importSpec(im)
	if !ok {
		return "", false
	}
	return ResolveImport(p, spec)
}

// importSpec is the quoted module of an import, false for none.
func importSpec(im *ast.Import) (string, bool) {
	if im.Source == nil {
		return "", false
	}
	return im.Source.Value()
}

// check checks the file at path. private is set for a graph of this check
// alone, whose root keeps its syntax tree and facts.
func (g *Graph) check(path string, src []byte, opts Options, private bool) *Result {
	m := g.memo
	opts.Limits = opts.Limits.Resolved()
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.Model {
		opts.modelFor = path
	}
	root := m.load(path, src, true, opts.Loader, opts)
	if !private && (root.err != nil || !sameContent(root.src, src)) {
		// The graph holds other content for this path (an editor's
		// buffer beside the file on disk): check it on its own.
		opts.Graph = nil
		return Check(path, src, opts)
	}
	cf := m.catalogFor(path, opts)
	res := &Result{Sources: map[string][]byte{}, memo: m, Reads: cf.reads}
	fail := func(code string, span diagnostics.Span, msg, help string) *Result {
		d := diagnostics.New(path, diagnostics.SourceType, code, span, msg)
		d.Help = help
		res.Diagnostics = []diagnostics.Diagnostic{d}
		res.Failed = true
		return res
	}
	comp, ok := m.components(path, opts)
	if !ok {
		return fail(limits.CodeModules, firstImportSpan(root),
			fmt.Sprintf("the imports of this run reach more than %d modules, the limit for one run: this file was not checked", opts.Limits.Modules),
			fmt.Sprintf("check the project in parts, or raise the limit with --%s", limits.FlagModules))
	}
	if comp.chain > opts.Limits.ImportDepth {
		return fail(limits.CodeImportDepth, firstImportSpan(root),
			fmt.Sprintf("the imports from here form a chain of %d modules, more than the limit of %d: the file was not checked", comp.chain, opts.Limits.ImportDepth),
			fmt.Sprintf("shorten the chain, or raise the limit with --%s", limits.FlagImportDepth))
	}
	key := compKey{catalog: cf.id, rules: rulesID(opts.Rules)}
	// The components to check, dependencies first: those reachable from
	// the file's component not yet checked under this catalog.
	var todo []*component
	seen := map[*component]bool{comp: true}
	stack := []*component{comp}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if m.checked(c, key) {
			continue
		}
		todo = append(todo, c)
		for _, e := range c.exits {
			if !seen[e] {
				seen[e] = true
				stack = append(stack, e)
			}
		}
	}
	sort.Slice(todo, func(i, j int) bool { return todo[i].order < todo[j].order })
	for _, c := range todo {
		if ctx.Err() != nil {
			res.Failed = true
			return res
		}
		m.checkComponent(c, key, cf.cat, opts)
	}
	key.comp = comp
	cc := m.compCheckOf(key)
	rc := cc.members[path]
	res.root = rc
	res.Diagnostics = append([]diagnostics.Diagnostic(nil), rc.diags...)
	if cf.diag != nil {
		res.Diagnostics = append(res.Diagnostics, *cf.diag)
	}
	if private {
		res.File, res.Facts = rc.file, rc.facts
	}
	res.Failed = cc.closureFailed
	if cc.closureSites {
		res.Sites = closureSites(rc)
	}
	for _, d := range res.Diagnostics {
		for _, r := range d.Related {
			if r.Path != "" && r.Path != path {
				if f := m.file(r.Path); f != nil && f.err == nil {
					res.Sources[r.Path] = f.src
				}
			}
		}
	}
	diagnostics.Sort(res.Diagnostics)
	return res
}

func sameContent(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0] || string(a) == string(b))
}

// rulesID names a rule set in check keys.
func rulesID(rules []*analysis.Rule) string {
	if rules == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("rules:")
	for _, r := range rules {
		fmt.Fprintf(&b, "%s,", r.Name)
	}
	return b.String()
}

// catalogFor returns the catalog of files in path's directory: opts.Catalog,
// the file opts.CatalogFile names, or the defaults extended by the nearest
// harn.toml walking up (package catalog reads both through the Loader).
func (m *runMemo) catalogFor(path string, opts Options) *catalogFind {
	if opts.Catalog != nil {
		return &catalogFind{cat: opts.Catalog, id: fmt.Sprintf("given:%p", opts.Catalog)}
	}
	dir := filepath.Dir(path)
	if _, ok := opts.Loader.(OSLoader); ok {
		// Walk up from the real directory, past the working directory.
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
	}
	key := dir
	if opts.CatalogFile != "" {
		key = "file:" + opts.CatalogFile
	}
	m.mu.Lock()
	cf := m.catalogs[key]
	if cf == nil {
		cf = &catalogFind{}
		m.catalogs[key] = cf
	}
	m.mu.Unlock()
	cf.once.Do(func() {
		cf.cat, cf.id = catalog.Default(), "default"
		if opts.Loader == nil {
			return
		}
		var cat *catalog.Catalog
		var proj catalog.Project
		var err error
		if opts.CatalogFile != "" {
			cat, proj, err = catalog.Load(opts.Loader, opts.CatalogFile)
		} else {
			cat, proj, err = catalog.Find(opts.Loader, dir)
		}
		for _, p := range proj.Probes {
			cf.reads = append(cf.reads, Read{Path: p.Path, Content: p.Content, Missing: p.Missing})
		}
		var inv *catalog.Invalid
		if errors.As(err, &inv) {
			// The one diagnostic; no route is checked against a
			// catalog that cannot be read (run refuses it too).
			diag := inv.Diagnostic(path)
			cf.cat, cf.diag, cf.id = nil, &diag, "broken:"+proj.Path
			return
		}
		cf.cat, cf.id = cat, proj.ID()
	})
	if cf.diag != nil {
		// The diagnostic is about the checked file.
		d := *cf.diag
		d.Path = path
		return &catalogFind{cat: cf.cat, id: cf.id, diag: &d, reads: cf.reads}
	}
	return cf
}

// components loads every module path reaches that the graph has not
// loaded yet, assigns each new one its import-graph component (Tarjan's
// algorithm on an explicit stack, so a chain of any length costs no
// recursion) and returns the component of path. Modules already assigned
// are not walked again: every module they reach was assigned with them.
// ok is false when the graph would hold more modules than the limit.
func (m *runMemo) components(path string, opts Options) (root *component, ok bool) {
	if c := m.compOf(path); c != nil {
		return c, true
	}
	type node struct {
		index, low int
		next       int
		onStack    bool
		targets    []string
	}
	nodes := map[string]*node{}
	var stack, call []string
	index := 0
	visit := func(p string) bool {
		f := m.load(p, nil, false, opts.Loader, opts)
		m.mu.Lock()
		m.modules++
		over := m.modules > opts.Limits.Modules
		m.mu.Unlock()
		if over {
			return false
		}
		n := &node{index: index, low: index, onStack: true}
		if f.parsed != nil {
			n.targets = f.parsed.targets
		}
		index++
		nodes[p] = n
		stack = append(stack, p)
		call = append(call, p)
		return true
	}
	if !visit(path) {
		return nil, false
	}
	for len(call) > 0 {
		p := call[len(call)-1]
		n := nodes[p]
		if n.next < len(n.targets) {
			t := n.targets[n.next]
			n.next++
			if w, seen := nodes[t]; seen {
				if w.onStack {
					n.low = min(n.low, w.index)
				}
				continue
			}
			if m.compOf(t) != nil {
				continue // assigned by an earlier walk
			}
			if !visit(t) {
				return nil, false
			}
			continue
		}
		call = call[:len(call)-1]
		if len(call) > 0 {
			parent := nodes[call[len(call)-1]]
			parent.low = min(parent.low, n.low)
		}
		if n.low != n.index {
			continue
		}
		var members []string
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			nodes[w].onStack = false
			members = append(members, w)
			if w == p {
				break
			}
		}
		m.assign(members)
	}
	return m.compOf(path), true
}

func (m *runMemo) compOf(p string) *component {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.comp[p]
}

// assign makes members, a component Tarjan's algorithm completed, a
// component of the graph, unless a concurrent walk assigned them first
// (it found the same component: components do not depend on where a walk
// starts).
func (m *runMemo) assign(members []string) {
	slices.Sort(members)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.comp[members[0]] != nil {
		return
	}
	c := &component{members: members, index: map[string]int{}, order: m.next, chain: 1}
	m.next++
	exits := map[*component]bool{}
	for i, w := range members {
		c.index[w] = i
		m.comp[w] = c
	}
	for _, w := range members {
		f := m.files[w]
		if f == nil || f.parsed == nil {
			continue
		}
		for _, t := range f.parsed.targets {
			if e := m.comp[t]; e != nil && e != c && !exits[e] {
				exits[e] = true
				c.exits = append(c.exits, e)
				c.chain = max(c.chain, e.chain+1)
			}
		}
	}
	sort.Slice(c.exits, func(i, j int) bool { return c.exits[i].order < c.exits[j].order })
}

// checked reports whether the component's check under key is done.
func (m *runMemo) checked(c *component, key compKey) bool {
	key.comp = c
	return m.compCheckOf(key).done.Load()
}

func (m *runMemo) compCheckOf(key compKey) *compCheck {
	m.mu.Lock()
	defer m.mu.Unlock()
	cc := m.checks[key]
	if cc == nil {
		cc = &compCheck{}
		m.checks[key] = cc
		if key.comp != nil {
			key.comp.keys = append(key.comp.keys, key)
		}
	}
	return cc
}

// Forget drops what the graph keeps of the module at path, when it is a
// component of its own: a run calls it for a file no file of the run
// imports, once that file is reported, so that the graph holds only what
// importers can still ask for (without it a run kept about 27 KB for every
// file it checked). If something imports the module after all, it is read
// and checked again.
func (g *Graph) Forget(path string) {
	m := g.memo
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.comp[path]
	if c == nil || len(c.members) != 1 {
		return
	}
	delete(m.comp, path)
	delete(m.files, path)
	for _, k := range c.keys {
		delete(m.checks, k)
	}
	c.keys = nil
}

// ResolveImport returns the module path an import of spec in the module at
// p names, and false for an import that names no module file
// (std/predicate, a package name, or a file that is not a Harn module,
// which is never read: see imports.File).
func ResolveImport(p, spec string) (string, bool) {
	if spec == stdlib.PredicateModule || !imports.Relative(spec) {
		return "", false
	}
	target, module := imports.File(p, spec)
	if !module {
		return "", false
	}
	return filepath.ToSlash(target), true
}

// checkComponent checks the members of c in path order, once per key, and
// then what the component's closure holds. The components c imports are
// checked before it (callers go in component order).
func (m *runMemo) checkComponent(c *component, key compKey, cat *catalog.Catalog, opts Options) *compCheck {
	key.comp = c
	cc := m.compCheckOf(key)
	cc.once.Do(func() {
		cc.members = map[string]*moduleCheck{}
		for _, p := range c.members {
			mc := &moduleCheck{path: p, cc: cc}
			m.checkModule(mc, c, cc, key, cat, opts)
			cc.members[p] = mc
		}
		for _, p := range c.members {
			mc := cc.members[p]
			cc.closureFailed = cc.closureFailed || mc.failed
			cc.closureSites = cc.closureSites || len(mc.sites) > 0
		}
		for _, e := range c.exits {
			ec := m.checkComponent(e, key, cat, opts) // checked before c: returns at once
			cc.closureFailed = cc.closureFailed || ec.closureFailed
			cc.closureSites = cc.closureSites || ec.closureSites
		}
		cc.done.Store(true)
	})
	return cc
}

// moduleCheckOf returns the check of the module at p under key, whose
// component is checked.
func (m *runMemo) moduleCheckOf(p string, key compKey) *moduleCheck {
	c := m.compOf(p)
	if c == nil {
		return nil
	}
	key.comp = c
	cc := m.compCheckOf(key)
	return cc.members[p]
}

// checkModule checks one module: its imports outside its component, and
// inside it before it in path order, are checked.
func (m *runMemo) checkModule(mc *moduleCheck, c *component, cc *compCheck, key compKey, cat *catalog.Catalog, opts Options) {
	f := m.file(mc.path)
	p := mc.path
	if f == nil || f.parsed == nil {
		// A module that could not be read is reported by its importers.
		return
	}
	mc.src = f.src
	file, syn := f.parsed.tree(p, f.src), f.parsed.syntax
	mc.file = file
	mc.diags = append(mc.diags, syn...)
	mod := &module{path: p, file: file}

	resolved := map[string]*infer.Exports{}
	var importCauses []*rootCause
	for _, im := range file.Imports() {
		target, ok := importTarget(p, im)
		if !ok {
			if spec, isStr := importSpec(im); isStr && imports.Relative(spec) {
				if other, module := imports.File(p, spec); !module {
					d := diagnostics.New(p, diagnostics.SourceType, "HARN-MOD-001", analysis.Span(im.Source.Span), "import "+spec+" does not resolve: "+imports.NotModule(other))
					d.Help = "import a Harn module (a .harn file, or a path without an extension)"
					mc.diags = append(mc.diags, d)
					mc.failed = true
				}
			}
			continue
		}
		spec, _ := im.Source.Value()
		if i, in := c.index[target]; in && i >= c.index[p] {
			continue // later in its import cycle: treated as unresolved
		}
		tf := m.file(target)
		if tf == nil || tf.err != nil {
			err := fs.ErrNotExist
			if tf != nil {
				err = tf.err
			}
			why := "it cannot be read: " + sourcefs.Reason(err)
			if errors.Is(err, fs.ErrNotExist) {
				why = "no file " + target + " exists"
			}
			d := diagnostics.New(p, diagnostics.SourceType, "HARN-MOD-001", analysis.Span(im.Source.Span), "import "+spec+" does not resolve: "+why)
			d.Help = "fix the path (relative to this file, .harn appended) or create the module"
			mc.diags = append(mc.diags, d)
			mc.failed = true
			continue
		}
		var sub *moduleCheck
		if _, in := c.index[target]; in {
			sub = cc.members[target]
		} else {
			sub = m.moduleCheckOf(target, key)
		}
		if sub == nil {
			continue
		}
		mc.imports = append(mc.imports, sub)
		if sub.cause != nil {
			d := diagnostics.New(p, diagnostics.SourceType, "HARN-MOD-007", analysis.Span(im.Source.Span), mod007Message(spec, target, sub.cause))
			d.Related = []diagnostics.Related{{Path: sub.cause.path, Span: sub.cause.diag.Span, Message: truncateMessage(sub.cause.diag.Message)}}
			d.Help = "run harn-check on " + sub.cause.path + " and fix its errors"
			mc.diags = append(mc.diags, d)
			mc.failed = true
			importCauses = append(importCauses, &rootCause{path: sub.cause.path, diag: sub.cause.diag, hops: sub.cause.hops + 1})
		}
		resolved[spec] = sub.exports
		missingNames(mod, im, spec, target, &module{path: target, exports: sub.exports, file: sub.file})
	}
	for _, im := range file.Imports() {
		if im.Source == nil {
			continue
		}
		if spec, ok := im.Source.Value(); ok && spec == stdlib.PredicateModule {
			pred := stdlib.Predicate()
			ex := &infer.Exports{Values: map[string]types.Type{}, Types: map[string]types.Type{}}
			for n, f := range pred.Functions {
				ex.Values[n] = f
			}
			for n, a := range pred.Types {
				ex.Types[n] = a
			}
			missingNames(mod, im, spec, "", &module{exports: ex})
		}
	}
	mc.diags = append(mc.diags, mod.diags...)

	facts, exports := infer.Check(file, infer.Config{
		Path:   p,
		Src:    f.src,
		Limits: opts.Limits,
		Model:  opts.modelFor != "" && p == opts.modelFor,
		Resolve: func(spec string) (*infer.Exports, bool) {
			ex, ok := resolved[spec]
			return ex, ok && ex != nil
		},
	})
	mc.exports, mc.facts, mc.sites = exports, facts, facts.Sites
	for _, hit := range facts.LimitHits {
		d := diagnostics.New(p, diagnostics.SourceType, hit.Code, analysis.Span(hit.Span), hit.Message)
		d.Help = hit.Help
		mc.diags = append(mc.diags, d)
	}
	rules := opts.Rules
	if rules == nil {
		rules = Rules
	}
	analysis.RunRules(rules, p, f.src, analysis.Unit{File: file, Facts: facts, Catalog: cat}, func(d diagnostics.Diagnostic) { mc.diags = append(mc.diags, d) })
	diagnostics.Sort(mc.diags)
	// The cause a HARN-MOD-007 about this module names: its own first
	// error, else the cause behind its first failing import.
	for _, d := range mc.diags {
		if d.Severity == diagnostics.Error && d.Code != "HARN-MOD-007" {
			mc.cause = &rootCause{path: p, diag: d}
			break
		}
	}
	if mc.cause == nil && len(importCauses) > 0 {
		mc.cause = importCauses[0]
	}
	if firstError(mc.diags) != nil {
		mc.failed = true
	}
	// What importers need is kept; the syntax tree and facts only for a
	// graph of one check, whose root returns them.
	if opts.Graph != nil && !opts.Graph.single {
		mc.file, mc.facts = nil, nil
		f.parsed.release()
		// The rules have run; importers and the manifest read a site's
		// facts, not its call's syntax, which would keep most of the
		// tree alive.
		for _, s := range mc.sites {
			s.Call = nil
		}
	}
}

// mod007Message says that an imported module has errors, naming the error
// at the end of the chain of failing imports, so the message stays short
// however long the chain.
func mod007Message(spec, target string, c *rootCause) string {
	msg := "imported module " + spec + " has errors: " + c.diag.Code + " " + truncateMessage(c.diag.Message)
	if c.path != target {
		msg += fmt.Sprintf(" (in %s, %d imports away)", c.path, c.hops+1)
	}
	return msg
}

func truncateMessage(s string) string {
	if len(s) <= 200 {
		return s
	}
	i := 200
	for i > 0 && s[i]&0xc0 == 0x80 {
		i--
	}
	return s[:i] + "…"
}

// closureSites lists the sites of mc's closure: a depth-first walk over
// imports in source order, each module once, skipping components whose
// closure holds no site.
func closureSites(mc *moduleCheck) []*Site {
	var out []*Site
	seen := map[*moduleCheck]bool{mc: true}
	stack := []*moduleCheck{mc}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, x.sites...)
		for i := len(x.imports) - 1; i >= 0; i-- {
			y := x.imports[i]
			if !seen[y] && y.cc.closureSites {
				seen[y] = true
				stack = append(stack, y)
			}
		}
	}
	return out
}

// firstImportSpan is the span of the first import of a loaded module.
func firstImportSpan(f *loadedFile) diagnostics.Span {
	if f.parsed != nil {
		for _, im := range f.parsed.imports {
			if im.Source != nil {
				return analysis.Span(im.Source.Span)
			}
		}
	}
	return diagnostics.Span{}
}

// importSpanTo is the span of the import of target in a loaded module.
func importSpanTo(f *loadedFile, target string) diagnostics.Span {
	if f.parsed != nil {
		for _, im := range f.parsed.imports {
			if t, ok := importTarget(f.path, im); ok && t == target {
				return analysis.Span(im.Source.Span)
			}
		}
	}
	return firstImportSpan(f)
}

// module is what the import rules need of a module: its path and syntax
// tree, its exports, and the diagnostics they add.
type module struct {
	path    string
	file    *ast.File
	exports *infer.Exports
	diags   []diagnostics.Diagnostic
}

func firstError(ds []diagnostics.Diagnostic) *diagnostics.Diagnostic {
	for i := range ds {
		if ds[i].Severity == diagnostics.Error {
			return &ds[i]
		}
	}
	return nil
}
