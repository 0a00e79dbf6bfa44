package infer

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/lang/harn/builtins"
	"github.com/harnlang/harn-check/lang/harn/types"
	"github.com/harnlang/harn-check/lang/model"
)

// Exports is what a module offers its importers.
type Exports struct {
	// Values are functions (and other values) by name.
	Values map[string]types.Type
	// Types are type aliases and structs by name.
	Types map[string]types.Type
	// PolicyParams are, per exported function, the parameters (by index)
	// that become the policy of evaluation sites, with those sites.
	PolicyParams map[*types.Func]map[int][]*analysis.Site
}

// Config configures one module's inference.
type Config struct {
	// Path is the module's path, recorded on its sites.
	Path string
	// Src is the module's source (for line and column of sites).
	Src []byte
	// Resolve returns the exports of an imported module by its import
	// string; false means the import failed, which degrades checking.
	Resolve func(spec string) (*Exports, bool)
	// Limits bound the work on huge unions and matches (zero fields: the
	// defaults); a limit reached is recorded in Facts.LimitHits.
	Limits limits.Limits
	// Model asks for the module's semantic model (Facts.Model): what
	// each name resolves to, as the checker resolves it.
	Model bool
}

type checker struct {
	cfg     Config
	file    *ast.File
	facts   *analysis.Facts
	module  *scope
	aliases map[string]*types.Alias
	// lines indexes cfg.Src, made at its first use (lineIndex): only
	// evaluation sites need it, and an editor's focused check of one
	// body has none.
	lines *diagnostics.LineIndex
	// policies are site policies evaluated once the module is walked.
	policies []pendingPolicy
	// afterMatch is the narrowing a match statement leaves behind.
	afterMatch *pendingNarrow
	// curStmt is the span of the statement being checked.
	curStmt ast.Span
	siteFns map[*analysis.Site]*scope
	// ifaces and impls are the interfaces and the impl methods (by type
	// name) visible at this point, scoped like type names.
	ifaces map[string]*ast.InterfaceDecl
	impls  map[string][]*ast.FuncDecl
	// policyParams are the parameters that become the policy of
	// evaluation sites; helperCalls are the calls of functions that may
	// have such parameters; importedPolicy is what imports export.
	policyParams   map[*ast.Param][]*analysis.Site
	helperCalls    []helperCall
	importedPolicy map[*types.Func]map[int][]*analysis.Site
	// llmParams are the parameters that may receive the LLM capability.
	llmParams map[*ast.Param]bool
	// lastReturns are the types returned in the body funcBody last
	// checked.
	lastReturns []types.Type
	// exitMemo remembers whether an if or match always leaves.
	exitMemo map[ast.Node]bool
	// rec records the semantic model when Config.Model asks for it (nil
	// otherwise); typeDefs are the model's definitions of type names.
	rec      *model.Builder
	typeDefs map[*types.Alias]int32
}

type pendingNarrow struct {
	match *ast.Match
	key   any
	t     types.Type
}

type pendingPolicy struct {
	site *analysis.Site
	expr ast.Expr
	sc   *scope
}

