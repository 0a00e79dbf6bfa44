package semantic

import (
	"strings"

	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/stdlib"
)

// BindingKind tells how a name was declared.
type BindingKind uint8

const (
	// Var is `name := value` (and the names of a select receive).
	Var BindingKind = iota
	// Const is `const name := value`.
	Const
	// Param is a function, tool or agent parameter.
	Param
	// Func is `func name(...) {...}`.
	Func
	// Import is an import alias.
	Import
	// ToolDecl is a legacy `tool name(...) {...}` declaration.
	ToolDecl
	// AgentDecl is a legacy `agent name(...) {...}` declaration.
	AgentDecl
	// Range is a loop variable of `for k, v := range x` or of a C-style
	// loop's initializer.
	Range
	// Injected is a local a legacy agent flow receives from the fields
	// written in its agent block (model, system, tools, ...).
	Injected
)

var bindingKindNames = [...]string{"variable", "constant", "parameter", "function", "import", "tool", "agent", "loop variable", "flow local"}

// String names the kind for messages.
func (k BindingKind) String() string {
	if int(k) < len(bindingKindNames) {
		return bindingKindNames[k]
	}
	return "name"
}

// Binding is one declared name.
type Binding struct {
	Name string
	Kind BindingKind
	// Ident is the declaring identifier (nil for injected flow locals).
	Ident *ast.Ident
	// Decl is the declaring statement or node.
	Decl ast.Node
	// Value is the value the name was declared with, when the declaration
	// pairs names and values one to one (nil otherwise).
	Value ast.Expr
	// Params are the parameters of a function declaration (Func) or of a
	// legacy tool or agent declaration.
	Params *ast.Params
	// TopLevel is set for a name declared at the top level of the file,
	// outside any function.
	TopLevel bool
	// Scope is the scope the name lives in.
	Scope *Scope
	// Reads counts the reads of the name; Writes the assignments to it
	// after its declaration (`=`, `+=`, `++`).
	Reads, Writes int
}

// Scope is one lexical scope.
type Scope struct {
	Parent *Scope
	Names  map[string]*Binding
	// Function is set for the scope of a function body (and the file).
	Function bool
	// Evaluate is set inside an evaluate block.
	Evaluate bool
	// Loop is set for a loop's scope.
	Loop bool
	// Node is the node that opened the scope.
	Node ast.Node
}

func newScope(parent *Scope, node ast.Node) *Scope {
	s := &Scope{Parent: parent, Node: node}
	if parent != nil {
		s.Evaluate = parent.Evaluate
	}
	return s
}

// Lookup finds name in s or an enclosing scope.
func (s *Scope) Lookup(name string) *Binding {
	for x := s; x != nil; x = x.Parent {
		if b := x.Names[name]; b != nil {
			return b
		}
	}
	return nil
}

func (s *Scope) declare(b *Binding) {
	if s.Names == nil {
		s.Names = map[string]*Binding{}
	}
	b.Scope = s
	s.Names[b.Name] = b
}

// topLevel reports whether s is the file scope or a block of it outside
// any function.
func (s *Scope) topLevel() bool {
	for x := s; x != nil; x = x.Parent {
		if x.Function {
			return x.Parent == nil
		}
	}
	return true
}

// Unresolved is a name no scope declares and no predeclared name matches.
type Unresolved struct {
	Ident *ast.Ident
	// Write is set for an assignment target.
	Write bool
	// Call is set when the name is called.
	Call bool
	// Scope is where the name was used.
	Scope *Scope
	// Later is a declaration of the same name in a scope visible from the
	// use that comes after it (the name is used before it is declared).
	Later *Binding
	// Unavailable is a predeclared name that exists only elsewhere (eval
	// outside an evaluate block).
	Unavailable *stdlib.Entry
}

// ConstWrite is an assignment to a constant.
type ConstWrite struct {
	Target  *ast.Ident
	Binding *Binding
	// Stmt is the assigning statement.
	Stmt ast.Stmt
}

