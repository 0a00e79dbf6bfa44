package harn

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Triggers registered by the program: trigger_register(config) installs a
// binding (a handler closure, or a worker:// or a2a:// target, with an
// optional `when` predicate, its budget, retries and an autonomy tier)
// and returns its snapshot; trigger_fire(handle, event) dispatches one
// event through it and returns a dispatch handle {event_id, binding_id,
// binding_version, status, replay_of_event_id, dlq_entry_id, error,
// result}; trigger_replay(event_id) dispatches a recorded event again
// (the predicate's recorded decision is reused, marked cached);
// trigger_list, trigger_inspect_dlq, trigger_inspect_lifecycle(kind) and
// trigger_inspect_action_graph(trace_id) read the run's trigger records;
// handler_context() is the dispatch a handler runs in. Every dispatch
// appends a trust record (lib_trust.go). The state is the run's, in
// memory: nothing is written outside the run. A binding whose handler is
// an a2a:// address reaches the network, so registering it needs the net
// grant for that host.
//
// A predicate that fails (throws, or returns an Err) three times running
// opens the binding's predicate circuit for five minutes: events meanwhile
// are skipped with reason circuit_open and the predicate is not called. A
// predicate whose model calls spend more tokens than when_budget.tokens_max
// (or more than max_cost_usd) is overruled: the event is skipped with
// reason budget_exceeded and a predicate.budget_exceeded record.

type dynBinding struct {
	id, kind, provider, tier, handlerKind, target string
	version                                       int
	handler, when                                 Value
	whenName                                      string
	tokensMax                                     int64
	maxCostUSD                                    float64
	maxAttempts                                   int
	events                                        []string
	state                                         string
	manifestPath, packageName                     Value
	received, dispatched, failed, dlq             int64
	lastReceivedMs                                *int64
	// predicate circuit
	predFailures     int
	breakerOpenUntil time.Time
}

type triggerRecord struct {
	kind    string
	headers map[string]string
	payload map[string]any
}

type firedEvent struct {
	bindingID string
	version   int
	replayOf  string
	event     *Dict
	received  time.Time
}

type dlqRecord struct {
	id, eventID, bindingID, provider, kind, state, errText string
	version                                                int
	event                                                  *Dict
	history                                                []any
}

type dispatchContext struct {
	agent, action, traceID, replayOf, tier string
	event                                  *Dict
}

type triggerRuntime struct {
	bindings  map[string]*dynBinding
	order     []string
	history   map[string][]bindingHistory
	events    []*firedEvent
	lifecycle []triggerRecord
	graph     []triggerRecord
	dlq       []*dlqRecord
	decisions map[string]bool // event id -> the predicate's decision
	contexts  []*dispatchContext
	trust     []*trustRecord
	seq       uint64
}

func triggersOf(c *Call) *triggerRuntime {
	return c.th.in.State("triggers.runtime", func() any {
		return &triggerRuntime{bindings: map[string]*dynBinding{}, history: map[string][]bindingHistory{}, decisions: map[string]bool{}}
	}).(*triggerRuntime)
}

// newID is a fresh identifier with a prefix, from the run's random source
// and a sequence number.
func (tr *triggerRuntime) newID(c *Call, prefix string) string {
	tr.seq++
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], c.th.in.host.Uint64())
	binary.BigEndian.PutUint64(b[8:], tr.seq)
	return prefix + hex.EncodeToString(b[:])
}

func (b *dynBinding) snapshot() Value {
	metrics := map[string]any{"received": b.received, "dispatched": b.dispatched, "failed": b.failed, "dlq": b.dlq,
		"in_flight": 0, "last_received_ms": b.lastReceivedMs, "cost_total_usd_micros": 0, "cost_today_usd_micros": 0,
		"cost_hour_usd_micros": 0}
	return goValue(map[string]any{"id": b.id, "version": b.version, "source": "dynamic", "kind": b.kind,
		"provider": b.provider, "autonomy_tier": b.tier, "handler_kind": b.handlerKind, "state": b.state,
		"metrics": metrics, "daily_cost_usd": nil, "hourly_cost_usd": nil, "max_autonomous_decisions_per_hour": nil,
		"max_autonomous_decisions_per_day": nil, "on_budget_exhausted": "false"})
}

var autonomyTiers = map[string]bool{"shadow": true, "suggest": true, "act_with_approval": true, "act_auto": true}

