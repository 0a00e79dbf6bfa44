package analysis

import (
	"github.com/harnlang/harn-check/catalog"
	framework "github.com/harnlang/harn-check/checker/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
	"github.com/harnlang/harn-check/lang/model"
)

// Rule is one named check of the Harn checker.
type Rule = framework.Rule[*Pass]

// Checker is how tests check one Harn file with chosen rules; see
// checker/harn's Checker value.
type Checker = framework.Checker[*Pass]

// Pass is one rule's view of one checked module.
type Pass struct {
	*framework.Pass
	// File is the module's syntax tree.
	File *ast.File
	// Facts are what the inference pass recorded.
	Facts *Facts
	// Catalog is the model route catalog in force for the module.
	Catalog *catalog.Catalog
	// Rule is the rule being run.
	Rule *Rule
}

// Unit is what the checker learnt about one module before its rules run.
type Unit struct {
	File    *ast.File
	Facts   *Facts
	Catalog *catalog.Catalog
}

// RunRules runs rules (and their requirements) over one module, sending
// the listed rules' diagnostics to report.
func RunRules(rules []*Rule, path string, src []byte, u Unit, report func(diagnostics.Diagnostic)) {
	framework.Run(rules, path, src, report, func(base *framework.Pass, r *Rule) *Pass {
		return &Pass{Pass: base, File: u.File, Facts: u.Facts, Catalog: u.Catalog, Rule: r}
	})
}

// Diag builds a diagnostic of code at span with a formatted message; the
// severity is the registry's.
func (p *Pass) Diag(source diagnostics.Source, code string, span ast.Span, format string, args ...any) diagnostics.Diagnostic {
	return p.New(source, code, Span(span), format, args...)
}

// Text returns the source text of span.
func (p *Pass) Text(span ast.Span) string { return p.Slice(Span(span)) }

// Span converts a syntax span to a diagnostics span.
func Span(s ast.Span) diagnostics.Span { return diagnostics.Span{Start: s.Start, End: s.End} }

// ExtractDoc returns the documentation of rule name from its doc.go
// source (framework.ExtractDoc).
func ExtractDoc(src, name string) *framework.Doc { return framework.ExtractDoc(src, name) }

// Facts is what the inference pass learnt about one module.
type Facts struct {
	// Types maps each inferred expression to its type at that point of the
	// flow (after narrowing).
	Types map[ast.Expr]types.Type
	// Sites are the evaluation calls, valid or not, in source order.
	Sites []*Site
	// MethodValues are evaluation methods taken as values (not called).
	MethodValues []MethodValue
	// PolicyPasses are policies passed to helpers whose parameter is the
	// policy of evaluation sites (followed through helpers within the
	// import closure).
	PolicyPasses []PolicyPass
	// HiddenCalls are evaluation calls the checker cannot prove to be
	// literal sites: a computed property of the LLM capability, or an
	// evaluation method called on a parameter that receives harness.llm
	// under an erased type.
	HiddenCalls []HiddenCall
	// Conditions are expressions used as booleans.
	Conditions []Condition
	// Binaries are binary operations with their operand types.
	Binaries []Binary
	// Reads are property, index and destructuring reads.
	Reads []Read
	// Matches are match expressions with their subject types.
	Matches []Match
	// Discards are values evaluated and thrown away.
	Discards []Discard
	// Bindings are the named const/let/var bindings.
	Bindings []*Binding
	// Unresolved are names that resolve to nothing.
	Unresolved []Unresolved
	// Calls are calls whose callee signature is known.
	Calls []Call
	// Inits are bindings declared with a type and an initialiser.
	Inits []Init
	// Returns are return statements with a value in functions that
	// declare a result type.
	Returns []Return
	// Destructures are binding patterns and spreads with the types of the
	// values they take apart.
	Destructures []Destructure
	// ImmutableWrites are assignments to let or const bindings.
	ImmutableWrites []ImmutableWrite
	// Redeclarations are immutable bindings declared again in the same
	// scope.
	Redeclarations []Redeclaration
	// GenericConflicts are calls binding one type parameter to two
	// different types.
	GenericConflicts []GenericConflict
	// InterfaceMismatches are calls passing a type that does not satisfy
	// the interface a type parameter is bound by.
	InterfaceMismatches []InterfaceMismatch
	// StreamMisuses are yield inside a gen fn and emit outside one.
	StreamMisuses []StreamMisuse
	// TopLevelRethrows are `try* x` expressions outside any fn, tool,
	// pipeline or closure body.
	TopLevelRethrows []ast.Span
	// ParamOrders are required parameters written after defaulted ones.
	ParamOrders []ParamOrder
	// VarianceDecls are declarations whose type parameters are marked
	// `in` or `out`.
	VarianceDecls []ast.Stmt
	// Labels maps a label-union type built for a literal question set to
	// the question that declared it, so messages can point there.
	Labels map[types.Type]*Question
	// Degraded is set when an import failed: unresolved names are then
	// not certain errors.
	Degraded bool
	// LimitHits are the places where inference stopped short because a
	// limit was reached (a union or match too large); each becomes its
	// HARN-LIM diagnostic.
	LimitHits []LimitHit
	// Model is the module's semantic model (what each name resolves to),
	// when the check asked for it (Options.Model), else nil.
	Model *model.Model
}