// resolver walks the file once, binding names to declarations.
type resolver struct {
	facts   *Facts
	pending []pendingBody
	// defaults is the file's agent defaults configuration, or nil.
	defaults *ast.TableExpr
	// evaluate counts the enclosing evaluate blocks during the walk.
}

// pendingBody is a function body resolved after the code around it: it
// runs later, so it sees every name its enclosing scopes declare.
type pendingBody struct {
	scope *Scope
	run   func(s *Scope)
}

func (r *resolver) defer_(scope *Scope, run func(s *Scope)) {
	r.pending = append(r.pending, pendingBody{scope, run})
}

func resolve(f *Facts, file *ast.File) {
	r := &resolver{facts: f, defaults: AgentDefaults(file)}
	root := &Scope{Function: true, Node: file}
	f.FileScope = root
	r.stmts(root, file.Stmts, 0)
	for i := 0; i < len(r.pending); i++ {
		p := r.pending[i]
		p.run(p.scope)
	}
	// A name unresolved where it was used may be declared later in a
	// scope visible from there (used before its declaration).
	for i := range f.Unresolved {
		u := &f.Unresolved[i]
		if u.Unavailable == nil {
			u.Later = u.Scope.Lookup(u.Ident.Name)
		}
	}
}

func (r *resolver) declare(s *Scope, id *ast.Ident, kind BindingKind, decl ast.Node, value ast.Expr) *Binding {
	if id == nil || id.Name == "" {
		return nil
	}
	b := &Binding{Name: id.Name, Kind: kind, Ident: id, Decl: decl, Value: value, TopLevel: s.topLevel()}
	s.declare(b)
	r.facts.Bindings = append(r.facts.Bindings, b)
	r.facts.Decls[id] = b
	return b
}

// use resolves a name read or written at s.
func (r *resolver) use(s *Scope, id *ast.Ident, write, call bool) {
	if id == nil || id.Name == "" || id.Name == "_" && write {
		return
	}
	if b := s.Lookup(id.Name); b != nil {
		r.facts.Uses[id] = b
		if write {
			b.Writes++
		} else {
			b.Reads++
		}
		return
	}
	if g := stdlib.Lookup(id.Name); g != nil {
		if g.Scope == stdlib.EvaluateOnly && !s.Evaluate {
			r.facts.Unresolved = append(r.facts.Unresolved, Unresolved{Ident: id, Write: write, Call: call, Scope: s, Unavailable: g})
			return
		}
		r.facts.Globals[id] = g
		return
	}
	if id.Name == "_" {
		return
	}
	r.facts.Unresolved = append(r.facts.Unresolved, Unresolved{Ident: id, Write: write, Call: call, Scope: s})
}

// stmts resolves a statement list. Function declarations are hoisted:
// each is visible in the whole list, so calling a function declared
// further down is never reported.
func (r *resolver) stmts(s *Scope, list []ast.Stmt, depth int) {
	for _, st := range list {
		if fd, ok := st.(*ast.FuncDecl); ok {
			if b := r.declare(s, fd.Name, Func, fd, nil); b != nil {
				b.Params = fd.Params
			}
		}
	}
	for _, st := range list {
		r.stmt(s, st, depth)
	}
}

func (r *resolver) block(s *Scope, b *ast.Block, depth int) {
	if b == nil {
		return
	}
	inner := newScope(s, b)
	r.stmts(inner, b.Stmts, depth+1)
}

// funcBody resolves a function body later, in a new function scope
// holding params and whatever extra declares.
func (r *resolver) funcBody(s *Scope, node ast.Node, params *ast.Params, body *ast.Block, depth int, extra func(fs *Scope)) {
	r.defer_(s, func(s *Scope) {
		fs := newScope(s, node)
		fs.Function = true
		if params != nil {
			for _, p := range params.Names {
				if p != nil && p.Name != "..." {
					r.declare(fs, p, Param, node, nil)
				}
			}
		}
		if extra != nil {
			extra(fs)
		}
		if body != nil {
			r.stmts(fs, body.Stmts, depth+1)
		}
	})
}