func (tr *triggerRuntime) register(c *Call, cfg *Dict) (*dynBinding, error) {
	get := func(k string) Value { v, _ := cfg.Get(k); return v }
	b := &dynBinding{id: OptStr(cfg, "id"), kind: OptStr(cfg, "kind"), provider: OptStr(cfg, "provider"),
		tier: OptStr(cfg, "autonomy_tier"), state: "active", maxAttempts: 7,
		manifestPath: get("manifest_path"), packageName: get("package_name")}
	if b.kind == "" {
		return nil, plainError("trigger_register: missing `kind`")
	}
	if b.provider == "" {
		return nil, plainError("trigger_register: missing `provider`")
	}
	if b.tier == "" {
		b.tier = "act_auto"
	}
	if !autonomyTiers[b.tier] {
		return nil, plainError("trigger_register: unknown autonomy_tier `" + b.tier + "` (expected shadow, suggest, act_with_approval or act_auto)")
	}
	h := get("handler")
	switch h.k {
	case KindClosure, KindBuiltin:
		b.handler, b.handlerKind = h, "local"
	case KindString:
		u, err := url.Parse(h.AsString())
		if err != nil || u.Scheme == "" {
			return nil, plainError("trigger_register: handler `" + h.AsString() + "` is neither a function nor a worker:// or a2a:// address")
		}
		switch u.Scheme {
		case "worker":
			b.handlerKind, b.target = "worker", h.AsString()
		case "a2a":
			// An A2A handler is a remote agent: dispatching to it is a
			// network connection, which the run must be granted.
			addr := u.Host
			if u.Port() == "" {
				addr += ":443"
			}
			if err := c.th.in.host.CheckNet(addr); err != nil {
				return nil, plainError("trigger_register: " + err.Error())
			}
			b.handlerKind, b.target = "a2a", h.AsString()
		default:
			return nil, plainError("trigger_register: unsupported handler scheme `" + u.Scheme + "` (expected worker:// or a2a://)")
		}
	case KindNil:
		return nil, plainError("trigger_register: missing `handler`")
	default:
		return nil, plainError("trigger_register: handler must be a function or an address, not " + h.TypeName())
	}
	if w := get("when"); w.k == KindClosure || w.k == KindBuiltin {
		b.when = w
		b.whenName = "when"
		if w.k == KindClosure {
			if n := w.r.(*Closure).proto.name; n != "" {
				b.whenName = n
			}
		}
	}
	if wb := get("when_budget"); wb.k == KindDict {
		b.tokensMax = harnessInt(wb.AsDict(), "tokens_max", 0)
		if v, ok := wb.AsDict().Get("max_cost_usd"); ok {
			b.maxCostUSD, _ = v.Number()
		}
	}
	if r := get("retry"); r.k == KindDict {
		if n := harnessInt(r.AsDict(), "max", 0); n > 0 {
			b.maxAttempts = int(n)
		}
	}
	for _, key := range []string{"match", "events"} {
		v := get(key)
		if v.k == KindDict {
			v, _ = v.AsDict().Get("events")
		}
		if v.k == KindList {
			for _, e := range v.AsList().Items() {
				b.events = append(b.events, Display(e))
			}
		}
	}
	if b.id == "" {
		b.id = tr.newID(c, "trigger_")
	}
	b.version = 1
	if old, ok := tr.bindings[b.id]; ok {
		old.state = "terminated"
		b.version = old.version + 1
	} else {
		tr.order = append(tr.order, b.id)
	}
	tr.bindings[b.id] = b
	tr.history[b.id] = append(tr.history[b.id], bindingHistory{version: b.version, activatedAt: c.th.in.host.Now()})
	return b, nil
}

// eventDict fills in what a fired event leaves out.
func (tr *triggerRuntime) eventDict(c *Call, v Value) (*Dict, error) {
	if v.k != KindDict {
		return nil, plainError("trigger_fire: trigger event must be a dict-like value")
	}
	d := v.AsDict().clone()
	for _, k := range []string{"provider", "kind"} {
		if x, ok := d.Get(k); !ok || x.k != KindString {
			return nil, plainError("trigger_fire: trigger event is missing string field `" + k + "`")
		}
	}
	provider, kind := OptStr(d, "provider"), OptStr(d, "kind")
	set := func(k string, f func() Value) {
		if _, ok := d.Get(k); !ok {
			d.Set(k, f())
		}
	}
	set("id", func() Value { return Str(tr.newID(c, "trigger_evt_")) })
	set("received_at", func() Value { return Str(c.th.in.host.Now().UTC().Format(time.RFC3339Nano)) })
	set("occurred_at", func() Value { return Nil })
	set("dedupe_key", func() Value {
		if h, ok := d.Get("headers"); ok && h.k == KindDict {
			if x, ok := h.AsDict().Get("x_delivery"); ok && x.k == KindString {
				return x
			}
		}
		return Str("synthetic:" + provider + ":" + kind + ":" + tr.newID(c, ""))
	})
	set("trace_id", func() Value { return Str(tr.newID(c, "trace_")) })
	set("tenant_id", func() Value { return Nil })
	set("headers", func() Value { return DictValue(NewDict(0)) })
	set("batch", func() Value { return Nil })
	set("raw_body", func() Value { return Nil })
	set("signature_status", func() Value { return goValue(map[string]any{"state": "unsigned"}) })
	set("provider_payload", func() Value {
		return goValue(map[string]any{"provider": provider, "event": kind, "raw": v})
	})
	return d, nil
}

func (tr *triggerRuntime) headers(ev *Dict, b *dynBinding, replayOf string) map[string]string {
	h := map[string]string{"event_id": OptStr(ev, "id"), "trace_id": OptStr(ev, "trace_id"),
		"provider": OptStr(ev, "provider"), "kind": OptStr(ev, "kind"), "trigger_id": b.id,
		"binding_key": fmt.Sprintf("%s@v%d", b.id, b.version), "handler_kind": b.handlerKind}
	if replayOf != "" {
		h["replay_of_event_id"] = replayOf
	}
	if t := OptStr(ev, "tenant_id"); t != "" {
		h["tenant_id"] = t
	}
	return h
}

