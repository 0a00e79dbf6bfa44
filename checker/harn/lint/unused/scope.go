package unused

import (
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// Kind says what a declaration declares.
type Kind int

// The kinds of declarations the rules look at.
const (
	Variable       Kind = iota // const/let/var NAME = ...
	PatternBinding             // a name inside a destructuring pattern
	Parameter                  // a parameter of a function or closure
)

// Decl is one declared name.
type Decl struct {
	Name string
	// Span is the name's span.
	Span ast.Span
	Kind Kind
	// Var is the declaration for const/let/var bindings, nil otherwise.
	Var *ast.VarDecl
	// Shadows is the span of the outer declaration of the same name it
	// hides, when it hides one.
	Shadows *ast.Span
	// Redeclares is set when an immutable binding is declared again in
	// the scope that holds it.
	Redeclares *ast.Span
}

// Facts are what one walk of the file learns for the rules of this
// package: the declared names, and the names read or assigned anywhere in
// the file. As upstream's linter does, uses are counted by name across
// the file, so a name used anywhere counts as used everywhere; a rule
// never reports a name that is in fact used.
type Facts struct {
	Decls []*Decl
	// Refs are the names read as values (calls included).
	Refs map[string]bool
	// TypeRefs are the names used as types or constructors.
	TypeRefs map[string]bool
	// Assigned are the names assigned to (the root of the target).
	Assigned map[string]bool
}

type scope map[string]ast.Span

type walker struct {
	f      *Facts
	scopes []scope
	// decls marks the identifiers that declare rather than use.
	decls map[*ast.Ident]bool
}

// Collect walks file.
func Collect(file *ast.File) *Facts {
	w := &walker{f: &Facts{Refs: map[string]bool{}, TypeRefs: map[string]bool{}, Assigned: map[string]bool{}}, decls: map[*ast.Ident]bool{}}
	w.push()
	for _, it := range file.Items {
		w.node(it)
	}
	return w.f
}

func (w *walker) push() { w.scopes = append(w.scopes, scope{}) }
func (w *walker) pop()  { w.scopes = w.scopes[:len(w.scopes)-1] }

// declare records a name in the innermost scope.
func (w *walker) declare(id *ast.Ident, kind Kind, v *ast.VarDecl) {
	w.declareName(id.Name, id.Span, kind, v)
}

func (w *walker) declareName(name string, span ast.Span, kind Kind, v *ast.VarDecl) {
	if name == "" || name == "_" {
		return
	}
	d := &Decl{Name: name, Span: span, Kind: kind, Var: v}
	inner := w.scopes[len(w.scopes)-1]
	if prev, ok := inner[name]; ok && (v == nil || v.Kind != ast.Var) {
		p := prev
		d.Redeclares = &p
	} else {
		for i := len(w.scopes) - 2; i >= 0; i-- {
			if prev, ok := w.scopes[i][name]; ok {
				p := prev
				d.Shadows = &p
				break
			}
		}
	}
	inner[name] = span
	w.f.Decls = append(w.f.Decls, d)
}

// pattern declares the names a binding pattern binds.
func (w *walker) pattern(p ast.Pattern, v *ast.VarDecl, top bool) {
	switch p := p.(type) {
	case *ast.Ident:
		w.decls[p] = true
		kind := PatternBinding
		if top {
			kind = Variable
		}
		w.declare(p, kind, v)
	case *ast.DictPattern:
		for _, e := range p.Entries {
			if e.Default != nil {
				w.node(e.Default)
			}
			if ast.IsNil(e.Pattern) {
				w.declareName(e.Key, e.KeySpan, PatternBinding, v)
				continue
			}
			w.pattern(e.Pattern, v, false)
		}
		if p.Rest != nil {
			w.decls[p.Rest] = true
			w.declare(p.Rest, PatternBinding, v)
		}
	case *ast.ListPattern:
		for _, e := range p.Elements {
			if e.Default != nil {
				w.node(e.Default)
			}
			w.pattern(e.Pattern, v, false)
		}
		if p.Rest != nil {
			w.decls[p.Rest] = true
			w.declare(p.Rest, PatternBinding, v)
		}
	case *ast.PairPattern:
		w.pattern(p.First, v, false)
		w.pattern(p.Second, v, false)
	}
}

func (w *walker) params(ps []*ast.Param) {
	for _, p := range ps {
		if p.Type != nil {
			w.node(p.Type)
		}
		if p.Default != nil {
			w.node(p.Default)
		}
		if p.Name != nil {
			w.decls[p.Name] = true
			w.declare(p.Name, Parameter, nil)
		}
	}
}

// body walks statements in the current scope.
func (w *walker) body(ss []ast.Stmt) {
	for _, s := range ss {
		w.node(s)
	}
}

// function walks parameters and body in a scope of their own.
func (w *walker) function(ps []*ast.Param, body []ast.Stmt, rest ...ast.Node) {
	for _, n := range rest {
		w.node(n)
	}
	w.push()
	w.params(ps)
	w.body(body)
	w.pop()
}

func stmts(b *ast.Block) []ast.Stmt {
	if b == nil {
		return nil
	}
	return b.Stmts
}

// rootName is the variable an assignment target writes into.
func rootName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name
		case *ast.Member:
			e = x.X
		case *ast.Index:
			e = x.X
		case *ast.Paren:
			e = x.X
		default:
			return ""
		}
	}
}

