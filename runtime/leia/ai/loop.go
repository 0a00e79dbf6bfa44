package ai

import (
	"encoding/hex"
	"fmt"

	"github.com/harnlang/harn-check/internal/blake3"
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// The built-in agent loop. Per step: check cancellation and the budgets,
// send the history as one turn, then
//
//   - a final answer passes the agent's output checks (shape, JSON Schema,
//     Rhai validator; validate.go) and returns {status: "done", text,
//     reason: "", result, history, value?, validation?}; a refused answer
//     goes back to the model with the refusal as the next user message
//     (as long as steps and output_retries remain), else the agent fails
//     with {kind: "validation", message, reason};
//   - "stop" returns {status: "stopped", reason, result, history}, as does
//     any unknown status (reason = the status);
//   - tool calls are handled in order: an approve_when hook that answers
//     true pauses with {status: "pending", token, payload, pending,
//     history}; otherwise the assistant call is appended, the calls budget
//     checked, the capability grants checked (a tool requiring a label
//     the agent's capabilities or the host do not grant is not run: the
//     loop ends with {kind: "capability", message, capability, tool,
//     call_id, history}, a runtime error, never a provider answer), the
//     tool dispatched and its result or error appended. Tool errors of
//     kind validation, policy, user and capability (a call of a tool not
//     in scope) go back to the model; network, provider and internal
//     errors are retried max_tool_retries times and then go back; any
//     other kind ends the loop with that error.
//
// After max_steps (default 8) the loop stops with reason "max_steps". The
// final answer is not appended to the history.

// DefaultMaxSteps is the loop's step bound when a request sets none.
const DefaultMaxSteps = 8

// Bounds on loop options a script sets.
const (
	maxLoopSteps   = 1000
	maxToolRetries = 10
)

// loopOptions are the loop variants' knobs.
type loopOptions struct {
	// maxSteps overrides the default when the request sets none.
	maxSteps int64
}

func (rt *Runtime) runLoop(t *leia.Thread, opts *leia.Table, meta *agentMeta, lo loopOptions) (leia.Value, leia.Value, error) {
	ov := leia.TableValue(opts)
	provider, perr := rt.providerFor(opts.GetStr("model"))
	if !perr.IsNil() {
		rt.emitAgent("react_error", meta, "", 0, "", "provider", "the provider could not be made")
		return leia.Nil, perr, nil
	}
	model := rt.ResolveModel(opts.GetStr("model"))
	opts.SetStr("model", leia.String(model))
	if provider == nil {
		rt.emitAgent("react_error", meta, model, 0, "", "provider", "llm provider not configured")
		return leia.Nil, ErrorValue("provider", "llm provider not configured"), nil
	}
	if opts.GetStr("messages").Table() == nil {
		msgs, e := synthesizeMessages(t, ov)
		if !e.IsNil() {
			rt.emitAgent("react_error", meta, model, 0, "", "validation", "loop requires messages or user")
			return leia.Nil, e, nil
		}
		opts.SetStr("messages", msgs)
	}
	rt.applyRequestHooks(t, opts)
	spec, err := rt.outputSpec(ov, &meta.spec)
	if err != nil {
		return leia.Nil, ErrorValue("validation", err.Error()), nil
	}
	if opts.GetStr("response_format").IsNil() {
		if rf := spec.responseFormat(meta.name); !rf.IsNil() {
			opts.SetStr("response_format", rf)
		}
	}
	history := append([]leia.Value(nil), Items(opts.GetStr("messages"))...)
	tools := rt.NormalizeTools(opts.GetStr("tools"))
	opts.SetStr("tools", tools)
	maxSteps := IntOf(opts.GetStr("max_steps"))
	if maxSteps <= 0 {
		maxSteps = lo.maxSteps
	}
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	maxSteps = min(maxSteps, maxLoopSteps)
	retries := min(max(IntOf(opts.GetStr("max_tool_retries")), 0), maxToolRetries)
	historyTokens := IntOf(opts.GetStr("max_history_tokens"))
	// Refusals by the Rhai validator go back to the model while steps
	// remain (Leviath's contract); shape and schema refusals only when
	// output_retries (a count) or output_repair (true: while steps remain)
	// ask for repair turns, as in upstream's loop. output_retries caps both.
	outputRetries := int64(-1)
	if v := opts.GetStr("output_retries"); v.IsNumber() {
		outputRetries = max(IntOf(v), 0)
	}
	repair := opts.GetStr("output_repair").Truthy() || outputRetries > 0
	bs := rt.budgetsWith(rt.budgetFromOptions(ov))
	g := rt.grantsFor(ov)
	onStream := opts.GetStr("on_stream")
	approveWhen := opts.GetStr("approve_when")
	refusals := int64(0)
	for step := int64(0); step < maxSteps; step++ {
		if e := rt.cancelled(t, ov); !e.IsNil() {
			rt.emitAgent("react_error", meta, model, step, "", StrField(e, "kind"), "")
			return leia.Nil, e, nil
		}
		if e := rt.beforeTurn(bs); !e.IsNil() {
			rt.emitAgent("budget_exceeded", meta, model, step, "", StrField(e, "kind"), "llm budget exceeded: "+StrField(e, "dimension"))
			return leia.Nil, e, nil
		}
		reqHistory := history
		if historyTokens > 0 {
			reqHistory = window(history, historyTokens)
		}
		reqOpts := Clone(ov)
		reqOpts.SetStr("messages", List(reqHistory...))
		req, rerr := Request(leia.TableValue(reqOpts))
		if rerr != nil {
			return leia.Nil, ErrorValue("validation", rerr.Error()), nil
		}
		res, e, err := rt.call(t, provider, req, onStream, step, meta.name)
		if err != nil || !e.IsNil() {
			return leia.Nil, e, err
		}
		charge(bs, res.Usage)
		turn := ResultValue(res)
		switch res.NormalizedStatus() {
		case llm.StatusFinalAnswer:
			check := rt.checkOutput(spec, res.Text)
			if !check.accepted {
				refusals++
				rt.emitAgent("output_rejected", meta, model, step, "rejected", "validation", "")
				if step+1 < maxSteps && (check.byValidator || repair) && (outputRetries < 0 || refusals <= outputRetries) {
					history = append(history, Message("assistant", res.Text), Message("user", refusalFeedback(check.refusal)))
					continue
				}
				return leia.Nil, ErrorWith("validation", "agent output refused: "+check.refusal, "reason", check.refusal,
					"broken_scripts", StringList(check.broken), "history", List(history...)), nil
			}
			rt.emitAgent("react_done", meta, model, step, "done", "", "")
			out := T("status", "done", "text", res.Text, "reason", "", "result", turn, "history", List(history...))
			if !check.value.IsNil() {
				out.Table().SetStr("value", check.value)
			}
			if spec.active() {
				out.Table().SetStr("validation", check.table())
			}
			return out, leia.Nil, nil
		case llm.StatusToolCalls:
			for _, c := range res.Calls {
				callValue := CallValue(c)
				rt.Emit(llm.TraceEvent{Type: "tool_call", Agent: meta.name, Step: step, Tool: c.Tool, CallID: c.ID})
				if approveWhen.IsFunction() && t.Call1(approveWhen, callValue).Truthy() {
					token := rt.snapshot(List(history...), callValue)
					rt.Emit(llm.TraceEvent{Type: "approval_pending", Agent: meta.name, Step: step, Tool: c.Tool, CallID: c.ID, Status: "pending"})
					return T("status", "pending", "token", token, "payload", callValue, "pending", callValue, "history", List(history...)), leia.Nil, nil
				}
				history = append(history, AssistantCall(callValue))
				if e := rt.cancelled(t, ov); !e.IsNil() {
					rt.Emit(llm.TraceEvent{Type: "tool_fatal", Agent: meta.name, Step: step, Tool: c.Tool, CallID: c.ID, ErrorKind: StrField(e, "kind")})
					return leia.Nil, e, nil
				}
				if e := rt.beforeToolCall(bs); !e.IsNil() {
					rt.Emit(llm.TraceEvent{Type: "tool_fatal", Agent: meta.name, Step: step, Tool: c.Tool, CallID: c.ID, ErrorKind: StrField(e, "kind")})
					return leia.Nil, e, nil
				}
				if e := rt.refuse(callValue, tools, g); !e.IsNil() {
					e.Table().SetStr("history", List(history...))
					rt.emitAgent("react_error", meta, model, step, "", "capability", "missing capability: "+StrField(e, "capability"))
					return leia.Nil, e, nil
				}
				v, e, err := rt.dispatchWithRetry(t, callValue, tools, retries, step, meta)
				if err != nil {
					return leia.Nil, leia.Nil, err
				}
				switch kind := StrField(e, "kind"); {
				case e.IsNil():
					rt.Emit(llm.TraceEvent{Type: "tool_result", Agent: meta.name, Step: step, Tool: c.Tool, CallID: c.ID, ResponseHash: llm.ValueHash(ToGo(v))})
					history = append(history, ToolResult(leia.String(c.ID), v))
				case recoverableToolError(kind) || transientToolError(kind):
					rt.Emit(llm.TraceEvent{Type: "tool_error", Agent: meta.name, Step: step, Tool: c.Tool, CallID: c.ID, ErrorKind: kind})
					history = append(history, ToolError(leia.String(c.ID), errorMessage(t, e)))
				default:
					rt.Emit(llm.TraceEvent{Type: "tool_fatal", Agent: meta.name, Step: step, Tool: c.Tool, CallID: c.ID, ErrorKind: kind})
					return leia.Nil, e, nil
				}
			}
		case llm.StatusStop:
			rt.emitAgent("react_stopped", meta, model, step, "stopped", "", res.Reason)
			return T("status", "stopped", "text", "", "reason", res.Reason, "result", turn, "history", List(history...)), leia.Nil, nil
		default:
			rt.emitAgent("react_stopped", meta, model, step, "stopped", "", "unknown status")
			return T("status", "stopped", "text", "", "reason", res.Status, "result", turn, "history", List(history...)), leia.Nil, nil
		}
	}
	rt.emitAgent("react_stopped", meta, model, maxSteps, "stopped", "", "max_steps")
	return T("status", "stopped", "text", "", "reason", "max_steps", "history", List(history...)), leia.Nil, nil
}

// refusalFeedback is the user message that sends a refusal back to the
// model.
func refusalFeedback(reason string) string {
	return reason + "\nReply again with a corrected answer."
}

func recoverableToolError(kind string) bool {
	switch kind {
	case "validation", "policy", "user", "capability":
		return true
	}
	return false
}

func transientToolError(kind string) bool {
	switch kind {
	case "network", "provider", "internal":
		return true
	}
	return false
}

// errorMessage is the text of an error value: its message field, a
// string, else tostring.
func errorMessage(t *leia.Thread, e leia.Value) string {
	if m := Field(e, "message"); m.Kind() == leia.KindString {
		return m.AsString()
	}
	return textOf(t, e)
}

func (rt *Runtime) dispatchWithRetry(t *leia.Thread, call, tools leia.Value, retries, step int64, meta *agentMeta) (leia.Value, leia.Value, error) {
	var last leia.Value
	for attempt := int64(0); attempt <= retries; attempt++ {
		v, e, err := rt.Dispatch(t, call, tools)
		if err != nil || e.IsNil() {
			return v, e, err
		}
		last = e
		kind := StrField(e, "kind")
		if !transientToolError(kind) {
			return v, e, nil
		}
		if attempt < retries {
			rt.Emit(llm.TraceEvent{Type: "tool_retry", Agent: meta.name, Step: step, Attempt: attempt + 1, Tool: StrField(call, "tool"), CallID: StrField(call, "id"), ErrorKind: kind})
		}
	}
	return leia.Nil, last, nil
}

// snapshot keeps a paused loop's history and pending call for
// loop.resume and returns its token (deterministic within a run).
func (rt *Runtime) snapshot(history, pending leia.Value) string {
	rt.tokenSeq++
	sum := blake3.Sum256([]byte(fmt.Sprintf("%d:%s:%s", rt.tokenSeq, StrField(pending, "tool"), StrField(pending, "id"))))
	token := hex.EncodeToString(sum[:16])
	rt.snapshots[token] = T("history", history, "pending", pending)
	return token
}

// loopFamily is the loop module's natives from this file (see families).
func loopFamily(rt *Runtime) map[string]leia.NativeFunc {
	run := func(name string, lo loopOptions) leia.NativeFunc {
		return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil {
				return nil, fmt.Errorf("bad argument #1 to 'loop.%s' (table expected)", name)
			}
			return ret2(t)(rt.runLoop(t, Clone(a[0]), &agentMeta{name: StrField(a[0], "name")}, lo))
		}
	}
	return map[string]leia.NativeFunc{
		"react":        run("react", loopOptions{}),
		"simple":       run("simple", loopOptions{maxSteps: 1}),
		"plan_execute": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) { return rt.planExecute(t, a) },
		"reflect":      func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) { return rt.reflect(t, a) },
		"snapshot": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil || leia.Arg(a, 1).Table() == nil {
				return nil, fmt.Errorf("bad argument to 'loop.snapshot' (history, pending_call expected)")
			}
			token := rt.snapshot(a[0], a[1])
			if store := leia.Arg(a, 2); isStore(store) {
				rets := t.Call(Field(store, "save"), leia.String(token), rt.snapshots[token])
				if e := leia.Arg(rets, 1); !e.IsNil() {
					return t.Ret2(leia.Nil, e), nil
				}
			}
			return t.Ret2(leia.String(token), leia.Nil), nil
		},
		"resume": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Kind() != leia.KindString || leia.Arg(a, 1).Table() == nil {
				return nil, fmt.Errorf("bad argument to 'loop.resume' (token, approval expected)")
			}
			return rt.resume(t, a[0].AsString(), a[1], leia.Arg(a, 2), leia.Arg(a, 3))
		},
	}
}