func (tr *triggerRuntime) note(kind string, ev *Dict, b *dynBinding, replayOf string, payload map[string]any) {
	tr.lifecycle = append(tr.lifecycle, triggerRecord{kind: kind, headers: tr.headers(ev, b, replayOf), payload: payload})
}

// effectiveTier is the binding's tier as the trust graph has since
// promoted or demoted its agent.
func (tr *triggerRuntime) effectiveTier(agent, def string) string {
	cur := def
	for _, r := range tr.trust {
		if r.agent == agent && (r.action == "trust.promote" || r.action == "trust.demote") && r.outcome == "success" {
			cur = r.tier
		}
	}
	return cur
}

// predicate evaluates the binding's `when` for an event: its decision and
// the reason an event is skipped without it (circuit_open,
// budget_exceeded, the predicate's error).
func (tr *triggerRuntime) predicate(c *Call, b *dynBinding, ev *Dict, replayOf string) (bool, Value, error) {
	eventID := OptStr(ev, "id")
	now := c.th.in.host.Now()
	rec := map[string]any{"trigger_id": b.id, "event_id": eventID, "result": false, "cost_usd": 0.0, "tokens": 0,
		"latency_ms": 0, "cached": false, "reason": nil, "on_budget_exhausted": nil, "replay_of_event_id": nil}
	if replayOf != "" {
		rec["replay_of_event_id"] = replayOf
	}
	finish := func(result bool, reason Value) (bool, Value, error) {
		rec["result"] = result
		rec["reason"] = reason
		tr.note("predicate.evaluated", ev, b, replayOf, rec)
		return result, reason, nil
	}
	if now.Before(b.breakerOpenUntil) {
		return finish(false, Str("circuit_open"))
	}
	if replayOf != "" {
		if d, ok := tr.decisions[replayOf]; ok {
			rec["cached"] = true
			return finish(d, Nil)
		}
	}
	st := llmOf(c)
	st.mu.Lock()
	in0, out0 := st.usage.input, st.usage.output
	st.mu.Unlock()
	started := time.Now()
	res, err := c.Invoke(b.when, DictValue(ev))
	rec["latency_ms"] = time.Since(started).Milliseconds()
	st.mu.Lock()
	tokens := (st.usage.input - in0) + (st.usage.output - out0)
	st.mu.Unlock()
	rec["tokens"] = tokens
	ok, failed := false, err != nil
	var reason Value = Nil
	if err != nil {
		e, isErr := catchable(err)
		if !isErr {
			return false, Nil, err // the run's limits and cancellation end it
		}
		reason = Str(Display(e.Value))
	} else {
		if r, isRes := resultParts(res); isRes {
			if r.ok {
				res = r.v
			} else {
				failed = true
				reason = Str(Display(r.v))
			}
		}
		ok = !failed && res.Truthy()
	}
	if failed {
		b.predFailures++
		if b.predFailures >= 3 {
			b.breakerOpenUntil = now.Add(5 * time.Minute)
		}
	} else {
		b.predFailures = 0
	}
	if b.tokensMax > 0 && tokens > b.tokensMax {
		ok = false
		reason = Str("budget_exceeded")
		tr.note("predicate.budget_exceeded", ev, b, replayOf, map[string]any{"trigger_id": b.id, "event_id": eventID,
			"reason": "budget_exceeded", "tokens": tokens, "tokens_max": b.tokensMax, "max_cost_usd": b.maxCostUSD,
			"replay_of_event_id": rec["replay_of_event_id"]})
	}
	if !failed {
		tr.decisions[eventID] = ok
	}
	return finish(ok, reason)
}

// resultPart is a Result value's side and payload.
type resultPart struct {
	ok bool
	v  Value
}

func resultParts(v Value) (resultPart, bool) {
	if v.k != KindEnum {
		return resultPart{}, false
	}
	e, ok := v.r.(*EnumValue)
	if !ok || e.Enum != "Result" {
		return resultPart{}, false
	}
	var payload Value = Nil
	if len(e.Fields) > 0 {
		payload = e.Fields[0]
	}
	return resultPart{ok: e.Variant == "Ok", v: payload}, true
}

