package ai

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Agents are callable values. llm.agent(name, config, flow?, opts?)
// makes one; agent { ... } (config or declarative form) and the legacy
// agent declarations lower to it. Calling an agent calls its config
// function with the call's arguments; the returned table is the request.
// With a flow function the flow owns the workflow: no hidden turn, no
// hidden dispatch and no hidden request field. A turn inside the flow
// sends exactly the request it is given (a model it does not name is the
// `default` alias, as anywhere); only the budget of the config (merged
// over the agent defaults) reaches into the flow, counting every turn
// and tool call there. Without a flow the built-in loop runs (loop.go).

type agentMeta struct {
	name, description string
	params            []string
	output            leia.Value
	spec              outputSpec
}

// agentFamily is the llm module's natives from this file (see families).
func agentFamily(rt *Runtime) map[string]leia.NativeFunc {
	return map[string]leia.NativeFunc{
		"agent": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Kind() != leia.KindString || !leia.Arg(a, 1).IsFunction() {
				return nil, fmt.Errorf("bad argument to 'llm.agent' (name, config function expected)")
			}
			if f := leia.Arg(a, 2); !f.IsNil() && !f.IsFunction() {
				return nil, fmt.Errorf("bad argument #3 to 'llm.agent' (flow function expected)")
			}
			v, err := rt.NewAgent(a[0].AsString(), a[1], leia.Arg(a, 2), leia.Arg(a, 3))
			if err != nil {
				return nil, err
			}
			return t.Ret1(v), nil
		},
		"agent_defaults": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil {
				return nil, fmt.Errorf("bad argument #1 to 'llm.agent_defaults' (table expected)")
			}
			rt.defaults = Clone(a[0])
			return t.Ret2(leia.True, leia.Nil), nil
		},
		"run_agent": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil {
				return nil, fmt.Errorf("bad argument #1 to 'llm.run_agent' (table expected)")
			}
			return ret2(t)(rt.RunAgent(t, a[0], &agentMeta{}))
		},
		"react": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil {
				return nil, fmt.Errorf("bad argument #1 to 'llm.react' (table expected)")
			}
			return ret2(t)(rt.runLoop(t, Clone(a[0]), &agentMeta{}, loopOptions{}))
		},
	}
}

// ret2 turns (value, error value, Go error) into a native's return.
func ret2(t *leia.Thread) func(v, e leia.Value, err error) ([]leia.Value, error) {
	return func(v, e leia.Value, err error) ([]leia.Value, error) {
		if err != nil {
			return nil, err
		}
		return t.Ret2(v, e), nil
	}
}

// NewAgent makes an agent value. opts may set params (default: the
// config function's parameter names), description, output, and the
// output checks output_schema, validator and on_validator_error; a
// validator is compiled now, so a missing or broken script stops the
// program before any token is spent.
func (rt *Runtime) NewAgent(name string, config, flow, opts leia.Value) (leia.Value, error) {
	return rt.newAgent(name, config, flow, opts, false)
}

