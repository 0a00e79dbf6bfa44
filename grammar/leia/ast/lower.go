package ast

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/harnlang/harn-check/grammar/tsnode"
)

// TreeNode is the read-only view of a syntax tree node that lowering
// needs: the one node interface of both grammars (tsnode.Node), which
// grammar/tsbind implements over live and copied tree-sitter trees.
type TreeNode = tsnode.Node

// Lower converts the tree rooted at root (a source_file) for src into a
// File. It never fails: unreadable parts become *Error nodes.
func Lower(root TreeNode, src []byte) *File {
	l := &lowerer{src: src}
	l.takeChunks()
	defer l.releaseChunks()
	f := &File{}
	if root == nil {
		e := l.missing(0, "source_file")
		f.Stmts = []Stmt{e}
		f.Errors = l.errors
		return f
	}
	f.Span = l.span(root)
	l.collectErrors(root)
	l.collectComments(root)
	f.Comments = l.comments
	f.Stmts = l.stmtList(root)
	f.FileDirectives = l.fileDirectives(f)
	sort.Slice(l.errors, func(i, j int) bool { return l.errors[i].Start < l.errors[j].Start })
	f.Errors = l.errors
	return f
}

type lowerer struct {
	src []byte
	// lines indexes src, made when a declaration first reads its lines
	// (line): a focused check in the editor lowers a few statements of a
	// large file, most of which read none.
	lines    lineIndex
	comments []*Comment
	errors   []*Error
	// freeNodes and freeFields are the unused ends of the chunks kids
	// carves each node's child lists from: one allocation per chunk
	// instead of two or three per node (a third of what lowering
	// allocated). The lists are not kept past the lowering.
	freeNodes  []TreeNode
	freeFields []fieldChild
	// chunks are the current chunks whole, handed on to the next
	// lowering when this one ends (chunkPool).
	chunks *kidsChunks
	// errorAt holds the Error of every ERROR and MISSING node, found before
	// lowering so that errors in children the lowering does not visit (a
	// stray token inside parentheses) are still reported.
	errorAt map[errorKey]*Error
}

type errorKey struct {
	span Span
	kind string
}

// children splits a node's children into fields and the named children
// that are neither comments nor errors' contents.
type children struct {
	node   TreeNode
	fields []fieldChild
	named  []TreeNode // named, non-extra children in order (errors included)
}

// fieldChild is a child with its field name. Nodes have few children, so a
// slice scanned by name is cheaper than a map per node.
type fieldChild struct {
	name string
	node TreeNode
}

// isCommentKind reports the nodes lowering keeps as comments: comments,
// directives and a first-line `#!` (shebang).
func isCommentKind(k string) bool { return k == "comment" || k == "directive" || k == "shebang" }

func (l *lowerer) kids(n TreeNode) children {
	count := n.ChildCount()
	if len(l.freeNodes) < count {
		// Each new chunk twice the last: the chunk handed on grows to
		// what a file needs.
		l.chunks.nodes = make([]TreeNode, max(count, kidsChunk, 2*len(l.chunks.nodes)))
		l.freeNodes = l.chunks.nodes
	}
	if len(l.freeFields) < count {
		l.chunks.fields = make([]fieldChild, max(count, kidsChunk, 2*len(l.chunks.fields)))
		l.freeFields = l.chunks.fields
	}
	c := children{node: n, named: l.freeNodes[:0:count], fields: l.freeFields[:0:count]}
	for i := 0; i < count; i++ {
		ch := n.Child(i)
		if ch == nil {
			continue
		}
		if isCommentKind(ch.Kind()) {
			continue
		}
		if f := n.FieldNameForChild(i); f != "" {
			c.fields = append(c.fields, fieldChild{f, ch})
		}
		if ch.IsNamed() || ch.IsError() {
			c.named = append(c.named, ch)
		}
	}
	l.freeNodes, l.freeFields = l.freeNodes[len(c.named):], l.freeFields[len(c.fields):]
	return c
}

// kidsChunk is the least length of the chunks kids carves child lists
// from.
const kidsChunk = 512

