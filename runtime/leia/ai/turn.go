package ai

import (
	"context"
	"errors"
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// llm.turn performs exactly one provider request and returns (result,
// err); it never dispatches tools. turn { ... } is the same call.

// turnFamily is the llm module's natives from this file (see families).
func turnFamily(rt *Runtime) map[string]leia.NativeFunc {
	return map[string]leia.NativeFunc{
		"turn": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil {
				return nil, fmt.Errorf("bad argument #1 to 'llm.turn' (table expected)")
			}
			res, e, err := rt.Turn(t, a[0])
			if err != nil {
				return nil, err
			}
			return t.Ret2(res, e), nil
		},
	}
}

// Turn performs one turn from a request table: exactly the fields it
// is given (inside an agent's flow too: nothing of the agent's config
// is added), agents in its tools wrapped, the model alias resolved (the
// `default` alias when it names none), messages built from system/user
// when absent. The result is (result table, nil) or (nil, error value);
// err is a Leia error that must stop the program (an error raised by an
// on_stream callback, cancellation of the run).
func (rt *Runtime) Turn(t *leia.Thread, src leia.Value) (result, errValue leia.Value, err error) {
	if e := rt.enter(); !e.IsNil() {
		return leia.Nil, e, nil
	}
	defer rt.leave()
	opts := Clone(src)
	ov := leia.TableValue(opts)
	if tv := opts.GetStr("tools"); tv.Table() != nil {
		opts.SetStr("tools", rt.NormalizeTools(tv))
	}
	onStream := opts.GetStr("on_stream")
	if onStream.IsNil() {
		onStream = opts.GetStr("onStream")
	}
	provider, perr := rt.providerFor(opts.GetStr("model"))
	if !perr.IsNil() {
		rt.Emit(llm.TraceEvent{Type: "turn_error", ErrorKind: "provider", Message: "the provider could not be made"})
		return leia.Nil, perr, nil
	}
	opts.SetStr("model", leia.String(rt.ResolveModel(opts.GetStr("model"))))
	if res, ok := replayedResult(ov); ok {
		// Replay options from fixture.replay answer without a provider.
		provider = llm.ProviderFunc(func(context.Context, llm.TurnRequest, func(llm.StreamEvent)) (llm.TurnResult, error) {
			return res, nil
		})
		opts.SetStr("replay", leia.Nil)
	}
	if provider == nil {
		rt.Emit(llm.TraceEvent{Type: "turn_error", Model: StrField(ov, "model"), ErrorKind: "provider", Message: "llm provider not configured"})
		return leia.Nil, ErrorValue("provider", "llm provider not configured"), nil
	}
	if opts.GetStr("messages").IsNil() {
		msgs, e := synthesizeMessages(t, ov)
		if !e.IsNil() {
			rt.Emit(llm.TraceEvent{Type: "turn_error", Model: StrField(ov, "model"), ErrorKind: "validation", Message: "loop requires messages or user"})
			return leia.Nil, e, nil
		}
		opts.SetStr("messages", msgs)
	} else if opts.GetStr("response_format").IsNil() && opts.GetStr("output").Table() != nil {
		opts.SetStr("response_format", T("type", "json_object"))
	}
	rt.applyRequestHooks(t, opts)
	if !onStream.IsNil() {
		if !onStream.IsFunction() {
			rt.Emit(llm.TraceEvent{Type: "turn_error", Model: StrField(ov, "model"), ErrorKind: "validation", Message: "llm.turn on_stream must be a function"})
			return leia.Nil, ErrorValue("validation", "llm.turn on_stream must be a function"), nil
		}
		opts.SetStr("stream", leia.True)
	}
	req, rerr := Request(ov)
	if rerr != nil {
		return leia.Nil, ErrorValue("validation", rerr.Error()), nil
	}
	if e := rt.cancelled(t, ov); !e.IsNil() {
		rt.Emit(llm.TraceEvent{Type: "turn_error", Model: req.Model, ErrorKind: StrField(e, "kind")})
		return leia.Nil, e, nil
	}
	bs := rt.budgetsWith(rt.budgetFromOptions(ov))
	if e := rt.beforeTurn(bs); !e.IsNil() {
		rt.Emit(llm.TraceEvent{Type: "budget_exceeded", Model: req.Model, ErrorKind: StrField(e, "kind"), Message: "llm budget exceeded: " + StrField(e, "dimension")})
		return leia.Nil, e, nil
	}
	res, e, err := rt.call(t, provider, req, onStream, 0, "")
	if err != nil || !e.IsNil() {
		return leia.Nil, e, err
	}
	charge(bs, res.Usage)
	return ResultValue(res), leia.Nil, nil
}