// isStore reports a snapshot store: a table with save, load and delete
// functions.
func isStore(v leia.Value) bool {
	return Field(v, "save").IsFunction() && Field(v, "load").IsFunction() && Field(v, "delete").IsFunction()
}

// resume continues a paused call: approval {ok, reason?, args?} denies it
// (a tool error in the history, status "denied"), approves it without
// tools ("approved"), or dispatches it ("dispatched", or "tool_error").
func (rt *Runtime) resume(t *leia.Thread, token string, approval, third, fourth leia.Value) ([]leia.Value, error) {
	var tools, store leia.Value
	if isStore(third) {
		store = third
	} else {
		tools = third
	}
	if isStore(fourth) {
		store = fourth
	}
	snap, ok := rt.snapshots[token]
	if ok {
		delete(rt.snapshots, token)
	} else if !store.IsNil() {
		rets := t.Call(Field(store, "load"), leia.String(token))
		if e := leia.Arg(rets, 1); !e.IsNil() {
			return t.Ret2(leia.Nil, e), nil
		}
		snap = leia.Arg(rets, 0)
	}
	if snap.Table() == nil {
		return t.Ret2(leia.Nil, ErrorValue("validation", "snapshot not found")), nil
	}
	if !store.IsNil() {
		t.Call(Field(store, "delete"), leia.String(token))
	}
	history, pending := Field(snap, "history"), Field(snap, "pending")
	if history.Table() == nil || pending.Table() == nil {
		return t.Ret2(leia.Nil, ErrorValue("validation", "malformed snapshot")), nil
	}
	if args := Field(approval, "args"); args.Table() != nil {
		p := Clone(pending)
		p.SetStr("args", args)
		pending = leia.TableValue(p)
	}
	h := append(Items(history), AssistantCall(pending))
	id := Field(pending, "id")
	out := func(status string, value leia.Value) ([]leia.Value, error) {
		return t.Ret2(T("status", status, "pending", pending, "history", List(h...), "value", value), leia.Nil), nil
	}
	if !Field(approval, "ok").Truthy() {
		reason := StrField(approval, "reason")
		if reason == "" {
			reason = "denied"
		}
		h = append(h, ToolError(id, reason))
		return out("denied", leia.Nil)
	}
	if tools.Table() == nil {
		return out("approved", leia.Nil)
	}
	v, e, err := rt.Dispatch(t, pending, tools)
	if err != nil {
		return nil, err
	}
	if !e.IsNil() {
		h = append(h, ToolError(id, errorMessage(t, e)))
		return out("tool_error", e)
	}
	h = append(h, ToolResult(id, v))
	return out("dispatched", v)
}

