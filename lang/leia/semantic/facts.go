package semantic

import (
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/stdlib"
)

// Facts is what the checker learnt about one file before the rules run.
type Facts struct {
	// FileScope is the scope of the file's top level.
	FileScope *Scope
	// Bindings are every declared name, in the order the resolver met them.
	Bindings []*Binding
	// Decls maps each declaring identifier to its binding.
	Decls map[*ast.Ident]*Binding
	// Uses maps each identifier that reads or assigns a declared name to
	// its binding.
	Uses map[*ast.Ident]*Binding
	// Globals maps each identifier that names a predeclared global.
	Globals map[*ast.Ident]*stdlib.Entry
	// Unresolved are names nothing declares, in the order met.
	Unresolved []Unresolved
	// ConstWrites are assignments to constants.
	ConstWrites []ConstWrite

	// Tools are the tool definitions of every form (legacy declarations,
	// tool {...} blocks, llm.tool calls), in source order.
	Tools []*Tool
	// Agents are the agent definitions of every form.
	Agents []*Agent
	// Owners are the tables that may carry tools and capabilities: agent
	// configurations, agent defaults, turns.
	Owners []*Owner
	// Models are the model registrations (model {...}, models {...},
	// llm.register_models with a table literal).
	Models []*Model
	// Turns are turn {...} blocks and llm.turn calls with a table literal.
	Turns []*Owner
	// Calls are the calls whose callee is known: a builtin, a function
	// declared in the file, or an agent.
	Calls []*Call
	// ToolListIdents are the names written in tools lists; the
	// undefined-name rule leaves them to the tools-list rule.
	ToolListIdents map[*ast.Ident]bool

	toolByNode  map[ast.Node]*Tool
	agentByNode map[ast.Node]*Agent
}

// Capability is one capability label written in source.
type Capability struct {
	Name string
	Span ast.Span
}

// Tool is one tool definition.
type Tool struct {
	// Node is the *ast.ToolDecl, the tool *ast.TaggedBlock or the
	// llm.tool *ast.CallExpr.
	Node ast.Node
	Form ast.Form
	// Name is the tool's name when it is a literal (NameKnown).
	Name      string
	NameSpan  ast.Span
	NameKnown bool
	// Fields is the tool {...} body or the options table of llm.tool (nil
	// for a legacy declaration or options that are not a literal).
	Fields *ast.TableExpr
	// Requires are the capability labels the tool declares; RequiresKnown
	// is set when they are all literal (a missing list is known empty).
	Requires      []Capability
	RequiresKnown bool
	// Params are the parameters of its function when that is a literal.
	Params *ast.Params
	// Decl is the legacy declaration, if any.
	Decl *ast.ToolDecl
}

// Agent is one agent definition.
type Agent struct {
	// Node is the *ast.AgentDecl, the *ast.AgentExpr or the llm.agent
	// *ast.CallExpr.
	Node ast.Node
	Form ast.Form
	// Name is the agent's name when it is a literal (NameKnown).
	Name      string
	NameSpan  ast.Span
	NameKnown bool
	// Config is the table written with the agent: the legacy
	// configuration block, the agent {...} body or llm.agent's options.
	Config *ast.TableExpr
}

// OwnerKind tells the owners of tools lists apart.
type OwnerKind uint8

const (
	// OwnerAgent is an agent's configuration.
	OwnerAgent OwnerKind = iota
	// OwnerDefaults is `agent defaults {...}` or llm.agent_defaults.
	OwnerDefaults
	// OwnerTurn is a turn's request.
	OwnerTurn
)

// Owner is a table that may hold `tools:` and `capabilities:`.
type Owner struct {
	Kind OwnerKind
	// Label names the owner in messages: "agent review", "agent
	// expression", "agent defaults", "turn".
	Label string
	// Node is the construct (declaration, block or call).
	Node ast.Node
	// Table is the table literal.
	Table *ast.TableExpr
	// TopLevel is set for a statement directly in the file's top level.
	TopLevel bool
	// InAgent is set for a turn inside an agent's flow or config function
	// (its messages may come from the agent).
	InAgent bool
}

