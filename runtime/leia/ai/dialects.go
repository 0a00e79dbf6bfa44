package ai

import (
	"errors"
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
)

// The AI dialect's tags, lowered to the same helpers as the direct calls:
//
//	model { ... }, models { ... }   llm.register_models(fields)
//	tool { name, fn, ... }          llm.tool(name, fn, fields)
//	turn { ... }                    llm.turn(fields) -> result, err
//	agent { ... }                   llm.agent(name, config, flow, fields)
//	agent defaults { ... }          llm.agent_defaults(fields)
//	budget { limits } { body }      llm.with_budget(limits, body)
//	messages { system: s, user: u } [llm.system(s), llm.user(u)]
//	prompt { role, text } / prompt`text`   a message table
//
// The legacy declaration forms (tool name() {}, agent name() {} flow {},
// agent defaults {}, budget {} {}) reach the same handlers through
// runtime/leia's lowering.

var (
	errToolName  = errors.New("tool requires a name")
	errToolFn    = errors.New("tool requires a fn function")
	errAgentName = errors.New("agent requires a name")
)

func (rt *Runtime) registerDialects() {
	in := rt.in
	models := func(t *leia.Thread, f *leia.Table, _ leia.DialectOptions) (leia.Value, error) {
		if err := rt.RegisterModels(leia.TableValue(f)); err != nil {
			return leia.Nil, raise("validation", err)
		}
		return leia.TableValue(f), nil
	}
	in.RegisterDialect(leia.Dialect{Name: "model", Doc: "model aliases (llm.register_models)", Block: models})
	in.RegisterDialect(leia.Dialect{Name: "models", Doc: "model aliases, legacy spelling", Block: models})
	in.RegisterDialect(leia.Dialect{Name: "tool", Doc: "a tool descriptor (llm.tool)", Block: func(t *leia.Thread, f *leia.Table, _ leia.DialectOptions) (leia.Value, error) {
		fields := leia.TableValue(f)
		name := Field(fields, "name")
		if name.Kind() != leia.KindString || name.AsString() == "" {
			return leia.Nil, raise("validation", errToolName)
		}
		fn := Field(fields, "fn")
		if !fn.IsFunction() {
			return leia.Nil, raise("validation", fmt.Errorf("tool %s: %v", name.AsString(), errToolFn))
		}
		return NewTool(name.AsString(), fn, fields), nil
	}})
	in.RegisterDialect(leia.Dialect{Name: "turn", Doc: "one provider turn (llm.turn)", BlockResults: func(t *leia.Thread, f *leia.Table, o leia.DialectOptions) ([]leia.Value, error) {
		res, e, err := rt.Turn(t, leia.TableValue(f))
		if err != nil {
			return nil, err
		}
		if o.FailFast && !e.IsNil() {
			return nil, leia.ScriptError(e)
		}
		return []leia.Value{res, e}, nil
	}})
	in.RegisterDialect(leia.Dialect{Name: "agent", Doc: "an agent (llm.agent)", Block: func(t *leia.Thread, f *leia.Table, o leia.DialectOptions) (leia.Value, error) {
		v, err := rt.agentBlock(t, leia.TableValue(f), o)
		if err != nil {
			return leia.Nil, raise("validation", err)
		}
		return v, nil
	}})
	in.RegisterDialect(leia.Dialect{Name: "agent_defaults", Doc: "agent defaults (llm.agent_defaults)", Block: func(t *leia.Thread, f *leia.Table, _ leia.DialectOptions) (leia.Value, error) {
		rt.defaults = Clone(leia.TableValue(f))
		return leia.True, nil
	}})
	in.RegisterDialect(leia.Dialect{Name: "budget", Doc: "a budget around a body (llm.with_budget)", Block: func(t *leia.Thread, f *leia.Table, o leia.DialectOptions) (leia.Value, error) {
		b := rt.budgetFromLimits(leia.TableValue(f))
		body := leia.Nil
		if o.Extra != nil {
			body = o.Extra.GetStr("body")
		}
		if !body.IsFunction() {
			return T("kind", "budget", "limits", leia.TableValue(f)), nil
		}
		return leia.Arg(rt.withBudget(t, b, body), 0), nil
	}})
	in.RegisterDialect(leia.Dialect{Name: "messages", Doc: "a message list", Block: func(t *leia.Thread, f *leia.Table, _ leia.DialectOptions) (leia.Value, error) {
		return messagesBlock(t, leia.TableValue(f)), nil
	}})
	in.RegisterDialect(leia.Dialect{Name: "prompt", Doc: "a prompt message table",
		// prompt`...` is {text, body} (no role: a helper or the
		// caller decides it, as upstream's examples do).
		Text: func(t *leia.Thread, text string, _ leia.DialectOptions) (leia.Value, error) {
			return T("text", text, "body", text), nil
		},
		Block: func(t *leia.Thread, f *leia.Table, _ leia.DialectOptions) (leia.Value, error) {
			fields := leia.TableValue(f)
			p := Clone(fields)
			p.SetStr("body", fields)
			if tx := Field(fields, "text"); !tx.IsNil() && tx.Kind() != leia.KindString {
				p.SetStr("text", leia.String(textOf(t, tx)))
			}
			return leia.TableValue(p), nil
		}})
}