func (tr *triggerRuntime) dispatch(c *Call, b *dynBinding, ev *Dict, replayOf string) (Value, error) {
	eventID := OptStr(ev, "id")
	now := c.th.in.host.Now()
	tr.events = append(tr.events, &firedEvent{bindingID: b.id, version: b.version, replayOf: replayOf, event: ev, received: now})
	b.received++
	ms := now.UnixMilli()
	b.lastReceivedMs = &ms
	handle := map[string]any{"event_id": eventID, "binding_id": b.id, "binding_version": b.version, "status": "dispatched",
		"replay_of_event_id": nil, "dlq_entry_id": nil, "error": nil, "result": nil}
	if replayOf != "" {
		handle["replay_of_event_id"] = replayOf
	}
	action := OptStr(ev, "provider") + "." + OptStr(ev, "kind")
	traceID := OptStr(ev, "trace_id")
	tier := tr.effectiveTier(b.id, b.tier)
	trust := func(outcome, status string, attempts int, errText string) {
		meta := map[string]any{"binding_key": fmt.Sprintf("%s@v%d", b.id, b.version), "binding_version": b.version,
			"provider": OptStr(ev, "provider"), "event_kind": OptStr(ev, "kind"), "handler_kind": b.handlerKind,
			"terminal_status": status, "attempt_count": attempts}
		if replayOf != "" {
			meta["replay_of_event_id"] = replayOf
		}
		if errText != "" {
			meta["error"] = errText
		}
		tr.appendTrust(c, b.id, action, Nil, outcome, traceID, tier, Nil, meta)
	}
	if len(b.events) > 0 && !containsString(b.events, OptStr(ev, "kind")) {
		handle["result"] = map[string]any{"skipped": true, "reason": "event_not_matched"}
		return goValue(handle), nil
	}
	if b.when.k != KindNil {
		ok, reason, err := tr.predicate(c, b, ev, replayOf)
		if err != nil {
			return Nil, err
		}
		if !ok {
			handle["result"] = map[string]any{"skipped": true, "predicate": b.whenName, "reason": reason}
			trust("denied", "skipped", 0, "")
			return goValue(handle), nil
		}
	}
	if tier == "shadow" {
		msg := "trigger " + b.id + " runs in the shadow autonomy tier: its handler may not act"
		handle["status"], handle["error"] = "failed", msg
		b.failed++
		tr.note("DispatchFailed", ev, b, replayOf, map[string]any{"trigger_id": b.id, "event_id": eventID, "error": msg, "autonomy_tier": tier})
		trust("denied", "failed", 0, msg)
		return goValue(handle), nil
	}
	if b.handlerKind != "local" {
		msg := b.handlerKind + " handler " + b.target + " has no transport in this runtime"
		handle["status"], handle["error"] = "failed", msg
		b.failed++
		trust("failure", "failed", 0, msg)
		return goValue(handle), nil
	}
	tr.note("DispatchStarted", ev, b, replayOf, map[string]any{"trigger_id": b.id, "event_id": eventID, "attempt": 1})
	tr.graph = append(tr.graph, triggerRecord{kind: "dispatch", headers: tr.headers(ev, b, replayOf),
		payload: map[string]any{"trace_id": traceID, "trigger_id": b.id, "event_id": eventID}})
	tr.contexts = append(tr.contexts, &dispatchContext{agent: b.id, action: action, traceID: traceID, replayOf: replayOf, tier: tier, event: ev})
	var res Value
	var lastErr string
	attempts := 0
	var history []any
	for attempts < b.maxAttempts {
		attempts++
		r, err := c.Invoke(b.handler, DictValue(ev))
		if err == nil {
			res, lastErr = r, ""
			break
		}
		e, isErr := catchable(err)
		if !isErr {
			tr.contexts = tr.contexts[:len(tr.contexts)-1]
			return Nil, err
		}
		lastErr = Display(e.Value)
		history = append(history, map[string]any{"attempt": attempts, "at": c.th.in.host.Now().UTC().Format(time.RFC3339),
			"status": "failed", "error": lastErr})
	}
	tr.contexts = tr.contexts[:len(tr.contexts)-1]
	pending := tr.pendingDLQ(eventID)
	if replayOf != "" && pending == nil {
		pending = tr.pendingDLQ(replayOf)
	}
	if lastErr == "" {
		b.dispatched++
		handle["result"] = res
		tr.note("DispatchSucceeded", ev, b, replayOf, map[string]any{"trigger_id": b.id, "event_id": eventID, "attempts": attempts})
		if pending != nil {
			pending.state = "resolved"
			status := "resolved"
			if replayOf != "" {
				status = "replay_succeeded"
			}
			pending.history = append(pending.history, map[string]any{"attempt": len(pending.history) + 1,
				"at": c.th.in.host.Now().UTC().Format(time.RFC3339), "status": status, "error": nil})
		}
		trust("success", "succeeded", attempts, "")
		return goValue(handle), nil
	}
	b.dlq++
	entry := pending
	if entry == nil {
		entry = &dlqRecord{id: tr.newID(c, "dlq_"), eventID: eventID, bindingID: b.id, version: b.version,
			provider: OptStr(ev, "provider"), kind: OptStr(ev, "kind"), event: ev}
		tr.dlq = append(tr.dlq, entry)
	}
	entry.state, entry.errText = "pending", lastErr
	status := "dlq"
	if replayOf != "" {
		status = "replay_dlq"
	}
	// The attempt that exhausted the retries is the one that moved the
	// event to the dead-letter queue: its status says so.
	if len(history) > 0 {
		history[len(history)-1].(map[string]any)["status"] = status
	}
	entry.history = append(entry.history, history...)
	tr.note("DispatchFailed", ev, b, replayOf, map[string]any{"trigger_id": b.id, "event_id": eventID, "error": lastErr, "attempts": attempts})
	handle["status"], handle["dlq_entry_id"], handle["error"] = "dlq", entry.id, lastErr
	trust("failure", "dlq", attempts, lastErr)
	return goValue(handle), nil
}