// kidsChunks are the chunks of one lowering.
type kidsChunks struct {
	nodes  []TreeNode
	fields []fieldChild
}

// chunkPool hands the chunks of a finished lowering on to the next one: a
// check of many files made a chunk or two for each (a third of the bytes
// a check of 3,000 files allocated).
var chunkPool = sync.Pool{New: func() any { return new(kidsChunks) }}

// takeChunks starts the lowering on chunks a finished one handed on.
func (l *lowerer) takeChunks() {
	l.chunks = chunkPool.Get().(*kidsChunks)
	l.freeNodes, l.freeFields = l.chunks.nodes, l.chunks.fields
}

// releaseChunks hands the lowering's last chunks on, emptied so that they
// keep no tree alive. No child list outlives the lowering.
func (l *lowerer) releaseChunks() {
	c := l.chunks
	clear(c.nodes)
	clear(c.fields)
	l.chunks, l.freeNodes, l.freeFields = nil, nil, nil
	chunkPool.Put(c)
}

func (c children) field(name string) TreeNode {
	for _, f := range c.fields {
		if f.name == name {
			return f.node
		}
	}
	return nil
}

// all returns every child carrying the field name, in order.
func (c children) all(name string) []TreeNode {
	var out []TreeNode
	for _, f := range c.fields {
		if f.name == name {
			out = append(out, f.node)
		}
	}
	return out
}

// has reports whether any child of the node, comments and anonymous
// tokens included, is of kind.
func (c children) has(kind string) bool {
	for i := range c.node.ChildCount() {
		if ch := c.node.Child(i); ch != nil && ch.Kind() == kind {
			return true
		}
	}
	return false
}

func (l *lowerer) span(n TreeNode) Span {
	return Span{n.StartByte(), n.EndByte()}
}

func (l *lowerer) text(n TreeNode) string {
	s, e := n.StartByte(), n.EndByte()
	if s < 0 || e > len(l.src) || s > e {
		return ""
	}
	return string(l.src[s:e])
}

func (l *lowerer) missing(at int, what string) *Error {
	e := &Error{Span: Span{at, at}, Missing: what}
	l.errors = append(l.errors, e)
	return e
}

// errorNode lowers an ERROR or MISSING node to the Error recorded for it
// by collectErrors.
func (l *lowerer) errorNode(n TreeNode) *Error {
	if e := l.errorAt[errorKey{l.span(n), n.Kind()}]; e != nil {
		return e
	}
	e := l.newError(n)
	l.errors = append(l.errors, e)
	return e
}

func (l *lowerer) newError(n TreeNode) *Error {
	e := &Error{Span: l.span(n)}
	if n.IsMissing() {
		e.Missing = n.Kind()
	} else {
		e.Text = l.text(n)
	}
	return e
}

// collectErrors records every ERROR and MISSING node of the tree. Nodes
// inside an ERROR are part of its region and are not reported again.
func (l *lowerer) collectErrors(n TreeNode) {
	if n.IsError() || n.IsMissing() {
		if l.errorAt == nil {
			l.errorAt = map[errorKey]*Error{}
		}
		e := l.newError(n)
		l.errorAt[errorKey{e.Span, n.Kind()}] = e
		l.errors = append(l.errors, e)
		return
	}
	for i := 0; i < n.ChildCount(); i++ {
		if ch := n.Child(i); ch != nil {
			l.collectErrors(ch)
		}
	}
}

func (l *lowerer) collectComments(n TreeNode) {
	if isCommentKind(n.Kind()) {
		c := &Comment{Span: l.span(n), Text: l.text(n)}
		if n.Kind() == "directive" {
			c.Directive = parseDirective(c.Span, c.Text)
		}
		l.comments = append(l.comments, c)
		return
	}
	for i := 0; i < n.ChildCount(); i++ {
		if ch := n.Child(i); ch != nil {
			l.collectComments(ch)
		}
	}
}

