package harn

import (
	"github.com/harnlang/harn-check/format/doc"
	"github.com/harnlang/harn-check/format/internal/cst"
)

func registerExprs(plain, aware func(string, func(*formatter, *cst.Node) *doc.Doc)) {
	for _, k := range []string{"string", "multiline_string", "raw_string"} {
		// String literals are kept exactly, interpolations included.
		plain(k, (*formatter).verbatim)
	}
	plain("binary_expression", (*formatter).binary)
	plain("pipe_expression", (*formatter).binary)
	plain("call_expression", (*formatter).call)
	plain("member_expression", (*formatter).member)
	aware("arguments", func(f *formatter, n *cst.Node) *doc.Doc { return f.bracketSeq(n, "(", ")", seqOptions{}) })
	aware("approval_arguments", func(f *formatter, n *cst.Node) *doc.Doc { return f.bracketSeq(n, "(", ")", seqOptions{}) })
	aware("list", func(f *formatter, n *cst.Node) *doc.Doc { return f.bracketSeq(n, "[", "]", seqOptions{prefix: 1}) })
	aware("dict", func(f *formatter, n *cst.Node) *doc.Doc { return f.bracketSeq(n, "{", "}", seqOptions{prefix: 1}) })
	aware("field_initializer_list", func(f *formatter, n *cst.Node) *doc.Doc { return f.bracketSeq(n, "{", "}", seqOptions{prefix: 1}) })
	plain("struct_expression", (*formatter).structExpr)
	plain("approval_expression", (*formatter).approval)
	aware("closure", (*formatter).closure)
	plain("function_expression", (*formatter).functionExpr)
	plain("rethrow_expression", (*formatter).rethrow)
	aware("match_body", (*formatter).matchBody)
	plain("match_arm", (*formatter).matchArm)
	plain("parallel_expression", (*formatter).parallel)
	plain("conditional_expression", (*formatter).spaced)
	plain("range_expression", (*formatter).spaced)
	plain("assignment", (*formatter).spaced)
	plain("dict_entry", (*formatter).keyValue)
	plain("field_initializer", (*formatter).keyValue)
	plain("named_argument", (*formatter).keyValue)
	plain("eval_pack_field", (*formatter).keyValue)
	plain("attribute_argument", (*formatter).keyValue)
}

// bracketSeq lays out n, a node whose children are open, comma-separated
// items and close, as a sequence.
func (f *formatter) bracketSeq(n *cst.Node, open, close string, o seqOptions) *doc.Doc {
	o2, inner, ok := delimited(n, open, close)
	if !ok {
		return f.generic(n)
	}
	return f.seq(open, o2.End, inner, close, o)
}

// delimited returns the first child open of n, the children between it and
// the last child close, and whether both exist.
func delimited(n *cst.Node, open, close string) (*cst.Node, []*cst.Node, bool) {
	first, last := -1, -1
	for i, k := range n.Kids {
		if k.Named {
			continue
		}
		if k.Kind == open && first < 0 {
			first = i
		}
		if k.Kind == close {
			last = i
		}
	}
	if first < 0 || last <= first {
		return nil, nil, false
	}
	return n.Kids[first], n.Kids[first+1 : last], true
}

// spaced lays out n's children separated by single spaces (ternaries,
// ranges, assignments).
func (f *formatter) spaced(n *cst.Node) *doc.Doc {
	parts := make([]*doc.Doc, 0, 2*len(n.Kids))
	for i, k := range n.Kids {
		if i > 0 {
			parts = append(parts, f.d.Text(" "))
		}
		parts = append(parts, f.node(k))
	}
	return f.d.Concat(parts...)
}

// keyValue lays out `key: value` (dict entries, field initialisers, named
// arguments, eval_pack fields).
func (f *formatter) keyValue(n *cst.Node) *doc.Doc {
	parts := make([]*doc.Doc, 0, len(n.Kids)+1)
	for _, k := range n.Kids {
		if !k.Named && k.Kind == ":" {
			parts = append(parts, f.d.Text(": "))
			continue
		}
		parts = append(parts, f.node(k))
	}
	return f.d.Concat(parts...)
}

