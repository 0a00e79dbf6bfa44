package leia

import (
	"fmt"

	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

// The resolver runs before compilation and binds every name to a slot:
// each function gets a frame of numbered slots, each local declaration a
// slot (reused by sibling blocks once its block ends), and each name use a
// local slot, an upvalue index (a variable of an enclosing function, which
// is then marked captured and kept in a heap cell) or a global. The
// compiler only reads these results; nothing looks a local up by name at
// run time.
//
// Scoping follows the spec: every block is a scope; `x := e` evaluates e
// before x exists; a function declaration's name is visible in its own
// body. The top-level declarations of a program (and of chunks compiled
// at run time by script.* and load) are globals, as upstream makes them:
// other chunks see them by name, and functions declared at the top call
// each other in any order. A module loaded by require keeps its top level
// local. Inside functions, a body may still use a name declared later in
// an enclosing block: that variable gets its cell when the block is
// entered, and the declaration fills it.

// varInfo is one local variable.
type varInfo struct {
	name     string
	slot     int
	fn       *funcInfo
	captured bool // used by a nested function: lives in a cell
	isConst  bool
	forward  bool // used by a nested function before its declaration
	declared bool // the declaration has been reached
}

// refKind says where a name use finds its variable.
type refKind uint8

const (
	refGlobal refKind = iota
	refLocal
	refUpval
)

type ref struct {
	kind  refKind
	vi    *varInfo
	index int // upvalue index for refUpval
}

// upvalDesc tells a new closure where to take upvalue i from: a captured
// local slot of the creating frame, or an upvalue of the creating closure.
type upvalDesc struct {
	name      string
	fromLocal bool
	index     int
}

// funcInfo is what the resolver learns about one function body.
type funcInfo struct {
	parent    *funcInfo
	name      string
	nparams   int
	params    []*varInfo
	variadic  bool
	namedVar  *varInfo // the `name...` parameter, bound to a list
	nslots    int
	maxSlots  int
	upvals    []upvalDesc
	upvalOf   map[*varInfo]int
	labels    map[string][]*labelInfo
	gotos     []*gotoInfo
	hasDefer  bool
	loopDepth int
}

// labelInfo is a label: the block holding it and the statement index.
type labelInfo struct {
	name  string
	block *blockInfo
	index int
}

type gotoInfo struct {
	stmt   *ast.GotoStmt
	blocks []*blockInfo // enclosing blocks, innermost first
	target *labelInfo
}

// blockInfo is one statement list (a block or the file).
type blockInfo struct {
	forward []*varInfo // cells made at block entry
	labels  []*labelInfo
}

type scope struct {
	parent *scope
	fn     *funcInfo
	block  *blockInfo
	vars   map[string]*varInfo
	later  map[string]*varInfo // names declared later in this block; nil entry until needed
}

// resolution holds the resolver's results for the compiler.
type resolution struct {
	decls  map[*ast.Ident]*varInfo
	refs   map[*ast.Ident]ref
	funcs  map[ast.Node]*funcInfo
	blocks map[any]*blockInfo // *ast.Block or *ast.File
	gotos  map[*ast.GotoStmt]*gotoInfo
	// loopVars are the variables a loop declares in its header.
	loopVars map[*ast.ForStmt][]*varInfo
	selVars  map[*ast.CommCase][]*varInfo
	// agentConfig holds the function made for a legacy agent's config
	// block (parameters in scope, returns the config table).
	agentConfig map[ast.Node]*ast.FuncLit
	// agentFlow holds the function made for a legacy agent's flow: the
	// config table as a first, hidden parameter, the config's fields
	// declared as locals from it, then the flow's statements.
	agentFlow map[ast.Node]*ast.FuncLit
	// globalDecls are the top-level declarations of a chunk whose
	// top-level names are globals (the main program, script.*, load).
	globalDecls map[*ast.Ident]bool
}

type resolver struct {
	res *resolution
	// topGlobals makes the file's top-level declarations globals;
	// fileScope is that scope and topConsts its const names.
	topGlobals bool
	fileScope  *scope
	topConsts  map[string]bool
	sc         *scope
	fn         *funcInfo
	blocks     []*blockInfo // enclosing blocks of the current function, innermost last
	errs       []posError
	depth      int
	// defaults is the file's agent defaults configuration, or nil.
	defaults *ast.TableExpr
}

type posError struct {
	pos int
	msg string
}

const maxNesting = 400

// resolveFile resolves a chunk. With topGlobals its top-level
// declarations are globals, shared with other chunks through the globals
// table (upstream's behaviour for programs and script.* chunks); a module
// loaded by require keeps them local.
func resolveFile(f *ast.File, topGlobals bool) (*resolution, *funcInfo, []posError) {
	r := &resolver{topGlobals: topGlobals, topConsts: map[string]bool{}, defaults: semantic.AgentDefaults(f), res: &resolution{
		globalDecls: map[*ast.Ident]bool{},
		decls:       map[*ast.Ident]*varInfo{},
		refs:        map[*ast.Ident]ref{},
		funcs:       map[ast.Node]*funcInfo{},
		blocks:      map[any]*blockInfo{},
		gotos:       map[*ast.GotoStmt]*gotoInfo{},
		loopVars:    map[*ast.ForStmt][]*varInfo{},
		selVars:     map[*ast.CommCase][]*varInfo{},
		agentConfig: map[ast.Node]*ast.FuncLit{},
		agentFlow:   map[ast.Node]*ast.FuncLit{},
	}}
	main := &funcInfo{name: "main chunk", variadic: true}
	r.res.funcs[f] = main
	r.enterFunc(main)
	r.fileScope = r.sc
	r.stmtList(f, f.Stmts)
	r.leaveFunc()
	return r.res, main, r.errs
}

func (r *resolver) errorf(pos int, format string, args ...any) {
	r.errs = append(r.errs, posError{pos, fmt.Sprintf(format, args...)})
}

func (r *resolver) enterFunc(fi *funcInfo) {
	fi.parent = r.fn
	fi.upvalOf = map[*varInfo]int{}
	fi.labels = map[string][]*labelInfo{}
	r.fn = fi
	r.sc = &scope{parent: r.sc, fn: fi, vars: map[string]*varInfo{}}
}

func (r *resolver) leaveFunc() {
	fi := r.fn
	for _, g := range fi.gotos {
		r.bindGoto(g)
	}
	r.sc = r.sc.parent
	r.fn = fi.parent
}

// bindGoto finds the label a goto jumps to: one in the goto's block or an
// enclosing block of the same function.
func (r *resolver) bindGoto(g *gotoInfo) {
	for _, l := range r.fn.labels[g.stmt.Label.Name] {
		for _, b := range g.blocks {
			if l.block == b {
				g.target = l
				return
			}
		}
	}
	r.errorf(g.stmt.Start, "no visible label '%s' for goto", g.stmt.Label.Name)
}

func (r *resolver) push(b *blockInfo) {
	r.sc = &scope{parent: r.sc, fn: r.fn, block: b, vars: map[string]*varInfo{}}
}

// pop leaves a block. Slots are not reused by later blocks: a frame has
// one slot per local of its function, which keeps goto and per-iteration
// cells simple.
func (r *resolver) pop() { r.sc = r.sc.parent }

func (r *resolver) newVar(name string) *varInfo {
	v := &varInfo{name: name, slot: r.fn.nslots, fn: r.fn}
	r.fn.nslots++
	if r.fn.nslots > r.fn.maxSlots {
		r.fn.maxSlots = r.fn.nslots
	}
	return v
}

// declare binds name in the current scope, taking over a forward
// variable made for a use from a nested function.
func (r *resolver) declare(id *ast.Ident, isConst bool) *varInfo {
	if id == nil || id.Name == "" {
		return nil
	}
	if r.topGlobals && r.sc == r.fileScope {
		r.res.globalDecls[id] = true
		r.topConsts[id.Name] = isConst
		return nil
	}
	var v *varInfo
	if fv, ok := r.sc.later[id.Name]; ok && fv != nil && !fv.declared {
		v = fv
	} else {
		v = r.newVar(id.Name)
	}
	v.declared = true
	v.isConst = isConst
	if r.sc.later != nil {
		if _, ok := r.sc.later[id.Name]; ok {
			delete(r.sc.later, id.Name)
		}
	}
	r.sc.vars[id.Name] = v
	r.res.decls[id] = v
	return v
}

// lookup resolves a name use.
func (r *resolver) lookup(id *ast.Ident) ref {
	crossed := false
	var found *varInfo
	for sc := r.sc; sc != nil; sc = sc.parent {
		if v, ok := sc.vars[id.Name]; ok {
			found = v
			break
		}
		if crossed {
			if fv, ok := sc.later[id.Name]; ok {
				if fv == nil {
					fv = &varInfo{name: id.Name, slot: sc.fn.nslots, fn: sc.fn, forward: true}
					sc.fn.nslots++
					if sc.fn.nslots > sc.fn.maxSlots {
						sc.fn.maxSlots = sc.fn.nslots
					}
					sc.later[id.Name] = fv
					sc.block.forward = append(sc.block.forward, fv)
				}
				found = fv
				break
			}
		}
		if sc.parent != nil && sc.parent.fn != sc.fn {
			crossed = true
		}
	}
	if found == nil {
		return ref{kind: refGlobal}
	}
	if found.fn == r.fn {
		return ref{kind: refLocal, vi: found}
	}
	found.captured = true
	return ref{kind: refUpval, vi: found, index: r.upvalIndex(r.fn, found)}
}

// upvalIndex returns fn's upvalue index for v, threading it through every
// function between v's and fn.
func (r *resolver) upvalIndex(fn *funcInfo, v *varInfo) int {
	if i, ok := fn.upvalOf[v]; ok {
		return i
	}
	var d upvalDesc
	if fn.parent == v.fn {
		d = upvalDesc{name: v.name, fromLocal: true, index: v.slot}
	} else {
		d = upvalDesc{name: v.name, index: r.upvalIndex(fn.parent, v)}
	}
	fn.upvals = append(fn.upvals, d)
	i := len(fn.upvals) - 1
	fn.upvalOf[v] = i
	return i
}

func (r *resolver) use(id *ast.Ident) {
	if id == nil || id.Name == "" {
		return
	}
	r.res.refs[id] = r.lookup(id)
}

// ---------------------------------------------------------------------------

// scanLater records the names a statement list declares at its own level.
func scanLater(stmts []ast.Stmt) map[string]*varInfo {
	m := map[string]*varInfo{}
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.FuncDecl:
			if s.Name != nil {
				m[s.Name.Name] = nil
			}
		case *ast.DeclareStmt:
			for _, e := range s.Left {
				if id, ok := e.(*ast.Ident); ok {
					m[id.Name] = nil
				}
			}
		case *ast.ConstDecl:
			for _, id := range s.Names {
				m[id.Name] = nil
			}
		case *ast.ToolDecl:
			if s.Name != nil {
				m[s.Name.Name] = nil
			}
		case *ast.AgentDecl:
			if s.Name != nil {
				m[s.Name.Name] = nil
			}
		case *ast.ImportDecl:
			for _, sp := range s.Specs {
				if name := importAlias(sp); name != "" {
					m[name] = nil
				}
			}
		}
	}
	return m
}

