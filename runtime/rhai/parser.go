package rhai

import (
	"fmt"
	"strings"
)

// Program is a compiled script: its top-level statements and functions.
type Program struct {
	src    string
	stmts  []node
	fns    map[string]map[int]*fnDef
	fnList []*fnDef
}

// Function describes one script-defined function.
type Function struct {
	Name   string
	Params []string
	// Pos and End delimit the function's name in the source (byte offsets).
	Pos, End int
}

// Functions lists the script's functions in source order.
func (p *Program) Functions() []Function {
	out := make([]Function, 0, len(p.fnList))
	for _, f := range p.fnList {
		out = append(out, Function{Name: f.name, Params: append([]string(nil), f.params...), Pos: f.pos, End: f.nameEnd})
	}
	return out
}

// Source returns the script text the program was compiled from.
func (p *Program) Source() string { return p.src }

// keywords cannot be used as names.
var keywords = map[string]bool{
	"true": true, "false": true, "let": true, "const": true, "if": true, "else": true, "while": true,
	"loop": true, "do": true, "until": true, "for": true, "in": true, "break": true, "continue": true,
	"return": true, "throw": true, "try": true, "catch": true, "switch": true, "fn": true,
	"private": true, "this": true, "global": true, "import": true, "export": true, "as": true,
}

// reserved words are kept free by Rhai for future use; using one is a
// compile error.
var reserved = map[string]bool{
	"null": true, "nil": true, "var": true, "static": true, "shared": true, "goto": true,
	"match": true, "case": true, "default": true, "is": true, "new": true, "public": true,
	"protected": true, "super": true, "with": true, "module": true, "package": true, "spawn": true,
	"thread": true, "go": true, "sync": true, "async": true, "await": true, "yield": true, "void": true,
}

// binary operator binding powers, Rhai 1.25's precedence table.
var binPrec = map[string]int{
	"||": 30, "|": 30, "^": 30,
	"&&": 60, "&": 60,
	"==": 90, "!=": 90,
	"in": 110, "!in": 110,
	"<": 130, "<=": 130, ">": 130, ">=": 130,
	"??": 135,
	"..": 140, "..=": 140,
	"+": 150, "-": 150,
	"*": 180, "/": 180, "%": 180,
	"**": 190,
	"<<": 210, ">>": 210,
}

var assignOps = map[string]bool{
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "**=": true,
	"<<=": true, ">>=": true, "&=": true, "|=": true, "^=": true,
}

type parser struct {
	lx        lexer
	tok       token
	depth     int
	maxDepth  int
	loopDepth int
	inFn      bool
	prog      *Program
}

// Compile parses src into a Program. maxExprDepth bounds nesting (0 means
// the default of 128). Errors carry the byte offset, line and column.
func Compile(src string, maxExprDepth int) (prog *Program, err *ParseError) {
	if maxExprDepth <= 0 {
		maxExprDepth = DefaultLimits().MaxExprDepth
	}
	p := &parser{lx: lexer{src: src}, maxDepth: maxExprDepth}
	p.prog = &Program{src: src, fns: map[string]map[int]*fnDef{}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	for p.tok.kind != tEOF {
		if p.isPunct(";") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			continue
		}
		if p.isWord("fn") || p.isWord("private") {
			if err := p.fnDef(); err != nil {
				return nil, err
			}
			continue
		}
		st, err := p.statement()
		if err != nil {
			return nil, err
		}
		if st != nil {
			p.prog.stmts = append(p.prog.stmts, st)
		}
	}
	return p.prog, nil
}

