package ai

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
)

// The generic trace event shape every *_event projection returns
// (upstream Leia's, from its own source), and the script-side trace
// helpers over it: llm.trace_event(spec), llm.trace_envelope(events,
// opts), llm.trace_summary(envelope_or_events) and llm.trace_assert(input,
// opts), each also in camelCase. They build and inspect ordinary tables
// only: nothing is persisted, redacted after the fact, or sent to a host
// trace sink (that is rt.Emit's job, for the runtime's own events).
//
// An event is {schema_version, trace_id, event_id, event_type, type,
// sequence, timestamp_ms, status, provider_free, live_network,
// live_model, credentials_required, real_dependency_imports,
// correlation, redaction, replay, payload}. correlation carries trace_id,
// event_id and the correlation fields below; redaction says what was not
// stored; replay says how the event relates to fixtures.

// correlationFields are the ids an event's correlation table may carry
// besides trace_id and event_id.
var correlationFields = []string{"parent_event_id", "turn_id", "tool_call_id", "workflow_run_id",
	"workflow_step_id", "agent_run_id", "approval_id", "replay_session_id", "correlation_id"}

// replayModeFixture is the replay mode of provider-free events.
const replayModeFixture = "fixture_replay"

// traceFlags are the boolean provenance flags of events and envelopes,
// with their defaults.
var traceFlags = []struct {
	name string
	def  bool
}{{"provider_free", true}, {"live_network", false}, {"live_model", false},
	{"credentials_required", false}, {"real_dependency_imports", false}}

// TraceEvent normalizes src into the generic trace event shape (the
// table llm.trace_event returns). The timestamp, when src gives none, is
// the host clock's.
func (rt *Runtime) TraceEvent(src leia.Value) leia.Value {
	out := leia.NewTable(0, 20)
	traceID := optString(src, "trace_id", "trace")
	seq := optInt(src, "sequence", 1)
	eventType := optString(src, "event_type", optString(src, "type", "event"))
	eventID := optString(src, "event_id", fmt.Sprintf("%s:event:%d", traceID, seq))
	out.SetStr("schema_version", leia.Int(optInt(src, "schema_version", 1)))
	out.SetStr("trace_id", leia.String(traceID))
	out.SetStr("event_id", leia.String(eventID))
	out.SetStr("event_type", leia.String(eventType))
	out.SetStr("type", leia.String(eventType))
	out.SetStr("sequence", leia.Int(seq))
	out.SetStr("timestamp_ms", leia.Int(optInt(src, "timestamp_ms", rt.now().UTC().UnixMilli())))
	out.SetStr("status", leia.String(optString(src, "status", "ok")))
	for _, f := range traceFlags {
		out.SetStr(f.name, leia.Bool(optBool(src, f.name, f.def)))
	}
	out.SetStr("correlation", correlationOf(src, traceID, eventID))
	out.SetStr("redaction", redactionOf(src))
	out.SetStr("replay", replayOf(src))
	payload := Field(src, "payload")
	if payload.Table() != nil {
		payload = deepClone(payload)
	} else {
		payload = leia.TableValue(leia.NewTable(0, 0))
	}
	out.SetStr("payload", payload)
	return leia.TableValue(out)
}

func correlationOf(src leia.Value, traceID, eventID string) leia.Value {
	c := leia.NewTable(0, 4)
	if existing := Field(src, "correlation"); existing.Table() != nil {
		c = deepClone(existing).Table()
	}
	cv := leia.TableValue(c)
	c.SetStr("trace_id", leia.String(optString(cv, "trace_id", traceID)))
	c.SetStr("event_id", leia.String(optString(cv, "event_id", eventID)))
	for _, f := range correlationFields {
		setIfAbsent(c, f, src)
	}
	return cv
}

func redactionOf(src leia.Value) leia.Value {
	if r := Field(src, "redaction"); r.Table() != nil {
		return deepClone(r)
	}
	return T("policy", optString(src, "redaction_policy", "no_raw_payload"),
		"secret_values_present", false, "raw_prompt_stored", false, "raw_completion_stored", false)
}

func replayOf(src leia.Value) leia.Value {
	if r := Field(src, "replay"); r.Table() != nil {
		return deepClone(r)
	}
	r := leia.NewTable(0, 8)
	r.SetStr("mode", leia.String(optString(src, "replay_mode", replayModeFixture)))
	r.SetStr("provider_free", leia.Bool(optBool(src, "provider_free", true)))
	r.SetStr("deterministic", leia.Bool(optBool(src, "deterministic", true)))
	r.SetStr("created_from_provider", leia.Bool(optBool(src, "created_from_provider", false)))
	setEach(r, []string{"replay_key", "request_hash", "response_hash", "record_id", "fixture_key"}, src)
	return leia.TableValue(r)
}