func (r *resolver) stmtList(owner any, stmts []ast.Stmt) {
	b := &blockInfo{}
	r.res.blocks[owner] = b
	if _, isFile := owner.(*ast.File); isFile {
		r.sc.block = b
	} else {
		r.push(b)
		defer r.pop()
	}
	if !(r.topGlobals && r.sc == r.fileScope) {
		r.sc.later = scanLater(stmts)
	}
	r.blocks = append(r.blocks, b)
	defer func() { r.blocks = r.blocks[:len(r.blocks)-1] }()
	for i, s := range stmts {
		if l, ok := s.(*ast.LabelStmt); ok && l.Name != nil {
			li := &labelInfo{name: l.Name.Name, block: b, index: i}
			b.labels = append(b.labels, li)
			r.fn.labels[l.Name.Name] = append(r.fn.labels[l.Name.Name], li)
		}
	}
	for _, s := range stmts {
		r.stmt(s)
	}
}

func (r *resolver) block(b *ast.Block) {
	if b == nil {
		return
	}
	r.stmtList(b, b.Stmts)
}

func (r *resolver) stmt(s ast.Stmt) {
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > maxNesting {
		r.errorf(s.Pos().Start, "statements nested too deeply")
		return
	}
	switch s := s.(type) {
	case *ast.ExprStmt:
		r.expr(s.X)
	case *ast.DeclareStmt:
		r.exprs(s.Right)
		for _, e := range s.Left {
			if msg := ast.DeclareProblem(e); msg != "" {
				r.errorf(e.Pos().Start, "%s", msg)
				r.expr(e)
				continue
			}
			r.declare(e.(*ast.Ident), false)
		}
	case *ast.AssignStmt:
		r.exprs(s.Right)
		for _, e := range s.Left {
			r.target(e)
		}
	case *ast.CompoundAssignStmt:
		r.expr(s.Right)
		r.target(s.Left)
	case *ast.IncDecStmt:
		r.target(s.X)
	case *ast.SendStmt:
		r.expr(s.Chan)
		r.expr(s.Value)
	case *ast.ReceiveStmt:
		r.expr(s.Right)
		if s.Declare {
			for _, e := range s.Left {
				if msg := ast.DeclareProblem(e); msg != "" {
					r.errorf(e.Pos().Start, "%s", msg)
					continue
				}
				r.declare(e.(*ast.Ident), false)
			}
		} else {
			for _, e := range s.Left {
				r.target(e)
			}
		}
	case *ast.ConstDecl:
		r.exprs(s.Values)
		for _, id := range s.Names {
			r.declare(id, true)
		}
	case *ast.FuncDecl:
		r.declare(s.Name, false)
		name := ""
		if s.Name != nil {
			name = s.Name.Name
		}
		r.function(s, name, s.Params, s.Body)
	case *ast.IfStmt:
		r.expr(s.Cond)
		r.block(s.Then)
		for _, ei := range s.ElseIfs {
			r.expr(ei.Cond)
			r.block(ei.Body)
		}
		r.block(s.Else)
	case *ast.ForStmt:
		r.forStmt(s)
	case *ast.SelectStmt:
		for _, cc := range s.Cases {
			r.push(&blockInfo{})
			if cc.Comm != nil {
				before := len(r.sc.vars)
				r.stmt(cc.Comm)
				if len(r.sc.vars) > before {
					for _, v := range r.sc.vars {
						r.res.selVars[cc] = append(r.res.selVars[cc], v)
					}
				}
			}
			r.stmtList(cc, cc.Body)
			r.pop()
		}
	case *ast.ReturnStmt:
		r.exprs(s.Values)
	case *ast.BreakStmt, *ast.ContinueStmt:
		if r.fn.loopDepth == 0 {
			r.errorf(s.Pos().Start, "break or continue outside a loop")
		}
	case *ast.GotoStmt:
		g := &gotoInfo{stmt: s}
		for i := len(r.blocks) - 1; i >= 0; i-- {
			g.blocks = append(g.blocks, r.blocks[i])
		}
		r.fn.gotos = append(r.fn.gotos, g)
		r.res.gotos[s] = g
	case *ast.LabelStmt:
	case *ast.GoStmt:
		r.expr(s.Call)
	case *ast.DeferStmt:
		r.fn.hasDefer = true
		r.expr(s.Call)
	case *ast.ImportDecl:
		for _, sp := range s.Specs {
			name := importAlias(sp)
			if name == "" {
				continue
			}
			id := sp.Alias
			if id == nil {
				id = &ast.Ident{Span: sp.Span, Name: name}
				sp.Alias = id
			}
			r.declare(id, false)
		}
	case *ast.EvaluateStmt:
		// No effect when the script runs normally; its body is not run
		// and so not resolved.
	case *ast.ToolDecl:
		r.declare(s.Name, false)
		name := ""
		if s.Name != nil {
			name = s.Name.Name
		}
		r.function(s, name, s.Params, s.Body)
	case *ast.AgentDecl:
		r.declare(s.Name, false)
		r.agentParts(s, s.Params, s.Config, s.Flow)
	case *ast.AgentDefaults:
		r.expr(s.Config)
	case *ast.BudgetStmt:
		if s.Limits != nil {
			r.expr(s.Limits.Body)
		}
		r.function(s, "budget", &ast.Params{}, s.Body)
	case *ast.Error:
	}
}