// Check runs inference over one module.
func Check(file *ast.File, cfg Config) (*analysis.Facts, *Exports) {
	cfg.Limits = cfg.Limits.Resolved()
	c := &checker{
		cfg:  cfg,
		file: file,
		facts: &analysis.Facts{
			// A module has about one expression per 12 bytes (the
			// median of the upstream conformance programs; 14 in the
			// generated corpus): sized so, the map seldom grows, and
			// its growth was 8% of the bytes a check allocated.
			Types:  make(map[ast.Expr]types.Type, itemBytes(file)/16),
			Labels: map[types.Type]*analysis.Question{},
		},
		aliases:        map[string]*types.Alias{},
		llmParams:      map[*ast.Param]bool{},
		policyParams:   map[*ast.Param][]*analysis.Site{},
		importedPolicy: map[*types.Func]map[int][]*analysis.Site{},
		ifaces:         map[string]*ast.InterfaceDecl{},
		impls:          map[string][]*ast.FuncDecl{},
	}
	// Names inside a region the parser could not read are not certain.
	c.facts.Degraded = len(file.Errors) > 0
	universe := newScope(nil)
	universe.declare(&variable{name: "harness", kind: kindGlobal, typ: stdlib.Harness()})
	universe.declare(&variable{name: "context", kind: kindGlobal, typ: types.AnyType})
	c.module = newScope(universe)
	c.module.fn = &fnCtx{module: true}
	if cfg.Model {
		c.rec, c.typeDefs = model.NewBuilder(), map[*types.Alias]int32{}
		c.rec.Scope(diagnostics.Span{Start: 0, End: len(cfg.Src)}, -1)
		c.module.rec = c.rec
	}
	c.declareModule()
	for _, it := range file.Items {
		switch it.(type) {
		case *ast.FuncDecl, *ast.TypeAlias, *ast.StructDecl, *ast.EnumDecl, *ast.InterfaceDecl, *ast.Import:
			continue
		}
		c.stmt(c.module, it)
	}
	for _, it := range file.Items {
		switch d := it.(type) {
		case *ast.FuncDecl:
			c.checkFunc(c.module.vars[nameOf(d.Name)])
		case *ast.ImplDecl:
			for _, m := range d.Methods {
				c.funcBody(m.Params, m.ReturnType, m.Body, c.module, true, m.Gen)
			}
		}
	}
	c.finish()
	c.finishPolicyPasses()
	c.facts.Model = c.rec.Model()
	return c.facts, c.exports()
}

// itemBytes is how many bytes of the source file's items span: the
// source's length for a whole file, less for the part an editor's
// focused check lowers.
func itemBytes(file *ast.File) int {
	n := 0
	for _, it := range file.Items {
		p := it.Pos()
		n += p.End - p.Start
	}
	return n
}

// lineIndex returns the index of the module's lines, made once.
func (c *checker) lineIndex() *diagnostics.LineIndex {
	if c.lines == nil {
		c.lines = diagnostics.NewLineIndex(c.cfg.Src)
	}
	return c.lines
}

func nameOf(id *ast.Ident) string {
	if id == nil {
		return ""
	}
	return id.Name
}

