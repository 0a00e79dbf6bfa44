package leia

import (
	"github.com/harnlang/harn-check/grammar/leia/ast"
)

func (c *compiler) taggedString(e *ast.TaggedString) evalFn {
	return firstOf(c.taggedStringMulti(e))
}

func (c *compiler) taggedStringMulti(e *ast.TaggedString) multiFn {
	tag := "sh"
	if e.Tag != nil {
		tag = e.Tag.Name
	}
	var pieces []string
	var exprs []evalFn
	cur := ""
	for _, p := range e.Parts {
		if p.Expr == nil {
			cur += p.Text
			continue
		}
		pieces = append(pieces, cur)
		cur = ""
		exprs = append(exprs, c.expr(p.Expr))
	}
	pieces = append(pieces, cur)
	opts := DialectOptions{FailFast: e.Bang}
	pos := int32(e.Start)
	m := func(fr *frame) []Value {
		vals := make([]Value, len(exprs))
		for i, x := range exprs {
			vals[i] = x(fr)
		}
		return fr.th.evalDialectText(tag, pieces, vals, opts, pos)
	}
	return m
}

func firstOf(m multiFn) evalFn {
	return func(fr *frame) Value {
		r := m(fr)
		if len(r) == 0 {
			return Nil
		}
		return r[0]
	}
}

func (c *compiler) taggedBlock(e *ast.TaggedBlock) evalFn {
	return firstOf(c.taggedBlockMulti(e))
}

func (c *compiler) taggedBlockMulti(e *ast.TaggedBlock) multiFn {
	tag := e.Tag.Name
	if tag == "evaluate" {
		// evaluate "name" { ... } is a case of the evaluation harness,
		// a no-op here; without its required name it parses as this
		// tagged block, whose body must not run as table fields.
		c.fail(e.Start, `evaluate requires a case name: a string literal, as in evaluate "name" { ... }`)
	}
	body := c.table(e.Body, "")
	opts := DialectOptions{FailFast: e.Bang, Legacy: e.Form == ast.FormLegacy}
	pos := int32(e.Start)
	return func(fr *frame) []Value {
		return fr.th.evalDialectBlock(tag, body(fr).Table(), opts, pos)
	}
}

// quoteBlock is quote { stmts }: a table holding the block as a function.
func (c *compiler) quoteBlock(e *ast.QuoteBlock) evalFn {
	var mk evalFn
	kind := "function"
	if e.Fields != nil {
		mk = c.table(e.Fields, "")
		kind = "table"
	} else {
		mk = closureMaker(c.function(e, "quote", e.Body))
	}
	bang := e.Bang
	return func(fr *frame) Value {
		t := NewTable(0, 4)
		t.SetStr("dialect", String("quote"))
		t.SetStr("body", mk(fr))
		t.SetStr("kind", String(kind))
		o := NewTable(0, 1)
		o.SetStr("fail_fast", Bool(bang))
		t.SetStr("options", TableValue(o))
		return TableValue(t)
	}
}

// agentExpr is `agent {...}` (current: a field block for the agent
// dialect) or a legacy agent literal.
func (c *compiler) agentExpr(e *ast.AgentExpr) evalFn {
	if e.Form != ast.FormLegacy {
		body := c.table(e.Config, "")
		pos := int32(e.Start)
		return func(fr *frame) Value {
			r := fr.th.evalDialectBlock("agent", body(fr).Table(), DialectOptions{}, pos)
			return r[0]
		}
	}
	return c.legacyAgent(e, "", e.Params, e.Config, e.Flow)
}

// legacyAgent builds the fields of a legacy agent for the agent dialect:
// name, params, config (a function of the parameters returning the config
// table) and flow (a function of the parameters, or nil).
func (c *compiler) legacyAgent(node ast.Node, name string, params *ast.Params, config *ast.TableExpr, flow *ast.Block) evalFn {
	cfg := c.res.agentConfig[node]
	cfgMk := closureMaker(c.function(cfg, "agent config", cfg.Body))
	var flowMk evalFn
	if flow != nil {
		fl := c.res.agentFlow[node]
		flowMk = closureMaker(c.function(fl, "agent flow", fl.Body))
	}
	var pnames []Value
	if params != nil {
		for _, id := range params.Names {
			pnames = append(pnames, String(id.Name))
		}
	}
	pos := int32(node.Pos().Start)
	return func(fr *frame) Value {
		t := NewTable(0, 4)
		if name != "" {
			t.SetStr("name", String(name))
		}
		t.SetStr("params", TableValue(NewList(pnames...)))
		t.SetStr("config", cfgMk(fr))
		if flowMk != nil {
			t.SetStr("flow", flowMk(fr))
		}
		r := fr.th.evalDialectBlock("agent", t, DialectOptions{Legacy: true}, pos)
		return r[0]
	}
}

// legacyAI compiles the GScript-era declarations into dialect calls.
func (c *compiler) legacyAI(s ast.Stmt) execFn {
	switch s := s.(type) {
	case *ast.ToolDecl:
		fn := closureMaker(c.function(s, s.Name.Name, s.Body))
		set := c.declFor(s.Name)
		name := s.Name.Name
		var pnames, reqs []Value
		for _, id := range s.Params.Names {
			pnames = append(pnames, String(id.Name))
		}
		for _, r := range s.Requires {
			reqs = append(reqs, String(r))
		}
		doc := s.Doc
		paramDocs := s.ParamDocs
		pos := int32(s.Start)
		return func(fr *frame) ctrl {
			t := NewTable(0, 5)
			t.SetStr("name", String(name))
			t.SetStr("fn", fn(fr))
			t.SetStr("params", TableValue(NewList(pnames...)))
			t.SetStr("requires", TableValue(NewList(reqs...)))
			if doc != "" {
				t.SetStr("description", String(doc))
			}
			if len(paramDocs) > 0 {
				pd := NewTable(0, len(paramDocs))
				for _, d := range paramDocs {
					pd.SetStr(d.Name, String(d.Text))
				}
				t.SetStr("param_docs", TableValue(pd))
			}
			r := fr.th.evalDialectBlock("tool", t, DialectOptions{Legacy: true}, pos)
			set(fr, r[0])
			return cNone
		}
	case *ast.AgentDecl:
		mk := c.legacyAgent(s, s.Name.Name, s.Params, s.Config, s.Flow)
		set := c.declFor(s.Name)
		return func(fr *frame) ctrl {
			set(fr, mk(fr))
			return cNone
		}
	case *ast.AgentDefaults:
		body := c.table(s.Config, "")
		pos := int32(s.Start)
		return func(fr *frame) ctrl {
			fr.th.evalDialectBlock("agent_defaults", body(fr).Table(), DialectOptions{Legacy: true}, pos)
			return cNone
		}
	case *ast.BudgetStmt:
		limits := c.table(s.Limits.Body, "")
		bodyMk := closureMaker(c.function(s, "budget", s.Body))
		pos := int32(s.Start)
		return func(fr *frame) ctrl {
			extra := NewTable(0, 1)
			extra.SetStr("body", bodyMk(fr))
			fr.th.evalDialectBlock("budget", limits(fr).Table(), DialectOptions{Legacy: true, Extra: extra}, pos)
			return cNone
		}
	}
	c.fail(s.Pos().Start, "unsupported statement")
	return nil
}
