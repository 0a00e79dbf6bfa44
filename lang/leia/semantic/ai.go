package semantic

import (
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/stdlib"
)

// Compute resolves the names of file and lowers its AI-dialect forms to
// facts.
func Compute(file *ast.File) *Facts {
	f := &Facts{
		Decls:          map[*ast.Ident]*Binding{},
		Uses:           map[*ast.Ident]*Binding{},
		Globals:        map[*ast.Ident]*stdlib.Entry{},
		ToolListIdents: map[*ast.Ident]bool{},
		toolByNode:     map[ast.Node]*Tool{},
		agentByNode:    map[ast.Node]*Agent{},
	}
	if file == nil {
		return f
	}
	resolve(f, file)
	c := &collector{f: f, top: map[ast.Node]bool{}}
	for _, st := range file.Stmts {
		c.top[st] = true
		if es, ok := st.(*ast.ExprStmt); ok {
			c.top[es.X] = true
		}
	}
	c.walk(file, 0, false)
	// Calls of local functions and agents, once every agent is known.
	for _, x := range c.calls {
		c.localCall(x)
	}
	return f
}

// collector lowers the AI-dialect forms of both styles to facts.
type collector struct {
	f     *Facts
	top   map[ast.Node]bool
	calls []*ast.CallExpr
}

// walk visits n; inAgent is set inside an agent's flow or config
// function.
func (c *collector) walk(n ast.Node, depth int, inAgent bool) {
	if n == nil || ast.IsNil(n) || depth > ast.MaxDepth {
		return
	}
	switch x := n.(type) {
	case *ast.ToolDecl:
		c.legacyTool(x)
	case *ast.AgentDecl:
		a := &Agent{Node: x, Form: ast.FormLegacy, Config: x.Config}
		if x.Name != nil {
			a.Name, a.NameSpan, a.NameKnown = x.Name.Name, x.Name.Span, true
		}
		c.addAgent(a)
		c.owner(OwnerAgent, "agent "+a.Name, x, x.Config, false)
		c.walkChildren(x, depth, true)
		return
	case *ast.AgentDefaults:
		c.owner(OwnerDefaults, "agent defaults", x, x.Config, false)
	case *ast.AgentExpr:
		a := &Agent{Node: x, Form: x.Form, Config: x.Config}
		label := "agent expression"
		if x.Form == ast.FormCurrent {
			if nf := x.Config.Lookup("name"); nf != nil {
				if s, ok := stringValue(nf.Value); ok {
					a.Name, a.NameSpan, a.NameKnown = s, nf.Value.Pos(), true
					label = "agent " + s
				}
			}
			// The config function's returned tables are the agent's
			// requests too.
			if cf := x.Config.Lookup("config"); cf != nil {
				c.returnedTables(cf.Value, label)
			}
		}
		c.addAgent(a)
		c.owner(OwnerAgent, label, x, x.Config, false)
		c.walkChildren(x, depth, true)
		return
	case *ast.TaggedBlock:
		switch x.Kind {
		case ast.DialectTool:
			c.tableTool(x, x.Body)
		case ast.DialectTurn:
			o := c.owner(OwnerTurn, "turn", x, x.Body, inAgent)
			c.f.Turns = append(c.f.Turns, o)
		case ast.DialectModel:
			c.f.Models = append(c.f.Models, &Model{Node: x, Table: x.Body, Form: x.Form, TopLevel: c.top[x]})
		}
	case *ast.CallExpr:
		c.call(x, inAgent)
	}
	c.walkChildren(n, depth, inAgent)
}

func (c *collector) walkChildren(n ast.Node, depth int, inAgent bool) {
	ast.EachChild(n, func(ch ast.Node) { c.walk(ch, depth+1, inAgent) })
}

func (c *collector) addAgent(a *Agent) {
	c.f.Agents = append(c.f.Agents, a)
	c.f.agentByNode[a.Node] = a
}

func (c *collector) addTool(t *Tool) {
	c.f.Tools = append(c.f.Tools, t)
	c.f.toolByNode[t.Node] = t
}

// owner records a table that may hold tools and capabilities, and marks
// the names of its tools list.
func (c *collector) owner(kind OwnerKind, label string, node ast.Node, table *ast.TableExpr, inAgent bool) *Owner {
	o := &Owner{Kind: kind, Label: label, Node: node, Table: table, TopLevel: c.top[node], InAgent: inAgent}
	c.f.Owners = append(c.f.Owners, o)
	if table != nil {
		if tf := table.Lookup("tools"); tf != nil {
			if l, ok := tf.Value.(*ast.ListExpr); ok {
				for _, el := range l.Elems {
					if id, ok := el.(*ast.Ident); ok {
						c.f.ToolListIdents[id] = true
					}
				}
			}
		}
	}
	return o
}

// returnedTables records the table literals a config function literal
// returns as the requests of an agent.
func (c *collector) returnedTables(fn ast.Expr, label string) {
	lit, ok := fn.(*ast.FuncLit)
	if !ok || lit.Body == nil {
		return
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(x.Values) > 0 {
				if t, ok := x.Values[0].(*ast.TableExpr); ok {
					c.owner(OwnerAgent, label, t, t, true)
				}
			}
		}
		return true
	})
}

func (c *collector) legacyTool(x *ast.ToolDecl) {
	t := &Tool{Node: x, Form: ast.FormLegacy, Params: x.Params, Decl: x, RequiresKnown: true}
	if x.Name != nil {
		t.Name, t.NameSpan, t.NameKnown = x.Name.Name, x.Name.Span, true
	}
	for _, d := range x.Directives {
		if d.Kind != "requires" {
			continue
		}
		for _, a := range d.Args {
			t.Requires = append(t.Requires, Capability{Name: a, Span: d.Span})
		}
	}
	c.addTool(t)
}