// LimitHit is one limit reached during inference.
type LimitHit struct {
	// Code is the limit's diagnostic code (limits.CodeUnion, ...).
	Code    string
	Span    ast.Span
	Message string
	Help    string
}

// TypeOf returns the recorded type of e, or any.
func (f *Facts) TypeOf(e ast.Expr) types.Type {
	if t, ok := f.Types[e]; ok && t != nil {
		return t
	}
	return types.AnyType
}

// LabelQuestion returns the question whose declared labels form the
// literal union t, or nil.
func (f *Facts) LabelQuestion(t types.Type) *Question {
	return f.Labels[t]
}

// Init is `let|var|const name: T = value`.
type Init struct {
	Decl *ast.VarDecl
	// Declared is T; Value is the initialiser's inferred type.
	Declared, Value types.Type
}

// Return is `return value` in a function declaring its result type.
type Return struct {
	Node *ast.Return
	// Declared is the function's result type; Value the value's type.
	Declared, Value types.Type
}

// Uncertain reports whether t contains any, unknown, an open record, a
// bare container or a function anywhere: nothing about such a value's
// shape is certain, so rules comparing it with a declared type stay quiet.
func Uncertain(t types.Type) bool { return uncertain(t, true, 0) }

// ContainsGradual reports whether t contains any, unknown, an open record
// or a bare container anywhere (Uncertain without the function case).
func ContainsGradual(t types.Type) bool { return uncertain(t, false, 0) }

// uncertain walks t; depth bounds the walk so that recursive types
// (`type Tree = {children: list<Tree>}`) terminate, counting as uncertain.
func uncertain(t types.Type, funcs bool, depth int) bool {
	if depth > 32 {
		return true
	}
	for _, m := range types.Members(t) {
		if types.IsGradual(m) {
			return true
		}
		switch u := types.Unalias(m).(type) {
		case *types.Record:
			if u.Open {
				return true
			}
			for _, f := range u.Fields {
				if uncertain(f.Type, funcs, depth+1) {
					return true
				}
			}
		case *types.List:
			if u.Bare || uncertain(u.Elem, funcs, depth+1) {
				return true
			}
		case *types.Dict:
			if u.Bare || uncertain(u.Value, funcs, depth+1) {
				return true
			}
		case *types.Func:
			if funcs {
				return true
			}
		}
	}
	return false
}

// MethodValue is `recv.evaluate` read without calling it.
type MethodValue struct {
	Span   ast.Span
	Method string
}

// PolicyPass is a policy argument of a call of a helper that passes the
// parameter on as the policy of evaluation sites.
type PolicyPass struct {
	// Callee names the helper; Arg is the argument.
	Callee string
	Arg    ast.Expr
	// Policy is what const evaluation learnt about the argument.
	Policy Policy
	// Sites are the helper's evaluation sites that use the policy.
	Sites []*Site
}

// HiddenCall is an evaluation call that declares no site.
type HiddenCall struct {
	Span   ast.Span
	Method string // the method, when named
	Reason string
}