// projectEvent is the shared body of the *_event projections: the
// caller's options (trace_id, sequence, correlation ids, ...) with the
// event type and status defaulted, the provenance flags read from the
// options, correlation ids taken from the projected table when the
// options do not set them, and the given payload.
func (rt *Runtime) projectEvent(opts leia.Value, eventType, status string, from leia.Value, correlationDefault leia.Value, payload *leia.Table) leia.Value {
	src := deepClone(opts).Table()
	if src == nil {
		src = leia.NewTable(0, 8)
	}
	src.SetStr("event_type", leia.String(optString(opts, "event_type", eventType)))
	src.SetStr("status", leia.String(optString(opts, "status", status)))
	for _, f := range traceFlags {
		src.SetStr(f.name, leia.Bool(optBool(opts, f.name, f.def)))
	}
	for _, f := range correlationFields {
		setIfAbsent(src, f, from)
	}
	if src.GetStr("correlation_id").IsNil() && !correlationDefault.IsNil() {
		src.SetStr("correlation_id", correlationDefault)
	}
	src.SetStr("payload", leia.TableValue(payload))
	return rt.TraceEvent(leia.TableValue(src))
}

// TraceEnvelope wraps events (each normalized, trace_id and sequence
// defaulted from the envelope) in the generic envelope.
func (rt *Runtime) TraceEnvelope(events, opts leia.Value) leia.Value {
	out := leia.NewTable(0, 12)
	traceID := optString(opts, "trace_id", "trace")
	out.SetStr("schema_version", leia.Int(optInt(opts, "schema_version", 1)))
	out.SetStr("kind", leia.String(optString(opts, "kind", "generic_ai_trace_envelope")))
	out.SetStr("trace_id", leia.String(traceID))
	for _, f := range traceFlags {
		out.SetStr(f.name, leia.Bool(optBool(opts, f.name, f.def)))
	}
	out.SetStr("trace_envelope_schema", T(
		"name", "generic_ai_trace_event", "version", 1,
		"required_fields", StringList([]string{"schema_version", "trace_id", "event_id", "event_type",
			"timestamp_ms", "sequence", "status", "correlation", "payload"}),
		"correlation_id_fields", StringList(append([]string{"trace_id", "event_id"}, correlationFields...))))
	list := newList()
	for i, ev := range Items(events) {
		if ev.Table() == nil {
			continue
		}
		e := deepClone(ev).Table()
		if e.GetStr("trace_id").IsNil() {
			e.SetStr("trace_id", leia.String(traceID))
		}
		if e.GetStr("sequence").IsNil() {
			e.SetStr("sequence", leia.Int(int64(i+1)))
		}
		appendTo(list, rt.TraceEvent(leia.TableValue(e)))
	}
	out.SetStr("events", leia.TableValue(list))
	out.SetStr("redaction", redactionOf(opts))
	return leia.TableValue(out)
}

// traceEvents are an envelope's events, or the input itself as a list.
func traceEvents(input leia.Value) []leia.Value {
	if ev := Field(input, "events"); ev.Table() != nil {
		return Items(ev)
	}
	return Items(input)
}

func eventTypeOf(ev leia.Value) string {
	return optString(ev, "event_type", optString(ev, "type", ""))
}

// TraceSummary counts an envelope's (or event list's) events.
func TraceSummary(input leia.Value) leia.Value {
	events := traceEvents(input)
	out := leia.NewTable(0, 16)
	out.SetStr("trace_id", leia.String(optString(input, "trace_id", "")))
	out.SetStr("events", leia.Int(int64(len(events))))
	types, keys, counts := newList(), newList(), leia.NewTable(0, 4)
	seenType, seenKey := map[string]bool{}, map[string]bool{}
	var missing, gaps, nonMono, lastSeq, lastTS int64
	for i, ev := range events {
		if ev.Table() == nil {
			continue
		}
		if et := eventTypeOf(ev); et != "" && !seenType[et] {
			seenType[et] = true
			appendTo(types, leia.String(et))
		}
		st := optString(ev, "status", "ok")
		counts.SetStr(st, leia.Int(optInt(leia.TableValue(counts), st, 0)+1))
		if i == 0 {
			out.SetStr("first_event_id", deepClone(Field(ev, "event_id")))
		}
		out.SetStr("last_event_id", deepClone(Field(ev, "event_id")))
		if Field(ev, "correlation").Table() == nil {
			missing++
		}
		seq := optInt(ev, "sequence", int64(i+1))
		if lastSeq != 0 && seq != lastSeq+1 {
			gaps++
		}
		lastSeq = seq
		if ts := optInt(ev, "timestamp_ms", 0); ts != 0 {
			if lastTS != 0 && ts < lastTS {
				nonMono++
			}
			lastTS = ts
		}
		if k := optString(Field(ev, "replay"), "replay_key", ""); k != "" && !seenKey[k] {
			seenKey[k] = true
			appendTo(keys, leia.String(k))
		}
	}
	out.SetStr("event_types", leia.TableValue(types))
	out.SetStr("replay_keys", leia.TableValue(keys))
	out.SetStr("status_counts", leia.TableValue(counts))
	out.SetStr("missing_correlation", leia.Int(missing))
	out.SetStr("sequence_gaps", leia.Int(gaps))
	out.SetStr("non_monotonic_timestamps", leia.Int(nonMono))
	for _, f := range traceFlags {
		out.SetStr(f.name, leia.Bool(optBool(input, f.name, f.def)))
	}
	return leia.TableValue(out)
}

