package argtypes

import (
	_ "embed"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/semantic"
	"github.com/harnlang/harn-check/lang/leia/stdlib"
)

const code = "LEIA4013"

//go:embed doc.go
var doc string

// Rule is the argtypes rule.
var Rule = &analysis.Rule{
	Name:  "argtypes",
	Doc:   analysis.ExtractDoc(doc, "argtypes"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	ty := &typer{facts: p.Facts}
	for _, c := range p.Facts.Calls {
		e := c.Entry
		if e == nil || e.Kind != stdlib.Function || e.Unknown {
			continue
		}
		for i, arg := range c.Node.Args {
			if i >= len(e.Params) {
				break
			}
			// A last argument that is a call stands for all its results:
			// only the first, at this position, is known.
			par := e.Params[i]
			got := ty.of(arg)
			if got.kind == unknown {
				continue
			}
			if why := mismatch(par, got); why != "" {
				d := p.Diag(diagnostics.SourceType, code, arg.Pos(), "argument %d of %s is %s, want %s%s", i+1, e.Name, got.describe(), par.Type, why)
				d.Help = "signature: " + e.Signature()
				p.Report(d)
			}
		}
	}
}

// kind is what the checker knows of a value.
type kind uint8

const (
	unknown kind = iota
	kString
	kNumber
	kBool
	kNil
	kTable
	kFunction
)

var kindNames = [...]string{"unknown", "a string", "a number", "a boolean", "nil", "a table", "a function"}

// valueType is an argument's static type: its kind, and for literals the
// text or number written.
type valueType struct {
	kind kind
	// lit is set for a string literal (text) or number literal.
	lit     bool
	text    string
	integer bool // a number known to have an integer value
	frac    bool // a number literal with a fraction
}

func (v valueType) describe() string {
	switch {
	case v.lit && v.kind == kString:
		return "the string " + strconv.Quote(v.text)
	case v.kind == kNumber && v.frac:
		return "a number with a fraction"
	}
	return kindNames[v.kind]
}

// mismatch says why a value of type got cannot be passed for par ("" when
// it can, or when the checker cannot tell).
func mismatch(par stdlib.Param, got valueType) string {
	t := strings.TrimSpace(par.Type)
	nullable := strings.HasSuffix(t, "?")
	t = strings.TrimSuffix(t, "?")
	if got.kind == kNil {
		if par.Optional || par.Variadic || nullable {
			return ""
		}
	}
	var why string
	for _, alt := range strings.Split(t, "|") {
		r, tracked := accepts(strings.TrimSpace(alt), got)
		if !tracked || r == "" {
			return ""
		}
		why = r
	}
	return why
}

// accepts reports whether a parameter of the simple type want takes got:
// "" when it does, the reason when it does not; tracked is false for
// types the checker does not know (any, channel, file, ...).
func accepts(want string, got valueType) (reason string, tracked bool) {
	switch want {
	case "string":
		switch got.kind {
		case kString, kNumber:
			return "", true
		}
		return " (the runtime raises \"bad argument\")", true
	case "number", "integer":
		switch got.kind {
		case kNumber:
			if want == "integer" && got.frac {
				return " (it has no integer representation)", true
			}
			return "", true
		case kString:
			if !got.lit {
				return "", true
			}
			n, ok := parseNumber(got.text)
			if !ok {
				return " (it does not read as a number)", true
			}
			if want == "integer" && n != float64(int64(n)) {
				return " (it has no integer representation)", true
			}
			return "", true
		}
		return " (the runtime raises \"bad argument\")", true
	case "table":
		if got.kind == kTable {
			return "", true
		}
		return " (the runtime raises \"bad argument\")", true
	case "function":
		if got.kind == kFunction {
			return "", true
		}
		return " (the runtime raises \"bad argument\")", true
	}
	return "", false
}

func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(s, 0, 64); err == nil {
		return float64(n), true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// typer computes static types, following names declared once.
type typer struct {
	facts *semantic.Facts
}

func (ty *typer) of(e ast.Expr) valueType {
	return ty.at(e, 0)
}

func (ty *typer) at(e ast.Expr, depth int) valueType {
	if depth > 16 {
		return valueType{}
	}
	switch x := e.(type) {
	case *ast.StringLit:
		if s, ok := x.Value(); ok {
			return valueType{kind: kString, lit: true, text: s}
		}
		return valueType{kind: kString}
	case *ast.IntLit:
		return valueType{kind: kNumber, integer: true}
	case *ast.FloatLit:
		if !x.Ok {
			return valueType{}
		}
		return valueType{kind: kNumber, integer: x.Value == float64(int64(x.Value)), frac: x.Value != float64(int64(x.Value))}
	case *ast.BoolLit:
		return valueType{kind: kBool}
	case *ast.NilLit:
		return valueType{kind: kNil}
	case *ast.TableExpr, *ast.ListExpr:
		return valueType{kind: kTable}
	case *ast.FuncLit:
		return valueType{kind: kFunction}
	case *ast.ParenExpr:
		return ty.at(x.X, depth+1)
	case *ast.Ident:
		if b := ty.facts.Uses[x]; b != nil {
			if b.Writes > 0 {
				return valueType{}
			}
			switch b.Kind {
			case semantic.Func:
				return valueType{kind: kFunction}
			case semantic.Var, semantic.Const:
				if b.Value != nil {
					return ty.at(b.Value, depth+1)
				}
			}
			return valueType{}
		}
		if g := ty.facts.Globals[x]; g != nil && g.Kind == stdlib.Function {
			return valueType{kind: kFunction}
		}
		return valueType{}
	case *ast.FieldExpr:
		if g := ty.facts.BuiltinOf(x); g != nil && g.Kind == stdlib.Function {
			return valueType{kind: kFunction}
		}
		return valueType{}
	case *ast.CallExpr:
		if g := ty.facts.Callee(x); g != nil {
			return fromTable(g.ResultType(0))
		}
		return valueType{}
	case *ast.UnaryExpr:
		switch x.Op {
		case "!":
			return valueType{kind: kBool}
		case "-":
			if v := ty.at(x.X, depth+1); v.kind == kNumber {
				return valueType{kind: kNumber, integer: v.integer, frac: v.frac}
			}
		}
		return valueType{}
	case *ast.BinaryExpr:
		switch x.Op {
		case "==", "!=", "<", "<=", ">", ">=":
			return valueType{kind: kBool}
		case "..":
			l, r := ty.at(x.Left, depth+1), ty.at(x.Right, depth+1)
			if scalar(l) && scalar(r) {
				return valueType{kind: kString}
			}
		case "+", "-", "*", "/", "%", "**":
			l, r := ty.at(x.Left, depth+1), ty.at(x.Right, depth+1)
			if l.kind == kNumber && r.kind == kNumber {
				return valueType{kind: kNumber}
			}
		}
		return valueType{}
	}
	return valueType{}
}

func scalar(v valueType) bool { return v.kind == kString || v.kind == kNumber }

// fromTable turns a result type of the table ("string?", "integer",
// "table|nil", ...) into what the checker tracks: a single tracked kind,
// or unknown. A nullable result counts as its kind (the nil case is the
// caller's to test).
func fromTable(t string) valueType {
	t = strings.TrimSuffix(strings.TrimSpace(t), "?")
	switch t {
	case "string":
		return valueType{kind: kString}
	case "number":
		return valueType{kind: kNumber}
	case "integer":
		return valueType{kind: kNumber, integer: true}
	case "boolean":
		return valueType{kind: kBool}
	case "table":
		return valueType{kind: kTable}
	case "function":
		return valueType{kind: kFunction}
	}
	return valueType{}
}
