package ai

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Tools are tables {__llm_tool = true, name, fn, description, params?,
// requires?, schema?, output?, param_docs?, ...}: llm.tool, tool { } and
// the legacy `tool name() {}` declaration all make one through NewTool,
// and every dispatch goes through Dispatch, whichever form made the tool.

// toolsFamily is the llm module's natives from this file (see families).
func toolsFamily(rt *Runtime) map[string]leia.NativeFunc {
	asTool := func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if !leia.Arg(a, 0).IsFunction() {
			return nil, fmt.Errorf("bad argument #1 to 'llm.toolof' (agent function expected)")
		}
		if o := leia.Arg(a, 1); !o.IsNil() && o.Table() == nil {
			return nil, fmt.Errorf("bad argument #2 to 'llm.toolof' (options table expected)")
		}
		return t.Ret1(rt.AgentTool(a[0], leia.Arg(a, 1))), nil
	}
	return map[string]leia.NativeFunc{
		"tool": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Kind() != leia.KindString || !leia.Arg(a, 1).IsFunction() {
				return nil, fmt.Errorf("bad argument to 'llm.tool' (name, function expected)")
			}
			return t.Ret1(NewTool(a[0].AsString(), a[1], leia.Arg(a, 2))), nil
		},
		"toolof": asTool, "agent_as_tool": asTool, "handoff": asTool, "delegate": asTool,
		"tool_caps": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil {
				return nil, fmt.Errorf("bad argument #1 to 'llm.tool_caps' (tools table expected)")
			}
			return t.Ret1(StringList(toolCaps(rt.NormalizeTools(a[0])))), nil
		},
		"check_tools": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil || leia.Arg(a, 1).Table() == nil {
				return nil, fmt.Errorf("bad argument to 'llm.check_tools' (tools, caps expected)")
			}
			grant := newGrant(Strings(a[1]))
			for _, tool := range Items(rt.NormalizeTools(a[0])) {
				if e := grant.check(tool); !e.IsNil() {
					return t.Ret2(leia.Nil, e), nil
				}
			}
			return t.Ret2(leia.True, leia.Nil), nil
		},
		"dispatch": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil || leia.Arg(a, 1).Table() == nil {
				return nil, fmt.Errorf("bad argument to 'llm.dispatch' (call, tools expected)")
			}
			v, e, err := rt.Dispatch(t, a[0], a[1])
			if err != nil {
				return nil, err
			}
			return t.Ret2(v, e), nil
		},
	}
}

// toolOptionKeys are the options llm.tool copies onto the descriptor
// besides name and fn (any other field of a tool { } block is kept too).
var toolOptionKeys = []string{"params", "requires", "capabilities", "schema", "output", "param_docs", "result", "error", "replay_key"}

// NewTool builds a tool descriptor.
func NewTool(name string, fn, opts leia.Value) leia.Value {
	t := leia.NewTable(0, 8)
	t.SetStr("__llm_tool", leia.True)
	t.SetStr("name", leia.String(name))
	t.SetStr("fn", fn)
	t.SetStr("description", leia.String(StrField(opts, "description")))
	for _, k := range toolOptionKeys {
		if v := Field(opts, k); !v.IsNil() {
			t.SetStr(k, v)
		}
	}
	if o := opts.Table(); o != nil {
		o.Iter(func(k, v leia.Value) bool {
			if k.Kind() == leia.KindString && t.Get(k).IsNil() && k.AsString() != "fn" {
				t.Set(k, v)
			}
			return true
		})
	}
	return leia.TableValue(t)
}