// agentParts resolves a legacy agent: the config fields and the flow body
// see the parameters; the flow also sees the config's fields as locals
// (upstream's lowering declares every field with a name as a local at
// the top of the flow), read from the config table the agent passes it.
func (r *resolver) agentParts(node ast.Node, params *ast.Params, config *ast.TableExpr, flow *ast.Block) {
	if params == nil {
		params = &ast.Params{}
	}
	cfg := &ast.FuncLit{Span: config.Span, Params: params, Body: &ast.Block{Span: config.Span, Stmts: []ast.Stmt{&ast.ReturnStmt{Span: config.Span, Values: []ast.Expr{config}}}}}
	r.res.agentConfig[node] = cfg
	r.function(cfg, "agent config", cfg.Params, cfg.Body)
	if flow != nil {
		fl := legacyFlow(params, config, r.defaults, flow)
		r.res.agentFlow[node] = fl
		r.function(fl, "agent flow", fl.Params, fl.Body)
	}
}

// flowConfigParam names the hidden first parameter of a legacy flow (no
// source name can spell it).
const flowConfigParam = "(agent config)"

// legacyFlow builds the function of a legacy agent's flow out of new
// nodes: func((agent config), params...) { f := (agent config).f ...;
// flow statements }, one local for each config field whose key is a name.
func legacyFlow(params *ast.Params, config, defaults *ast.TableExpr, flow *ast.Block) *ast.FuncLit {
	at := ast.Span{Start: flow.Start, End: flow.Start}
	names := append([]*ast.Ident{{Span: at, Name: flowConfigParam}}, params.Names...)
	var stmts []ast.Stmt
	for _, f := range semantic.FlowFields(config, defaults) {
		read := &ast.FieldExpr{Span: f.Span, X: &ast.Ident{Span: f.Span, Name: flowConfigParam}, Field: &ast.Ident{Span: f.Span, Name: f.Name}}
		stmts = append(stmts, &ast.DeclareStmt{Span: f.Span, Left: []ast.Expr{&ast.Ident{Span: f.Span, Name: f.Name}}, Right: []ast.Expr{read}})
	}
	body := &ast.Block{Span: flow.Span, Stmts: append(stmts, flow.Stmts...)}
	return &ast.FuncLit{Span: flow.Span, Params: &ast.Params{Span: params.Span, Names: names, Variadic: params.Variadic}, Body: body}
}