func (r *resolver) stmt(s *Scope, st ast.Stmt, depth int) {
	if st == nil || depth > ast.MaxDepth {
		return
	}
	switch x := st.(type) {
	case *ast.ExprStmt:
		r.expr(s, x.X, depth)
	case *ast.DeclareStmt:
		r.exprs(s, x.Right, depth)
		for i, l := range x.Left {
			id, ok := l.(*ast.Ident)
			if !ok {
				r.expr(s, l, depth)
				continue
			}
			var v ast.Expr
			if len(x.Left) == len(x.Right) {
				v = x.Right[i]
			}
			if id.Name == "_" {
				continue
			}
			r.declare(s, id, Var, x, v)
		}
	case *ast.AssignStmt:
		r.exprs(s, x.Right, depth)
		for _, l := range x.Left {
			r.target(s, l, x, depth)
		}
	case *ast.CompoundAssignStmt:
		r.expr(s, x.Right, depth)
		r.readWrite(s, x.Left, x, depth)
	case *ast.IncDecStmt:
		r.readWrite(s, x.X, x, depth)
	case *ast.SendStmt:
		r.expr(s, x.Chan, depth)
		r.expr(s, x.Value, depth)
	case *ast.ReceiveStmt:
		r.expr(s, x.Right, depth)
		for _, l := range x.Left {
			id, ok := l.(*ast.Ident)
			if !ok {
				r.expr(s, l, depth)
				continue
			}
			if x.Declare {
				if id.Name != "_" {
					r.declare(s, id, Var, x, nil)
				}
			} else {
				r.target(s, l, x, depth)
			}
		}
	case *ast.ConstDecl:
		r.exprs(s, x.Values, depth)
		for i, id := range x.Names {
			var v ast.Expr
			if len(x.Names) == len(x.Values) {
				v = x.Values[i]
			}
			r.declare(s, id, Const, x, v)
		}
	case *ast.FuncDecl:
		// Declared by stmts (hoisted).
		r.funcBody(s, x, x.Params, x.Body, depth, nil)
	case *ast.IfStmt:
		r.expr(s, x.Cond, depth)
		r.block(s, x.Then, depth)
		for _, ei := range x.ElseIfs {
			r.expr(s, ei.Cond, depth)
			r.block(s, ei.Body, depth)
		}
		r.block(s, x.Else, depth)
	case *ast.ForStmt:
		ls := newScope(s, x)
		ls.Loop = true
		switch x.Kind {
		case ast.ForRange:
			r.expr(s, x.X, depth)
			for _, v := range x.Vars {
				if id, ok := v.(*ast.Ident); ok {
					if id.Name != "_" {
						r.declare(ls, id, Range, x, nil)
					}
				} else {
					r.expr(ls, v, depth)
				}
			}
		case ast.ForClause:
			if d, ok := x.Init.(*ast.DeclareStmt); ok {
				r.exprs(s, d.Right, depth)
				for _, l := range d.Left {
					if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
						r.declare(ls, id, Range, d, nil)
					}
				}
			} else {
				r.stmt(ls, x.Init, depth+1)
			}
			r.expr(ls, x.Cond, depth)
			r.stmt(ls, x.Post, depth+1)
		default:
			r.expr(ls, x.Cond, depth)
		}
		if x.Body != nil {
			r.stmts(newScope(ls, x.Body), x.Body.Stmts, depth+1)
		}
	case *ast.SelectStmt:
		for _, c := range x.Cases {
			cs := newScope(s, c)
			r.stmt(cs, c.Comm, depth+1)
			r.stmts(cs, c.Body, depth+1)
		}
	case *ast.ReturnStmt:
		r.exprs(s, x.Values, depth)
	case *ast.GoStmt:
		r.expr(s, x.Call, depth)
	case *ast.DeferStmt:
		r.expr(s, x.Call, depth)
	case *ast.ImportDecl:
		for _, spec := range x.Specs {
			id := spec.Alias
			if id == nil && spec.Path != nil {
				if p, ok := spec.Path.Value(); ok {
					id = &ast.Ident{Span: spec.Path.Span, Name: ImportName(p)}
				}
			}
			r.declare(s, id, Import, spec, nil)
		}
	case *ast.EvaluateStmt:
		r.expr(s, x.Name, depth)
		// The harness runs a case after every top-level statement.
		body := x.Body
		r.defer_(s, func(s *Scope) {
			es := newScope(s, x)
			es.Evaluate = true
			if body != nil {
				r.stmts(es, body.Stmts, depth+1)
			}
		})
	case *ast.ToolDecl:
		b := r.declare(s, x.Name, ToolDecl, x, nil)
		if b != nil {
			b.Params = x.Params
		}
		r.funcBody(s, x, x.Params, x.Body, depth, nil)
	case *ast.AgentDecl:
		b := r.declare(s, x.Name, AgentDecl, x, nil)
		if b != nil {
			b.Params = x.Params
		}
		r.legacyAgent(s, x, x.Params, x.Config, x.Flow, depth)
	case *ast.AgentDefaults:
		r.expr(s, x.Config, depth)
	case *ast.BudgetStmt:
		r.expr(s, x.Limits, depth)
		r.block(s, x.Body, depth)
	}
}