// Loop variants.
const (
	// PlanPrompt opens loop.plan_execute's planning turn.
	PlanPrompt = "Create a concise execution plan. Do not call tools."
	// ReflectPrompt is loop.reflect's default review instruction.
	ReflectPrompt  = "Review the answer. If it can be improved, return the improved final answer only."
	maxReflections = 16
)

// planExecute is loop.plan_execute: one planning turn (plan_model or the
// model; plan_max_tokens, plan_temperature ...) over the messages with
// PlanPrompt first, then the loop with "Execution plan:\n<plan>" as the
// first system message (exec_model may change the model); the result
// gets plan.
func (rt *Runtime) planExecute(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
	src := leia.Arg(a, 0)
	if src.Table() == nil {
		return nil, fmt.Errorf("bad argument #1 to 'loop.plan_execute' (table expected)")
	}
	opts := Clone(src)
	if opts.GetStr("messages").Table() == nil {
		msgs, e := synthesizeMessages(t, src)
		if !e.IsNil() {
			return t.Ret2(leia.Nil, e), nil
		}
		opts.SetStr("messages", msgs)
	}
	plan := T("messages", List(append([]leia.Value{Message("system", PlanPrompt)}, Items(opts.GetStr("messages"))...)...))
	model := Field(src, "plan_model")
	if model.IsNil() {
		model = Field(src, "model")
	}
	plan.Table().SetStr("model", model)
	for _, k := range []string{"max_tokens", "temperature", "top_p", "response_format", "stop"} {
		plan.Table().SetStr(k, Field(src, "plan_"+k))
	}
	plan.Table().SetStr("metadata", Field(src, "metadata"))
	res, e, err := rt.Turn(t, plan)
	if err != nil || !e.IsNil() {
		return ret2(t)(leia.Nil, e, err)
	}
	text := StrField(res, "text")
	if text != "" {
		opts.SetStr("messages", List(append([]leia.Value{Message("system", "Execution plan:\n"+text)}, Items(opts.GetStr("messages"))...)...))
	}
	if m := Field(src, "exec_model"); !m.IsNil() {
		opts.SetStr("model", m)
	}
	out, e, err := rt.runLoop(t, opts, &agentMeta{name: StrField(src, "name")}, loopOptions{})
	if err == nil && e.IsNil() && out.Table() != nil {
		out.Table().SetStr("plan", leia.String(text))
	}
	return ret2(t)(out, e, err)
}