// declareModule declares imports, types, functions and top-level bindings
// before anything is checked, so order of declaration does not matter.
func (c *checker) declareModule() {
	pred := stdlib.Predicate()
	for _, it := range c.file.Items {
		im, ok := it.(*ast.Import)
		if !ok {
			continue
		}
		spec := ""
		if im.Source != nil {
			spec, _ = im.Source.Value()
		}
		if spec == stdlib.PredicateModule {
			if len(im.Names) == 0 {
				for name, fn := range pred.Functions {
					c.module.declare(&variable{name: name, kind: kindImport, typ: fn, decl: im.Span, module: spec})
				}
			}
			for _, n := range im.Names {
				var t types.Type = types.AnyType
				if fn, ok := pred.Functions[n.Name]; ok {
					t = fn
				} else if a, ok := pred.Types[n.Name]; ok {
					c.aliases[n.Name] = a
					c.defType(a, n.Name, n.Span, kindNames[kindImport], spec, true)
					continue
				}
				c.module.declare(&variable{name: n.Name, kind: kindImport, typ: t, decl: n.Span, module: spec})
			}
			continue
		}
		var ex *Exports
		ok = false
		if c.cfg.Resolve != nil && spec != "" {
			ex, ok = c.cfg.Resolve(spec)
		}
		if !ok || ex == nil {
			c.facts.Degraded = true
			for _, n := range im.Names {
				c.module.declare(&variable{name: n.Name, kind: kindImport, typ: types.AnyType, decl: n.Span, module: spec})
			}
			continue
		}
		for fn, m := range ex.PolicyParams {
			c.importedPolicy[fn] = m
		}
		if len(im.Names) == 0 {
			for name, t := range ex.Values {
				c.module.declare(&variable{name: name, kind: kindImport, typ: t, decl: im.Span, imported: true, module: spec})
			}
			for name, t := range ex.Types {
				if a, ok := t.(*types.Alias); ok {
					c.aliases[name] = a
					c.defType(a, name, im.Span, kindNames[kindImport], spec, true)
				}
			}
			continue
		}
		for _, n := range im.Names {
			if t, ok := ex.Values[n.Name]; ok {
				c.module.declare(&variable{name: n.Name, kind: kindImport, typ: t, decl: n.Span, imported: true, module: spec})
			} else if t, ok := ex.Types[n.Name]; ok {
				if a, ok := t.(*types.Alias); ok {
					c.aliases[n.Name] = a
					c.defType(a, n.Name, n.Span, kindNames[kindImport], spec, true)
				}
			} else {
				c.module.declare(&variable{name: n.Name, kind: kindImport, typ: types.AnyType, decl: n.Span, module: spec})
			}
		}
	}
	c.declareTypes(c.module, c.file.Items)
	for _, it := range c.file.Items {
		switch d := it.(type) {
		case *ast.FuncDecl:
			c.module.declare(&variable{name: nameOf(d.Name), kind: kindFunc, decl: d.Name.Span, fn: c.signature(d), typ: nil})
		case *ast.Pipeline:
			c.module.declare(&variable{name: nameOf(d.Name), kind: kindFunc, typ: types.AnyType, decl: d.Name.Span})
		case *ast.ToolDecl, *ast.SkillDecl, *ast.EvalPackDecl:
			c.declareRegistry(c.module, d)
		case *ast.VarDecl:
			if id, ok := d.Pattern.(*ast.Ident); ok && id.Name != "_" {
				c.module.declare(&variable{name: id.Name, kind: kindLet, typ: types.AnyType, decl: id.Span, pending: true})
			}
		}
	}
	for _, v := range c.module.vars {
		if v.fn != nil {
			v.typ = v.fn.sig
		}
	}
}