func (p *parser) advance() *ParseError {
	t, err := p.lx.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

// peek returns the token after the current one without consuming it.
func (p *parser) peek() token {
	save := p.lx.pos
	t, err := p.lx.next()
	p.lx.pos = save
	if err != nil {
		return token{kind: tEOF}
	}
	return t
}

// errf reports an error at pos; when pos is the current token, the span
// covers the whole token.
func (p *parser) errf(pos int, format string, args ...any) *ParseError {
	e := newParseError(p.lx.src, pos, format, args...)
	if pos == p.tok.pos && p.tok.end > e.End {
		e.End = p.tok.end
	}
	return e
}

func (p *parser) isPunct(s string) bool { return p.tok.kind == tPunct && p.tok.text == s }
func (p *parser) isWord(s string) bool  { return p.tok.kind == tIdent && p.tok.text == s }

func (p *parser) describe() string {
	switch p.tok.kind {
	case tEOF:
		return "end of script"
	case tIdent, tPunct:
		return "'" + p.tok.text + "'"
	case tString, tInterp:
		return "string"
	case tChar:
		return "character"
	}
	return "number"
}

func (p *parser) expect(s, what string) *ParseError {
	if !p.isPunct(s) {
		return p.errf(p.tok.pos, "Expecting '%s' %s, found %s", s, what, p.describe())
	}
	return p.advance()
}

func (p *parser) enter() *ParseError {
	p.depth++
	if p.depth > p.maxDepth {
		return p.errf(p.tok.pos, "Expression exceeds maximum complexity")
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// name consumes an identifier usable as a variable, function or parameter.
func (p *parser) name(what string) (string, int, *ParseError) {
	if p.tok.kind != tIdent {
		return "", 0, p.errf(p.tok.pos, "Expecting %s, found %s", what, p.describe())
	}
	n, pos := p.tok.text, p.tok.pos
	if err := p.checkName(n, pos); err != nil {
		return "", 0, err
	}
	if keywords[n] {
		return "", 0, p.errf(pos, "'%s' is a keyword and cannot be used as %s", n, what)
	}
	return n, pos, p.advance()
}

func (p *parser) checkName(n string, pos int) *ParseError {
	if n == "_" {
		return p.errf(pos, "Invalid identifier '_'")
	}
	if n == "eval" {
		return p.errf(pos, "Reserved keyword 'eval' is disabled")
	}
	if reserved[n] {
		return p.errf(pos, "'%s' is a reserved keyword", n)
	}
	return nil
}

func (p *parser) fnDef() *ParseError {
	if p.isWord("private") {
		if err := p.advance(); err != nil {
			return err
		}
		if !p.isWord("fn") {
			return p.errf(p.tok.pos, "Expecting 'fn' after 'private'")
		}
	}
	start := p.tok.pos
	if err := p.advance(); err != nil {
		return err
	}
	nameTok := p.tok
	name, _, err := p.name("a function name")
	if err != nil {
		return err
	}
	if err := p.expect("(", "to start the parameter list"); err != nil {
		return err
	}
	var params []string
	seen := map[string]bool{}
	for !p.isPunct(")") {
		pos := p.tok.pos
		n, _, err := p.name("a parameter name")
		if err != nil {
			return err
		}
		if seen[n] {
			return p.errf(pos, "Duplicated parameter %s for function %s", n, name)
		}
		seen[n] = true
		params = append(params, n)
		if p.isPunct(",") {
			if err := p.advance(); err != nil {
				return err
			}
		} else if !p.isPunct(")") {
			return p.errf(p.tok.pos, "Expecting ',' or ')' in the parameter list of '%s', found %s", name, p.describe())
		}
	}
	if err := p.advance(); err != nil {
		return err
	}
	if !p.isPunct("{") {
		return p.errf(p.tok.pos, "Expecting '{' to start the body of function '%s', found %s", name, p.describe())
	}
	saveLoop := p.loopDepth
	p.loopDepth, p.inFn = 0, true
	body, err := p.block()
	p.loopDepth, p.inFn = saveLoop, false
	if err != nil {
		return err
	}
	if p.prog.fns[name] == nil {
		p.prog.fns[name] = map[int]*fnDef{}
	}
	if _, dup := p.prog.fns[name][len(params)]; dup {
		return p.errf(nameTok.pos, "Function %s with %s already exists", name, plural(len(params)))
	}
	f := &fnDef{name: name, params: params, body: body, pos: nameTok.pos, nameEnd: nameTok.end}
	_ = start
	p.prog.fns[name][len(params)] = f
	p.prog.fnList = append(p.prog.fnList, f)
	return nil
}

// block parses "{ stmt* }".
func (p *parser) block() (*blockExpr, *ParseError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	b := &blockExpr{base: base{p.tok.pos}}
	if err := p.expect("{", "to start a block"); err != nil {
		return nil, err
	}
	for !p.isPunct("}") {
		if p.tok.kind == tEOF {
			return nil, p.errf(b.pos, "Expecting '}' to end this block, found end of script")
		}
		if p.isPunct(";") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			continue
		}
		if p.isWord("fn") || p.isWord("private") {
			return nil, p.errf(p.tok.pos, "Function definitions must be at global level and cannot be inside a block or another function")
		}
		st, err := p.statement()
		if err != nil {
			return nil, err
		}
		b.stmts = append(b.stmts, st)
	}
	return b, p.advance()
}

// endStatement consumes the ';' ending a statement, which may be left off
// before '}' and at the end of the script.
func (p *parser) endStatement() *ParseError {
	if p.isPunct(";") {
		return p.advance()
	}
	if p.isPunct("}") || p.tok.kind == tEOF {
		return nil
	}
	return p.errf(p.tok.pos, "Expecting ';' to terminate this statement, found %s", p.describe())
}

func (p *parser) statement() (node, *ParseError) {
	pos := p.tok.pos
	if p.tok.kind == tIdent {
		switch p.tok.text {
		case "let", "const":
			isConst := p.tok.text == "const"
			if err := p.advance(); err != nil {
				return nil, err
			}
			n, _, err := p.name("a variable name")
			if err != nil {
				return nil, err
			}
			st := &letStmt{base: base{pos}, name: n, isConst: isConst}
			if p.isPunct("=") {
				if err := p.advance(); err != nil {
					return nil, err
				}
				if st.value, err = p.expr(0); err != nil {
					return nil, err
				}
			} else if isConst {
				return nil, p.errf(p.tok.pos, "Expecting '=' to give constant '%s' a value", n)
			}
			return st, p.endStatement()
		case "return", "throw", "break":
			kw := p.tok.text
			if err := p.advance(); err != nil {
				return nil, err
			}
			if kw == "break" && p.loopDepth == 0 {
				return nil, p.errf(pos, "Break statement should only be used inside a loop")
			}
			var v node
			if !p.isPunct(";") && !p.isPunct("}") && p.tok.kind != tEOF {
				var err *ParseError
				if v, err = p.expr(0); err != nil {
					return nil, err
				}
			}
			var st node
			switch kw {
			case "return":
				st = &returnStmt{base{pos}, v}
			case "throw":
				st = &throwStmt{base{pos}, v}
			default:
				st = &breakStmt{base{pos}, v}
			}
			return st, p.endStatement()
		case "continue":
			if p.loopDepth == 0 {
				return nil, p.errf(pos, "Continue statement should only be used inside a loop")
			}
			if err := p.advance(); err != nil {
				return nil, err
			}
			return &continueStmt{base{pos}}, p.endStatement()
		case "import":
			if err := p.advance(); err != nil {
				return nil, err
			}
			path, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			if p.isWord("as") {
				if err := p.advance(); err != nil {
					return nil, err
				}
				if _, _, err := p.name("a module alias"); err != nil {
					return nil, err
				}
			}
			return &importStmt{base{pos}, path}, p.endStatement()
		case "if", "while", "loop", "do", "for", "switch", "try":
			x, err := p.primary()
			if err != nil {
				return nil, err
			}
			if p.isPunct(";") {
				if err := p.advance(); err != nil {
					return nil, err
				}
			}
			return &exprStmt{base{pos}, x}, nil
		}
	}
	if p.isPunct("{") {
		x, err := p.block()
		if err != nil {
			return nil, err
		}
		if p.isPunct(";") {
			if err := p.advance(); err != nil {
				return nil, err
			}
		}
		return &exprStmt{base{pos}, x}, nil
	}
	x, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if p.tok.kind == tPunct && assignOps[p.tok.text] {
		op, opPos := p.tok.text, p.tok.pos
		if !isTarget(x) {
			return nil, p.errf(opPos, "Expression cannot be assigned to")
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		v, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		return &assignStmt{base: base{opPos}, op: op, target: x, value: v}, p.endStatement()
	}
	return &exprStmt{base{pos}, x}, p.endStatement()
}

// isTarget reports whether x can be assigned to: a variable or this,
// followed by property and index accesses.
func isTarget(x node) bool {
	switch t := x.(type) {
	case *varExpr, *thisExpr:
		return true
	case *propExpr:
		return !t.safe && isTarget(t.obj)
	case *indexExpr:
		return !t.safe && isTarget(t.obj)
	}
	return false
}

// expr parses a binary expression whose operators bind at least minBP.
func (p *parser) expr(minBP int) (node, *ParseError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		op := ""
		if p.tok.kind == tPunct {
			op = p.tok.text
		} else if p.isWord("in") {
			op = "in"
		}
		if op == "!" && p.peek().kind == tIdent && p.peek().text == "in" {
			op = "!in"
		}
		bp, ok := binPrec[op]
		if !ok || bp < minBP {
			return left, nil
		}
		pos := p.tok.pos
		if err := p.advance(); err != nil {
			return nil, err
		}
		if op == "!in" {
			if err := p.advance(); err != nil {
				return nil, err
			}
		}
		next := bp + 1
		if op == "**" {
			next = bp
		}
		right, err := p.expr(next)
		if err != nil {
			return nil, err
		}
		left = &binaryExpr{base: base{pos}, op: op, l: left, r: right}
	}
}

func (p *parser) unary() (node, *ParseError) {
	if p.isPunct("-") || p.isPunct("+") || p.isPunct("!") {
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		op, pos := p.tok.text, p.tok.pos
		if err := p.advance(); err != nil {
			return nil, err
		}
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if lit, ok := x.(*litExpr); ok && op == "-" {
			switch v := lit.v.(type) {
			case int64:
				return &litExpr{base{pos}, -v}, nil
			case float64:
				return &litExpr{base{pos}, -v}, nil
			}
		}
		return &unaryExpr{base: base{pos}, op: op, x: x}, nil
	}
	return p.postfix()
}

func (p *parser) postfix() (node, *ParseError) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.isPunct(".") || p.isPunct("?."):
			safe, pos := p.tok.text == "?.", p.tok.pos
			if err := p.advance(); err != nil {
				return nil, err
			}
			if p.tok.kind != tIdent {
				return nil, p.errf(p.tok.pos, "Expecting a property or method name after '.', found %s", p.describe())
			}
			name := p.tok.text
			if err := p.checkName(name, p.tok.pos); err != nil {
				return nil, err
			}
			if err := p.advance(); err != nil {
				return nil, err
			}
			if p.isPunct("(") {
				args, err := p.args()
				if err != nil {
					return nil, err
				}
				x = &methodExpr{base: base{pos}, obj: x, name: name, args: args, safe: safe}
			} else {
				x = &propExpr{base: base{pos}, obj: x, name: name, safe: safe}
			}
		case p.isPunct("[") || p.isPunct("?["):
			safe, pos := p.tok.text == "?[", p.tok.pos
			if err := p.advance(); err != nil {
				return nil, err
			}
			idx, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			if err := p.expect("]", "to close the index"); err != nil {
				return nil, err
			}
			x = &indexExpr{base: base{pos}, obj: x, idx: idx, safe: safe}
		default:
			return x, nil
		}
	}
}