// Model is one model registration.
type Model struct {
	Node  ast.Node
	Table *ast.TableExpr
	Form  ast.Form
	// TopLevel is set for a statement directly in the file's top level.
	TopLevel bool
}

// Call is a call whose callee is known.
type Call struct {
	Node *ast.CallExpr
	// Name names the callee for messages ("string.find", "env_first").
	Name string
	// Entry is the builtin called, if any.
	Entry *stdlib.Entry
	// Params are the parameters of a function declared in the file.
	Params *ast.Params
	// Decl is that function's declaration, for related spans.
	Decl ast.Node
	// Agent is set when the callee is an agent.
	Agent *Agent
}

// ToolOf returns the tool an expression evaluates to, following names
// bound once (`t := tool {...}`), or nil when it is not known to be one.
func (f *Facts) ToolOf(e ast.Expr) *Tool {
	n := f.definition(e)
	if n == nil {
		return nil
	}
	return f.toolByNode[n]
}

// AgentOf is ToolOf for agents.
func (f *Facts) AgentOf(e ast.Expr) *Agent {
	n := f.definition(e)
	if n == nil {
		return nil
	}
	return f.agentByNode[n]
}

// definition follows an expression through names declared once and never
// reassigned to the node that defined its value: a legacy declaration, or
// the expression itself.
func (f *Facts) definition(e ast.Expr) ast.Node {
	for hop := 0; hop < 16 && e != nil; hop++ {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
			continue
		case *ast.Ident:
			b := f.Uses[x]
			if b == nil || b.Writes > 0 {
				return nil
			}
			switch b.Kind {
			case ToolDecl, AgentDecl, Func:
				return b.Decl
			case Var, Const:
				e = b.Value
				continue
			}
			return nil
		}
		return e
	}
	return nil
}

// ValueKind classifies what an expression is known to evaluate to.
type ValueKind uint8

const (
	// UnknownValue: nothing is known (a parameter, a call result, ...).
	UnknownValue ValueKind = iota
	// ToolValue is a tool descriptor.
	ToolValue
	// AgentValue is an agent.
	AgentValue
	// FunctionValue is a plain function.
	FunctionValue
	// LiteralValue is a string, number, boolean or nil literal.
	LiteralValue
	// TableValue is a table or list literal.
	TableValue
)

// KindOf classifies e (following names bound once).
func (f *Facts) KindOf(e ast.Expr) ValueKind {
	n := f.definition(e)
	if n == nil {
		return UnknownValue
	}
	if f.toolByNode[n] != nil {
		return ToolValue
	}
	if f.agentByNode[n] != nil {
		return AgentValue
	}
	switch x := n.(type) {
	case *ast.FuncLit, *ast.FuncDecl:
		return FunctionValue
	case *ast.StringLit, *ast.IntLit, *ast.FloatLit, *ast.BoolLit, *ast.NilLit, *ast.DurationLit:
		return LiteralValue
	case *ast.TableExpr, *ast.ListExpr:
		return TableValue
	case *ast.CallExpr:
		if e := f.Callee(x); e != nil {
			switch e.Name {
			case "llm.toolof", "toolof", "llm.agent_as_tool", "llm.handoff", "llm.delegate":
				return ToolValue
			}
		}
	}
	return UnknownValue
}

// Callee returns the builtin a call calls (`print(...)`,
// `string.find(...)`), or nil: the callee must be a predeclared global or
// a member of one, not shadowed by a local.
func (f *Facts) Callee(c *ast.CallExpr) *stdlib.Entry {
	if c == nil {
		return nil
	}
	return f.BuiltinOf(c.Fun)
}

// BuiltinOf returns the predeclared global or module member an
// expression names, or nil.
func (f *Facts) BuiltinOf(e ast.Expr) *stdlib.Entry {
	switch x := e.(type) {
	case *ast.Ident:
		return f.Globals[x]
	case *ast.FieldExpr:
		id, ok := x.X.(*ast.Ident)
		if !ok || x.Field == nil {
			return nil
		}
		return f.Globals[id].Member(x.Field.Name)
	}
	return nil
}
