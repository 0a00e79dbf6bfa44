package ast

// The shapes the left side of a declaration or an assignment may take.
// The runtime's compiler refuses a program with any other, and the checker
// reports the same problems with the same words, both through these
// functions, so that a program the checker accepts is never refused by the
// runtime for the shape of a target.

// DeclareProblem says why e may not stand left of `:=` (a declaration,
// also in a for clause or a select case): only a name may; a keyword such
// as `chan`, `nil` or `true` is not one. It is "" for a name.
func DeclareProblem(e Expr) string {
	if _, ok := e.(*Ident); ok {
		return ""
	}
	return "non-name on left side of :="
}

// RangeVarProblem says why e may not be a variable of `for ... := range`;
// "" for a name.
func RangeVarProblem(e Expr) string {
	if _, ok := e.(*Ident); ok {
		return ""
	}
	return "range variable must be a name"
}

// AssignProblem says why e may not be assigned to (`=`, `+=`, `++`): a
// name, an index `t[k]` or a field `t.f` may; "" for those. Whether a
// name is a constant is the resolver's question, not a shape.
func AssignProblem(e Expr) string {
	switch e.(type) {
	case *Ident, *IndexExpr, *FieldExpr:
		return ""
	case *ParenExpr:
		return "cannot assign to a parenthesized expression"
	}
	return "cannot assign to this expression"
}

// TargetProblem is a target of file whose shape the runtime refuses.
type TargetProblem struct {
	Target  Expr
	Message string
}

// TargetProblems lists every target of file whose shape the runtime
// refuses (DeclareProblem, RangeVarProblem, AssignProblem), in source
// order.
func TargetProblems(file *File) []TargetProblem {
	var out []TargetProblem
	check := func(e Expr, problem func(Expr) string) {
		if e == nil || IsNil(e) {
			return
		}
		if _, broken := e.(*Error); broken {
			return // a syntax error, reported as one
		}
		if msg := problem(e); msg != "" {
			out = append(out, TargetProblem{Target: e, Message: msg})
		}
	}
	Inspect(file, func(n Node) bool {
		switch s := n.(type) {
		case *DeclareStmt:
			for _, e := range s.Left {
				check(e, DeclareProblem)
			}
		case *ReceiveStmt:
			p := AssignProblem
			if s.Declare {
				p = DeclareProblem
			}
			for _, e := range s.Left {
				check(e, p)
			}
		case *AssignStmt:
			for _, e := range s.Left {
				check(e, AssignProblem)
			}
		case *CompoundAssignStmt:
			check(s.Left, AssignProblem)
		case *IncDecStmt:
			check(s.X, AssignProblem)
		case *ForStmt:
			if s.Kind == ForRange {
				for _, e := range s.Vars {
					check(e, RangeVarProblem)
				}
			}
		}
		return true
	})
	return out
}