// declareTypes declares the type aliases, structs, enums and interfaces
// among stmts (a module's items or a block's statements) in sc: types
// first, so that they may refer to each other in any order, then their
// targets. Structs and enums are also values (constructors, variants).
// It returns a function restoring the type names the declarations
// shadowed, for a block's end.
func (c *checker) declareTypes(sc *scope, stmts []ast.Stmt) (restore func()) {
	type saved struct {
		name string
		prev *types.Alias
	}
	var shadowed []saved
	def := func(id *ast.Ident, a *types.Alias) {
		name := nameOf(id)
		if name == "" {
			return
		}
		shadowed = append(shadowed, saved{name, c.aliases[name]})
		c.aliases[name] = a
		c.defType(a, name, id.Span, kindNames[kindType], "", sc == c.module)
	}
	type savedIface struct {
		name  string
		iface *ast.InterfaceDecl
		impls []*ast.FuncDecl
	}
	var ifaceShadowed []savedIface
	for _, it := range stmts {
		switch d := it.(type) {
		case *ast.InterfaceDecl:
			n := nameOf(d.Name)
			ifaceShadowed = append(ifaceShadowed, savedIface{name: n, iface: c.ifaces[n], impls: c.impls[n]})
			c.ifaces[n] = d
		case *ast.ImplDecl:
			n := nameOf(d.Type)
			ifaceShadowed = append(ifaceShadowed, savedIface{name: n, iface: c.ifaces[n], impls: c.impls[n]})
			c.impls[n] = append(c.impls[n][:len(c.impls[n]):len(c.impls[n])], d.Methods...)
		}
		if _, fn := it.(*ast.FuncDecl); !fn && hasVariance(it) {
			c.facts.VarianceDecls = append(c.facts.VarianceDecls, it)
		}
		switch d := it.(type) {
		case *ast.TypeAlias:
			def(d.Name, &types.Alias{Name: nameOf(d.Name), Module: c.cfg.Path})
		case *ast.StructDecl:
			def(d.Name, &types.Alias{Name: nameOf(d.Name), Module: c.cfg.Path})
		case *ast.EnumDecl:
			a := &types.Alias{Name: nameOf(d.Name), Module: c.cfg.Path, Target: enumValue(c.cfg.Path, d)}
			def(d.Name, a)
			sc.declare(&variable{name: nameOf(d.Name), kind: kindType, typ: types.AnyType, decl: d.Name.Span, enum: d, enumType: a})
		case *ast.InterfaceDecl:
			def(d.Name, &types.Alias{Name: nameOf(d.Name), Module: c.cfg.Path, Target: types.AnyType})
		}
	}
	for _, it := range stmts {
		switch d := it.(type) {
		case *ast.TypeAlias:
			if a := c.aliases[nameOf(d.Name)]; a != nil {
				a.Target = c.convType(d.Type, c.typeParams(d.TypeParams))
			}
		case *ast.StructDecl:
			a := c.aliases[nameOf(d.Name)]
			if a == nil {
				continue
			}
			tp := c.typeParams(d.TypeParams)
			rec := &types.Record{}
			for _, f := range d.Fields {
				rec.Fields = append(rec.Fields, types.Field{Name: nameOf(f.Name), Type: c.convType(f.Type, tp), Optional: f.Optional})
			}
			a.Target = rec
			sc.declare(&variable{name: nameOf(d.Name), kind: kindType, typ: a, decl: d.Name.Span})
		case *ast.InterfaceDecl:
			c.modelMethods(d)
		}
	}
	return func() {
		for i := len(ifaceShadowed) - 1; i >= 0; i-- {
			sv := ifaceShadowed[i]
			if sv.iface == nil {
				delete(c.ifaces, sv.name)
			} else {
				c.ifaces[sv.name] = sv.iface
			}
			if sv.impls == nil {
				delete(c.impls, sv.name)
			} else {
				c.impls[sv.name] = sv.impls
			}
		}
		for i := len(shadowed) - 1; i >= 0; i-- {
			if shadowed[i].prev == nil {
				delete(c.aliases, shadowed[i].name)
			} else {
				c.aliases[shadowed[i].name] = shadowed[i].prev
			}
		}
	}
}

// enumValue is the type of a value of an enum: it reads `variant` (the
// union of the variant names) and `fields` (the payload); other fields
// are not certain.
func enumValue(module string, d *ast.EnumDecl) types.Type {
	var names []types.Type
	for _, v := range d.Variants {
		if v != nil && v.Name != nil {
			names = append(names, types.StringLit(v.Name.Name))
		}
	}
	variant := types.StringType
	if len(names) > 0 {
		variant = types.NewUnion(names...)
	}
	return &types.Record{
		Fields:  []types.Field{{Name: "variant", Type: variant}, {Name: "fields", Type: &types.List{Elem: types.AnyType, Bare: true}}},
		Open:    true,
		Nominal: module + "." + nameOf(d.Name),
	}
}

// enumMember returns the enum type when x names an enum and name is one
// of its variants (`Color.Red`, `Shape.Circle(5.0)`).
func (c *checker) enumMember(sc *scope, x ast.Expr, name string) (types.Type, bool) {
	id, ok := unparen(x).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v := sc.lookup(id.Name)
	if v == nil || v.enum == nil {
		return nil, false
	}
	for _, vr := range v.enum.Variants {
		if vr != nil && vr.Name != nil && vr.Name.Name == name {
			return v.enumType, true
		}
	}
	return nil, false
}