func (r *resolver) forStmt(s *ast.ForStmt) {
	r.push(&blockInfo{})
	defer r.pop()
	switch s.Kind {
	case ast.ForClause:
		if s.Init != nil {
			r.stmt(s.Init)
			for _, v := range r.sc.vars {
				r.res.loopVars[s] = append(r.res.loopVars[s], v)
			}
		}
		if s.Cond != nil {
			r.expr(s.Cond)
		}
		r.fn.loopDepth++
		r.block(s.Body)
		if s.Post != nil {
			r.stmt(s.Post)
		}
		r.fn.loopDepth--
	case ast.ForRange:
		r.expr(s.X)
		for _, e := range s.Vars {
			if msg := ast.RangeVarProblem(e); msg != "" {
				r.errorf(e.Pos().Start, "%s", msg)
				continue
			}
			r.res.loopVars[s] = append(r.res.loopVars[s], r.declare(e.(*ast.Ident), false))
		}
		r.fn.loopDepth++
		r.block(s.Body)
		r.fn.loopDepth--
	default:
		if s.Cond != nil {
			r.expr(s.Cond)
		}
		r.fn.loopDepth++
		r.block(s.Body)
		r.fn.loopDepth--
	}
}

func (r *resolver) target(e ast.Expr) {
	switch e := e.(type) {
	case *ast.Ident:
		r.use(e)
		if rf := r.res.refs[e]; rf.vi != nil && rf.vi.isConst || rf.kind == refGlobal && r.topConsts[e.Name] {
			r.errorf(e.Start, "cannot assign to constant '%s'", e.Name)
		}
	case *ast.IndexExpr, *ast.FieldExpr:
		r.expr(e)
	case *ast.ParenExpr:
		r.errorf(e.Start, "%s", ast.AssignProblem(e))
	default:
		r.errorf(e.Pos().Start, "%s", ast.AssignProblem(e))
		r.expr(e)
	}
}