// tableTool records a tool whose fields are a table: tool {...}, or the
// options of llm.tool (node is then the call).
func (c *collector) tableTool(node ast.Node, fields *ast.TableExpr) *Tool {
	t := &Tool{Node: node, Form: ast.FormCurrent, Fields: fields, RequiresKnown: true}
	if fields != nil {
		if nf := fields.Lookup("name"); nf != nil {
			if s, ok := stringValue(nf.Value); ok {
				t.Name, t.NameSpan, t.NameKnown = s, nf.Value.Pos(), true
			}
		}
		if fn := fields.Lookup("fn"); fn != nil {
			if lit, ok := fn.Value.(*ast.FuncLit); ok {
				t.Params = lit.Params
			}
		}
		t.Requires, t.RequiresKnown = capabilityList(fields, "requires", "capabilities")
	}
	c.addTool(t)
	return t
}

// capabilityList reads the first of keys as a list of string literals.
// A missing list is known and empty; a list that is not all literals is
// not known.
func capabilityList(t *ast.TableExpr, keys ...string) ([]Capability, bool) {
	for _, k := range keys {
		f := t.Lookup(k)
		if f == nil {
			continue
		}
		caps, ok := StringList(f.Value)
		return caps, ok
	}
	return nil, true
}

// StringList reads a list literal (or a positional table) of string
// literals.
func StringList(e ast.Expr) ([]Capability, bool) {
	var elems []ast.Expr
	switch x := e.(type) {
	case *ast.ListExpr:
		elems = x.Elems
	case *ast.TableExpr:
		for _, f := range x.Fields {
			if f.Kind != ast.FieldPositional {
				return nil, false
			}
			elems = append(elems, f.Value)
		}
	default:
		return nil, false
	}
	var out []Capability
	for _, el := range elems {
		s, ok := stringValue(el)
		if !ok {
			return nil, false
		}
		out = append(out, Capability{Name: s, Span: el.Pos()})
	}
	return out, true
}

// stringValue is the value of a string literal without interpolation.
func stringValue(e ast.Expr) (string, bool) {
	s, ok := e.(*ast.StringLit)
	if !ok {
		return "", false
	}
	return s.Value()
}

// StringValue is the value of a string literal without interpolation.
func StringValue(e ast.Expr) (string, bool) { return stringValue(e) }

func (c *collector) call(x *ast.CallExpr, inAgent bool) {
	f := c.f
	if e := f.Callee(x); e != nil {
		f.Calls = append(f.Calls, &Call{Node: x, Name: e.Name, Entry: e})
		arg := func(i int) ast.Expr {
			if i < len(x.Args) {
				return x.Args[i]
			}
			return nil
		}
		switch e.Name {
		case "llm.tool":
			opts, _ := arg(2).(*ast.TableExpr)
			t := c.tableTool(x, opts)
			t.Name, t.NameKnown = "", false
			if s, ok := stringValue(arg(0)); ok {
				t.Name, t.NameSpan, t.NameKnown = s, arg(0).Pos(), true
			}
			if lit, ok := arg(1).(*ast.FuncLit); ok {
				t.Params = lit.Params
			}
		case "llm.agent":
			opts, _ := arg(3).(*ast.TableExpr)
			a := &Agent{Node: x, Form: ast.FormCurrent, Config: opts}
			label := "agent expression"
			if s, ok := stringValue(arg(0)); ok {
				a.Name, a.NameSpan, a.NameKnown = s, arg(0).Pos(), true
				label = "agent " + s
			}
			c.addAgent(a)
			c.returnedTables(arg(1), label)
		case "llm.agent_defaults":
			if t, ok := arg(0).(*ast.TableExpr); ok {
				c.owner(OwnerDefaults, "agent defaults", x, t, false)
			}
		case "llm.turn":
			if t, ok := arg(0).(*ast.TableExpr); ok {
				o := c.owner(OwnerTurn, "turn", x, t, inAgent)
				f.Turns = append(f.Turns, o)
			}
		case "llm.register_models":
			if t, ok := arg(0).(*ast.TableExpr); ok {
				f.Models = append(f.Models, &Model{Node: x, Table: t, Form: ast.FormCurrent, TopLevel: c.top[x]})
			}
		}
		return
	}
	c.calls = append(c.calls, x)
}

// localCall records a call of a function or agent declared in the file.
func (c *collector) localCall(x *ast.CallExpr) {
	f := c.f
	id, ok := x.Fun.(*ast.Ident)
	if !ok {
		return
	}
	b := f.Uses[id]
	if b == nil {
		return
	}
	switch {
	case b.Kind == Func && b.Writes == 0:
		f.Calls = append(f.Calls, &Call{Node: x, Name: b.Name, Params: b.Params, Decl: b.Decl})
	case (b.Kind == Var || b.Kind == Const) && b.Writes == 0:
		if lit, ok := b.Value.(*ast.FuncLit); ok {
			f.Calls = append(f.Calls, &Call{Node: x, Name: b.Name, Params: lit.Params, Decl: b.Decl})
		} else if a := f.AgentOf(id); a != nil {
			f.Calls = append(f.Calls, &Call{Node: x, Name: b.Name, Agent: a})
		}
	case b.Kind == AgentDecl && b.Writes == 0:
		if a := f.AgentOf(id); a != nil {
			f.Calls = append(f.Calls, &Call{Node: x, Name: b.Name, Agent: a})
		}
	}
}