// legacyAgent resolves a legacy agent's configuration as the body of its
// config function (its parameters in scope) and its flow with the
// parameters plus the locals the flow receives from the configuration.
func (r *resolver) legacyAgent(s *Scope, node ast.Node, params *ast.Params, config *ast.TableExpr, flow *ast.Block, depth int) {
	r.defer_(s, func(s *Scope) {
		cs := newScope(s, node)
		cs.Function = true
		if params != nil {
			for _, p := range params.Names {
				if p != nil && p.Name != "..." {
					r.declare(cs, p, Param, node, nil)
				}
			}
		}
		r.expr(cs, config, depth+1)
	})
	if flow == nil {
		return
	}
	r.funcBody(s, node, params, flow, depth, func(fs *Scope) {
		for _, f := range FlowFields(config, r.defaults) {
			b := &Binding{Name: f.Name, Kind: Injected, Decl: node, Value: f.Value}
			fs.declare(b)
			r.facts.Bindings = append(r.facts.Bindings, b)
		}
	})
}

// FlowFields are the configuration fields a legacy agent's flow receives
// as locals, in order: upstream's lowering declares, at the top of the
// flow, a local for every field whose key is a name (model, tools,
// max_tokens, budget, ...), read from the config table; a key written
// twice counts once. A flow also sees the agent fields the module's
// `agent defaults {}` block sets and the agent block leaves out (model,
// system, tools, capabilities, caps, output): the config the flow reads is
// the defaults merged under the agent's own fields, so `model` in a flow
// is the model the agent's turns use (upstream's examples/llm/agent.leia).
// The checker and the runtime both lower by it.
func FlowFields(config, defaults *ast.TableExpr) []*ast.TableField {
	if config == nil {
		return nil
	}
	var out []*ast.TableField
	seen := map[string]bool{}
	for _, f := range config.Fields {
		if (f.Kind != ast.FieldNamed && f.Kind != ast.FieldString) || !isName(f.Name) || seen[f.Name] {
			continue
		}
		seen[f.Name] = true
		out = append(out, f)
	}
	if defaults != nil {
		for _, f := range defaults.Fields {
			if (f.Kind != ast.FieldNamed && f.Kind != ast.FieldString) || !defaultedFlowField[f.Name] || seen[f.Name] {
				continue
			}
			seen[f.Name] = true
			out = append(out, f)
		}
	}
	return out
}

// defaultedFlowField are the agent fields a flow receives from the
// module's agent defaults when its agent block does not set them.
var defaultedFlowField = map[string]bool{"model": true, "system": true, "tools": true, "capabilities": true, "caps": true, "output": true}

// AgentDefaults is the configuration of a file's module-level `agent
// defaults {}` block (at most one is allowed), or nil.
func AgentDefaults(f *ast.File) *ast.TableExpr {
	if f == nil {
		return nil
	}
	for _, s := range f.Stmts {
		if d, ok := s.(*ast.AgentDefaults); ok {
			return d.Config
		}
	}
	return nil
}