// declareRegistry binds the name of a tool, skill or eval_pack
// declaration: a tool or skill declaration makes a registry holding it,
// an eval pack a manifest dict.
func (c *checker) declareRegistry(sc *scope, d ast.Stmt) {
	var id *ast.Ident
	var t types.Type = types.AnyType
	switch d := d.(type) {
	case *ast.ToolDecl:
		id = d.Name
		if rt := builtins.NamedType("tool_registry"); rt != nil {
			t = rt
		}
	case *ast.SkillDecl:
		id = d.Name
		if rt := builtins.NamedType("skill_registry"); rt != nil {
			t = rt
		}
	case *ast.EvalPackDecl:
		id = d.Name
		t = &types.Dict{Key: types.StringType, Value: types.AnyType, Bare: true}
	}
	if id == nil || id.Name == "" {
		return
	}
	if old := sc.vars[id.Name]; old != nil && old.decl == id.Span {
		return // declared ahead at the module level
	}
	sc.declare(&variable{name: id.Name, kind: kindGlobal, typ: t, decl: id.Span})
}

// hasVariance reports whether a declaration marks a type parameter `in`
// or `out` (the variance rule then checks its uses). Functions are
// recorded where their signatures are built.
func hasVariance(d ast.Stmt) bool {
	var tps []*ast.TypeParam
	switch d := d.(type) {
	case *ast.TypeAlias:
		tps = d.TypeParams
	case *ast.StructDecl:
		tps = d.TypeParams
	case *ast.EnumDecl:
		tps = d.TypeParams
	case *ast.InterfaceDecl:
		tps = d.TypeParams
	case *ast.FuncDecl:
		tps = d.TypeParams
	}
	for _, tp := range tps {
		if tp != nil && tp.Variance != ast.Invariant {
			return true
		}
	}
	return false
}

// typeParams returns the type parameters tps declare, each with its
// definition in the semantic model (-1 when none is recorded).
func (c *checker) typeParams(tps []*ast.TypeParam) map[string]int32 {
	if len(tps) == 0 {
		return nil
	}
	m := map[string]int32{}
	for _, tp := range tps {
		d := int32(-1)
		if c.rec != nil && tp != nil && tp.Name != nil {
			d = c.rec.Def(model.Def{Name: tp.Name.Name, Kind: "type parameter", Span: analysis.Span(tp.Name.Span), Scope: -1})
		}
		m[nameOf(tp.Name)] = d
	}
	return m
}

// modelWhere records in the semantic model the names a where clause
// refers to: its type parameters and the interfaces bounding them.
func (c *checker) modelWhere(where []*ast.WherePredicate, tp map[string]int32) {
	if c.rec == nil {
		return
	}
	for _, w := range where {
		if w == nil {
			continue
		}
		if d, ok := tp[nameOf(w.Name)]; ok && w.Name != nil {
			c.rec.Use(analysis.Span(w.Name.Span), d)
		}
		for _, b := range w.Bounds {
			c.convType(b, tp)
		}
	}
}

// modelMethods records in the semantic model the methods an impl or an
// interface declares, and the parameters of an interface's method
// signatures (which no body declares): names no scope holds, which the
// model still lists as declarations.
func (c *checker) modelMethods(d ast.Stmt) {
	if c.rec == nil {
		return
	}
	def := func(id *ast.Ident, kind string) {
		if id != nil && id.Span.End > id.Span.Start {
			c.rec.Def(model.Def{Name: id.Name, Kind: kind, Span: analysis.Span(id.Span), Scope: -1})
		}
	}
	switch d := d.(type) {
	case *ast.ImplDecl:
		for _, m := range d.Methods {
			if m != nil {
				def(m.Name, "method")
			}
		}
	case *ast.InterfaceDecl:
		outer := c.typeParams(d.TypeParams)
		for _, m := range d.Methods {
			if m == nil {
				continue
			}
			def(m.Name, "method")
			tp := c.typeParams(m.TypeParams)
			for n, d := range outer {
				if _, inner := tp[n]; !inner {
					if tp == nil {
						tp = map[string]int32{}
					}
					tp[n] = d
				}
			}
			for _, p := range m.Params {
				if p != nil {
					def(p.Name, kindNames[kindParam])
					c.convType(p.Type, tp)
				}
			}
			c.convType(m.ReturnType, tp)
		}
	}
}