func (p *parser) args() ([]node, *ParseError) {
	open := p.tok.pos
	if err := p.advance(); err != nil {
		return nil, err
	}
	var args []node
	for !p.isPunct(")") {
		if p.tok.kind == tEOF {
			return nil, p.errf(open, "Expecting ')' to close the argument list")
		}
		a, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		args = append(args, a)
		if p.isPunct(",") {
			if err := p.advance(); err != nil {
				return nil, err
			}
		} else if !p.isPunct(")") {
			return nil, p.errf(p.tok.pos, "Expecting ',' or ')' in the argument list, found %s", p.describe())
		}
	}
	return args, p.advance()
}

func (p *parser) primary() (node, *ParseError) {
	t := p.tok
	pos := t.pos
	switch t.kind {
	case tEOF:
		return nil, p.errf(pos, "Expecting an expression, found end of script")
	case tInt:
		return &litExpr{base{pos}, t.ival}, p.advance()
	case tFloat:
		return &litExpr{base{pos}, t.fval}, p.advance()
	case tString:
		return &litExpr{base{pos}, t.sval}, p.advance()
	case tChar:
		return &litExpr{base{pos}, t.cval}, p.advance()
	case tInterp:
		return p.interp(t)
	case tPunct:
		switch t.text {
		case "(":
			if err := p.advance(); err != nil {
				return nil, err
			}
			if p.isPunct(")") {
				return &litExpr{base{pos}, Unit{}}, p.advance()
			}
			x, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			return x, p.expect(")", "to close the parenthesis")
		case "[":
			return p.array()
		case "#{":
			return p.mapLit()
		case "{":
			return p.block()
		case "|", "||":
			return p.closure()
		}
		return nil, p.errf(pos, "Unexpected %s", p.describe())
	}
	// identifiers and keywords
	switch t.text {
	case "true", "false":
		return &litExpr{base{pos}, t.text == "true"}, p.advance()
	case "this":
		if !p.inFn {
			return nil, p.errf(pos, "'this' can only be used inside a function")
		}
		return &thisExpr{base{pos}}, p.advance()
	case "global":
		if err := p.advance(); err != nil {
			return nil, err
		}
		if err := p.expect("::", "after 'global'"); err != nil {
			return nil, err
		}
		n, _, err := p.name("a constant name")
		if err != nil {
			return nil, err
		}
		return &globalExpr{base{pos}, n}, nil
	case "if":
		return p.ifExpr()
	case "while", "loop", "do":
		return p.whileExpr()
	case "for":
		return p.forExpr()
	case "switch":
		return p.switchExpr()
	case "try":
		return p.tryExpr()
	case "fn", "private":
		return nil, p.errf(pos, "Function definitions must be at global level and cannot be inside a block or another function")
	}
	if err := p.checkName(t.text, pos); err != nil {
		return nil, err
	}
	if keywords[t.text] {
		return nil, p.errf(pos, "Unexpected keyword '%s'", t.text)
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.isPunct("(") {
		args, err := p.args()
		if err != nil {
			return nil, err
		}
		return &callExpr{base: base{pos}, name: t.text, args: args}, nil
	}
	return &varExpr{base{pos}, t.text}, nil
}

// interp parses the ${...} parts of a backtick string.
func (p *parser) interp(t token) (node, *ParseError) {
	x := &interpExpr{base: base{t.pos}}
	for _, part := range t.parts {
		if !part.isExpr {
			x.parts = append(x.parts, &litExpr{base{t.pos}, part.lit})
			continue
		}
		sub := &parser{lx: lexer{src: p.lx.src, pos: part.start}, depth: p.depth, maxDepth: p.maxDepth,
			loopDepth: p.loopDepth, inFn: p.inFn, prog: p.prog}
		if err := sub.advance(); err != nil {
			return nil, err
		}
		if sub.isPunct("}") {
			return nil, sub.errf(part.start, "Expecting an expression inside '${ }'")
		}
		e, err := sub.expr(0)
		if err != nil {
			return nil, err
		}
		if sub.tok.pos != part.end {
			return nil, sub.errf(sub.tok.pos, "Expecting '}' to end the interpolation, found %s", sub.describe())
		}
		x.parts = append(x.parts, e)
	}
	return x, p.advance()
}

func (p *parser) array() (node, *ParseError) {
	a := &arrayExpr{base: base{p.tok.pos}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	for !p.isPunct("]") {
		if p.tok.kind == tEOF {
			return nil, p.errf(a.pos, "Expecting ']' to end this array literal")
		}
		x, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		a.items = append(a.items, x)
		if p.isPunct(",") {
			if err := p.advance(); err != nil {
				return nil, err
			}
		} else if !p.isPunct("]") {
			return nil, p.errf(p.tok.pos, "Expecting ',' or ']' in this array literal, found %s", p.describe())
		}
	}
	return a, p.advance()
}

func (p *parser) mapLit() (node, *ParseError) {
	m := &mapExpr{base: base{p.tok.pos}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for !p.isPunct("}") {
		var key string
		kpos := p.tok.pos
		switch p.tok.kind {
		case tIdent:
			key = p.tok.text
		case tString:
			key = p.tok.sval
		case tEOF:
			return nil, p.errf(m.pos, "Expecting '}' to end this object map literal")
		default:
			return nil, p.errf(kpos, "Expecting a property name, found %s", p.describe())
		}
		if seen[key] {
			return nil, p.errf(kpos, "Duplicated property for object map literal: %s", key)
		}
		seen[key] = true
		if err := p.advance(); err != nil {
			return nil, err
		}
		if err := p.expect(":", "after the property name"); err != nil {
			return nil, err
		}
		v, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		m.keys = append(m.keys, key)
		m.vals = append(m.vals, v)
		if p.isPunct(",") {
			if err := p.advance(); err != nil {
				return nil, err
			}
		} else if !p.isPunct("}") {
			return nil, p.errf(p.tok.pos, "Expecting ',' or '}' in this object map literal, found %s", p.describe())
		}
	}
	return m, p.advance()
}

func (p *parser) closure() (node, *ParseError) {
	c := &closureExpr{base: base{p.tok.pos}}
	if p.isPunct("||") {
		if err := p.advance(); err != nil {
			return nil, err
		}
	} else {
		if err := p.advance(); err != nil {
			return nil, err
		}
		for !p.isPunct("|") {
			n, _, err := p.name("a closure parameter")
			if err != nil {
				return nil, err
			}
			c.params = append(c.params, n)
			if p.isPunct(",") {
				if err := p.advance(); err != nil {
					return nil, err
				}
			} else if !p.isPunct("|") {
				return nil, p.errf(p.tok.pos, "Expecting ',' or '|' in the closure parameters, found %s", p.describe())
			}
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	saveLoop, saveFn := p.loopDepth, p.inFn
	p.loopDepth = 0
	body, err := p.expr(0)
	p.loopDepth, p.inFn = saveLoop, saveFn
	if err != nil {
		return nil, err
	}
	c.body = body
	return c, nil
}

func (p *parser) ifExpr() (node, *ParseError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	x := &ifExpr{base: base{p.tok.pos}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	var err *ParseError
	if x.cond, err = p.expr(0); err != nil {
		return nil, err
	}
	if !p.isPunct("{") {
		return nil, p.errf(p.tok.pos, "Expecting '{' to start the body of 'if', found %s", p.describe())
	}
	if x.then, err = p.block(); err != nil {
		return nil, err
	}
	if p.isWord("else") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.isWord("if") {
			if x.els, err = p.ifExpr(); err != nil {
				return nil, err
			}
		} else if p.isPunct("{") {
			if x.els, err = p.block(); err != nil {
				return nil, err
			}
		} else {
			return nil, p.errf(p.tok.pos, "Expecting '{' or 'if' after 'else', found %s", p.describe())
		}
	}
	return x, nil
}

func (p *parser) loopBody() (*blockExpr, *ParseError) {
	if !p.isPunct("{") {
		return nil, p.errf(p.tok.pos, "Expecting '{' to start the loop body, found %s", p.describe())
	}
	p.loopDepth++
	b, err := p.block()
	p.loopDepth--
	return b, err
}

func (p *parser) whileExpr() (node, *ParseError) {
	kw := p.tok.text
	x := &whileExpr{base: base{p.tok.pos}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	var err *ParseError
	switch kw {
	case "while":
		if x.cond, err = p.expr(0); err != nil {
			return nil, err
		}
		x.body, err = p.loopBody()
	case "loop":
		x.body, err = p.loopBody()
	case "do":
		if x.body, err = p.loopBody(); err != nil {
			return nil, err
		}
		x.post = true
		switch {
		case p.isWord("while"):
		case p.isWord("until"):
			x.until = true
		default:
			return nil, p.errf(p.tok.pos, "Expecting 'while' or 'until' after the body of 'do', found %s", p.describe())
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		x.cond, err = p.expr(0)
	}
	if err != nil {
		return nil, err
	}
	return x, nil
}

func (p *parser) forExpr() (node, *ParseError) {
	x := &forExpr{base: base{p.tok.pos}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	var err *ParseError
	if p.isPunct("(") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		if x.name, _, err = p.name("a loop variable"); err != nil {
			return nil, err
		}
		if err := p.expect(",", "between the loop variable and the counter"); err != nil {
			return nil, err
		}
		if x.counter, _, err = p.name("a counter variable"); err != nil {
			return nil, err
		}
		if err := p.expect(")", "after the loop variables"); err != nil {
			return nil, err
		}
	} else if x.name, _, err = p.name("a loop variable"); err != nil {
		return nil, err
	}
	if !p.isWord("in") {
		return nil, p.errf(p.tok.pos, "Expecting 'in' after the loop variable, found %s", p.describe())
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if x.iter, err = p.expr(0); err != nil {
		return nil, err
	}
	if x.body, err = p.loopBody(); err != nil {
		return nil, err
	}
	return x, nil
}

func (p *parser) tryExpr() (node, *ParseError) {
	x := &tryExpr{base: base{p.tok.pos}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	var err *ParseError
	if !p.isPunct("{") {
		return nil, p.errf(p.tok.pos, "Expecting '{' after 'try', found %s", p.describe())
	}
	if x.body, err = p.block(); err != nil {
		return nil, err
	}
	if !p.isWord("catch") {
		return nil, p.errf(p.tok.pos, "Expecting 'catch' after the 'try' block, found %s", p.describe())
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.isPunct("(") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		if x.errName, _, err = p.name("a variable name"); err != nil {
			return nil, err
		}
		if err := p.expect(")", "after the catch variable"); err != nil {
			return nil, err
		}
	}
	if !p.isPunct("{") {
		return nil, p.errf(p.tok.pos, "Expecting '{' to start the 'catch' block, found %s", p.describe())
	}
	if x.catch, err = p.block(); err != nil {
		return nil, err
	}
	return x, nil
}

// caseLiteral parses one literal switch case value, or an int range.
func (p *parser) caseLiteral(c *switchCase) *ParseError {
	x, err := p.expr(binPrec[".."] + 1)
	if err != nil {
		return err
	}
	lit, ok := x.(*litExpr)
	if !ok {
		return p.errf(x.at(), "A switch case must be a literal value")
	}
	if p.isPunct("..") || p.isPunct("..=") {
		incl := p.tok.text == "..="
		if err := p.advance(); err != nil {
			return err
		}
		y, err := p.expr(binPrec[".."] + 1)
		if err != nil {
			return err
		}
		hi, ok2 := y.(*litExpr)
		lo, ok1 := lit.v.(int64)
		var hv int64
		if ok2 {
			hv, ok2 = hi.v.(int64)
		}
		if !ok1 || !ok2 {
			return p.errf(x.at(), "A range case needs integer bounds")
		}
		c.ranges = append(c.ranges, Range{Start: lo, End: hv, Inclusive: incl})
		return nil
	}
	c.values = append(c.values, lit.v)
	return nil
}

func (p *parser) switchExpr() (node, *ParseError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	x := &switchExpr{base: base{p.tok.pos}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	var err *ParseError
	if x.subj, err = p.expr(0); err != nil {
		return nil, err
	}
	if err := p.expect("{", "to start the switch cases"); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for !p.isPunct("}") {
		if p.tok.kind == tEOF {
			return nil, p.errf(x.pos, "Expecting '}' to end the switch")
		}
		if x.def != nil {
			return nil, p.errf(p.tok.pos, "Default switch case must be the last")
		}
		casePos := p.tok.pos
		var c switchCase
		isDefault := p.isWord("_")
		if isDefault {
			if err := p.advance(); err != nil {
				return nil, err
			}
		} else {
			for {
				if err := p.caseLiteral(&c); err != nil {
					return nil, err
				}
				if !p.isPunct("|") {
					break
				}
				if err := p.advance(); err != nil {
					return nil, err
				}
			}
			if p.isWord("if") {
				if err := p.advance(); err != nil {
					return nil, err
				}
				if c.guard, err = p.expr(0); err != nil {
					return nil, err
				}
			}
			if c.guard == nil {
				for _, v := range c.values {
					k := fmt.Sprintf("%T:%v", v, v)
					if seen[k] {
						return nil, p.errf(casePos, "Duplicated switch case")
					}
					seen[k] = true
				}
			}
		}
		if err := p.expect("=>", "after the switch case"); err != nil {
			return nil, err
		}
		var body node
		if p.isPunct("{") {
			body, err = p.block()
		} else {
			body, err = p.expr(0)
		}
		if err != nil {
			return nil, err
		}
		if isDefault {
			x.def = body
		} else {
			c.body = body
			x.cases = append(x.cases, c)
		}
		if p.isPunct(",") {
			if err := p.advance(); err != nil {
				return nil, err
			}
		} else if !p.isPunct("}") {
			if _, isBlock := body.(*blockExpr); !isBlock {
				return nil, p.errf(p.tok.pos, "Expecting ',' or '}' after the switch case, found %s", p.describe())
			}
		}
	}
	return x, p.advance()
}

// identIsName reports whether s is a usable name (used by is_def_var).
func identIsName(s string) bool {
	if s == "" || keywords[s] || reserved[s] || !isIdentStart(s[0]) {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool { return r > 127 || !isIdentChar(byte(r)) }) < 0
}

func plural(n int) string {
	switch n {
	case 0:
		return "no parameters"
	case 1:
		return "1 parameter"
	}
	return fmt.Sprintf("%d parameters", n)
}