// redactionChecks are trace_assert's deny_* options: the options that
// enable a check, the redaction field it reads, the finding kind.
var redactionChecks = []struct {
	options []string
	field   string
}{
	{[]string{"deny_secret_values", "deny_secret_values_present"}, "secret_values_present"},
	{[]string{"deny_raw_prompt_stored"}, "raw_prompt_stored"},
	{[]string{"deny_raw_completion_stored"}, "raw_completion_stored"},
}

// TraceAssert checks a trace against opts and returns {ok, status,
// summary, findings}; findings are {kind, message}.
func TraceAssert(input, opts leia.Value) leia.Value {
	summary := TraceSummary(input)
	events := traceEvents(input)
	findings := newList()
	add := func(kind, msg string) { appendTo(findings, T("kind", "generic.ai.trace."+kind, "message", msg)) }
	if optBool(opts, "require_provider_free", false) && !Field(summary, "provider_free").Truthy() {
		add("provider_not_free", "trace provider_free must be true")
	}
	for _, deny := range []string{"live_network", "live_model", "credentials_required"} {
		if optBool(opts, "deny_"+deny, false) && Field(summary, deny).Truthy() {
			add(deny, "trace "+deny+" must be false")
		}
	}
	types := map[string]bool{}
	for _, t := range Strings(Field(summary, "event_types")) {
		types[t] = true
	}
	for _, want := range stringItems(Field(opts, "required_event_types")) {
		if !types[want] {
			add("missing_event_type", fmt.Sprintf("trace missing event_type %q", want))
		}
	}
	required := stringItems(Field(opts, "require_correlation_fields"))
	global := stringItems(Field(opts, "require_payload_fields"))
	byType := Field(opts, "require_event_payload_fields")
	if byType.Table() == nil {
		byType = Field(opts, "required_payload_fields_by_event_type")
	}
	denyAny := false
	for _, c := range redactionChecks {
		for _, o := range c.options {
			denyAny = denyAny || optBool(opts, o, false)
		}
	}
	for i, ev := range events {
		if ev.Table() == nil {
			continue
		}
		id := optString(ev, "event_id", fmt.Sprintf("event:%d", i+1))
		et := eventTypeOf(ev)
		corr := Field(ev, "correlation")
		for _, f := range required {
			if optString(corr, f, "") == "" {
				add("missing_correlation", fmt.Sprintf("%s missing correlation field %q", id, f))
			}
		}
		payload := Field(ev, "payload")
		fields := global
		if et != "" {
			fields = append(append([]string(nil), global...), stringItems(Field(byType, et))...)
		}
		for _, f := range fields {
			if Field(payload, f).IsNil() {
				add("missing_payload_field", fmt.Sprintf("%s event_type %q missing payload field %q", id, et, f))
			}
		}
		if !denyAny {
			continue
		}
		red := Field(ev, "redaction")
		for _, c := range redactionChecks {
			on := false
			for _, o := range c.options {
				on = on || optBool(opts, o, false)
			}
			if on && Field(red, c.field).Truthy() {
				add(c.field, fmt.Sprintf("%s event_type %q redaction.%s must be false", id, et, c.field))
			}
		}
	}
	counts := Field(summary, "status_counts")
	if req := Field(opts, "require_status_counts"); req.Table() != nil {
		for _, st := range Keys(req) {
			want, got := IntOf(Field(req, st)), optInt(counts, st, 0)
			if got < want {
				add("status_count_below_minimum", fmt.Sprintf("trace status %q count %d is below the required %d", st, got, want))
			}
		}
	}
	limit := Field(opts, "limit_status_counts")
	if limit.Table() == nil {
		limit = Field(opts, "max_status_counts")
	}
	if limit.Table() != nil {
		for _, st := range Keys(limit) {
			max, got := IntOf(Field(limit, st)), optInt(counts, st, 0)
			if got > max {
				add("status_count_above_limit", fmt.Sprintf("trace status %q count %d is above the limit %d", st, got, max))
			}
		}
	}
	ok := findings.Len() == 0
	status := "ok"
	if !ok {
		status = "failed"
	}
	return T("ok", ok, "status", status, "summary", summary, "findings", leia.TableValue(findings))
}

// traceFamily is the llm module's natives from this file (see families).
func traceFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		src, err := needTable(a, 0, "llm.trace_event", "table")
		if err != nil {
			return nil, err
		}
		return t.Ret1(rt.TraceEvent(src)), nil
	}, "trace_event")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		events, err := needTable(a, 0, "llm.trace_envelope", "events table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.trace_envelope", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(rt.TraceEnvelope(events, opts)), nil
	}, "trace_envelope")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		in, err := needTable(a, 0, "llm.trace_summary", "trace envelope or events table")
		if err != nil {
			return nil, err
		}
		return t.Ret1(TraceSummary(in)), nil
	}, "trace_summary")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		in, err := needTable(a, 0, "llm.trace_assert", "trace envelope or events table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.trace_assert", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(TraceAssert(in, opts)), nil
	}, "trace_assert")
	return m
}
