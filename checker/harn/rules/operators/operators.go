package operators

import (
	_ "embed"

	"fmt"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/internal/suggest"
	"github.com/harnlang/harn-check/lang/harn/types"
)

const code = "HARN-TYP-002"

//go:embed doc.go
var doc string

// Rule is the operators rule.
var Rule = &analysis.Rule{
	Name:  "operators",
	Doc:   analysis.ExtractDoc(doc, "operators"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, b := range p.Facts.Binaries {
		switch b.Node.Op {
		case ast.Equal, ast.NotEqual:
			if !label(p, b.Node.Right, b.Left, b.Node) {
				label(p, b.Node.Left, b.Right, b.Node)
			}
		default:
			arith(p, b)
		}
	}
}

// label reports lit compared with a value of literal-union type other
// that does not contain it.
func label(p *analysis.Pass, litExpr ast.Expr, other types.Type, n *ast.Binary) bool {
	for {
		pe, ok := litExpr.(*ast.Paren)
		if !ok {
			break
		}
		litExpr = pe.X
	}
	sl, ok := litExpr.(*ast.StringLit)
	if !ok {
		return false
	}
	val, ok := sl.Value()
	if !ok {
		return false
	}
	lits, ok := types.Literals(types.StripNil(other))
	if !ok || len(lits) == 0 {
		return false
	}
	var names []string
	for _, l := range lits {
		s, ok := l.Value.(string)
		if !ok {
			return false
		}
		if s == val {
			return false
		}
		names = append(names, s)
	}
	always := "false"
	if n.Op == ast.NotEqual {
		always = "true"
	}
	quoted := make([]string, len(names))
	for i, s := range names {
		quoted[i] = strconv.Quote(s)
	}
	var d diagnostics.Diagnostic
	if q := p.Facts.LabelQuestion(types.StripNil(other)); q != nil {
		d = p.Diag(diagnostics.SourceType, code, sl.Span, "%q is not a declared label of question %s (declared: %s); this %s comparison is always %s",
			val, q.ID, strings.Join(quoted, ", "), n.Op, always)
		d.Related = analysis.LabelsRelated(q)
	} else {
		of := "the possible values"
		if a, ok := other.(*types.Alias); ok {
			of = "the values of " + a.Name
		}
		d = p.Diag(diagnostics.SourceType, code, sl.Span, "%q is not one of %s (%s); this %s comparison is always %s",
			val, of, strings.Join(quoted, ", "), n.Op, always)
	}
	best := Nearest(val, names)
	d.Help = "compare with one of " + strings.Join(quoted, ", ") + ", or add the label where it is declared"
	d.Fixes = []diagnostics.Fix{{Title: fmt.Sprintf("Replace with %q", best), Edits: []diagnostics.TextEdit{{Span: analysis.Span(sl.Span), NewText: strconv.Quote(best)}}}}
	p.Report(d)
	return true
}

// Nearest returns the candidate closest to s: one that s abbreviates or
// extends (case-insensitively) first, else the least edit distance (the
// first on ties).
func Nearest(s string, cands []string) string {
	ls := strings.ToLower(s)
	for _, c := range cands {
		lc := strings.ToLower(c)
		if ls != "" && (strings.HasPrefix(lc, ls) || strings.HasPrefix(ls, lc)) {
			return c
		}
	}
	best, bestD := "", -1
	for _, c := range cands {
		if d := Distance(s, c); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Distance is the edit distance between a and b (package suggest's: a
// swap of neighbours is one edit), counted in characters.
func Distance(a, b string) int { return suggest.Distance(a, b, -1) }

type category int

const (
	catUnknown category = iota
	catNum
	catInt
	catString
	catList
	catDict
	catBool
	catNil
)

func categorize(t types.Type) category {
	switch u := types.Unalias(t).(type) {
	case *types.Basic:
		switch u.Kind {
		case types.Int:
			return catInt
		case types.Float:
			return catNum
		case types.String:
			return catString
		case types.Bool:
			return catBool
		case types.Nil:
			return catNil
		}
	case *types.Literal:
		return categorize(u.Base())
	case *types.List:
		return catList
	case *types.Dict, *types.Record:
		return catDict
	}
	return catUnknown
}

func num(c category) bool { return c == catNum || c == catInt }

func arith(p *analysis.Pass, b analysis.Binary) {
	l, r := categorize(b.Left), categorize(b.Right)
	if l == catUnknown || r == catUnknown {
		return
	}
	ok := true
	switch b.Node.Op {
	case ast.Add:
		ok = (num(l) && num(r)) || (l == r && (l == catString || l == catList || l == catDict))
	case ast.Sub, ast.Div, ast.Mod, ast.Pow:
		ok = num(l) && num(r)
	case ast.Mul:
		ok = (num(l) && num(r)) || (l == catString && r == catInt) || (l == catInt && r == catString)
	case ast.Less, ast.Greater, ast.LessEq, ast.GreaterEq:
		ok = (num(l) && num(r)) || (l == catString && r == catString)
	}
	if ok {
		return
	}
	// Upstream Harn's wording for arithmetic, which users search for;
	// operand types by their base names.
	lt, rt := types.Describe(base(b.Left)), types.Describe(base(b.Right))
	var msg string
	switch b.Node.Op {
	case ast.Add:
		msg = fmt.Sprintf("can't add %s and %s", lt, rt)
	case ast.Sub, ast.Div, ast.Mod, ast.Pow:
		msg = fmt.Sprintf("can't use '%s' on %s and %s (needs numeric operands)", b.Node.Op, lt, rt)
	case ast.Mul:
		msg = fmt.Sprintf("can't multiply %s and %s (try string * int)", lt, rt)
	default:
		msg = fmt.Sprintf("operator %s is not defined for %s and %s", b.Node.Op, lt, rt)
	}
	d := p.Diag(diagnostics.SourceType, code, b.Node.Span, "%s", msg)
	d.Help = "convert one operand first (to_string, to_int, to_float), or build strings with interpolation \"${...}\""
	p.Report(d)
}

// base is t with a literal type widened to its base type.
func base(t types.Type) types.Type {
	if l, ok := t.(*types.Literal); ok {
		return l.Base()
	}
	return t
}