// synthesizeMessages builds [system?, user] from a request's system (or
// instructions) and user fields.
func synthesizeMessages(t *leia.Thread, opts leia.Value) (leia.Value, leia.Value) {
	user := Field(opts, "user")
	if user.IsNil() {
		return leia.Nil, ErrorValue("validation", "loop requires messages or user")
	}
	var msgs []leia.Value
	sys := Field(opts, "system")
	if sys.IsNil() {
		sys = Field(opts, "instructions")
	}
	if !sys.IsNil() {
		msgs = append(msgs, Message("system", textOf(t, sys)))
	}
	msgs = append(msgs, Message("user", textOf(t, user)))
	return List(msgs...), leia.Nil
}

// call sends one request to a provider with tracing, usage accounting
// and the stream callback, and maps a provider failure to an error value.
func (rt *Runtime) call(t *leia.Thread, p llm.Provider, req llm.TurnRequest, onStream leia.Value, step int64, agent string) (llm.TurnResult, leia.Value, error) {
	hash := req.Hash()
	rt.Emit(llm.TraceEvent{Type: "turn_start", Model: req.Model, Agent: agent, Step: step, MessageCount: len(req.Messages), ToolCount: len(req.Tools), RequestHash: hash})
	var streamErr *leia.Error
	var tap func(llm.StreamEvent)
	if onStream.IsFunction() {
		tap = func(ev llm.StreamEvent) {
			rt.addUsage(func(u *Usage) { u.StreamEvents++ })
			rt.Emit(llm.TraceEvent{Type: "stream_token", Model: req.Model, Agent: agent, Step: step})
			if streamErr != nil {
				return
			}
			_, streamErr = t.PCall(onStream, T("type", ev.Type, "token", ev.Token, "text", ev.Text))
		}
	} else if req.Stream {
		tap = func(llm.StreamEvent) { rt.addUsage(func(u *Usage) { u.StreamEvents++ }) }
	}
	start := rt.now()
	res, err := p.Turn(rt.in.Context(), req, tap)
	elapsed := rt.now().Sub(start).Milliseconds()
	if streamErr != nil {
		return res, leia.Nil, streamErr
	}
	if err != nil {
		kind := llm.ErrorKindOf(err)
		rt.Emit(llm.TraceEvent{Type: "turn_error", Model: req.Model, Agent: agent, Step: step, ErrorKind: kind, RequestHash: hash, DurationMS: rt.liveMS(elapsed)})
		return res, providerError(err), nil
	}
	if res.Usage.LatencyMS == 0 && rt.cfg.Source == "live" {
		res.Usage.LatencyMS = elapsed
	}
	rt.addUsage(func(u *Usage) {
		u.Turns++
		u.InputTokens += res.Usage.InputTokens
		u.OutputTokens += res.Usage.OutputTokens
		u.Cost += res.Usage.Cost
	})
	ev := llm.TraceEvent{Type: "turn_end", Model: req.Model, Agent: agent, Step: step, Status: res.NormalizedStatus(),
		MessageCount: len(req.Messages), ToolCount: len(req.Tools), RequestHash: hash, ResponseHash: llm.ValueHash(res.Text),
		InputTokens: res.Usage.InputTokens, OutputTokens: res.Usage.OutputTokens, Cost: res.Usage.Cost, DurationMS: rt.liveMS(elapsed)}
	rt.Emit(ev)
	for _, c := range res.Calls {
		rt.Emit(llm.TraceEvent{Type: "tool_call_requested", Model: req.Model, Agent: agent, Step: step, Tool: c.Tool, CallID: c.ID})
	}
	return res, leia.Nil, nil
}

// liveMS keeps timings out of replayed and mocked runs' traces, so those
// traces are the same bytes on every run.
func (rt *Runtime) liveMS(ms int64) int64 {
	if rt.cfg.Source != "live" {
		return 0
	}
	return ms
}

// providerError is the error value of a failed provider call: {kind,
// message, error_kind, status?}. kind is provider, cancelled or deadline;
// error_kind is runtime/llm's finer kind (rate_limited, overloaded,
// replay_mismatch ...). The message is the provider layer's own text,
// which never carries a credential or prompt content.
func providerError(err error) leia.Value {
	kind := llm.ErrorKindOf(err)
	lk := "provider"
	switch kind {
	case string(llm.ErrCancelled):
		lk = "cancelled"
	case string(llm.ErrDeadline):
		lk = "deadline"
	}
	e := ErrorWith(lk, err.Error(), "error_kind", kind)
	var pe *llm.Error
	if errors.As(err, &pe) && pe.Status != 0 {
		e.Table().SetStr("status", leia.Int(int64(pe.Status)))
	}
	var re *llm.ReplayError
	if errors.As(err, &re) {
		e.Table().SetStr("turn", leia.Int(int64(re.Turn)))
	}
	return e
}
