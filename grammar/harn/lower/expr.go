package lower

import (
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// expr lowers a node found where an expression may stand.
func (l *lowerer) expr(n Node) ast.Expr {
	if n.IsError() || n.IsMissing() {
		return l.errorNode(n)
	}
	sp := l.span(n)
	switch n.Kind() {
	case "identifier":
		return l.ident(n)
	case "integer":
		raw := l.text(n)
		v, over, _ := ast.ParseInt(raw)
		return &ast.IntLit{Span: sp, Raw: raw, Value: v, Overflow: over}
	case "float":
		raw := l.text(n)
		v, _ := strconv.ParseFloat(raw, 64)
		return &ast.FloatLit{Span: sp, Raw: raw, Value: v}
	case "duration":
		raw := l.text(n)
		ms, over, _ := ast.ParseDuration(raw)
		return &ast.DurationLit{Span: sp, Raw: raw, Millis: ms, Overflow: over}
	case "true", "false":
		return &ast.BoolLit{Span: sp, Value: n.Kind() == "true"}
	case "nil":
		return &ast.NilLit{Span: sp}
	case "string", "multiline_string", "raw_string":
		return l.str(n)
	case "list":
		lst := &ast.ListLit{Span: sp}
		for _, c := range l.unfielded(n) {
			lst.Elements = append(lst.Elements, l.element(c))
		}
		return lst
	case "dict":
		return l.dict(n)
	case "closure":
		c := &ast.Closure{Span: sp, Params: l.params(l.field(n, "parameters"))}
		for _, s := range l.unfielded(n) {
			c.Body = append(c.Body, l.stmt(s))
		}
		return c
	case "function_expression":
		return &ast.FuncLit{
			Span:       sp,
			Params:     l.params(l.field(n, "parameters")),
			ReturnType: l.optType(l.field(n, "return_type")),
			Throws:     l.throws(l.field(n, "throws")),
			Body:       l.reqBlock(n, "body"),
		}
	case "struct_expression":
		s := &ast.StructLit{Span: sp, Name: l.requiredIdent(n, "name")}
		if body := l.field(n, "body"); body != nil {
			for _, f := range l.unfielded(body) {
				if f.Kind() == "field_initializer" {
					s.Fields = append(s.Fields, &ast.FieldInit{Span: l.span(f), Name: l.requiredIdent(f, "name"), Value: l.reqExpr(f, "value")})
				}
			}
		}
		return s
	case "parenthesized_expression":
		return &ast.Paren{Span: sp, X: l.reqExpr(n, "expression")}
	case "call_expression":
		c := &ast.Call{Span: sp, Func: l.reqExpr(n, "function")}
		if ta := l.field(n, "type_arguments"); ta != nil {
			c.TypeArgs = l.typeList(ta)
		}
		if args := l.field(n, "arguments"); args != nil {
			c.Args = []ast.Expr{}
			for _, a := range l.unfielded(args) {
				c.Args = append(c.Args, l.element(a))
			}
		}
		return c
	case "member_expression":
		return &ast.Member{
			Span:     sp,
			X:        l.reqExpr(n, "object"),
			Optional: l.fieldText(n, "operator") == "?.",
			Name:     l.requiredIdent(n, "property"),
		}
	case "subscript_expression":
		return &ast.Index{
			Span:     sp,
			X:        l.reqExpr(n, "object"),
			Optional: l.fieldText(n, "operator") != "[",
			Index:    l.reqExpr(n, "index"),
		}
	case "slice_expression":
		return &ast.Slice{
			Span:     sp,
			X:        l.reqExpr(n, "object"),
			Optional: l.fieldText(n, "operator") != "[",
			Low:      l.optExpr(l.field(n, "start")),
			High:     l.optExpr(l.field(n, "end")),
		}
	case "propagation_expression":
		return &ast.Propagate{Span: sp, X: l.reqExpr(n, "operand")}
	case "unary_expression":
		op := ast.Not
		if l.fieldText(n, "operator") == "-" {
			op = ast.Negate
		}
		return &ast.Unary{Span: sp, Op: op, X: l.reqExpr(n, "operand")}
	case "rethrow_expression":
		return &ast.Rethrow{Span: sp, X: l.reqExpr(n, "operand")}
	case "binary_expression":
		op, ok := ast.LookupBinaryOp(l.fieldText(n, "operator"))
		if !ok {
			return l.errorNode(n)
		}
		return &ast.Binary{Span: sp, Op: op, Left: l.reqExpr(n, "left"), Right: l.reqExpr(n, "right")}
	case "conditional_expression":
		return &ast.Conditional{Span: sp, Cond: l.reqExpr(n, "condition"), Then: l.reqExpr(n, "consequence"), Else: l.reqExpr(n, "alternative")}
	case "range_expression":
		return &ast.Range{Span: sp, Start: l.reqExpr(n, "start"), End: l.reqExpr(n, "end"), Exclusive: l.field(n, "exclusive") != nil}
	case "pipe_expression":
		return &ast.Pipe{Span: sp, Left: l.reqExpr(n, "left"), Right: l.reqExpr(n, "right")}
	case "if_expression":
		e := &ast.If{Span: sp, Cond: l.reqExpr(n, "condition"), Then: l.reqBlock(n, "consequence")}
		if alt := l.field(n, "alternative"); alt != nil {
			if alt.Kind() == "if_expression" {
				e.Else = l.expr(alt)
			} else {
				e.Else = l.block(alt)
			}
		}
		return e
	case "match_expression":
		m := &ast.Match{Span: sp, Value: l.reqExpr(n, "value")}
		if body := l.field(n, "body"); body != nil {
			for _, a := range l.unfielded(body) {
				if a.Kind() != "match_arm" {
					continue
				}
				m.Arms = append(m.Arms, &ast.MatchArm{
					Span:    l.span(a),
					Pattern: l.reqPattern(a, "pattern"),
					Guard:   l.optExpr(l.field(a, "guard")),
					Body:    l.reqBlock(a, "body"),
				})
			}
		}
		return m
	case "try_expression":
		t := &ast.Try{Span: sp, Body: l.reqBlock(n, "body")}
		if c := l.field(n, "catch"); c != nil {
			t.Catch = &ast.Catch{
				Span: l.span(c),
				Name: l.ident(l.field(c, "name")),
				Type: l.optType(l.field(c, "type")),
				Body: l.reqBlock(c, "body"),
			}
		}
		if f := l.field(n, "finally"); f != nil {
			t.Finally = l.reqBlock(f, "body")
		}
		return t
	case "retry_expression":
		return &ast.Retry{Span: sp, Count: l.reqExpr(n, "count"), Body: l.reqBlock(n, "body")}
	case "deadline_expression":
		return &ast.Deadline{Span: sp, Duration: l.reqExpr(n, "duration"), Body: l.reqBlock(n, "body")}
	case "parallel_expression":
		p := &ast.Parallel{Span: sp, Value: l.reqExpr(n, "value"), Options: l.optExpr(l.field(n, "options"))}
		switch l.textOf(l.field(n, "mode")) {
		case "each":
			p.Mode = ast.ParallelEach
		case "settle":
			p.Mode = ast.ParallelSettle
		}
		if body := l.field(n, "body"); body == nil {
			p.Body = l.absent(n, "body")
		} else if body.Kind() == "block" {
			p.Body = l.block(body)
		} else {
			p.Body = l.expr(body)
		}
		p.AsStream = l.field(n, "as_stream") != nil
		return p
	case "spawn_expression":
		return &ast.Spawn{Span: sp, Body: l.reqBlock(n, "body")}
	case "approval_expression":
		a := &ast.Approval{Span: sp, Primitive: l.fieldText(n, "primitive"), Args: []*ast.ApprovalArg{}}
		if args := l.field(n, "arguments"); args != nil {
			for _, c := range l.unfielded(args) {
				if c.Kind() == "named_argument" {
					a.Args = append(a.Args, &ast.ApprovalArg{Span: l.span(c), Name: l.requiredIdent(c, "name"), Value: l.reqExpr(c, "value")})
					continue
				}
				a.Args = append(a.Args, &ast.ApprovalArg{Span: l.span(c), Value: l.element(c)})
			}
		}
		return a
	case "block":
		return l.block(n)
	}
	return l.errorNode(n)
}

// element lowers a list element or call argument, which may be a spread.
func (l *lowerer) element(n Node) ast.Expr {
	if n.Kind() == "spread_element" {
		return &ast.Spread{Span: l.span(n), Value: l.reqExpr(n, "value")}
	}
	return l.expr(n)
}

func (l *lowerer) dict(n Node) ast.Expr {
	d := &ast.DictLit{Span: l.span(n)}
	for _, c := range l.unfielded(n) {
		switch c.Kind() {
		case "spread_element":
			d.Entries = append(d.Entries, &ast.DictEntry{Span: l.span(c), Value: l.reqExpr(c, "value"), Spread: true})
		case "dict_entry":
			e := &ast.DictEntry{Span: l.span(c), Value: l.reqExpr(c, "value")}
			key := l.field(c, "key")
			switch {
			case key == nil || key.IsMissing() || key.IsError():
				e.Computed = l.absent(c, "key")
			case key.Kind() == "identifier":
				e.Name = l.ident(key)
			case key.Kind() == "computed_key":
				e.Computed = l.reqExpr(key, "expression")
			default:
				e.StringKey = l.stringLit(key)
				if e.StringKey == nil {
					e.Computed = l.expr(key)
				}
			}
			d.Entries = append(d.Entries, e)
		default:
			d.Entries = append(d.Entries, &ast.DictEntry{Span: l.span(c), Value: l.errorNode(c)})
		}
	}
	return d
}

// str lowers the three string syntaxes.
func (l *lowerer) str(n Node) ast.Expr {
	s := &ast.StringLit{Span: l.span(n)}
	switch n.Kind() {
	case "raw_string":
		s.Kind = ast.RawString
		body, err := ast.RawStringBody(l.text(n))
		if err != nil {
			return l.errorNode(n)
		}
		s.Parts = []ast.StringPart{{Span: s.Span, Text: body}}
		return s
	case "multiline_string":
		s.Kind = ast.MultilineString
		return l.multiline(n, s)
	}
	for _, c := range l.children(n) {
		switch c.node.Kind() {
		case "string_content":
			s.Parts = appendText(s.Parts, l.span(c.node), l.text(c.node))
		case "escape_sequence":
			s.Parts = appendText(s.Parts, l.span(c.node), ast.DecodeEscape(l.text(c.node)))
		case "interpolation":
			s.Parts = append(s.Parts, ast.StringPart{Span: l.span(c.node), Expr: l.reqExpr(c.node, "expression")})
		}
	}
	return s
}

// appendText adds literal text, merging it into a preceding text part.
func appendText(parts []ast.StringPart, sp ast.Span, text string) []ast.StringPart {
	if k := len(parts) - 1; k >= 0 && parts[k].Expr == nil {
		parts[k].Text += text
		parts[k].Span = parts[k].Span.Cover(sp)
		return parts
	}
	return append(parts, ast.StringPart{Span: sp, Text: text})
}

// placeholder stands for an interpolation while a multi-line string is
// dedented; it is a noncharacter, so it cannot occur in source text.
const placeholder = "\uFFFF"

// multiline dedents a `"""` string as written (interpolations included),
// then splits it back into parts. A backslash there is literal text.
func (l *lowerer) multiline(n Node, s *ast.StringLit) ast.Expr {
	var raw strings.Builder
	var interps []ast.StringPart
	for _, c := range l.children(n) {
		switch c.node.Kind() {
		case "multiline_string_content":
			raw.WriteString(strings.ReplaceAll(l.text(c.node), placeholder, ""))
		case "interpolation":
			raw.WriteString(placeholder)
			interps = append(interps, ast.StringPart{Span: l.span(c.node), Expr: l.reqExpr(c.node, "expression")})
		}
	}
	pieces := strings.Split(ast.Dedent(raw.String()), placeholder)
	for i, p := range pieces {
		if p != "" {
			s.Parts = append(s.Parts, ast.StringPart{Span: s.Span, Text: p})
		}
		if i < len(interps) {
			s.Parts = append(s.Parts, interps[i])
		}
	}
	return s
}
