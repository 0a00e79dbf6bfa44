package lower

import (
	"strings"

	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// stmt lowers any node found where a statement may stand.
func (l *lowerer) stmt(n Node) ast.Stmt {
	if n.IsError() || n.IsMissing() {
		return l.errorNode(n)
	}
	switch n.Kind() {
	case "import_declaration":
		return l.importDecl(n)
	case "attributed_declaration", "pipeline_declaration", "override_declaration",
		"function_declaration", "type_alias_declaration", "struct_declaration",
		"enum_declaration", "interface_declaration", "impl_declaration",
		"tool_declaration", "skill_declaration", "eval_pack_declaration":
		return l.decl(n)
	case "variable_declaration":
		kind := ast.Let
		switch l.textOf(l.field(n, "kind")) {
		case "var":
			kind = ast.Var
		case "const":
			kind = ast.Const
		}
		return &ast.VarDecl{
			Span:    l.span(n),
			Kind:    kind,
			Pattern: l.reqPattern(n, "pattern"),
			Type:    l.optType(l.field(n, "type")),
			Value:   l.reqExpr(n, "value"),
		}
	case "assignment":
		op, _ := ast.LookupAssignOp(l.fieldText(n, "operator"))
		return &ast.Assign{Span: l.span(n), Target: l.reqExpr(n, "left"), Op: op, Value: l.reqExpr(n, "right")}
	case "return_statement":
		return &ast.Return{Span: l.span(n), Value: l.optExpr(l.field(n, "value"))}
	case "throw_statement":
		return &ast.Throw{Span: l.span(n), Value: l.reqExpr(n, "value")}
	case "break_statement":
		return &ast.Break{Span: l.span(n)}
	case "continue_statement":
		return &ast.Continue{Span: l.span(n)}
	case "for_statement":
		return &ast.For{Span: l.span(n), Pattern: l.reqPattern(n, "pattern"), Iterable: l.reqExpr(n, "iterable"), Body: l.reqBlock(n, "body")}
	case "while_statement":
		return &ast.While{Span: l.span(n), Cond: l.reqExpr(n, "condition"), Body: l.reqBlock(n, "body")}
	case "guard_statement":
		return &ast.Guard{Span: l.span(n), Cond: l.reqExpr(n, "condition"), Else: l.reqBlock(n, "alternative")}
	case "require_statement":
		return &ast.Require{Span: l.span(n), Cond: l.reqExpr(n, "condition"), Message: l.optExpr(l.field(n, "message"))}
	case "defer_statement":
		return &ast.Defer{Span: l.span(n), Body: l.reqBlock(n, "body")}
	case "mutex_statement":
		return &ast.Mutex{Span: l.span(n), Body: l.reqBlock(n, "body")}
	case "select_statement":
		return l.selectStmt(n)
	case "yield_statement":
		return &ast.Yield{Span: l.span(n), Value: l.optExpr(l.field(n, "value"))}
	case "emit_statement":
		return &ast.Emit{Span: l.span(n), Value: l.reqExpr(n, "value")}
	case "block_statement":
		// The first token is `block {`; the body starts at its brace.
		sp := l.span(n)
		body := &ast.Block{Span: sp}
		if i := strings.IndexByte(l.text(n), '{'); i >= 0 {
			body.Span.Start = sp.Start + i
		}
		for _, c := range l.unfielded(n) {
			body.Stmts = append(body.Stmts, l.stmt(c))
		}
		return &ast.BlockStmt{Span: sp, Body: body}
	}
	return l.expr(n)
}

func (l *lowerer) selectStmt(n Node) ast.Stmt {
	s := &ast.Select{Span: l.span(n)}
	for _, c := range l.unfielded(n) {
		switch c.Kind() {
		case "select_case":
			s.Cases = append(s.Cases, &ast.SelectCase{
				Span:    l.span(c),
				Name:    l.requiredIdent(c, "name"),
				Channel: l.reqExpr(c, "channel"),
				Body:    l.reqBlock(c, "body"),
			})
		case "select_timeout":
			s.Timeout = &ast.SelectTimeout{Span: l.span(c), Duration: l.reqExpr(c, "duration"), Body: l.reqBlock(c, "body")}
		case "select_default":
			s.Default = l.reqBlock(c, "body")
		}
	}
	return s
}

func (l *lowerer) importDecl(n Node) ast.Stmt {
	im := &ast.Import{
		Span:   l.span(n),
		Pub:    l.field(n, "visibility") != nil,
		Source: l.stringLit(l.field(n, "source")),
	}
	names := l.field(n, "names")
	if path := l.field(n, "path"); path != nil {
		for _, c := range l.unfielded(path) {
			if c.Kind() == "identifier" {
				im.Path = append(im.Path, l.ident(c))
			}
		}
		names = l.field(path, "names")
	}
	if names != nil {
		im.Names = []*ast.Ident{}
		for _, c := range l.fields(names, "name") {
			im.Names = append(im.Names, l.ident(c))
		}
	}
	return im
}

// decl lowers a declaration; attributes of an `attributed_declaration`
// move onto the declaration they precede.
func (l *lowerer) decl(n Node) ast.Stmt {
	if n.Kind() == "attributed_declaration" {
		var attrs []*ast.Attribute
		for _, a := range l.fields(n, "attribute") {
			attrs = append(attrs, l.attribute(a))
		}
		d := l.field(n, "declaration")
		if d == nil {
			return l.errorNode(n)
		}
		s := l.stmt(d)
		setAttrs(s, attrs, l.span(n))
		return s
	}
	pub := l.field(n, "visibility") != nil
	switch n.Kind() {
	case "pipeline_declaration":
		return &ast.Pipeline{
			Span:       l.span(n),
			Pub:        pub,
			Name:       l.requiredIdent(n, "name"),
			Params:     l.params(l.field(n, "parameters")),
			ReturnType: l.optType(l.field(n, "return_type")),
			Parent:     l.ident(l.field(n, "parent")),
			Body:       l.reqBlock(n, "body"),
		}
	case "override_declaration":
		return &ast.Override{
			Span:   l.span(n),
			Name:   l.requiredIdent(n, "name"),
			Params: l.params(l.field(n, "parameters")),
			Body:   l.reqBlock(n, "body"),
		}
	case "function_declaration":
		return l.funcDecl(n)
	case "type_alias_declaration":
		return &ast.TypeAlias{
			Span:       l.span(n),
			Pub:        pub,
			Name:       l.requiredIdent(n, "name"),
			TypeParams: l.typeParams(l.field(n, "type_parameters")),
			Type:       l.reqType(n, "type"),
		}
	case "struct_declaration":
		d := &ast.StructDecl{
			Span:       l.span(n),
			Pub:        pub,
			Name:       l.requiredIdent(n, "name"),
			TypeParams: l.typeParams(l.field(n, "type_parameters")),
		}
		if body := l.field(n, "body"); body != nil {
			for _, f := range l.unfielded(body) {
				if f.Kind() == "struct_field" {
					d.Fields = append(d.Fields, &ast.StructField{
						Span:     l.span(f),
						Name:     l.requiredIdent(f, "name"),
						Optional: l.field(f, "optional") != nil,
						Type:     l.reqType(f, "type"),
					})
				}
			}
		}
		return d
	case "enum_declaration":
		d := &ast.EnumDecl{
			Span:       l.span(n),
			Pub:        pub,
			Name:       l.requiredIdent(n, "name"),
			TypeParams: l.typeParams(l.field(n, "type_parameters")),
		}
		if body := l.field(n, "body"); body != nil {
			for _, v := range l.unfielded(body) {
				if v.Kind() != "enum_variant" {
					continue
				}
				variant := &ast.Variant{Span: l.span(v), Name: l.requiredIdent(v, "name")}
				if l.hasToken(v, "(") {
					variant.Fields = []*ast.VariantField{}
				}
				for _, f := range l.unfielded(v) {
					if f.Kind() == "variant_field" {
						variant.Fields = append(variant.Fields, &ast.VariantField{
							Span: l.span(f),
							Name: l.ident(l.field(f, "name")),
							Type: l.reqType(f, "type"),
						})
					}
				}
				d.Variants = append(d.Variants, variant)
			}
		}
		return d
	case "interface_declaration":
		d := &ast.InterfaceDecl{
			Span:       l.span(n),
			Pub:        pub,
			Name:       l.requiredIdent(n, "name"),
			TypeParams: l.typeParams(l.field(n, "type_parameters")),
		}
		if body := l.field(n, "body"); body != nil {
			for _, m := range l.unfielded(body) {
				switch m.Kind() {
				case "method_signature":
					d.Methods = append(d.Methods, &ast.MethodSig{
						Span:       l.span(m),
						Name:       l.requiredIdent(m, "name"),
						TypeParams: l.typeParams(l.field(m, "type_parameters")),
						Params:     l.params(l.field(m, "parameters")),
						ReturnType: l.optType(l.field(m, "return_type")),
						Throws:     l.throws(l.field(m, "throws")),
					})
				case "associated_type":
					d.Types = append(d.Types, &ast.AssociatedType{
						Span:    l.span(m),
						Name:    l.requiredIdent(m, "name"),
						Default: l.optType(l.field(m, "default")),
					})
				}
			}
		}
		return d
	case "impl_declaration":
		d := &ast.ImplDecl{Span: l.span(n), Type: l.requiredIdent(n, "type")}
		if body := l.field(n, "body"); body != nil {
			for _, m := range l.unfielded(body) {
				if fn, ok := l.stmt(m).(*ast.FuncDecl); ok {
					d.Methods = append(d.Methods, fn)
				}
			}
		}
		return d
	case "tool_declaration":
		d := &ast.ToolDecl{
			Span:       l.span(n),
			Pub:        pub,
			Name:       l.requiredIdent(n, "name"),
			Params:     l.params(l.field(n, "parameters")),
			ReturnType: l.optType(l.field(n, "return_type")),
			Throws:     l.throws(l.field(n, "throws")),
		}
		if body := l.field(n, "body"); body != nil {
			for _, s := range l.unfielded(body) {
				if s.Kind() == "description" {
					d.Description = l.stringLit(l.field(s, "value"))
					continue
				}
				d.Body = append(d.Body, l.stmt(s))
			}
		}
		return d
	case "skill_declaration":
		d := &ast.SkillDecl{Span: l.span(n), Pub: pub, Name: l.requiredIdent(n, "name")}
		if body := l.field(n, "body"); body != nil {
			for _, f := range l.unfielded(body) {
				if f.Kind() == "skill_field" {
					d.Fields = append(d.Fields, &ast.SkillField{Span: l.span(f), Name: l.requiredIdent(f, "name"), Value: l.reqExpr(f, "value")})
				}
			}
		}
		return d
	case "eval_pack_declaration":
		d := &ast.EvalPackDecl{
			Span: l.span(n),
			Pub:  pub,
			Name: l.requiredIdent(n, "name"),
			ID:   l.stringLit(l.field(n, "id")),
		}
		if body := l.field(n, "body"); body != nil {
			for _, s := range l.unfielded(body) {
				switch s.Kind() {
				case "eval_pack_field":
					d.Fields = append(d.Fields, &ast.EvalPackField{Span: l.span(s), Name: l.requiredIdent(s, "name"), Value: l.reqExpr(s, "value")})
				case "summarize_block":
					d.Summarizes = append(d.Summarizes, l.reqBlock(s, "body"))
				default:
					d.Body = append(d.Body, l.stmt(s))
				}
			}
		}
		return d
	}
	return l.errorNode(n)
}

func (l *lowerer) funcDecl(n Node) *ast.FuncDecl {
	fn := &ast.FuncDecl{
		Span:       l.span(n),
		Pub:        l.field(n, "visibility") != nil,
		Gen:        l.field(n, "generator") != nil,
		Name:       l.requiredIdent(n, "name"),
		TypeParams: l.typeParams(l.field(n, "type_parameters")),
		Params:     l.params(l.field(n, "parameters")),
		ReturnType: l.optType(l.field(n, "return_type")),
		Throws:     l.throws(l.field(n, "throws")),
		Body:       l.reqBlock(n, "body"),
	}
	if w := l.field(n, "where"); w != nil {
		for _, p := range l.unfielded(w) {
			if p.Kind() != "where_predicate" {
				continue
			}
			pred := &ast.WherePredicate{Span: l.span(p), Name: l.requiredIdent(p, "name")}
			for _, b := range l.fields(p, "bound") {
				pred.Bounds = append(pred.Bounds, l.typ(b))
			}
			fn.Where = append(fn.Where, pred)
		}
	}
	return fn
}

func (l *lowerer) throws(n Node) ast.Type {
	if n == nil {
		return nil
	}
	return l.reqType(n, "type")
}

func (l *lowerer) attribute(n Node) *ast.Attribute {
	a := &ast.Attribute{Span: l.span(n), Name: l.requiredIdent(n, "name")}
	if args := l.field(n, "arguments"); args != nil {
		for _, arg := range l.unfielded(args) {
			if arg.Kind() != "attribute_argument" {
				continue
			}
			a.Args = append(a.Args, &ast.AttributeArg{
				Span:  l.span(arg),
				Name:  l.ident(l.field(arg, "name")),
				Value: l.reqExpr(arg, "value"),
			})
		}
	}
	return a
}

// params lowers `parameters` or `closure_parameters`.
func (l *lowerer) params(n Node) []*ast.Param {
	if n == nil {
		return nil
	}
	var out []*ast.Param
	for _, p := range l.unfielded(n) {
		switch p.Kind() {
		case "parameter", "closure_parameter", "rest_parameter":
			out = append(out, &ast.Param{
				Span:    l.span(p),
				Name:    l.requiredIdent(p, "name"),
				Type:    l.optType(l.field(p, "type")),
				Default: l.optExpr(l.field(p, "default")),
				Rest:    p.Kind() == "rest_parameter",
			})
		}
	}
	return out
}

func (l *lowerer) typeParams(n Node) []*ast.TypeParam {
	if n == nil {
		return nil
	}
	var out []*ast.TypeParam
	for _, p := range l.unfielded(n) {
		if p.Kind() != "type_parameter" {
			continue
		}
		tp := &ast.TypeParam{Span: l.span(p), Name: l.requiredIdent(p, "name")}
		switch l.textOf(l.field(p, "variance")) {
		case "in":
			tp.Variance = ast.In
		case "out":
			tp.Variance = ast.Out
		}
		out = append(out, tp)
	}
	return out
}

// setAttrs attaches attributes to the declaration they precede and widens
// its span to cover them.
func setAttrs(s ast.Stmt, attrs []*ast.Attribute, whole ast.Span) {
	switch d := s.(type) {
	case *ast.Pipeline:
		d.Attrs, d.Span = attrs, d.Span.Cover(whole)
	case *ast.FuncDecl:
		d.Attrs, d.Span = attrs, d.Span.Cover(whole)
	case *ast.TypeAlias:
		d.Attrs, d.Span = attrs, d.Span.Cover(whole)
	case *ast.StructDecl:
		d.Attrs, d.Span = attrs, d.Span.Cover(whole)
	case *ast.EnumDecl:
		d.Attrs, d.Span = attrs, d.Span.Cover(whole)
	case *ast.InterfaceDecl:
		d.Attrs, d.Span = attrs, d.Span.Cover(whole)
	case *ast.ImplDecl:
		d.Attrs, d.Span = attrs, d.Span.Cover(whole)
	case *ast.ToolDecl:
		d.Attrs, d.Span = attrs, d.Span.Cover(whole)
	case *ast.SkillDecl:
		d.Attrs, d.Span = attrs, d.Span.Cover(whole)
	case *ast.EvalPackDecl:
		d.Attrs, d.Span = attrs, d.Span.Cover(whole)
	}
}