// raise makes a dialect's configuration error a raised error value
// {kind, message}: a malformed model table, tool or agent stops the
// program where it is declared instead of yielding nil.
func raise(kind string, err error) error {
	return leia.ScriptError(ErrorValue(kind, err.Error()))
}

// messagesBlock is the legacy messages { ... } block: keyed fields named
// after roles (system, user, assistant) become messages in field order;
// list entries are message tables as they are, or user messages when
// text.
func messagesBlock(t *leia.Thread, fields leia.Value) leia.Value {
	var out []leia.Value
	for _, it := range Items(fields) {
		if it.Table() != nil {
			out = append(out, it)
		} else {
			out = append(out, Message("user", textOf(t, it)))
		}
	}
	for _, k := range Keys(fields) {
		switch k {
		case "system", "user", "assistant":
			out = append(out, Message(k, textOf(t, Field(fields, k))))
		}
	}
	return List(out...)
}

// declarativeSkip are agent { } fields that describe the agent rather
// than its request.
var declarativeSkip = map[string]bool{"name": true, "params": true, "description": true, "flow": true, "config": true, "fn": true}

// agentBlock lowers agent { ... }: with config (or fn) it is llm.agent
// with that function; without one the remaining request fields form a
// generated config that copies them into a fresh request for each call,
// uses the first argument as user when messages is absent and copies
// instructions to system unless system is set.
func (rt *Runtime) agentBlock(t *leia.Thread, fields leia.Value, o leia.DialectOptions) (leia.Value, error) {
	name := StrField(fields, "name")
	if name == "" && !o.Legacy {
		return leia.Nil, errAgentName
	}
	if name == "" {
		name = "agent"
	}
	config := Field(fields, "config")
	if config.IsNil() {
		config = Field(fields, "fn")
	}
	flow := Field(fields, "flow")
	if !config.IsNil() && !config.IsFunction() {
		return leia.Nil, fmt.Errorf("agent %s: config must be a function", name)
	}
	if !flow.IsNil() && !flow.IsFunction() {
		return leia.Nil, fmt.Errorf("agent %s: flow must be a function", name)
	}
	if config.IsNil() {
		decl := leia.NewTable(0, 8)
		fields.Table().Iter(func(k, v leia.Value) bool {
			if k.Kind() != leia.KindString || !declarativeSkip[k.AsString()] {
				decl.Set(k, v)
			}
			return true
		})
		config = leia.NewNative("agent config", func(t *leia.Thread, args []leia.Value) ([]leia.Value, error) {
			req := Clone(leia.TableValue(decl))
			if req.GetStr("messages").IsNil() && req.GetStr("user").IsNil() && len(args) > 0 {
				req.SetStr("user", leia.String(textOf(t, args[0])))
			}
			if req.GetStr("system").IsNil() {
				if ins := req.GetStr("instructions"); !ins.IsNil() {
					req.SetStr("system", leia.String(textOf(t, ins)))
				}
			}
			req.SetStr("instructions", leia.Nil)
			return t.Ret2(leia.TableValue(req), leia.Nil), nil
		})
	}
	// A legacy agent's flow declares its config fields as locals: it is
	// called with the config table first (runtime/leia's lowering).
	return rt.newAgent(name, config, flow, fields, o.Legacy && !flow.IsNil())
}
