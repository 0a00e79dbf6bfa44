package infer

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
	"github.com/harnlang/harn-check/lang/model"
)

type varKind int

const (
	kindLet varKind = iota
	kindConst
	kindParam
	kindFunc
	kindType
	kindImport
	kindGlobal
)

// variable is one declared name.
type variable struct {
	name     string
	kind     varKind
	typ      types.Type
	declared types.Type // the annotation, when there is one
	decl     ast.Span
	binding  *analysis.Binding
	init     ast.Expr
	fn       *fnInfo
	// reassigned and fieldWritten invalidate constant evaluation.
	reassigned, fieldWritten bool
	// home is the scope the binding was declared in.
	home *scope
	// pending marks a top-level binding declared ahead of its statement.
	pending bool
	// imported marks names bound by an import (types from other modules).
	imported bool
	// enum and enumType describe a name declared by an enum declaration.
	enum     *ast.EnumDecl
	enumType types.Type
	// immutable is "let" or "const" for a binding a declaration made
	// immutable; empty for var bindings, parameters and the rest.
	immutable string
	// nilInit marks an unannotated binding initialised with nil: its
	// first assignment of another value widens its type to `T | nil`.
	nilInit bool
	// holdsLlm marks a binding that may hold the LLM capability whatever
	// its declared type (see llmflow.go); param is the parameter a
	// parameter binding declares.
	holdsLlm bool
	param    *ast.Param
	// module is the module an imported name comes from, as written.
	module string
	// def is the index of the name's definition in the semantic model
	// plus one (0: not recorded).
	def int32
}

// kindNames are the definition kinds of the semantic model.
var kindNames = [...]string{kindLet: "variable", kindConst: "constant", kindParam: "parameter", kindFunc: "function",
	kindType: "type", kindImport: "import", kindGlobal: "declaration"}

// fnInfo is a function declaration whose body is checked once.
type fnInfo struct {
	decl      *ast.FuncDecl
	sig       *types.Func
	hasResult bool
	// outcomeHelper marks a function declared `-> EvaluationOutcome`:
	// when every return is one literal site's precise outcome, its calls
	// keep that outcome's answer label unions.
	outcomeHelper bool
	checked       bool
	inProgress    bool
}

type scope struct {
	parent *scope
	vars   map[string]*variable
	narrow narrowList
	fn     *fnCtx
	// rec records the semantic model (nil when not asked for).
	rec *model.Builder
}

// fnCtx is the function being checked.
type fnCtx struct {
	returns  []types.Type
	declared types.Type
	// gen is set inside a `gen fn`, and in closures nested in one: the
	// body emits a stream.
	gen bool
	// module marks the module's top level, which is no function body.
	module bool
}

func newScope(parent *scope) *scope {
	s := &scope{parent: parent}
	if parent != nil {
		s.fn, s.rec = parent.fn, parent.rec
	}
	return s
}

func (s *scope) declare(v *variable) {
	if s.vars == nil {
		s.vars = map[string]*variable{}
	}
	s.vars[v.name] = v
	if s.rec != nil && v.decl.End > v.decl.Start && v.def == 0 {
		kind := kindNames[v.kind]
		if v.kind == kindLet && v.immutable == "const" {
			kind = kindNames[kindConst]
		}
		// The model's scope 0 is the module's top level; the checker's
		// inner scopes are not recorded.
		sc := int32(-1)
		if s.parent != nil && s.parent.parent == nil {
			sc = 0
		}
		v.def = s.rec.Def(model.Def{Name: v.name, Kind: kind, Span: analysis.Span(v.decl), Module: v.module, Scope: sc}) + 1
	}
}

// use records in the semantic model that the identifier id refers to v.
func (s *scope) use(id *ast.Ident, v *variable) {
	if s.rec != nil && v != nil && v.def > 0 && id != nil {
		s.rec.Use(analysis.Span(id.Span), v.def-1)
	}
}

func (s *scope) lookup(name string) *variable {
	for sc := s; sc != nil; sc = sc.parent {
		if v, ok := sc.vars[name]; ok {
			return v
		}
	}
	return nil
}

// typeOf returns v's type at this point of the flow.
func (s *scope) typeOf(v *variable) types.Type {
	for sc := s; sc != nil; sc = sc.parent {
		if t, ok := sc.narrow.get(v); ok {
			return t
		}
	}
	return v.typ
}

// narrowing maps a *variable, or the string key of a member path rooted
// at one (see pathKey), to its type on one side of a test.
type narrowing map[any]types.Type

// narrowList is what a scope narrows, as a narrowing does. Most scopes
// narrow one or two names: those are a short list, searched in order (a
// map per scope was 4% of the bytes a check allocated); a scope that
// narrows more than narrowSmall gets a map.
type narrowList struct {
	pairs []narrowed
	m     map[any]types.Type
}

// narrowed is one entry of a narrowList.
type narrowed struct {
	key any
	t   types.Type
}

// narrowSmall is the number of entries a narrowList keeps in order.
const narrowSmall = 8

// get returns the type key is narrowed to.
func (n *narrowList) get(key any) (types.Type, bool) {
	if n.m != nil {
		t, ok := n.m[key]
		return t, ok
	}
	for _, p := range n.pairs {
		if p.key == key {
			return p.t, true
		}
	}
	return nil, false
}

// set narrows key to t.
func (n *narrowList) set(key any, t types.Type) {
	if n.m != nil {
		n.m[key] = t
		return
	}
	for i := range n.pairs {
		if n.pairs[i].key == key {
			n.pairs[i].t = t
			return
		}
	}
	if len(n.pairs) < narrowSmall {
		n.pairs = append(n.pairs, narrowed{key, t})
		return
	}
	n.m = make(map[any]types.Type, 2*narrowSmall)
	for _, p := range n.pairs {
		n.m[p.key] = p.t
	}
	n.m[key] = t
	n.pairs = nil
}

// pathType returns the narrowed type of a member path, if any scope holds
// one.
func (s *scope) pathType(key string) (types.Type, bool) {
	for sc := s; sc != nil; sc = sc.parent {
		if t, ok := sc.narrow.get(key); ok {
			return t, true
		}
	}
	return nil, false
}

func (s *scope) refine(v any, t types.Type) {
	s.narrow.set(v, t)
}