// binary lays out `left op right`. Upstream breaks before the operator
// when the source did (the right operand started on a later line than the
// left one), when the left operand spans lines, or when the expression is
// wider than the width less its indentation; the operator's line is
// indented one level, the right operand is not. An operator that cannot
// start a line (`-`, `in`, `not in`) gets a `\` continuation.
func (f *formatter) binary(n *cst.Node) *doc.Doc {
	left, right := n.Child("left"), n.Child("right")
	if left == nil || right == nil {
		return f.generic(n)
	}
	var opText string
	for _, k := range n.Kids {
		if !k.Named && k != left && k != right {
			if opText != "" {
				opText += " "
			}
			opText += k.Kind
		}
	}
	l := f.node(left)
	r := f.node(right)
	flat := f.d.Concat(l, f.d.Text(" "+opText+" "), r)
	broken := f.line(left.Start) < f.line(right.Start) || l.HasNewline() ||
		(!flat.HasNewline() && f.ind*IndentWidth+flat.Width() > f.width)
	cont := f.d.Text(opText + " ")
	var backslash *doc.Doc
	if !continuesLine(opText) {
		backslash = f.d.Text(" \\")
	}
	if !broken {
		// Flat by upstream's measure, but still broken before the operator
		// when the line it lands on would run past the width.
		if flat.HasNewline() {
			return flat
		}
		return f.d.Group(f.d.Concat(l, f.d.IfBreak(backslash, nil), f.d.Indent(f.d.Concat(doc.Line(), cont)), r))
	}
	return f.d.Concat(l, backslash, f.d.Indent(f.d.Concat(doc.HardLine(), cont)), r)
}

// continuesLine reports whether a line starting with op continues the
// previous one (the scanner's rule in grammar/harn/src/scanner.c).
func continuesLine(op string) bool {
	switch op {
	case "|>", "||", "&&", "==", "!=", "<", ">", "<=", ">=", "??", "+", "*", "/", "%", "**":
		return true
	}
	return false
}

// call lays out a call. A method call (`obj.m(args)`) breaks before the
// `.` when the source did (the `.` on a later line than the receiver's
// end); the `.m(args)` line is indented one level, its arguments and `)`
// with it. (Upstream also breaks there whenever the arguments span lines,
// leaving them and the `)` at the receiver's indentation; that layout
// reads as if the arguments belonged to the statement, so it is not
// followed.)
func (f *formatter) call(n *cst.Node) *doc.Doc {
	fn, targs, args := n.Child("function"), n.Child("type_arguments"), n.Child("arguments")
	if fn == nil || args == nil {
		return f.generic(n)
	}
	if fn.Kind == "member_expression" && !hasCommentKid(fn) && targs == nil {
		obj, op, prop := memberParts(fn)
		if obj != nil {
			return f.methodCall(n, obj, op, prop, args)
		}
	}
	callee := f.node(fn)
	ta := f.node(targs)
	argsDoc := f.argsWithPrefix(args, callee.Width()+ta.Width()+1)
	return f.d.Concat(callee, ta, argsDoc)
}

// argsWithPrefix lays out an arguments node with upstream's prefix.
func (f *formatter) argsWithPrefix(args *cst.Node, prefix int) *doc.Doc {
	if hasCommentKid(args) || args.Kind != "arguments" {
		if args.Kind == "arguments" {
			return f.bracketSeq(args, "(", ")", seqOptions{prefix: prefix})
		}
		return f.node(args)
	}
	return f.bracketSeq(args, "(", ")", seqOptions{prefix: prefix})
}

// memberParts splits a member expression into object, operator and
// property.
func memberParts(m *cst.Node) (obj, op, prop *cst.Node) {
	obj, op, prop = m.Child("object"), m.Child("operator"), m.Child("property")
	if obj == nil || op == nil || prop == nil {
		return nil, nil, nil
	}
	return obj, op, prop
}