func (r *resolver) exprs(es []ast.Expr) {
	for _, e := range es {
		r.expr(e)
	}
}

func (r *resolver) function(node ast.Node, name string, params *ast.Params, body *ast.Block) {
	fi := &funcInfo{name: name}
	r.res.funcs[node] = fi
	saved := r.blocks
	r.blocks = nil
	r.enterFunc(fi)
	if params != nil {
		for i, id := range params.Names {
			if params.Variadic && i == len(params.Names)-1 {
				fi.variadic = true
				if id.Name != "..." && id.Name != "" {
					// declared after the fixed parameters
					fi.namedVar = r.declare(id, false)
				}
				continue
			}
			fi.params = append(fi.params, r.declare(id, false))
		}
	}
	fi.nparams = len(fi.params)
	if fi.namedVar != nil && fi.namedVar.slot != fi.nparams {
		// slots are allocated in order, so the named vararg follows
		// the fixed parameters
		r.errorf(params.Start, "internal: vararg slot")
	}
	r.block(body)
	r.leaveFunc()
	r.blocks = saved
}

func (r *resolver) expr(e ast.Expr) {
	if e == nil {
		return
	}
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > maxNesting {
		r.errorf(e.Pos().Start, "expression nested too deeply")
		return
	}
	switch e := e.(type) {
	case *ast.Ident:
		r.use(e)
	case *ast.StringLit:
		for _, p := range e.Parts {
			if p.Expr != nil {
				r.expr(p.Expr)
			}
		}
	case *ast.ParenExpr:
		r.expr(e.X)
	case *ast.UnaryExpr:
		r.expr(e.X)
	case *ast.BinaryExpr:
		r.expr(e.Left)
		r.expr(e.Right)
	case *ast.CallExpr:
		r.expr(e.Fun)
		r.exprs(e.Args)
	case *ast.MethodCallExpr:
		r.expr(e.Recv)
		r.exprs(e.Args)
	case *ast.IndexExpr:
		r.expr(e.X)
		r.expr(e.Index)
	case *ast.FieldExpr:
		r.expr(e.X)
	case *ast.FuncLit:
		r.function(e, "", e.Params, e.Body)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			if f.Kind == ast.FieldComputed {
				r.expr(f.Key)
			}
			r.expr(f.Value)
		}
	case *ast.ListExpr:
		r.exprs(e.Elems)
	case *ast.DenseArray:
		r.expr(e.Size)
		r.expr(e.Body)
	case *ast.TaggedBlock:
		r.expr(e.Body) // the tag is a dialect name, not a variable use
	case *ast.TaggedString:
		for _, p := range e.Parts {
			if p.Expr != nil {
				r.expr(p.Expr)
			}
		}
	case *ast.QuoteBlock:
		if e.Fields != nil {
			r.expr(e.Fields)
		} else {
			r.function(e, "quote", &ast.Params{}, e.Body)
		}
	case *ast.AgentExpr:
		if e.Form == ast.FormLegacy {
			r.agentParts(e, e.Params, e.Config, e.Flow)
		} else {
			r.expr(e.Config)
		}
	}
}

// importAlias is the local name an import spec binds.
func importAlias(sp *ast.ImportSpec) string {
	if sp.Alias != nil && sp.Alias.Name != "" {
		return sp.Alias.Name
	}
	if sp.Path == nil {
		return ""
	}
	p, _ := sp.Path.Value()
	return importDefaultAlias(p)
}