func (c *checker) signature(d *ast.FuncDecl) *fnInfo {
	if hasVariance(d) {
		c.facts.VarianceDecls = append(c.facts.VarianceDecls, d)
	}
	tp := c.typeParams(d.TypeParams)
	c.modelWhere(d.Where, tp)
	sig := &types.Func{Result: types.AnyType}
	for _, p := range d.Params {
		pt := types.AnyType
		if p.Type != nil {
			pt = c.convType(p.Type, tp)
		}
		if p.Rest {
			sig.Variadic = true
		}
		sig.Params = append(sig.Params, types.Param{Name: nameOf(p.Name), Type: pt, Optional: p.Default != nil || p.Rest})
	}
	info := &fnInfo{decl: d, sig: sig}
	if d.ReturnType != nil {
		sig.Result = c.convType(d.ReturnType, tp)
		info.hasResult = true
		info.outcomeHelper = len(tp) == 0 && isGenericEvaluationOutcome(sig.Result)
	}
	return info
}

// checkFunc checks a function body once; unannotated results are
// inferred from its returns.
func (c *checker) checkFunc(v *variable) {
	if v == nil || v.fn == nil || v.fn.checked || v.fn.inProgress {
		return
	}
	fi := v.fn
	fi.inProgress = true
	res := c.funcBody(fi.decl.Params, fi.decl.ReturnType, fi.decl.Body, c.module, fi.hasResult, fi.decl.Gen)
	if !fi.hasResult {
		fi.sig.Result = res
	}
	if fi.outcomeHelper {
		if t := preciseOutcome(c.lastReturns); t != nil {
			fi.sig.Result = t
		}
	}
	fi.inProgress = false
	fi.checked = true
}

// funcBody checks params and body in a new scope under parent and returns
// the result type (declared, or the union of the returns).
//
// gen marks a `gen fn` body, where `emit` belongs; nested functions and
// closures inherit it from parent.
func (c *checker) funcBody(params []*ast.Param, ret ast.Type, body *ast.Block, parent *scope, declared, gen bool) types.Type {
	sc := newScope(parent)
	sc.fn = &fnCtx{gen: gen || (parent.fn != nil && parent.fn.gen)}
	if ret != nil {
		sc.fn.declared = c.convType(ret, nil)
	}
	c.params(sc, params)
	if body != nil {
		c.block(sc, body.Stmts)
	}
	c.lastReturns = sc.fn.returns
	if sc.fn.declared != nil {
		return sc.fn.declared
	}
	if len(sc.fn.returns) == 0 {
		return types.NilType
	}
	return widenUnion(sc.fn.returns)
}

func widenUnion(ts []types.Type) types.Type {
	out := make([]types.Type, len(ts))
	for i, t := range ts {
		out[i] = widen(t)
	}
	return types.NewUnion(out...)
}

func (c *checker) params(sc *scope, params []*ast.Param) {
	c.paramOrder(params)
	for _, p := range params {
		if p.Name == nil {
			continue
		}
		var t types.Type = types.AnyType
		var declared types.Type
		if p.Type != nil {
			t = c.convType(p.Type, nil)
			declared = t
		}
		if p.Rest {
			t = &types.List{Elem: t}
		}
		if p.Default != nil {
			c.expr(sc, p.Default)
		}
		b := &analysis.Binding{Name: p.Name.Name, Span: p.Name.Span, Type: t, Param: true}
		sc.declare(&variable{name: p.Name.Name, kind: kindParam, typ: t, declared: declared, decl: p.Name.Span, binding: b, param: p})
	}
}

