package lower

import "github.com/harnlang/harn-check/grammar/harn/ast"

// typ lowers a node found where a type may stand.
func (l *lowerer) typ(n Node) ast.Type {
	if n.IsError() || n.IsMissing() {
		return l.errorNode(n)
	}
	sp := l.span(n)
	switch n.Kind() {
	case "type_identifier", "identifier":
		return &ast.NamedType{Span: sp, Name: l.ident(n)}
	case "generic_type":
		t := &ast.NamedType{Span: sp, Name: l.requiredIdent(n, "name")}
		if args := l.field(n, "arguments"); args != nil {
			t.Args = l.typeList(args)
		}
		return t
	case "list_type":
		return &ast.ListType{Span: sp, Element: l.reqType(n, "element")}
	case "shape_type":
		t := &ast.ShapeType{Span: sp}
		for _, f := range l.unfielded(n) {
			if f.Kind() != "shape_field" {
				continue
			}
			field := &ast.ShapeField{
				Span:     l.span(f),
				Optional: l.field(f, "optional") != nil,
				Type:     l.reqType(f, "type"),
			}
			if name := l.field(f, "name"); name != nil {
				field.NameSpan = l.span(name)
				if name.Kind() == "identifier" {
					field.Name = l.text(name)
				} else if s := l.stringLit(name); s != nil {
					field.Name, _ = s.Value()
				}
			}
			t.Fields = append(t.Fields, field)
		}
		return t
	case "union_type":
		return &ast.UnionType{Span: sp, Members: l.flattenTypes(n, "union_type")}
	case "intersection_type":
		return &ast.IntersectionType{Span: sp, Members: l.flattenTypes(n, "intersection_type")}
	case "optional_type":
		return &ast.OptionalType{Span: sp, Type: l.reqType(n, "type")}
	case "literal_type":
		v := l.field(n, "value")
		if v == nil {
			return l.errorNode(n)
		}
		if v.Kind() == "negative_literal" {
			return &ast.LiteralType{Span: sp, Value: l.reqExpr(v, "value"), Negative: true}
		}
		return &ast.LiteralType{Span: sp, Value: l.expr(v)}
	case "function_type":
		t := &ast.FuncType{Span: sp, Params: []ast.Type{}, Result: l.optType(l.field(n, "return_type"))}
		for _, p := range l.fields(n, "parameter") {
			t.Params = append(t.Params, l.typ(p))
		}
		return t
	case "parenthesized_type":
		return l.reqType(n, "type")
	}
	return l.errorNode(n)
}

// typeList lowers the types of `type_arguments`.
func (l *lowerer) typeList(n Node) []ast.Type {
	out := []ast.Type{}
	for _, c := range l.unfielded(n) {
		out = append(out, l.typ(c))
	}
	return out
}

// flattenTypes collects the operands of nested binary type nodes of one
// kind (`A | B | C` is parsed as `(A | B) | C`), in source order.
//
// The grammar nests the chain to the left (`(A | B) | C`); it is walked
// down its left spine in a loop, so a long union costs no recursion and
// no repeated copying. A nested chain on the right (`A | (B | C)` after
// error recovery) is flattened the same way.
func (l *lowerer) flattenTypes(n Node, kind string) []ast.Type {
	var out []ast.Type
	var rights []Node // right operands, innermost last
	for {
		rights = append(rights, n)
		left := l.field(n, "left")
		if left == nil || left.Kind() != kind {
			if left == nil {
				out = append(out, l.absent(n, "left"))
			} else {
				out = append(out, l.typ(left))
			}
			break
		}
		n = left
	}
	for i := len(rights) - 1; i >= 0; i-- {
		p := rights[i]
		c := l.field(p, "right")
		switch {
		case c == nil:
			out = append(out, l.absent(p, "right"))
		case c.Kind() == kind:
			out = append(out, l.flattenTypes(c, kind)...)
		default:
			out = append(out, l.typ(c))
		}
	}
	return out
}

// pattern lowers a node found where a pattern may stand.
func (l *lowerer) pattern(n Node) ast.Pattern {
	if n.IsError() || n.IsMissing() {
		return l.errorNode(n)
	}
	sp := l.span(n)
	switch n.Kind() {
	case "identifier":
		return l.ident(n)
	case "wildcard_pattern":
		return &ast.WildcardPattern{Span: sp}
	case "string", "multiline_string", "raw_string", "integer", "float", "duration", "true", "false", "nil":
		return &ast.LiteralPattern{Span: sp, Value: l.expr(n)}
	case "negative_literal":
		return &ast.LiteralPattern{Span: sp, Value: &ast.Unary{Span: sp, Op: ast.Negate, X: l.reqExpr(n, "value")}}
	case "or_pattern":
		return &ast.OrPattern{Span: sp, Alternatives: l.flattenPatterns(n)}
	case "dict_pattern":
		p := &ast.DictPattern{Span: sp}
		for _, c := range l.unfielded(n) {
			switch c.Kind() {
			case "rest_pattern":
				p.Rest = l.requiredIdent(c, "name")
			case "dict_pattern_entry":
				e := &ast.DictPatternEntry{Span: l.span(c), Default: l.optExpr(l.field(c, "default"))}
				if pat := l.field(c, "pattern"); pat != nil {
					e.Pattern = l.pattern(pat)
				}
				if key := l.field(c, "key"); key != nil {
					e.KeySpan = l.span(key)
					if key.Kind() == "identifier" {
						e.Key = l.text(key)
					} else if s := l.stringLit(key); s != nil {
						e.Key, _ = s.Value()
					}
				}
				p.Entries = append(p.Entries, e)
			}
		}
		return p
	case "list_pattern":
		p := &ast.ListPattern{Span: sp}
		for _, c := range l.unfielded(n) {
			switch c.Kind() {
			case "rest_pattern":
				p.Rest = l.requiredIdent(c, "name")
			case "list_pattern_element":
				p.Elements = append(p.Elements, &ast.ListPatternElement{
					Span:    l.span(c),
					Pattern: l.reqPattern(c, "pattern"),
					Default: l.optExpr(l.field(c, "default")),
				})
			}
		}
		return p
	case "pair_pattern":
		return &ast.PairPattern{Span: sp, First: l.reqPattern(n, "first"), Second: l.reqPattern(n, "second")}
	case "variant_pattern":
		p := &ast.VariantPattern{Span: sp, Enum: l.ident(l.field(n, "enum")), Variant: l.requiredIdent(n, "variant")}
		if args := l.field(n, "arguments"); args != nil {
			p.Args = []ast.Pattern{}
			for _, a := range l.unfielded(args) {
				p.Args = append(p.Args, l.pattern(a))
			}
		}
		return p
	}
	return l.errorNode(n)
}

func (l *lowerer) flattenPatterns(n Node) []ast.Pattern {
	var out []ast.Pattern
	for _, side := range []string{"left", "right"} {
		c := l.field(n, side)
		switch {
		case c == nil:
			out = append(out, l.absent(n, side))
		case c.Kind() == "or_pattern":
			out = append(out, l.flattenPatterns(c)...)
		default:
			out = append(out, l.pattern(c))
		}
	}
	return out
}