// newAgent is NewAgent; with flowTakesConfig the flow is called with the
// config table the config function returned before the call's
// arguments: a legacy `agent name(...) { fields } flow { ... }` binds
// the fields as locals of its flow that way (runtime/leia's lowering).
func (rt *Runtime) newAgent(name string, config, flow, opts leia.Value, flowTakesConfig bool) (leia.Value, error) {
	meta := &agentMeta{name: name, description: StrField(opts, "description"), output: Field(opts, "output")}
	if cl := config.Closure(); cl != nil {
		meta.params = cl.ParamNames()
	}
	if p := Field(opts, "params"); p.Table() != nil {
		meta.params = Strings(p)
	}
	spec, err := rt.outputSpec(opts, nil)
	if err != nil {
		return leia.Nil, fmt.Errorf("agent %s: %v", name, err)
	}
	meta.spec = spec
	var native *leia.Native
	native = &leia.Native{Name: "llm.agent." + name, Fn: func(t *leia.Thread, args []leia.Value) ([]leia.Value, error) {
		if e := rt.enter(); !e.IsNil() {
			return t.Ret2(leia.Nil, e), nil
		}
		defer rt.leave()
		args = append([]leia.Value(nil), args...)
		cfgVals := t.Call(config, args...)
		if len(cfgVals) >= 2 && !cfgVals[1].IsNil() {
			return t.Ret2(leia.Nil, cfgVals[1]), nil
		}
		cfg := leia.Arg(cfgVals, 0)
		if cfg.Table() == nil {
			return t.Ret2(leia.Nil, ErrorValue("validation", "agent config function must return a table")), nil
		}
		if !flow.IsFunction() {
			return ret2(t)(rt.RunAgent(t, cfg, meta))
		}
		if b := rt.budgetFromOptions(leia.TableValue(Merge(leia.TableValue(rt.defaults), cfg))); b != nil {
			rt.budgets = append(rt.budgets, b)
			defer rt.popBudget(b)
		}
		if flowTakesConfig {
			// A legacy flow reads its fields from the config with the
			// module's agent defaults under it (semantic.FlowFields).
			args = append([]leia.Value{leia.TableValue(Merge(leia.TableValue(rt.defaults), cfg))}, args...)
		}
		return t.Call(flow, args...), nil
	}}
	rt.agentMeta[native] = meta
	return leia.NativeValue(native), nil
}

// RunAgent runs the built-in loop on a configuration (the agent defaults
// merged under it): llm.run_agent, and agents without a flow.
func (rt *Runtime) RunAgent(t *leia.Thread, cfg leia.Value, meta *agentMeta) (leia.Value, leia.Value, error) {
	merged := Merge(leia.TableValue(rt.defaults), cfg)
	return rt.runLoop(t, merged, meta, loopOptions{})
}

// AgentOf returns the metadata of an agent value (nil for other values).
func (rt *Runtime) AgentOf(v leia.Value) *agentMeta {
	if n := v.Native(); n != nil {
		return rt.agentMeta[n]
	}
	return nil
}

// NormalizeTools returns a tools list with every agent value replaced by
// its tool wrapper (the list itself when it holds no agent).
func (rt *Runtime) NormalizeTools(list leia.Value) leia.Value {
	items := Items(list)
	has := false
	for _, it := range items {
		if rt.AgentOf(it) != nil {
			has = true
			break
		}
	}
	if !has {
		return list
	}
	out := make([]leia.Value, len(items))
	for i, it := range items {
		if rt.AgentOf(it) != nil {
			it = rt.AgentTool(it, leia.Nil)
		}
		out[i] = it
	}
	return List(out...)
}