// parseDirective splits `//leia:kind rest` (or `//gscript:...`).
func parseDirective(sp Span, text string) *Directive {
	d := &Directive{Span: sp}
	body := strings.TrimPrefix(text, "//")
	prefix, rest, _ := strings.Cut(body, ":")
	d.Prefix = prefix
	rest = strings.TrimSpace(rest)
	kind, args, _ := strings.Cut(rest, " ")
	if i := strings.IndexAny(kind, "\t"); i >= 0 {
		kind, args = kind[:i], kind[i+1:]+" "+args
	}
	d.Kind = kind
	d.Rest = strings.TrimSpace(args)
	d.Args = strings.FieldsFunc(d.Rest, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	return d
}

// fileDirectives returns the directives in the leading comment group of the
// first token: line comments before it, restarted by any block comment.
func (l *lowerer) fileDirectives(f *File) []*Directive {
	first := len(l.src)
	if len(f.Stmts) > 0 {
		first = f.Stmts[0].Pos().Start
	}
	var out []*Directive
	for _, c := range l.comments {
		if c.Start >= first {
			break
		}
		if strings.HasPrefix(c.Text, "/*") {
			out = nil
			continue
		}
		if c.Directive != nil && c.Directive.Prefix == "leia" {
			out = append(out, c.Directive)
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// Statements

func (l *lowerer) stmtList(n TreeNode) []Stmt {
	var out []Stmt
	for _, ch := range l.kids(n).named {
		out = append(out, l.stmt(ch))
	}
	return out
}

func (l *lowerer) block(n TreeNode, parentEnd int) *Block {
	if n == nil {
		l.missing(parentEnd, "block")
		return &Block{Span: Span{parentEnd, parentEnd}}
	}
	return &Block{Span: l.span(n), Stmts: l.stmtList(n)}
}

func (l *lowerer) stmt(n TreeNode) Stmt {
	if n.IsError() || n.IsMissing() {
		return l.errorNode(n)
	}
	sp := l.span(n)
	c := l.kids(n)
	switch n.Kind() {
	case "expression_statement":
		if len(c.named) == 0 {
			return l.missing(sp.End, "expression")
		}
		return &ExprStmt{Span: sp, X: l.expr(c.named[0], sp.End)}
	case "short_var_declaration":
		return &DeclareStmt{Span: sp, Left: l.exprList(c.field("left"), sp.End), Right: l.exprList(c.field("right"), sp.End)}
	case "assignment_statement":
		return &AssignStmt{Span: sp, Left: l.exprList(c.field("left"), sp.End), Right: l.exprList(c.field("right"), sp.End)}
	case "compound_assignment":
		return &CompoundAssignStmt{Span: sp, Op: l.opText(c.field("operator")), Left: l.expr(c.field("left"), sp.End), Right: l.expr(c.field("right"), sp.End)}
	case "inc_statement", "dec_statement":
		return &IncDecStmt{Span: sp, X: l.expr(c.field("operand"), sp.End), Inc: n.Kind() == "inc_statement"}
	case "send_statement":
		return &SendStmt{Span: sp, Chan: l.expr(c.field("channel"), sp.End), Value: l.expr(c.field("value"), sp.End)}
	case "receive_statement":
		return &ReceiveStmt{Span: sp, Left: l.exprList(c.field("left"), sp.End), Declare: c.has(":="), Right: l.expr(c.field("right"), sp.End)}
	case "const_declaration":
		d := &ConstDecl{Span: sp, Declare: c.has(":="), Values: l.exprList(c.field("value"), sp.End)}
		for _, nm := range c.all("name") {
			d.Names = append(d.Names, l.ident(nm, sp.End))
		}
		return d
	case "function_declaration":
		return &FuncDecl{Span: sp, Name: l.ident(c.field("name"), sp.End), Params: l.params(c.field("parameters"), sp.End), Body: l.block(c.field("body"), sp.End)}
	case "if_statement":
		s := &IfStmt{Span: sp, Cond: l.expr(c.field("condition"), sp.End), Then: l.block(c.field("consequence"), sp.End)}
		for _, alt := range c.all("alternative") {
			ac := l.kids(alt)
			switch alt.Kind() {
			case "elseif_clause":
				s.ElseIfs = append(s.ElseIfs, &ElseIf{Span: l.span(alt), Cond: l.expr(ac.field("condition"), alt.EndByte()), Body: l.block(ac.field("consequence"), alt.EndByte()), TwoWords: ac.has("else")})
			case "else_clause":
				s.Else = l.block(ac.field("body"), alt.EndByte())
			}
		}
		return s
	case "for_statement":
		return l.forStmt(n, sp, c)
	case "select_statement":
		s := &SelectStmt{Span: sp}
		for _, cc := range c.named {
			s.Cases = append(s.Cases, l.commCase(cc))
		}
		return s
	case "return_statement":
		return &ReturnStmt{Span: sp, Values: l.exprListOpt(c.field("values"))}
	case "break_statement":
		return &BreakStmt{Span: sp}
	case "continue_statement":
		return &ContinueStmt{Span: sp}
	case "goto_statement":
		return &GotoStmt{Span: sp, Label: l.ident(c.field("label"), sp.End)}
	case "label_statement":
		return &LabelStmt{Span: sp, Name: l.ident(c.field("name"), sp.End)}
	case "go_statement":
		return &GoStmt{Span: sp, Call: l.expr(c.field("call"), sp.End)}
	case "defer_statement":
		return &DeferStmt{Span: sp, Call: l.expr(c.field("call"), sp.End)}
	case "import_declaration":
		d := &ImportDecl{Span: sp}
		for _, spec := range c.named {
			if spec.Kind() != "import_spec" {
				l.stmt(spec) // records the error
				continue
			}
			sc := l.kids(spec)
			is := &ImportSpec{Span: l.span(spec), Path: l.stringLit(sc.field("path"), spec.EndByte()), AsForm: sc.has("as")}
			if a := sc.field("alias"); a != nil {
				is.Alias = l.ident(a, spec.EndByte())
			}
			d.Specs = append(d.Specs, is)
		}
		return d
	case "evaluate_statement":
		return &EvaluateStmt{Span: sp, Name: l.stringLit(c.field("name"), sp.End), Body: l.block(c.field("body"), sp.End)}
	case "tool_declaration":
		return l.toolDecl(sp, c)
	case "agent_declaration":
		d := &AgentDecl{Span: sp, Name: l.ident(c.field("name"), sp.End), Config: l.table(c.field("config"), sp.End)}
		if p := c.field("parameters"); p != nil {
			d.Params = l.params(p, sp.End)
		}
		if fl := c.field("flow"); fl != nil {
			d.Flow = l.block(fl, sp.End)
		}
		return d
	case "agent_defaults":
		return &AgentDefaults{Span: sp, Config: l.table(c.field("config"), sp.End)}
	case "budget_statement":
		s := &BudgetStmt{Span: sp, Body: l.block(c.field("body"), sp.End)}
		if lim, ok := l.expr(c.field("limits"), sp.End).(*TaggedBlock); ok {
			s.Limits = lim
		} else {
			at := Span{sp.Start, sp.Start}
			s.Limits = &TaggedBlock{Span: at, Tag: &Ident{Span: at}, Body: &TableExpr{Span: at}}
			l.missing(sp.Start, "tagged_block")
		}
		return s
	}
	// An expression where a statement was expected cannot come from this
	// grammar; keep it as an error rather than dropping it.
	e := &Error{Span: sp, Text: l.text(n)}
	l.errors = append(l.errors, e)
	return e
}

func (l *lowerer) forStmt(n TreeNode, sp Span, c children) Stmt {
	s := &ForStmt{Span: sp, Kind: ForInfinite, Body: l.block(c.field("body"), sp.End)}
	if cond := c.field("condition"); cond != nil {
		s.Kind = ForCond
		s.Cond = l.expr(cond, sp.End)
	}
	if cl := c.field("clause"); cl != nil {
		cc := l.kids(cl)
		end := cl.EndByte()
		switch cl.Kind() {
		case "for_clause":
			s.Kind = ForClause
			if i := cc.field("initializer"); i != nil {
				s.Init = l.stmt(i)
			}
			if cond := cc.field("condition"); cond != nil {
				s.Cond = l.expr(cond, end)
			}
			if u := cc.field("update"); u != nil {
				s.Post = l.stmt(u)
			}
		case "range_clause":
			s.Kind = ForRange
			s.Vars = l.exprList(cc.field("left"), end)
			s.X = l.expr(cc.field("right"), end)
		default:
			s.Init = l.stmt(cl)
		}
	}
	return s
}

func (l *lowerer) commCase(n TreeNode) *CommCase {
	if n.IsError() || n.IsMissing() {
		e := l.errorNode(n)
		return &CommCase{Span: e.Span, Comm: e}
	}
	c := l.kids(n)
	cc := &CommCase{Span: l.span(n), Default: n.Kind() == "default_case"}
	comm := c.field("communication")
	for _, ch := range c.named {
		if comm != nil && ch.StartByte() == comm.StartByte() && ch.EndByte() == comm.EndByte() && ch.Kind() == comm.Kind() {
			continue
		}
		cc.Body = append(cc.Body, l.stmt(ch))
	}
	if comm != nil {
		switch comm.Kind() {
		case "send_statement", "receive_statement":
			cc.Comm = l.stmt(comm)
		default:
			cc.Comm = &ExprStmt{Span: l.span(comm), X: l.expr(comm, n.EndByte())}
		}
	}
	return cc
}

// toolDecl lowers a legacy tool declaration and reads the directive and
// doc comment lines directly above it.
func (l *lowerer) toolDecl(sp Span, c children) *ToolDecl {
	d := &ToolDecl{Span: sp, Name: l.ident(c.field("name"), sp.End), Params: l.params(c.field("parameters"), sp.End), Body: l.block(c.field("body"), sp.End)}
	var above []*Comment
	want := l.line(sp.Start) - 1
	for i := len(l.comments) - 1; i >= 0; i-- {
		cm := l.comments[i]
		if cm.Start >= sp.Start {
			continue
		}
		if !strings.HasPrefix(cm.Text, "//") || l.line(cm.Start) != want {
			break
		}
		above = append([]*Comment{cm}, above...)
		want--
	}
	var doc []string
	for _, cm := range above {
		dir := cm.Directive
		switch {
		case dir != nil && dir.Kind == "requires":
			d.Directives = append(d.Directives, dir)
			d.Requires = append(d.Requires, dir.Args...)
		case dir != nil && dir.Kind == "param":
			d.Directives = append(d.Directives, dir)
			name, text, _ := strings.Cut(dir.Rest, " ")
			d.ParamDocs = append(d.ParamDocs, ParamDoc{Name: name, Text: strings.TrimSpace(text), Directive: dir})
		case dir != nil:
			d.Directives = append(d.Directives, dir)
		default:
			doc = append(doc, strings.TrimSpace(strings.TrimPrefix(cm.Text, "//")))
		}
	}
	d.Doc = strings.Join(doc, "\n")
	return d
}

// ---------------------------------------------------------------------------
// Expressions

func (l *lowerer) exprList(n TreeNode, parentEnd int) []Expr {
	if n == nil {
		return []Expr{l.missing(parentEnd, "expression")}
	}
	if n.IsError() || n.IsMissing() {
		return []Expr{l.errorNode(n)}
	}
	var out []Expr
	for _, ch := range l.kids(n).named {
		out = append(out, l.expr(ch, n.EndByte()))
	}
	return out
}

func (l *lowerer) exprListOpt(n TreeNode) []Expr {
	if n == nil {
		return nil
	}
	return l.exprList(n, n.EndByte())
}

func (l *lowerer) opText(n TreeNode) string {
	if n == nil {
		return ""
	}
	return l.text(n)
}

func (l *lowerer) ident(n TreeNode, parentEnd int) *Ident {
	if n == nil {
		l.missing(parentEnd, "identifier")
		return &Ident{Span: Span{parentEnd, parentEnd}}
	}
	if n.IsError() || n.IsMissing() {
		e := l.errorNode(n)
		return &Ident{Span: e.Span}
	}
	return &Ident{Span: l.span(n), Name: l.text(n)}
}

func (l *lowerer) params(n TreeNode, parentEnd int) *Params {
	if n == nil {
		l.missing(parentEnd, "parameters")
		return &Params{Span: Span{parentEnd, parentEnd}}
	}
	p := &Params{Span: l.span(n)}
	for _, ch := range l.kids(n).named {
		switch ch.Kind() {
		case "identifier":
			p.Names = append(p.Names, l.ident(ch, p.End))
		case "variadic_parameter":
			p.Variadic = true
			vc := l.kids(ch)
			if nm := vc.field("name"); nm != nil {
				p.Names = append(p.Names, l.ident(nm, p.End))
			} else {
				p.Names = append(p.Names, &Ident{Span: l.span(ch), Name: "..."})
			}
		default:
			l.errorNode(ch)
		}
	}
	return p
}

func (l *lowerer) table(n TreeNode, parentEnd int) *TableExpr {
	if n == nil {
		l.missing(parentEnd, "table")
		return &TableExpr{Span: Span{parentEnd, parentEnd}}
	}
	t := &TableExpr{Span: l.span(n)}
	if n.IsError() || n.IsMissing() {
		l.errorNode(n)
		return t
	}
	for _, ch := range l.kids(n).named {
		f := &TableField{Span: l.span(ch)}
		cc := l.kids(ch)
		switch ch.Kind() {
		case "pair":
			key := cc.field("key")
			f.Key = l.expr(key, f.End)
			f.Kind = FieldNamed
			switch k := f.Key.(type) {
			case *Ident:
				f.Name = k.Name
			case *StringLit:
				f.Kind = FieldString
				f.Name, _ = k.Value()
			}
			f.Value = l.expr(cc.field("value"), f.End)
		case "computed_pair":
			f.Kind = FieldComputed
			f.Key = l.expr(cc.field("key"), f.End)
			f.Value = l.expr(cc.field("value"), f.End)
		default:
			f.Kind = FieldPositional
			f.Value = l.expr(ch, f.End)
		}
		t.Fields = append(t.Fields, f)
	}
	return t
}

func (l *lowerer) stringLit(n TreeNode, parentEnd int) *StringLit {
	if n == nil {
		l.missing(parentEnd, "string")
		return &StringLit{Span: Span{parentEnd, parentEnd}}
	}
	if s, ok := l.expr(n, parentEnd).(*StringLit); ok {
		return s
	}
	return &StringLit{Span: l.span(n)}
}

func (l *lowerer) expr(n TreeNode, parentEnd int) Expr {
	if n == nil {
		return l.missing(parentEnd, "expression")
	}
	if n.IsError() || n.IsMissing() {
		return l.errorNode(n)
	}
	sp := l.span(n)
	c := l.kids(n)
	switch n.Kind() {
	case "identifier":
		return &Ident{Span: sp, Name: l.text(n)}
	case "integer":
		raw := l.text(n)
		v, err := strconv.ParseInt(strings.ReplaceAll(raw, "_", ""), 0, 64)
		return &IntLit{Span: sp, Raw: raw, Value: v, Ok: err == nil}
	case "float":
		raw := l.text(n)
		v, err := strconv.ParseFloat(strings.ReplaceAll(raw, "_", ""), 64)
		return &FloatLit{Span: sp, Raw: raw, Value: v, Ok: err == nil}
	case "duration":
		return &DurationLit{Span: sp, Raw: l.text(n)}
	case "true", "false":
		return &BoolLit{Span: sp, Value: n.Kind() == "true"}
	case "nil":
		return &NilLit{Span: sp}
	case "vararg_expression":
		return &VarargExpr{Span: sp}
	case "chan":
		return &ChanExpr{Span: sp}
	case "string", "single_string":
		kind := StringDouble
		if n.Kind() == "single_string" {
			kind = StringSingle
		}
		return &StringLit{Span: sp, Kind: kind, Parts: l.parts(c.named)}
	case "raw_string":
		t := l.text(n)
		return &StringLit{Span: sp, Kind: StringRaw, Parts: textPart(sp, trimDelims(t, "`"))}
	case "fenced_string":
		t := l.text(n)
		return &StringLit{Span: sp, Kind: StringFenced, Parts: textPart(sp, trimDelims(t, "```"))}
	case "parenthesized_expression":
		return &ParenExpr{Span: sp, X: l.expr(c.field("expression"), sp.End)}
	case "unary_expression":
		return &UnaryExpr{Span: sp, Op: l.opText(c.field("operator")), X: l.expr(c.field("operand"), sp.End)}
	case "binary_expression":
		return &BinaryExpr{Span: sp, Op: l.opText(c.field("operator")), Left: l.expr(c.field("left"), sp.End), Right: l.expr(c.field("right"), sp.End)}
	case "call_expression":
		return &CallExpr{Span: sp, Fun: l.expr(c.field("function"), sp.End), Args: l.args(c.field("arguments"), sp.End)}
	case "method_call_expression":
		return &MethodCallExpr{Span: sp, Recv: l.expr(c.field("receiver"), sp.End), Method: l.ident(c.field("method"), sp.End), Args: l.args(c.field("arguments"), sp.End)}
	case "index_expression":
		return &IndexExpr{Span: sp, X: l.expr(c.field("object"), sp.End), Index: l.expr(c.field("index"), sp.End)}
	case "field_expression":
		return &FieldExpr{Span: sp, X: l.expr(c.field("object"), sp.End), Field: l.ident(c.field("field"), sp.End)}
	case "function_literal":
		return &FuncLit{Span: sp, Params: l.params(c.field("parameters"), sp.End), Body: l.block(c.field("body"), sp.End)}
	case "table":
		return l.table(n, sp.End)
	case "list":
		le := &ListExpr{Span: sp}
		for _, el := range c.all("element") {
			le.Elems = append(le.Elems, l.expr(el, sp.End))
		}
		return le
	case "dense_array":
		d := &DenseArray{Span: sp, Body: l.table(c.field("body"), sp.End)}
		if t := c.field("type"); t != nil {
			d.ElemType = l.text(t)
		}
		if size := c.field("size"); size != nil {
			if els := l.kids(size).all("element"); len(els) > 0 {
				d.Size = l.expr(els[0], sp.End)
			}
		}
		return d
	case "tagged_block":
		tb := &TaggedBlock{Span: sp, Tag: l.ident(c.field("tag"), sp.End), Bang: c.field("bang") != nil, Body: l.table(c.field("body"), sp.End)}
		tb.Kind, tb.Form = ClassifyTag(tb.Tag.Name)
		return tb
	case "tagged_string":
		ts := &TaggedString{Span: sp, Bang: c.field("bang") != nil}
		if c.has("$") {
			ts.Kind = DialectShell
		} else {
			ts.Tag = l.ident(c.field("tag"), sp.End)
			ts.Kind, _ = ClassifyTag(ts.Tag.Name)
		}
		if body := c.field("body"); body != nil {
			ts.Fenced = body.Kind() == "fenced_template"
			ts.Parts = l.parts(l.kids(body).named)
		} else {
			l.missing(sp.End, "template")
		}
		return ts
	case "quote_block":
		q := &QuoteBlock{Span: sp, Bang: c.field("bang") != nil}
		if body := c.field("body"); body != nil && body.Kind() == "table" {
			q.Fields = l.table(body, sp.End)
		} else {
			q.Body = l.block(body, sp.End)
		}
		return q
	case "q_block":
		ts := &TaggedString{Span: sp, Bang: c.field("bang") != nil, Block: true, Kind: DialectGeneric}
		ts.Tag = &Ident{Span: Span{sp.Start, sp.Start + 1}, Name: "q"}
		ts.Parts = l.parts(c.named)
		return ts
	case "malformed_number":
		e := &Error{Span: sp, Text: l.text(n), Token: "number"}
		l.errors = append(l.errors, e)
		return e
	case "agent_expression":
		a := &AgentExpr{Span: sp, Config: l.table(c.field("config"), sp.End), Form: FormCurrent}
		if p := c.field("parameters"); p != nil {
			a.Params = l.params(p, sp.End)
			a.Form = FormLegacy
		}
		if fl := c.field("flow"); fl != nil {
			a.Flow = l.block(fl, sp.End)
			a.Form = FormLegacy
		}
		return a
	}
	e := &Error{Span: sp, Text: l.text(n)}
	l.errors = append(l.errors, e)
	return e
}

func (l *lowerer) args(n TreeNode, parentEnd int) []Expr {
	if n == nil {
		l.missing(parentEnd, "arguments")
		return nil
	}
	var out []Expr
	for _, ch := range l.kids(n).named {
		out = append(out, l.expr(ch, n.EndByte()))
	}
	return out
}

// parts lowers string and template children: content, escapes and
// interpolations. Adjacent text is merged.
func (l *lowerer) parts(nodes []TreeNode) []StringPart {
	var out []StringPart
	addText := func(sp Span, s string) {
		if n := len(out); n > 0 && out[n-1].Expr == nil {
			out[n-1].Text += s
			out[n-1].End = sp.End
			return
		}
		out = append(out, StringPart{Span: sp, Text: s})
	}
	for _, ch := range nodes {
		sp := l.span(ch)
		switch ch.Kind() {
		case "string_content", "template_content", "q_content":
			addText(sp, l.text(ch))
		case "escape_sequence":
			addText(sp, decodeEscape(l.text(ch)))
		case "interpolation":
			cc := l.kids(ch)
			out = append(out, StringPart{Span: sp, Expr: l.expr(cc.field("expression"), sp.End)})
		default:
			out = append(out, StringPart{Span: sp, Expr: l.expr(ch, sp.End)})
		}
	}
	return out
}

func textPart(sp Span, s string) []StringPart {
	if s == "" {
		return nil
	}
	return []StringPart{{Span: sp, Text: s}}
}

func trimDelims(s, d string) string {
	if len(s) >= 2*len(d) && strings.HasPrefix(s, d) && strings.HasSuffix(s, d) {
		return s[len(d) : len(s)-len(d)]
	}
	return strings.TrimPrefix(s, d)
}

// decodeEscape turns one escape sequence into its bytes. Unknown escapes
// keep the backslash, as Leia's lexer does.
func decodeEscape(s string) string {
	if len(s) < 2 || s[0] != '\\' {
		return s
	}
	switch c := s[1]; c {
	case 'a':
		return "\a"
	case 'b':
		return "\b"
	case 'f':
		return "\f"
	case 'n':
		return "\n"
	case 'r':
		return "\r"
	case 't':
		return "\t"
	case 'v':
		return "\v"
	case '\\', '"', '\'':
		return string(c)
	case 'x':
		if v, err := strconv.ParseUint(s[2:], 16, 8); err == nil {
			return string([]byte{byte(v)})
		}
	case 'u', 'U':
		if v, err := strconv.ParseUint(s[2:], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
			return string(rune(v))
		}
	default:
		if c >= '0' && c <= '9' {
			if v, err := strconv.ParseUint(s[1:], 10, 16); err == nil && v <= 255 {
				return string([]byte{byte(v)})
			}
		}
	}
	return s
}

// lineIndex maps byte offsets to 1-based lines.
type lineIndex []int

func newLines(src []byte) lineIndex {
	// Counted, then found, at memory speed.
	idx := make(lineIndex, 1, bytes.Count(src, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return idx
		}
		off += i + 1
		idx = append(idx, off)
	}
}

// line returns the 1-based line of the offset off of the source.
func (l *lowerer) line(off int) int {
	if l.lines == nil {
		l.lines = newLines(l.src)
	}
	return l.lines.line(off)
}

func (li lineIndex) line(off int) int {
	return sort.Search(len(li), func(i int) bool { return li[i] > off })
}