// Condition is an expression whose value is used as a boolean.
type Condition struct {
	Expr ast.Expr
	Type types.Type
	// Context names the construct: "if", "while", "guard", "require",
	// "ternary", "!", "&&", "||".
	Context string
}

// Binary is a binary operation with the types of its operands.
type Binary struct {
	Node        *ast.Binary
	Left, Right types.Type
}

// Read is a read of a field from a value.
type Read struct {
	// Span covers the whole read expression (or the pattern entry).
	Span ast.Span
	// NameSpan covers the field name.
	NameSpan ast.Span
	// X is the receiver expression.
	X ast.Expr
	// Recv is the receiver's type at the read.
	Recv types.Type
	// Field is the field name; empty for a dynamic index.
	Field string
	// Dynamic marks an index whose key is not a literal.
	Dynamic bool
	// Kind is "property", "optional property", "index" or "destructuring".
	Kind string
	// Stmt is the span of the innermost statement containing the read.
	Stmt ast.Span
}

// Match is a match expression.
type Match struct {
	Node *ast.Match
	// Subject is the type of the matched value.
	Subject types.Type
}

// Discard is a value evaluated and dropped.
type Discard struct {
	Span ast.Span
	Type types.Type
	// Kind is "statement" or "discard binding".
	Kind string
}

// Binding is a named const/let/var binding or parameter.
type Binding struct {
	Name string
	Span ast.Span
	Type types.Type
	// Uses counts the reads of the binding (lexically resolved).
	Uses int
	// Param marks a function parameter.
	Param bool
}

// Unresolved is a name no scope declares.
type Unresolved struct {
	Ident *ast.Ident
	// Call is set when the name is called.
	Call bool
	// Suggest is the nearest visible or builtin name, for a
	// "did you mean" hint; empty when none is close.
	Suggest string
}

// Call is a call of a function whose signature is known.
type Call struct {
	Node *ast.Call
	// Name names the callee for messages.
	Name string
	Sig  *types.Func
	// Args are the argument types (nil entries for spread arguments).
	Args []types.Type
	// Builtin marks a built-in or standard-library function.
	Builtin bool
	// Method marks a method of a built-in kind typed from the builtin
	// table (`xs.take(2)`: Name "list.take").
	Method bool
	// DeclSpan is the callee's declaration, when in this module.
	DeclSpan *ast.Span
}

// Destructure is a binding pattern or a spread applied to a value.
type Destructure struct {
	// Span covers the pattern or the spread.
	Span ast.Span
	// Value is the type of the value taken apart.
	Value types.Type
	// List is set for a list pattern or a list spread (`[...]`), clear
	// for a dict pattern or dict spread (`{...}`).
	List bool
	// Spread marks `...x` inside a list or dict literal.
	Spread bool
}

// ImmutableWrite is an assignment to a binding declared with let or
// const.
type ImmutableWrite struct {
	// Span covers the assignment's target.
	Span ast.Span
	Name string
	// Kind is "let" or "const".
	Kind string
	// Decl is the binding's declaration.
	Decl ast.Span
}

// Redeclaration is an immutable binding declared again in the scope
// that already holds one.
type Redeclaration struct {
	Span ast.Span
	Name string
	// Prev is the earlier declaration.
	Prev ast.Span
}

// GenericConflict is a call whose arguments bind a type parameter to two
// different types.
type GenericConflict struct {
	// Span covers the call.
	Span ast.Span
	// Func and Param name the function and its type parameter.
	Func, Param   string
	First, Second types.Type
}

// InterfaceMismatch is a call of a generic function whose argument's type
// does not satisfy the interface that bounds the type parameter.
type InterfaceMismatch struct {
	// Span covers the argument.
	Span ast.Span
	// Type is the argument's type name; Interface the bound; TypeParam
	// the constrained parameter.
	Type, Interface, TypeParam string
	// Reason says what is missing or mismatched.
	Reason string
}

// StreamMisuse is a yield inside a gen fn, or an emit outside one.
type StreamMisuse struct {
	Span ast.Span
	// Yield is set for a yield in a gen fn, clear for an emit outside one.
	Yield bool
}

// ParamOrder is a required parameter after a parameter with a default.
type ParamOrder struct {
	// Span covers the required parameter; Defaulted the first parameter
	// with a default before it.
	Span, Defaulted ast.Span
}