// toolCaps lists the capability labels tools require, once each, in
// order ("" skipped).
func toolCaps(tools leia.Value) []string {
	seen := map[string]bool{}
	var out []string
	for _, tool := range Items(tools) {
		for _, c := range requires(tool) {
			if c == "" || seen[c] {
				continue
			}
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// grant is a set of granted capability labels: all, cap.all and *
// permit everything; none and cap.none grant nothing; a nil grant
// permits everything (no grant was declared).
type grant struct {
	all    bool
	labels map[string]bool
}

func newGrant(labels []string) *grant {
	g := &grant{labels: map[string]bool{}}
	for _, l := range labels {
		g.labels[l] = true
	}
	if g.labels["all"] || g.labels["cap.all"] || g.labels["*"] {
		g.all = true
	}
	if g.labels["none"] || g.labels["cap.none"] {
		g.labels = map[string]bool{}
	}
	return g
}

// check returns the capability error for the first label tool requires
// that the grant lacks (labels "", none and cap.none need nothing).
func (g *grant) check(tool leia.Value) leia.Value {
	if g == nil || g.all {
		return leia.Nil
	}
	for _, c := range requires(tool) {
		if c == "" || c == "none" || c == "cap.none" || g.labels[c] {
			continue
		}
		return ErrorWith("capability", "missing capability: "+c, "capability", c, "tool", StrField(tool, "name"))
	}
	return leia.Nil
}

// grants is what a dispatch may use: the owner's declared capabilities
// (agent or turn `capabilities:` / `caps:`) and the host's.
type grants struct{ owner, host *grant }

func (rt *Runtime) grantsFor(opts leia.Value) grants {
	var g grants
	for _, k := range []string{"capabilities", "caps"} {
		if v := Field(opts, k); v.Table() != nil {
			g.owner = newGrant(Strings(v))
		}
	}
	if rt.cfg.Capabilities != nil {
		g.host = newGrant(rt.cfg.Capabilities)
	}
	return g
}

// Dispatch runs one tool call against a tools list: (value, nil) or the
// tool's own (nil, err), or a structured error: validation ("tool call
// missing tool name"), capability ("tool not in scope: NAME"), internal
// (the tool has no function, or raised an error). Cancellation, exit and
// budget exhaustion inside the tool are not tool errors: they come back
// as err and stop the program. Capability grants are checked before
// (refuse), by the loop that holds them.
func (rt *Runtime) Dispatch(t *leia.Thread, call, tools leia.Value) (value, errValue leia.Value, err error) {
	if e := rt.enter(); !e.IsNil() {
		return leia.Nil, e, nil
	}
	defer rt.leave()
	name := StrField(call, "tool")
	if name == "" {
		return leia.Nil, ErrorValue("validation", "tool call missing tool name"), nil
	}
	tool := rt.findTool(tools, name)
	if tool.IsNil() {
		return leia.Nil, ErrorValue("capability", "tool not in scope: "+name), nil
	}
	fn := Field(tool, "fn")
	if !fn.IsFunction() {
		return leia.Nil, ErrorValue("internal", "tool has no function: "+name), nil
	}
	rt.addUsage(func(u *Usage) { u.ToolCalls++ })
	rets, perr := t.PCall(fn, dispatchArgs(Field(call, "args"), Field(tool, "params"))...)
	if perr != nil {
		switch perr.Kind {
		case leia.KindCancelled, leia.KindExit, leia.KindBudget:
			return leia.Nil, leia.Nil, perr
		}
		msg := perr.Message
		if perr.Kind == leia.KindScript {
			if m := Field(perr.Value, "message"); m.Kind() == leia.KindString {
				msg = m.AsString()
			} else if perr.Value.Kind() == leia.KindString {
				msg = perr.Value.AsString()
			}
		}
		return leia.Nil, ErrorValue("internal", msg), nil
	}
	if len(rets) >= 2 && !rets[1].IsNil() {
		return leia.Arg(rets, 0), rets[1], nil
	}
	return leia.Arg(rets, 0), leia.Nil, nil
}

// findTool is the tool of a tools list called name (agents wrapped), or
// nil.
func (rt *Runtime) findTool(tools leia.Value, name string) leia.Value {
	for _, tv := range Items(rt.NormalizeTools(tools)) {
		if StrField(tv, "name") == name {
			return tv
		}
	}
	return leia.Nil
}

// refuse returns the capability error of a call whose tool requires a
// label the host's or the owner's grant lacks ({kind: "capability",
// message: "missing capability: C", capability, tool, call_id}), after a
// tool_denied trace event; nil when the call may run (or names no tool
// in scope: Dispatch reports that).
func (rt *Runtime) refuse(call, tools leia.Value, g grants) leia.Value {
	tool := rt.findTool(tools, StrField(call, "tool"))
	if tool.IsNil() {
		return leia.Nil
	}
	for _, gr := range []*grant{g.host, g.owner} {
		if e := gr.check(tool); !e.IsNil() {
			id := StrField(call, "id")
			e.Table().SetStr("call_id", leia.String(id))
			rt.Emit(llm.TraceEvent{Type: "tool_denied", Tool: StrField(tool, "name"), CallID: id, ErrorKind: "capability", Message: "missing capability: " + StrField(e, "capability")})
			return e
		}
	}
	return leia.Nil
}

// dispatchArgs maps call arguments to the tool's parameters: by name in
// params order when the tool declares params; else a list's items; else
// the table itself as one argument; a non-table as one argument.
func dispatchArgs(args, params leia.Value) []leia.Value {
	if args.Table() == nil {
		if args.IsNil() {
			return nil
		}
		return []leia.Value{args}
	}
	if names := Strings(params); len(names) > 0 {
		out := make([]leia.Value, len(names))
		for i, n := range names {
			out[i] = Field(args, n)
		}
		return out
	}
	if items := Items(args); len(items) > 0 {
		return items
	}
	return []leia.Value{args}
}