func (f *formatter) methodCall(n, obj, op, prop, args *cst.Node) *doc.Doc {
	o := f.node(obj)
	method := f.text(prop)
	opText := op.Kind
	prefix := o.Width() + len(method) + 1 + len(opText)
	a := f.argsWithPrefix(args, prefix)
	tail := f.d.Text(opText + method)
	if f.line(op.Start) > f.line(obj.End) {
		return f.d.Concat(o, f.d.Indent(f.d.Concat(doc.HardLine(), tail, a)))
	}
	return f.d.Concat(o, tail, a)
}

// member lays out a property access; it never breaks.
func (f *formatter) member(n *cst.Node) *doc.Doc {
	obj, op, prop := memberParts(n)
	if obj == nil {
		return f.generic(n)
	}
	return f.d.Concat(f.node(obj), f.d.Text(op.Kind), f.node(prop))
}

// structExpr lays out `Name {field: value}`.
func (f *formatter) structExpr(n *cst.Node) *doc.Doc {
	name, body := n.Child("name"), n.Child("body")
	if name == nil || body == nil {
		return f.generic(n)
	}
	nm := f.node(name)
	return f.d.Concat(nm, f.d.Text(" "), f.bracketSeq(body, "{", "}", seqOptions{prefix: nm.Width() + 2}))
}

// approval lays out `request_approval(args)` like a call.
func (f *formatter) approval(n *cst.Node) *doc.Doc {
	prim, args := n.Child("primitive"), n.Child("arguments")
	if prim == nil || args == nil {
		return f.generic(n)
	}
	p := f.text(prim)
	return f.d.Concat(f.d.Text(p), f.bracketSeq(args, "(", ")", seqOptions{prefix: len(p) + 1}))
}

// simpleKinds are the expressions upstream keeps on the line of a closure's
// or match arm's braces when they are the whole body (is_simple_expr).
var simpleKinds = map[string]bool{
	"string": true, "multiline_string": true, "integer": true, "float": true,
	"true": true, "false": true, "nil": true, "identifier": true, "duration": true,
	"binary_expression": true, "pipe_expression": true, "unary_expression": true,
	"call_expression": true, "member_expression": true, "subscript_expression": true,
	"slice_expression": true, "conditional_expression": true, "assignment": true,
	"list": true, "dict": true, "range_expression": true, "propagation_expression": true,
	"rethrow_expression": true, "return_statement": true, "break_statement": true,
	"continue_statement": true, "require_statement": true, "approval_expression": true,
}

// isSimple reports whether n is one of simpleKinds (looking through
// parentheses, which upstream's syntax tree does not keep).
func isSimple(n *cst.Node) bool {
	for n != nil && n.Kind == "parenthesized_expression" {
		n = n.Child("expression")
	}
	return n != nil && simpleKinds[n.Kind]
}

// soleSimpleStatement returns the one statement among kids when it is
// simple and there are no comments, nil otherwise.
func soleSimpleStatement(kids []*cst.Node) *cst.Node {
	var only *cst.Node
	for _, k := range kids {
		if isComment(k) {
			return nil
		}
		if !k.Named {
			continue
		}
		if only != nil {
			return nil
		}
		only = k
	}
	if only == nil || !isSimple(only) {
		return nil
	}
	return only
}

// closure lays out `{ params -> body }`: on one line when the body is one
// simple expression, otherwise the body indented on its own lines.
func (f *formatter) closure(n *cst.Node) *doc.Doc { return f.closureBody(n, false) }

