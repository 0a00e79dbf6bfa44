package semantic

import (
	"strings"

	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/stdlib"
)

// BasicKind is what the checker knows statically of a Leia value's type.
type BasicKind uint8

// The kinds the checker tracks.
const (
	UnknownKind BasicKind = iota
	StringKind
	NumberKind
	BoolKind
	NilKind
	TableKind
	FunctionKind
)

var basicKindNames = [...]string{"unknown", "string", "number", "boolean", "nil", "table", "function"}

// String names the kind as the standard-library table writes types
// ("string", "number", ...).
func (k BasicKind) String() string {
	if int(k) < len(basicKindNames) {
		return basicKindNames[k]
	}
	return "unknown"
}

// StaticType is an expression's static type: its kind, and for literals
// the text or number written.
type StaticType struct {
	Kind BasicKind
	// Lit is set for a string literal (Text) or number literal.
	Lit  bool
	Text string
	// Integer marks a number known to have an integer value; Frac a
	// number literal with a fraction.
	Integer bool
	Frac    bool
}

// TypeOf returns the static type of e: literals, names declared once and
// never assigned (followed to their value), builtins and their results
// (from the standard-library table), and operators with a fixed result
// type; UnknownKind for anything else.
func (f *Facts) TypeOf(e ast.Expr) StaticType { return f.typeAt(e, 0) }

func (f *Facts) typeAt(e ast.Expr, depth int) StaticType {
	if depth > 16 {
		return StaticType{}
	}
	switch x := e.(type) {
	case *ast.StringLit:
		if s, ok := x.Value(); ok {
			return StaticType{Kind: StringKind, Lit: true, Text: s}
		}
		return StaticType{Kind: StringKind}
	case *ast.IntLit:
		return StaticType{Kind: NumberKind, Integer: true}
	case *ast.FloatLit:
		if !x.Ok {
			return StaticType{}
		}
		return StaticType{Kind: NumberKind, Integer: x.Value == float64(int64(x.Value)), Frac: x.Value != float64(int64(x.Value))}
	case *ast.BoolLit:
		return StaticType{Kind: BoolKind}
	case *ast.NilLit:
		return StaticType{Kind: NilKind}
	case *ast.TableExpr, *ast.ListExpr:
		return StaticType{Kind: TableKind}
	case *ast.FuncLit:
		return StaticType{Kind: FunctionKind}
	case *ast.ParenExpr:
		return f.typeAt(x.X, depth+1)
	case *ast.Ident:
		if b := f.Uses[x]; b != nil {
			if b.Writes > 0 {
				return StaticType{}
			}
			switch b.Kind {
			case Func:
				return StaticType{Kind: FunctionKind}
			case Var, Const:
				if b.Value != nil {
					return f.typeAt(b.Value, depth+1)
				}
			}
			return StaticType{}
		}
		if g := f.Globals[x]; g != nil && g.Kind == stdlib.Function {
			return StaticType{Kind: FunctionKind}
		}
		return StaticType{}
	case *ast.FieldExpr:
		if g := f.BuiltinOf(x); g != nil && g.Kind == stdlib.Function {
			return StaticType{Kind: FunctionKind}
		}
		return StaticType{}
	case *ast.CallExpr:
		if g := f.Callee(x); g != nil {
			return fromTable(g.ResultType(0))
		}
		return StaticType{}
	case *ast.UnaryExpr:
		switch x.Op {
		case "!":
			return StaticType{Kind: BoolKind}
		case "-":
			if v := f.typeAt(x.X, depth+1); v.Kind == NumberKind {
				return StaticType{Kind: NumberKind, Integer: v.Integer, Frac: v.Frac}
			}
		}
		return StaticType{}
	case *ast.BinaryExpr:
		switch x.Op {
		case "==", "!=", "<", "<=", ">", ">=":
			return StaticType{Kind: BoolKind}
		case "..":
			l, r := f.typeAt(x.Left, depth+1), f.typeAt(x.Right, depth+1)
			if scalar(l) && scalar(r) {
				return StaticType{Kind: StringKind}
			}
		case "+", "-", "*", "/", "%", "**":
			l, r := f.typeAt(x.Left, depth+1), f.typeAt(x.Right, depth+1)
			if l.Kind == NumberKind && r.Kind == NumberKind {
				return StaticType{Kind: NumberKind}
			}
		}
		return StaticType{}
	}
	return StaticType{}
}

func scalar(v StaticType) bool { return v.Kind == StringKind || v.Kind == NumberKind }

// fromTable turns a result type of the table ("string?", "integer",
// "table|nil", ...) into what the checker tracks: a single tracked kind,
// or unknown. A nullable result counts as its kind (the nil case is the
// caller's to test).
func fromTable(t string) StaticType {
	t = strings.TrimSuffix(strings.TrimSpace(t), "?")
	switch t {
	case "string":
		return StaticType{Kind: StringKind}
	case "number":
		return StaticType{Kind: NumberKind}
	case "integer":
		return StaticType{Kind: NumberKind, Integer: true}
	case "boolean":
		return StaticType{Kind: BoolKind}
	case "table":
		return StaticType{Kind: TableKind}
	case "function":
		return StaticType{Kind: FunctionKind}
	}
	return StaticType{}
}