// isName reports an identifier's spelling: a letter or underscore, then
// letters, digits and underscores (ASCII).
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// ImportName is the name an import binds without an alias: the last
// element of its path ("json", "go:net/http" -> "http").
func ImportName(path string) string {
	if i := strings.LastIndexAny(path, "/:"); i >= 0 {
		path = path[i+1:]
	}
	return strings.TrimSuffix(path, ".leia")
}

// target resolves an assignment target.
func (r *resolver) target(s *Scope, e ast.Expr, stmt ast.Stmt, depth int) {
	switch x := e.(type) {
	case *ast.Ident:
		r.use(s, x, true, false)
		if b := r.facts.Uses[x]; b != nil && b.Kind == Const {
			r.facts.ConstWrites = append(r.facts.ConstWrites, ConstWrite{Target: x, Binding: b, Stmt: stmt})
		}
	default:
		r.expr(s, e, depth)
	}
}

// readWrite resolves the operand of `x += e` or `x++`: read and written.
func (r *resolver) readWrite(s *Scope, e ast.Expr, stmt ast.Stmt, depth int) {
	if id, ok := e.(*ast.Ident); ok {
		r.target(s, id, stmt, depth)
		if b := r.facts.Uses[id]; b != nil {
			b.Reads++
		}
		return
	}
	r.expr(s, e, depth)
}

func (r *resolver) exprs(s *Scope, list []ast.Expr, depth int) {
	for _, e := range list {
		r.expr(s, e, depth)
	}
}

func (r *resolver) parts(s *Scope, ps []ast.StringPart, depth int) {
	for _, p := range ps {
		if p.Expr != nil {
			r.expr(s, p.Expr, depth+1)
		}
	}
}

func (r *resolver) expr(s *Scope, e ast.Expr, depth int) {
	if e == nil || depth > ast.MaxDepth {
		return
	}
	depth++
	switch x := e.(type) {
	case *ast.Ident:
		r.use(s, x, false, false)
	case *ast.StringLit:
		if x != nil {
			r.parts(s, x.Parts, depth)
		}
	case *ast.ParenExpr:
		r.expr(s, x.X, depth)
	case *ast.UnaryExpr:
		r.expr(s, x.X, depth)
	case *ast.BinaryExpr:
		r.expr(s, x.Left, depth)
		r.expr(s, x.Right, depth)
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok {
			r.use(s, id, false, true)
		} else {
			r.expr(s, x.Fun, depth)
		}
		r.exprs(s, x.Args, depth)
	case *ast.MethodCallExpr:
		r.expr(s, x.Recv, depth)
		r.exprs(s, x.Args, depth)
	case *ast.IndexExpr:
		r.expr(s, x.X, depth)
		r.expr(s, x.Index, depth)
	case *ast.FieldExpr:
		r.expr(s, x.X, depth)
	case *ast.FuncLit:
		r.funcBody(s, x, x.Params, x.Body, depth, nil)
	case *ast.TableExpr:
		if x == nil {
			return
		}
		for _, f := range x.Fields {
			if f.Kind == ast.FieldComputed {
				r.expr(s, f.Key, depth)
			}
			r.expr(s, f.Value, depth)
		}
	case *ast.ListExpr:
		r.exprs(s, x.Elems, depth)
	case *ast.DenseArray:
		r.expr(s, x.Size, depth)
		r.expr(s, x.Body, depth)
	case *ast.TaggedBlock:
		if x != nil {
			r.expr(s, x.Body, depth)
		}
	case *ast.TaggedString:
		r.parts(s, x.Parts, depth)
	case *ast.QuoteBlock:
		if x.Fields != nil {
			r.expr(s, x.Fields, depth)
		}
		if x.Body != nil {
			r.funcBody(s, x, nil, x.Body, depth, nil)
		}
	case *ast.AgentExpr:
		if x.Form == ast.FormLegacy {
			r.legacyAgent(s, x, x.Params, x.Config, x.Flow, depth)
		} else {
			r.expr(s, x.Config, depth)
		}
	}
}