// paramOrder records a required parameter written after one with a
// default (`fn f(x = 10, y)`), which no call could bind as written.
func (c *checker) paramOrder(params []*ast.Param) {
	var defaulted *ast.Param
	for _, p := range params {
		if p == nil {
			continue
		}
		switch {
		case p.Default != nil:
			if defaulted == nil {
				defaulted = p
			}
		case !p.Rest && defaulted != nil:
			c.facts.ParamOrders = append(c.facts.ParamOrders, analysis.ParamOrder{Span: p.Span, Defaulted: defaulted.Span})
			return
		}
	}
}

// exports lists the module's functions (the pub ones, or all when none is
// pub) and its types.
func (c *checker) exports() *Exports {
	ex := &Exports{Values: map[string]types.Type{}, Types: map[string]types.Type{}, PolicyParams: map[*types.Func]map[int][]*analysis.Site{}}
	anyPub := false
	for _, it := range c.file.Items {
		if d, ok := it.(*ast.FuncDecl); ok && d.Pub {
			anyPub = true
		}
	}
	for _, it := range c.file.Items {
		switch d := it.(type) {
		case *ast.FuncDecl:
			if d.Pub || !anyPub {
				if v := c.module.vars[nameOf(d.Name)]; v != nil && v.fn != nil {
					ex.Values[v.name] = v.fn.sig
					for i, prm := range d.Params {
						if sites := c.policyParams[prm]; prm != nil && len(sites) > 0 {
							if ex.PolicyParams[v.fn.sig] == nil {
								ex.PolicyParams[v.fn.sig] = map[int][]*analysis.Site{}
							}
							ex.PolicyParams[v.fn.sig][i] = sites
						}
					}
				}
			}
		case *ast.TypeAlias, *ast.StructDecl, *ast.EnumDecl:
			var n *ast.Ident
			switch d := d.(type) {
			case *ast.TypeAlias:
				n = d.Name
			case *ast.StructDecl:
				n = d.Name
			case *ast.EnumDecl:
				n = d.Name
			}
			if a := c.aliases[nameOf(n)]; a != nil {
				ex.Types[a.Name] = a
			}
		}
	}
	return ex
}

// isGenericEvaluationOutcome reports whether t is std/predicate's
// EvaluationOutcome itself (its answers the generic EvaluationAnswer).
func isGenericEvaluationOutcome(t types.Type) bool {
	a, ok := t.(*types.Alias)
	return ok && a == stdlib.Predicate().Types["EvaluationOutcome"]
}

// preciseOutcome returns the outcome a helper declared `-> EvaluationOutcome`
// passes on unchanged: every return is an evaluation outcome with
// per-question answers (a literal site's), all identical. Otherwise nil:
// the declared generic outcome stands. Only such a helper is refined, so
// its callers see exactly the answer unions the site declares; a helper
// that may return outcomes of different question sets keeps the generic
// type.
func preciseOutcome(returns []types.Type) types.Type {
	if len(returns) == 0 {
		return nil
	}
	var first types.Type
	for _, t := range returns {
		if !stdlib.IsOutcome(t) || isGenericEvaluationOutcome(t) || !hasAnswerRecord(t) {
			return nil
		}
		if first == nil {
			first = t
			continue
		}
		if t != first && !types.Identical(t, first) {
			return nil
		}
	}
	return first
}

// hasAnswerRecord reports whether an outcome's answered variant carries a
// record of answers (a literal site's) rather than the generic dict.
func hasAnswerRecord(t types.Type) bool {
	for _, m := range types.Members(types.StripNil(t)) {
		if v, p := types.FieldOf(m, "value", false); p == types.FieldAll {
			_, ok := types.Unalias(v).(*types.Record)
			return ok
		}
	}
	return false
}