// closureBody lays out a closure; broken keeps even a simple body on its
// own lines (the body of `parallel`).
func (f *formatter) closureBody(n *cst.Node, broken bool) *doc.Doc {
	open, inner := braced(n)
	if open == nil {
		return f.generic(n)
	}
	// inner is [parameters] `->` statements.
	arrow := -1
	for i, k := range inner {
		if !k.Named && k.Kind == "->" {
			arrow = i
			break
		}
	}
	if arrow < 0 {
		return f.generic(n)
	}
	for _, k := range inner[:arrow] {
		if isComment(k) {
			return f.generic(n)
		}
	}
	head := f.d.Text("{ ->")
	if params := n.Child("parameters"); params != nil {
		head = f.d.Concat(f.d.Text("{ "), f.node(params), f.d.Text(" ->"))
	}
	body := inner[arrow+1:]
	if s := soleSimpleStatement(body); s != nil && !broken {
		return f.d.Concat(head, f.onBraceLine(s, " ", " }"))
	}
	return f.block(head, inner[arrow].End, body, f.node)
}

// functionExpr lays out `fn(params) -> T { body }`; like a closure, a
// single simple statement stays on the braces' line. Its parameters never
// wrap.
func (f *formatter) functionExpr(n *cst.Node) *doc.Doc {
	body := n.Child("body")
	if body == nil {
		return f.generic(n)
	}
	head := f.genericUpTo(n, body)
	_, inner := braced(body)
	if s := soleSimpleStatement(inner); s != nil {
		return f.d.Concat(head, f.d.Text(" {"), f.onBraceLine(s, " ", " }"))
	}
	return f.d.Concat(head, f.d.Text(" "), f.node(body))
}

// onBraceLine lays out the sole simple statement s of a closure, function
// expression or match arm after its opening brace: open, s, close on the
// brace's line when that line fits in the width, else s indented on a
// line of its own and the `}` on the next.
func (f *formatter) onBraceLine(s *cst.Node, open, close string) *doc.Doc {
	d := f.node(s)
	if d.HasNewline() {
		return f.d.Concat(f.d.Text(open), d, f.d.Text(close))
	}
	return f.d.Group(f.d.Concat(f.d.Indent(f.d.Concat(doc.Line(), d)), doc.Line(), f.d.Text("}")))
}

// matchBody lays out the arms of a match, one per line; `,` and `;`
// between arms go.
func (f *formatter) matchBody(n *cst.Node) *doc.Doc {
	open, inner := braced(n)
	if open == nil {
		return f.generic(n)
	}
	return f.block(f.d.Text("{"), open.End, inner, f.node)
}

// matchArm lays out `pattern [if guard] -> { body }`, the body on the
// arm's line when it is one simple expression.
func (f *formatter) matchArm(n *cst.Node) *doc.Doc {
	body := n.Child("body")
	if body == nil {
		return f.generic(n)
	}
	head := f.genericUpTo(n, body)
	_, inner := braced(body)
	if s := soleSimpleStatement(inner); s != nil {
		return f.d.Concat(head, f.d.Text(" {"), f.onBraceLine(s, " ", " }"))
	}
	return f.d.Concat(head, f.d.Text(" "), f.node(body))
}

// parallel lays out `parallel [each|settle] value [with { options }] {
// x -> body }`: the options dict has spaces inside its braces and never
// wraps, and the body is always on its own lines.
func (f *formatter) parallel(n *cst.Node) *doc.Doc {
	var parts []*doc.Doc
	for i, k := range n.Kids {
		if i > 0 {
			parts = append(parts, f.d.Text(" "))
		}
		switch {
		case k.Field == "options" && k.Kind == "dict" && !hasCommentKid(k):
			parts = append(parts, f.bracketSeq(k, "{", "}", seqOptions{pad: true, neverBreak: true}))
		case k.Field == "body" && k.Kind == "closure":
			parts = append(parts, f.closureBody(k, true))
		default:
			parts = append(parts, f.node(k))
		}
	}
	return f.d.Concat(parts...)
}

// rethrow lays out `try* operand`.
func (f *formatter) rethrow(n *cst.Node) *doc.Doc {
	op := n.Child("operand")
	if op == nil {
		return f.generic(n)
	}
	return f.d.Concat(f.d.Text("try* "), f.node(op))
}