func (tr *triggerRuntime) pendingDLQ(eventID string) *dlqRecord {
	for _, e := range tr.dlq {
		if e.eventID == eventID && e.state == "pending" {
			return e
		}
	}
	return nil
}

func (e *dlqRecord) value() Value {
	return goValue(map[string]any{"id": e.id, "event_id": e.eventID, "binding_id": e.bindingID, "binding_version": e.version,
		"provider": e.provider, "kind": e.kind, "state": e.state, "error": e.errText, "error_class": dlqErrorClass(e.errText),
		"event": DictValue(e.event), "retry_history": e.history})
}

// dlqErrorClass sorts a dead letter's error into a coarse class.
func dlqErrorClass(msg string) string {
	m := strings.ToLower(msg)
	switch {
	case strings.Contains(m, "timeout") || strings.Contains(m, "timed out"):
		return "timeout"
	case strings.Contains(m, "rate") && strings.Contains(m, "limit"):
		return "rate_limited"
	case strings.Contains(m, "circuit"):
		return "circuit_open"
	case strings.Contains(m, "budget"):
		return "budget_exhausted"
	}
	return "handler_error"
}

func recordValue(r triggerRecord) Value {
	return goValue(map[string]any{"kind": r.kind, "headers": r.headers, "payload": r.payload})
}

// bindingFor finds the binding a handle or id names.
func (tr *triggerRuntime) bindingFor(fn string, v Value) (*dynBinding, error) {
	id := ""
	switch v.k {
	case KindString:
		id = v.AsString()
	case KindDict:
		id = OptStr(v.AsDict(), "id")
	}
	if id == "" {
		return nil, plainError(fn + ": expected a trigger handle or id")
	}
	b, ok := tr.bindings[id]
	if !ok {
		return nil, plainError(fn + ": unknown trigger `" + id + "`")
	}
	return b, nil
}