// AgentTool wraps an agent as a tool (llm.toolof, agent_as_tool, handoff,
// delegate, and agents placed in a tools list). opts may set name,
// description, params, requires, output; params default to the agent's,
// and the provider sees only the arguments (never the agent's output
// shape) as the tool's input. The wrapper calls the agent with the call's
// arguments; a done result gives its value (or text) as the tool value;
// a pending result is the structured error {kind: "pending", pending}; a
// stopped one {kind: "tool", message: reason}. The wrapper carries the
// trace contract agent_tool.v1: its trace node ({type: "agent_tool",
// name, status, children: [the agent's node]}) goes on a structured
// value (trace), on error values (trace), and on the agent's result
// (tool_trace; the agent's own node is its trace). The model never
// receives a trace node: requests leave it out of tool values.
func (rt *Runtime) AgentTool(agent, opts leia.Value) leia.Value {
	meta := rt.AgentOf(agent)
	if meta == nil {
		meta = &agentMeta{}
		if cl := agent.Closure(); cl != nil {
			meta.params = cl.ParamNames()
			meta.name = cl.Name()
		}
	}
	name := StrField(opts, "name")
	if name == "" {
		name = meta.name
	}
	if name == "" {
		name = "agent"
	}
	wrapper := leia.NewNative("llm.agent_as_tool."+name, func(t *leia.Thread, args []leia.Value) ([]leia.Value, error) {
		if len(args) == 1 && args[0].Table() != nil && len(meta.params) > 0 {
			byName := make([]leia.Value, len(meta.params))
			for i, p := range meta.params {
				byName[i] = Field(args[0], p)
			}
			args = byName
		}
		rets := t.Call(agent, args...)
		if e := leia.Arg(rets, 1); !e.IsNil() {
			if e.Table() != nil {
				e.Table().SetStr("trace", traceNode("agent_tool", name, "error", leia.Nil, leia.Nil, e))
			}
			return t.Ret2(leia.Nil, e), nil
		}
		result := leia.Arg(rets, 0)
		status := StrField(result, "status")
		if status == "" {
			status = "ok"
		}
		parent := T("type", "agent_tool", "name", name, "status", status)
		agentTrace := Field(result, "trace")
		if agentTrace.IsNil() {
			agentTrace = traceNode("agent", meta.name, status, parent, leia.Nil, leia.Nil)
			if result.Table() != nil {
				result.Table().SetStr("trace", agentTrace)
			}
		} else if Field(agentTrace, "parent").IsNil() && agentTrace.Table() != nil {
			agentTrace.Table().SetStr("parent", parent)
		}
		switch status {
		case "pending":
			e := ErrorWith("pending", "delegated agent paused for approval", "pending", result)
			e.Table().SetStr("trace", traceNode("agent_tool", name, status, leia.Nil, List(agentTrace), e))
			return t.Ret2(leia.Nil, e), nil
		case "stopped":
			reason := StrField(result, "reason")
			if reason == "" {
				reason = "delegated agent stopped"
			}
			e := ErrorValue("tool", reason)
			e.Table().SetStr("trace", traceNode("agent_tool", name, status, leia.Nil, List(agentTrace), e))
			return t.Ret2(leia.Nil, e), nil
		}
		toolTrace := traceNode("agent_tool", name, status, leia.Nil, List(agentTrace), leia.Nil)
		if result.Table() != nil {
			result.Table().SetStr("tool_trace", toolTrace)
		}
		value := result
		for _, k := range []string{"value", "text"} {
			if v := Field(result, k); !v.IsNil() {
				value = v
				break
			}
		}
		// A structured value carries the wrapper's trace node (a copy:
		// the agent's own result keeps its value as it was). The node is
		// result metadata: a request never sends it to a provider (see
		// modelValue), so recorded conversations replay with or without it.
		if vt := value.Table(); vt != nil && value != result {
			cp := Clone(value)
			cp.SetStr("trace", toolTrace)
			value = leia.TableValue(cp)
		}
		return t.Ret2(value, leia.Nil), nil
	})
	fields := leia.NewTable(0, 6)
	if o := opts.Table(); o != nil {
		o.Iter(func(k, v leia.Value) bool {
			fields.Set(k, v)
			return true
		})
	}
	if fields.GetStr("description").IsNil() {
		fields.SetStr("description", leia.String(meta.description))
	}
	if fields.GetStr("params").Table() == nil && len(meta.params) > 0 {
		fields.SetStr("params", StringList(meta.params))
	}
	if fields.GetStr("output").IsNil() && !meta.output.IsNil() {
		fields.SetStr("output", meta.output)
	}
	tool := NewTool(name, wrapper, leia.TableValue(fields)).Table()
	tool.SetStr("__llm_agent_tool", leia.True)
	tool.SetStr("trace_contract", leia.String("agent_tool.v1"))
	return leia.TableValue(tool)
}

// traceNode is the agent-as-tool trace contract's node: {type, name,
// status, parent, children, error, budget, cancel, metadata}.
func traceNode(kind, name, status string, parent, children, errValue leia.Value) leia.Value {
	if children.IsNil() {
		children = List()
	}
	n := T("type", kind, "name", name, "status", status, "parent", parent, "children", children, "error", errValue, "metadata", T())
	switch StrField(errValue, "kind") {
	case "budget":
		n.Table().SetStr("budget", errValue)
	case "cancelled":
		n.Table().SetStr("cancel", errValue)
	}
	return n
}

// emitAgent is a loop event.
func (rt *Runtime) emitAgent(typ string, meta *agentMeta, model string, step int64, status, kind, msg string) {
	rt.Emit(llm.TraceEvent{Type: typ, Agent: meta.name, Model: model, Step: step, Status: status, ErrorKind: kind, Message: msg})
}
