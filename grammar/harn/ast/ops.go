package ast

// BinaryOp is an infix operator of a binary expression.
type BinaryOp int

// Binary operators, grouped by precedence level (lowest first).
const (
	Or        BinaryOp = iota // ||
	And                       // &&
	Equal                     // ==
	NotEqual                  // !=
	Less                      // <
	Greater                   // >
	LessEq                    // <=
	GreaterEq                 // >=
	InOp                      // in
	NotInOp                   // not in
	Add                       // +
	Sub                       // -
	Coalesce                  // ??
	Mul                       // *
	Div                       // /
	Mod                       // %
	Pow                       // **
)

var binaryOps = [...]string{"||", "&&", "==", "!=", "<", ">", "<=", ">=", "in", "not in", "+", "-", "??", "*", "/", "%", "**"}

func (op BinaryOp) String() string {
	if op >= 0 && int(op) < len(binaryOps) {
		return binaryOps[op]
	}
	return "?"
}

// LookupBinaryOp maps operator text (`not in` with one space) to its
// BinaryOp.
func LookupBinaryOp(text string) (BinaryOp, bool) {
	for i, s := range binaryOps {
		if s == text {
			return BinaryOp(i), true
		}
	}
	return 0, false
}

// Precedence is the operator's binding strength in the grammar's table
// (pipe 1, range 2, ternary 3, then `||` 4 up to `**` 12).
func (op BinaryOp) Precedence() int {
	switch op {
	case Or:
		return 4
	case And:
		return 5
	case Equal, NotEqual:
		return 6
	case Less, Greater, LessEq, GreaterEq, InOp, NotInOp:
		return 7
	case Add, Sub:
		return 8
	case Coalesce:
		return 9
	case Mul, Div, Mod:
		return 10
	case Pow:
		return 12
	}
	return 0
}

// ShortCircuit reports whether the right operand may go unevaluated
// (`&&`, `||`, `??`); flow narrowing depends on it.
func (op BinaryOp) ShortCircuit() bool {
	return op == And || op == Or || op == Coalesce
}
