package rhai

// node is any expression or statement; pos is its byte offset.
type node interface{ at() int }

type base struct{ pos int }

func (b base) at() int { return b.pos }

// Expressions.
type (
	litExpr struct {
		base
		v Value
	}
	interpExpr struct {
		base
		parts []node
	}
	varExpr struct {
		base
		name string
	}
	globalExpr struct {
		base
		name string
	}
	thisExpr  struct{ base }
	arrayExpr struct {
		base
		items []node
	}
	mapExpr struct {
		base
		keys []string
		vals []node
	}
	unaryExpr struct {
		base
		op string
		x  node
	}
	binaryExpr struct {
		base
		op   string
		l, r node
	}
	propExpr struct {
		base
		obj  node
		name string
		safe bool
	}
	indexExpr struct {
		base
		obj, idx node
		safe     bool
	}
	callExpr struct {
		base
		name string
		args []node
	}
	methodExpr struct {
		base
		obj  node
		name string
		args []node
		safe bool
	}
	blockExpr struct {
		base
		stmts []node
	}
	ifExpr struct {
		base
		cond node
		then *blockExpr
		els  node // nil, *blockExpr or *ifExpr
	}
	whileExpr struct {
		base
		cond  node // nil for loop
		body  *blockExpr
		until bool // do ... until
		post  bool // do ... while/until: body first
	}
	forExpr struct {
		base
		name, counter string
		iter          node
		body          *blockExpr
	}
	switchExpr struct {
		base
		subj  node
		cases []switchCase
		def   node
	}
	closureExpr struct {
		base
		params []string
		body   node
	}
	tryExpr struct {
		base
		body    *blockExpr
		errName string
		catch   *blockExpr
	}
)

// switchCase is one arm: literal values and int ranges, an optional guard.
type switchCase struct {
	values []Value
	ranges []Range
	guard  node
	body   node
}

// Statements.
type (
	letStmt struct {
		base
		name    string
		value   node
		isConst bool
	}
	assignStmt struct {
		base
		op     string // "=" or "+=" etc.
		target node
		value  node
	}
	exprStmt struct {
		base
		x node
	}
	returnStmt struct {
		base
		value node
	}
	throwStmt struct {
		base
		value node
	}
	breakStmt struct {
		base
		value node
	}
	continueStmt struct{ base }
	importStmt   struct {
		base
		path node
	}
)

// fnDef is a script-defined function.
type fnDef struct {
	name   string
	params []string
	body   *blockExpr
	pos    int
	// nameEnd is the byte offset just past the name.
	nameEnd int
}