func (w *walker) node(n ast.Node) {
	if ast.IsNil(n) {
		return
	}
	switch n := n.(type) {
	case *ast.VarDecl:
		w.node(n.Type)
		w.node(n.Value)
		w.pattern(n.Pattern, n, true)
		return
	case *ast.Assign:
		if name := rootName(n.Target); name != "" {
			w.f.Assigned[name] = true
		}
		if n.Op != ast.AssignPlain {
			w.node(n.Target)
		} else if _, ok := n.Target.(*ast.Ident); !ok {
			w.node(n.Target)
		}
		w.node(n.Value)
		return
	case *ast.FuncDecl:
		rest := []ast.Node{n.ReturnType, n.Throws}
		for _, wp := range n.Where {
			for _, b := range wp.Bounds {
				rest = append(rest, b)
			}
		}
		w.function(n.Params, stmts(n.Body), rest...)
		return
	case *ast.FuncLit:
		w.function(n.Params, stmts(n.Body), n.ReturnType, n.Throws)
		return
	case *ast.Closure:
		w.function(n.Params, n.Body)
		return
	case *ast.ToolDecl:
		w.function(n.Params, n.Body, n.ReturnType, n.Throws, n.Description)
		return
	case *ast.Pipeline:
		w.node(n.ReturnType)
		if n.Parent != nil {
			w.f.Refs[n.Parent.Name] = true
		}
		w.push()
		for _, p := range n.Params {
			// Pipeline inputs are the program's interface, not reported.
			w.node(p.Type)
			w.node(p.Default)
			if p.Name != nil {
				w.scopes[len(w.scopes)-1][p.Name.Name] = p.Name.Span
			}
		}
		w.body(stmts(n.Body))
		w.pop()
		return
	case *ast.Override:
		w.push()
		for _, p := range n.Params {
			if p.Name != nil {
				w.scopes[len(w.scopes)-1][p.Name.Name] = p.Name.Span
			}
		}
		w.body(stmts(n.Body))
		w.pop()
		return
	case *ast.MethodSig:
		// An interface method's parameters have no body to use them.
		for _, p := range n.Params {
			w.node(p.Type)
		}
		w.node(n.ReturnType)
		w.node(n.Throws)
		return
	case *ast.Block:
		w.push()
		w.body(n.Stmts)
		w.pop()
		return
	case *ast.For:
		w.node(n.Iterable)
		w.push()
		if id, ok := n.Pattern.(*ast.Ident); ok {
			// A loop variable is not reported unused (upstream).
			w.scopes[len(w.scopes)-1][id.Name] = id.Span
			w.decls[id] = true
		} else {
			w.pattern(n.Pattern, nil, false)
		}
		w.body(stmts(n.Body))
		w.pop()
		return
	case *ast.Catch:
		w.node(n.Type)
		w.push()
		if n.Name != nil {
			w.scopes[len(w.scopes)-1][n.Name.Name] = n.Name.Span
		}
		w.body(stmts(n.Body))
		w.pop()
		return
	case *ast.SelectCase:
		w.node(n.Channel)
		w.push()
		if n.Name != nil {
			w.scopes[len(w.scopes)-1][n.Name.Name] = n.Name.Span
		}
		w.body(stmts(n.Body))
		w.pop()
		return
	case *ast.MatchArm:
		// Names bound by match patterns are in the arm's scope; they are
		// not reported (upstream reads them as uses of the pattern).
		w.push()
		w.matchPattern(n.Pattern)
		w.node(n.Guard)
		w.body(stmts(n.Body))
		w.pop()
		return
	case *ast.Ident:
		if !w.decls[n] {
			w.f.Refs[n.Name] = true
		}
		return
	case *ast.Member:
		w.node(n.X)
		return
	case *ast.Call:
		if m, ok := n.Func.(*ast.Member); ok {
			// A method called on a variable may change it in place
			// (xs.push(x)): such a var is not "never reassigned".
			if name := rootName(m.X); name != "" {
				w.f.Assigned[name] = true
			}
		}
	case *ast.DictEntry:
		if n.Computed != nil {
			w.node(n.Computed)
		}
		if n.Name != nil && ast.IsNil(n.Value) {
			// Shorthand {name}: reads name.
			w.f.Refs[n.Name.Name] = true
		}
		w.node(n.Value)
		return
	case *ast.FieldInit:
		if n.Name != nil && ast.IsNil(n.Value) {
			w.f.Refs[n.Name.Name] = true
		}
		w.node(n.Value)
		return
	case *ast.StructLit:
		if n.Name != nil {
			w.f.TypeRefs[n.Name.Name] = true
		}
		for _, fi := range n.Fields {
			w.node(fi)
		}
		return
	case *ast.NamedType:
		if n.Name != nil {
			w.f.TypeRefs[n.Name.Name] = true
		}
		for _, a := range n.Args {
			w.node(a)
		}
		return
	case *ast.ImplDecl:
		if n.Type != nil {
			w.f.TypeRefs[n.Type.Name] = true
		}
		for _, m := range n.Methods {
			w.node(m)
		}
		return
	case *ast.VariantPattern:
		if n.Enum != nil {
			w.f.TypeRefs[n.Enum.Name] = true
		}
		return
	case *ast.Import, *ast.Attribute, *ast.ShapeField, *ast.StructField, *ast.Variant, *ast.TypeParam,
		*ast.AssociatedType, *ast.SkillField, *ast.EvalPackField, *ast.ApprovalArg, *ast.AttributeArg:
		// Names here are labels or declarations, not uses; their values
		// and types are.
		ast.EachChild(n, func(c ast.Node) {
			if _, ok := c.(*ast.Ident); !ok {
				w.node(c)
			}
		})
		return
	case *ast.TypeAlias, *ast.StructDecl, *ast.EnumDecl, *ast.InterfaceDecl, *ast.SkillDecl, *ast.EvalPackDecl:
		ast.EachChild(n, func(c ast.Node) {
			if _, ok := c.(*ast.Ident); !ok {
				w.node(c)
			}
		})
		return
	}
	ast.EachChild(n, w.node)
}

// matchPattern puts the names a match pattern binds in the arm's scope
// and records the types it names.
func (w *walker) matchPattern(p ast.Pattern) {
	ast.Inspect(p, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.VariantPattern:
			if x.Enum != nil {
				w.f.TypeRefs[x.Enum.Name] = true
				w.decls[x.Enum] = true
			}
			if x.Variant != nil {
				w.decls[x.Variant] = true
			}
		case *ast.LiteralPattern:
			w.node(x.Value)
			return false
		case *ast.DictPatternEntry:
			if x.Default != nil {
				w.node(x.Default)
			}
			if ast.IsNil(x.Pattern) {
				w.scopes[len(w.scopes)-1][x.Key] = x.KeySpan
			}
		case *ast.Ident:
			if !w.decls[x] {
				w.scopes[len(w.scopes)-1][x.Name] = x.Span
				w.decls[x] = true
			}
		}
		return true
	})
}