// reflect is loop.reflect: the loop, then, when it is done, max_iters
// review turns (reflect_model or the model; reflect_prompt) that may
// replace the answer; the result gets reflection (the review turns).
func (rt *Runtime) reflect(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
	src := leia.Arg(a, 0)
	if src.Table() == nil {
		return nil, fmt.Errorf("bad argument #1 to 'loop.reflect' (table expected)")
	}
	out, e, err := rt.runLoop(t, Clone(src), &agentMeta{name: StrField(src, "name")}, loopOptions{})
	if err != nil || !e.IsNil() || StrField(out, "status") != "done" {
		return ret2(t)(out, e, err)
	}
	iters := min(max(IntOf(Field(src, "max_iters")), 1), maxReflections)
	model := Field(src, "reflect_model")
	if model.IsNil() {
		model = Field(src, "model")
	}
	prompt := StrField(src, "reflect_prompt")
	if prompt == "" {
		prompt = ReflectPrompt
	}
	var turns []leia.Value
	text := StrField(out, "text")
	for i := int64(0); i < iters; i++ {
		req := T("model", model, "messages", List(Message("system", prompt), Message("user", text)), "metadata", Field(src, "metadata"))
		for _, k := range []string{"max_tokens", "temperature", "top_p", "response_format", "stop"} {
			req.Table().SetStr(k, Field(src, "reflect_"+k))
		}
		res, e, err := rt.Turn(t, req)
		if err != nil || !e.IsNil() {
			return ret2(t)(leia.Nil, e, err)
		}
		turns = append(turns, res)
		if s := StrField(res, "text"); s != "" {
			text = s
		}
	}
	out.Table().SetStr("text", leia.String(text))
	out.Table().SetStr("reflection", List(turns...))
	return t.Ret2(out, leia.Nil), nil
}