func installTriggers(lib *Library) {
	lib.Builtin("trigger_register", func(c *Call, args []Value) (Value, error) {
		cfg := Arg(args, 0)
		if cfg.k != KindDict {
			return Nil, plainError("trigger_register: expected a config dict")
		}
		b, err := triggersOf(c).register(c, cfg.AsDict())
		if err != nil {
			return Nil, err
		}
		return b.snapshot(), nil
	})
	lib.Builtin("trigger_list", func(c *Call, args []Value) (Value, error) {
		tr := triggersOf(c)
		out := make([]Value, 0, len(tr.order))
		for _, id := range tr.order {
			out = append(out, tr.bindings[id].snapshot())
		}
		return NewListValue(out), nil
	})
	lib.Builtin("trigger_fire", func(c *Call, args []Value) (Value, error) {
		tr := triggersOf(c)
		b, err := tr.bindingFor("trigger_fire", Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		if len(args) < 2 {
			return Nil, plainError("trigger_fire: missing trigger event")
		}
		ev, err := tr.eventDict(c, args[1])
		if err != nil {
			return Nil, err
		}
		return tr.dispatch(c, b, ev, "")
	})
	lib.Builtin("trigger_replay", func(c *Call, args []Value) (Value, error) {
		id := Arg(args, 0)
		if id.k != KindString {
			return Nil, plainError("trigger_replay: expected event id string")
		}
		tr := triggersOf(c)
		for _, f := range tr.events {
			if OptStr(f.event, "id") != id.AsString() {
				continue
			}
			b := tr.bindings[f.bindingID]
			if b == nil {
				return Nil, plainError("trigger_replay: the trigger of event '" + id.AsString() + "' is gone")
			}
			return tr.dispatch(c, b, f.event, id.AsString())
		}
		return Nil, plainError("trigger_replay: unknown event id '" + id.AsString() + "'")
	})
	lib.Builtin("trigger_inspect_dlq", func(c *Call, args []Value) (Value, error) {
		var out []Value
		for _, e := range triggersOf(c).dlq {
			if e.state == "pending" {
				out = append(out, e.value())
			}
		}
		return NewListValue(out), nil
	})
	lib.Builtin("trigger_inspect_lifecycle", func(c *Call, args []Value) (Value, error) {
		kind := ""
		if k := Arg(args, 0); k.k == KindString {
			kind = k.AsString()
		}
		var out []Value
		for _, r := range triggersOf(c).lifecycle {
			if kind == "" || r.kind == kind {
				out = append(out, recordValue(r))
			}
		}
		return NewListValue(out), nil
	})
	lib.Builtin("trigger_inspect_action_graph", func(c *Call, args []Value) (Value, error) {
		trace := ""
		if k := Arg(args, 0); k.k == KindString {
			trace = k.AsString()
		}
		var out []Value
		for _, r := range triggersOf(c).graph {
			if trace == "" || r.headers["trace_id"] == trace {
				out = append(out, recordValue(r))
			}
		}
		return NewListValue(out), nil
	})
	lib.Builtin("handler_context", func(c *Call, args []Value) (Value, error) {
		tr := triggersOf(c)
		if len(tr.contexts) == 0 {
			return Nil, nil
		}
		x := tr.contexts[len(tr.contexts)-1]
		var replay any
		if x.replayOf != "" {
			replay = x.replayOf
		}
		return goValue(map[string]any{"agent": x.agent, "action": x.action, "trace_id": x.traceID,
			"replay_of_event_id": replay, "autonomy_tier": x.tier, "trigger_event": DictValue(x.event)}), nil
	})
	lib.Builtin("list_providers_native", func(c *Call, args []Value) (Value, error) {
		return goValue(providerCatalog()), nil
	})
	lib.StdModule("std/triggers", map[string]func(c *Call, args []Value) (Value, error){
		"list_providers": func(c *Call, args []Value) (Value, error) { return goValue(providerCatalog()), nil },
		"stream_fork": func(c *Call, args []Value) (Value, error) {
			br := Arg(args, 1)
			if br.k == KindNil {
				br = NewListValue(nil)
			}
			return goValue(map[string]any{"kind": "stream.fork", "source": Arg(args, 0), "branches": br}), nil
		},
		"stream_join": func(c *Call, args []Value) (Value, error) {
			j := Arg(args, 1)
			if j.k == KindNil {
				j = DictValue(NewDict(0))
			}
			return goValue(map[string]any{"kind": "stream.join", "source": Arg(args, 0), "join": j}), nil
		},
		"window_by": func(c *Call, args []Value) (Value, error) {
			return goValue(map[string]any{"kind": "stream.window", "events": Arg(args, 0), "window": Arg(args, 1)}), nil
		},
		"llm_classify": func(c *Call, args []Value) (Value, error) {
			opts := Arg(args, 2)
			if opts.k != KindDict {
				opts = DictValue(NewDict(0))
			}
			cache, _ := opts.AsDict().Get("cache")
			return goValue(map[string]any{"kind": "stream.llm_classify", "input": Arg(args, 0), "labels": Arg(args, 1),
				"cache": cache, "options": opts}), nil
		},
	})
}

// providerCatalog describes the trigger providers this runtime knows:
// the event kinds, the payload schema, the outbound methods, the
// signature scheme its webhooks use and the secrets a binding needs.
func providerCatalog() []any {
	hmacScheme := func(variant, header string, ts, id, tol any, encoding string) map[string]any {
		return map[string]any{"kind": "hmac", "variant": variant, "raw_body": true, "signature_header": header,
			"timestamp_header": ts, "id_header": id, "default_tolerance_secs": tol, "digest": "sha256", "encoding": encoding}
	}
	secret := func(name, ns string, required bool) map[string]any {
		return map[string]any{"name": name, "required": required, "namespace": ns}
	}
	methods := func(names ...string) []any {
		out := []any{}
		for _, n := range names {
			out = append(out, map[string]any{"name": n})
		}
		return out
	}
	entry := func(p string, kinds []string, schema string, outbound []any, sig map[string]any, secrets []any, connector string, variant any) map[string]any {
		if secrets == nil {
			secrets = []any{}
		}
		if outbound == nil {
			outbound = []any{}
		}
		return map[string]any{"provider": p, "kinds": kinds, "schema_name": schema, "outbound_methods": outbound,
			"secret_requirements": secrets, "signature_verification": sig,
			"runtime": map[string]any{"kind": "builtin", "connector": connector, "default_signature_variant": variant}}
	}
	none := map[string]any{"kind": "none"}
	out := []any{
		entry("a2a-push", []string{"a2a-push"}, "A2aPushPayload", nil, none, nil, "a2a-push", nil),
		entry("cron", []string{"cron"}, "CronEventPayload", nil, none, nil, "cron", nil),
		entry("github", []string{"webhook"}, "GitHubEventPayload", nil,
			hmacScheme("github", "X-Hub-Signature-256", nil, "X-GitHub-Delivery", nil, "hex"),
			[]any{secret("signing_secret", "github", true)}, "webhook", "github"),
		entry("linear", []string{"webhook"}, "LinearEventPayload",
			methods("list_issues", "update_issue", "create_comment", "search", "graphql"),
			hmacScheme("linear", "Linear-Signature", nil, "Linear-Delivery", 75, "hex"),
			[]any{secret("signing_secret", "linear", true), secret("access_token", "linear", false)}, "linear", "linear"),
		entry("notion", []string{"webhook", "poll"}, "NotionEventPayload",
			methods("get_page", "update_page", "append_blocks", "query_database", "search", "create_comment", "api_call"),
			hmacScheme("notion", "X-Notion-Signature", nil, nil, nil, "hex"),
			[]any{secret("verification_token", "notion", true)}, "notion", "notion"),
		entry("slack", []string{"webhook"}, "SlackEventPayload",
			methods("post_message", "update_message", "add_reaction", "open_view", "user_info", "api_call", "upload_file"),
			hmacScheme("slack", "X-Slack-Signature", "X-Slack-Request-Timestamp", nil, 300, "hex"),
			[]any{secret("signing_secret", "slack", true)}, "slack", "slack"),
		entry("webhook", []string{"webhook"}, "GenericWebhookPayload", nil,
			hmacScheme("standard", "webhook-signature", "webhook-timestamp", "webhook-id", 300, "base64"),
			[]any{secret("signing_secret", "webhook", true)}, "webhook", "standard"),
	}
	// Stream sources share one ingress connector and payload schema.
	for _, p := range []string{"email", "kafka", "nats", "postgres-cdc", "pulsar", "websocket"} {
		out = append(out, entry(p, []string{"stream"}, "StreamEventPayload", nil, none, nil, "stream", nil))
	}
	return out
}

// ---- the trust graph ----

// trustRecord is one entry of the run's trust graph: an agent's action,
// its outcome and autonomy tier, hash-chained to the entry before it.
type trustRecord struct {
	id, agent, action, outcome, traceID, tier, timestamp, hash string
	approver, cost                                             Value
	index                                                      int
	previous                                                   string
	meta                                                       map[string]any
}

var trustOutcomes = map[string]bool{"success": true, "failure": true, "denied": true, "timeout": true}

func (tr *triggerRuntime) appendTrust(c *Call, agent, action string, approver Value, outcome, traceID, tier string, cost Value, meta map[string]any) *trustRecord {
	if traceID == "" {
		if n := len(tr.contexts); n > 0 {
			traceID = tr.contexts[n-1].traceID
		} else {
			traceID = tr.newID(c, "trace_")
		}
	}
	if meta == nil {
		meta = map[string]any{}
	}
	r := &trustRecord{id: tr.newID(c, "trust_"), agent: agent, action: action, approver: approver, outcome: outcome,
		traceID: traceID, tier: tier, timestamp: c.th.in.host.Now().UTC().Format(time.RFC3339Nano), cost: cost,
		index: len(tr.trust) + 1, meta: meta}
	if n := len(tr.trust); n > 0 {
		r.previous = tr.trust[n-1].hash
	}
	r.hash = r.computeHash()
	tr.trust = append(tr.trust, r)
	return r
}

// computeHash digests the record's fields (all but its own hash) in a
// fixed order, with the previous entry's hash.
func (r *trustRecord) computeHash() string {
	var b strings.Builder
	writeJSON(&b, goValue(map[string]any{"record_id": r.id, "agent": r.agent, "action": r.action, "approver": r.approver,
		"outcome": r.outcome, "trace_id": r.traceID, "autonomy_tier": r.tier, "timestamp": r.timestamp, "cost_usd": r.cost,
		"chain_index": r.index, "previous_hash": r.previous, "metadata": r.meta}), 0)
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func (r *trustRecord) value() Value {
	var prev any
	if r.previous != "" {
		prev = r.previous
	}
	return goValue(map[string]any{"schema": "opentrustgraph/v0", "record_id": r.id, "agent": r.agent, "action": r.action,
		"approver": r.approver, "outcome": r.outcome, "trace_id": r.traceID, "autonomy_tier": r.tier,
		"timestamp": r.timestamp, "cost_usd": r.cost, "chain_index": r.index, "previous_hash": prev,
		"entry_hash": r.hash, "metadata": r.meta})
}

// policyForTier is the capability policy an autonomy tier grants.
func policyForTier(tier string) map[string]any {
	level := map[string]string{"shadow": "none", "suggest": "read_only", "act_with_approval": "read_only", "act_auto": "network"}[tier]
	var recursion any
	if tier == "shadow" {
		recursion = 0
	}
	return map[string]any{"tools": []any{}, "capabilities": map[string]any{}, "workspace_roots": []any{},
		"side_effect_level": level, "recursion_limit": recursion, "tool_arg_constraints": []any{}, "tool_annotations": map[string]any{}}
}

func (tr *triggerRuntime) score(agent, action string) map[string]any {
	var total, succ, fail, denied, timeouts int
	var latest, latestAt any
	for _, r := range tr.trust {
		if r.agent != agent || (action != "" && r.action != action) {
			continue
		}
		total++
		switch r.outcome {
		case "success":
			succ++
		case "failure":
			fail++
		case "denied":
			denied++
		case "timeout":
			timeouts++
		}
		latest, latestAt = r.outcome, r.timestamp
	}
	rate := 0.0
	if total > 0 {
		rate = float64(succ) / float64(total)
	}
	tier := tr.effectiveTier(agent, "act_auto")
	policy := policyForTier(tier)
	if latest == "denied" || latest == "failure" || latest == "timeout" || (total >= 3 && rate < 0.5) {
		policy["side_effect_level"] = "read_only"
	}
	var act any
	if action != "" {
		act = action
	}
	return map[string]any{"agent": agent, "action": act, "total": total, "successes": succ, "failures": fail,
		"denied": denied, "timeouts": timeouts, "success_rate": rate, "latest_outcome": latest,
		"latest_timestamp": latestAt, "effective_tier": tier, "policy": policy}
}

func trustArgs(fn string, outcome, tier string) error {
	if !trustOutcomes[outcome] {
		return plainError(fn + ": unknown outcome `" + outcome + "` (expected success, failure, denied or timeout)")
	}
	if !autonomyTiers[tier] {
		return plainError(fn + ": unknown autonomy tier `" + tier + "`")
	}
	return nil
}

func installTrust(lib *Library) {
	lib.Builtin("trust_record", func(c *Call, args []Value) (Value, error) {
		agent, action := Display(Arg(args, 0)), Display(Arg(args, 1))
		outcome, tier := Display(Arg(args, 3)), Display(Arg(args, 4))
		if agent == "" || action == "" {
			return Nil, plainError("trust_record: agent and action are required")
		}
		if err := trustArgs("trust_record", outcome, tier); err != nil {
			return Nil, err
		}
		return triggersOf(c).appendTrust(c, agent, action, Arg(args, 2), outcome, "", tier, Nil, nil).value(), nil
	})
	lib.Builtin("trust_graph_record", func(c *Call, args []Value) (Value, error) {
		d := Arg(args, 0)
		if d.k != KindDict {
			return Nil, plainError("trust_graph_record: expected decision dict")
		}
		dd := d.AsDict()
		outcome, tier := harnessOpt(dd, "outcome", "success"), harnessOpt(dd, "autonomy_tier", "act_auto")
		if err := trustArgs("trust_graph_record", outcome, tier); err != nil {
			return Nil, err
		}
		approver, _ := dd.Get("approver")
		cost, _ := dd.Get("cost_usd")
		meta := map[string]any{}
		if m, ok := dd.Get("metadata"); ok && m.k == KindDict {
			for _, k := range m.AsDict().Keys() {
				meta[k], _ = m.AsDict().Get(k)
			}
		}
		r := triggersOf(c).appendTrust(c, OptStr(dd, "agent"), OptStr(dd, "action"), approver, outcome, OptStr(dd, "trace_id"), tier, cost, meta)
		return Str(r.id), nil
	})
	lib.Builtin("trust_query", func(c *Call, args []Value) (Value, error) {
		tr := triggersOf(c)
		f := NewDict(0)
		if a := Arg(args, 0); a.k == KindDict {
			f = a.AsDict()
		}
		var recs []*trustRecord
		for _, r := range tr.trust {
			switch {
			case OptStr(f, "agent") != "" && r.agent != OptStr(f, "agent"),
				OptStr(f, "action") != "" && r.action != OptStr(f, "action"),
				OptStr(f, "outcome") != "" && r.outcome != OptStr(f, "outcome"),
				OptStr(f, "tier") != "" && r.tier != OptStr(f, "tier"),
				OptStr(f, "since") != "" && r.timestamp < OptStr(f, "since"),
				OptStr(f, "until") != "" && r.timestamp > OptStr(f, "until"):
				continue
			}
			recs = append(recs, r)
		}
		if n := harnessInt(f, "limit", -1); n >= 0 && int64(len(recs)) > n {
			recs = recs[int64(len(recs))-n:]
		}
		if g, ok := f.Get("grouped_by_trace"); ok && g.Truthy() {
			var order []string
			groups := map[string][]Value{}
			for _, r := range recs {
				if _, seen := groups[r.traceID]; !seen {
					order = append(order, r.traceID)
				}
				groups[r.traceID] = append(groups[r.traceID], r.value())
			}
			out := make([]Value, len(order))
			for i, t := range order {
				out[i] = goValue(map[string]any{"trace_id": t, "records": NewListValue(groups[t])})
			}
			return NewListValue(out), nil
		}
		out := make([]Value, len(recs))
		for i, r := range recs {
			out[i] = r.value()
		}
		return NewListValue(out), nil
	})
	lib.Builtin("trust_graph_query", func(c *Call, args []Value) (Value, error) {
		agent := Arg(args, 0)
		if agent.k != KindString {
			return Nil, plainError("trust_graph_query: `agent` must be a string")
		}
		action := ""
		if a := Arg(args, 1); a.k == KindString {
			action = a.AsString()
		}
		return goValue(triggersOf(c).score(agent.AsString(), action)), nil
	})
	lib.Builtin("trust_graph_policy_for", func(c *Call, args []Value) (Value, error) {
		agent := Arg(args, 0)
		if agent.k != KindString {
			return Nil, plainError("trust_graph_policy_for: `agent` must be a string")
		}
		return goValue(triggersOf(c).score(agent.AsString(), "")["policy"]), nil
	})
	lib.Builtin("trust_graph_verify_chain", func(c *Call, args []Value) (Value, error) {
		tr := triggersOf(c)
		var errs []string
		var broken any
		prev := ""
		for i, r := range tr.trust {
			if r.index != i+1 {
				errs = append(errs, fmt.Sprintf("entry %d: expected chain_index %d, found %d", i+1, i+1, r.index))
			}
			if r.previous != prev {
				errs = append(errs, fmt.Sprintf("entry %d: previous_hash mismatch", i+1))
			}
			if h := r.computeHash(); h != r.hash {
				errs = append(errs, fmt.Sprintf("entry %d: entry_hash mismatch; expected %s, found %s", i+1, h, r.hash))
			}
			if len(errs) > 0 && broken == nil {
				broken = i + 1
			}
			prev = r.hash
		}
		var root any
		if n := len(tr.trust); n > 0 {
			root = tr.trust[n-1].hash
		}
		if errs == nil {
			errs = []string{}
		}
		return goValue(map[string]any{"topic": "trust_graph", "total": len(tr.trust), "verified": len(errs) == 0,
			"root_hash": root, "broken_at_event_id": broken, "errors": errs}), nil
	})
}
