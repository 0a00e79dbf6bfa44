package ai

import (
	"fmt"
	"sort"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Script-level trace evidence, provider-free: programs build, summarize
// and assert on ordinary trace tables without a host trace sink. These
// helpers never persist telemetry, redact content or call a provider;
// they read and build tables.
//
//	llm.trace_event(spec)              one event: {kind: "trace_event", version: "trace_event.v1",
//	                                   trace_id, event_id, event_type, status, replay_key, request_hash,
//	                                   response_hash, payload, provider_free, live_network, redaction}
//	llm.trace_envelope(events, opts)   {kind: "trace_envelope", version: "trace_envelope.v1", trace_id,
//	                                   events, event_count, provider_free, live_network}
//	llm.trace_summary(x)               deterministic counts, ordered types, replay keys, status counts,
//	                                   ordering and correlation findings
//	llm.trace_assert(x, opts)          {ok, status: passed|failed, summary, findings}

func init() {
	Register("llm", func(rt *Runtime) map[string]leia.NativeFunc {
		return map[string]leia.NativeFunc{
			"trace_event": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				spec := leia.Arg(a, 0)
				if spec.Table() == nil {
					return nil, fmt.Errorf("bad argument #1 to 'llm.trace_event' (table expected)")
				}
				return t.Ret1(TraceEventValue(spec, 0)), nil
			},
			"trace_envelope": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				events := leia.Arg(a, 0)
				if events.Table() == nil {
					return nil, fmt.Errorf("bad argument #1 to 'llm.trace_envelope' (event list expected)")
				}
				return t.Ret1(traceEnvelope(events, leia.Arg(a, 1))), nil
			},
			"trace_summary": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				if leia.Arg(a, 0).Table() == nil {
					return nil, fmt.Errorf("bad argument #1 to 'llm.trace_summary' (envelope or event list expected)")
				}
				s, _ := traceSummary(t, traceEvents(a[0]))
				return t.Ret1(s), nil
			},
			"trace_assert": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				if leia.Arg(a, 0).Table() == nil {
					return nil, fmt.Errorf("bad argument #1 to 'llm.trace_assert' (envelope or event list expected)")
				}
				return t.Ret1(traceAssert(t, traceEvents(a[0]), leia.Arg(a, 1))), nil
			},
		}
	})
}

// redactionFlags are the redaction states an event records.
var redactionFlags = []string{"secret_values_present", "raw_prompt_stored", "raw_completion_stored"}

// TraceEventValue builds a trace event from a spec; seq numbers an event
// without an event_id (0: none).
func TraceEventValue(spec leia.Value, seq int) leia.Value {
	typ := StrField(spec, "event_type")
	if typ == "" {
		typ = StrField(spec, "type")
	}
	ev := T("kind", "trace_event", "schema_version", 1, "version", "trace_event.v1",
		"trace_id", Field(spec, "trace_id"), "event_id", Field(spec, "event_id"), "parent_id", Field(spec, "parent_id"),
		"event_type", typ, "status", Field(spec, "status"), "replay_key", Field(spec, "replay_key"),
		"request_hash", Field(spec, "request_hash"), "response_hash", Field(spec, "response_hash"))
	if seq > 0 && Field(ev, "event_id").IsNil() {
		ev.Table().SetStr("event_id", leia.String(fmt.Sprintf("evt-%d", seq)))
	}
	payload := Field(spec, "payload")
	if payload.Table() == nil {
		payload = T()
	}
	ev.Table().SetStr("payload", payload)
	pf := Field(spec, "provider_free")
	ev.Table().SetStr("provider_free", leia.Bool(pf.IsNil() || pf.Truthy()))
	ev.Table().SetStr("live_network", leia.Bool(Field(spec, "live_network").Truthy()))
	red := leia.NewTable(0, 3)
	for _, f := range redactionFlags {
		v := Field(Field(spec, "redaction"), f)
		if v.IsNil() {
			v = Field(spec, f)
		}
		red.SetStr(f, leia.Bool(v.Truthy()))
	}
	ev.Table().SetStr("redaction", leia.TableValue(red))
	return ev
}

func traceEnvelope(events, opts leia.Value) leia.Value {
	var list []leia.Value
	provFree, live := true, false
	traceID := StrField(opts, "trace_id")
	for i, e := range Items(events) {
		if StrField(e, "kind") != "trace_event" {
			e = TraceEventValue(e, i+1)
		}
		if traceID == "" {
			traceID = StrField(e, "trace_id")
		}
		provFree = provFree && Field(e, "provider_free").Truthy()
		live = live || Field(e, "live_network").Truthy()
		list = append(list, e)
	}
	return T("kind", "trace_envelope", "schema_version", 1, "version", "trace_envelope.v1", "trace_id", traceID,
		"events", List(list...), "event_count", len(list), "provider_free", provFree, "live_network", live)
}

// traceEvents reads an envelope's events or an event list.
func traceEvents(x leia.Value) []leia.Value {
	if ev := Field(x, "events"); ev.Table() != nil {
		return Items(ev)
	}
	return Items(x)
}

// traceSummary summarizes events; the findings are ordering and
// correlation problems.
func traceSummary(t *leia.Thread, events []leia.Value) (leia.Value, []leia.Value) {
	counts := map[string]int{}
	statuses := map[string]int{}
	var types, keys []leia.Value
	seenKey := map[string]bool{}
	var findings []leia.Value
	traceID := ""
	seenID := map[string]bool{}
	for i, e := range events {
		typ := StrField(e, "event_type")
		if typ == "" {
			typ = StrField(e, "type")
		}
		if typ == "" {
			findings = append(findings, finding("missing_event_type", fmt.Sprintf("event %d has no event_type", i+1), i+1, ""))
		}
		counts[typ]++
		types = append(types, leia.String(typ))
		if s := StrField(e, "status"); s != "" {
			statuses[s]++
		}
		if k := StrField(e, "replay_key"); k != "" && !seenKey[k] {
			seenKey[k] = true
			keys = append(keys, leia.String(k))
		}
		if id := StrField(e, "trace_id"); id != "" {
			if traceID == "" {
				traceID = id
			} else if id != traceID {
				findings = append(findings, finding("trace_id_mismatch", fmt.Sprintf("event %d belongs to trace %q, not %q", i+1, id, traceID), i+1, typ))
			}
		}
		if id := StrField(e, "event_id"); id != "" {
			if seenID[id] {
				findings = append(findings, finding("duplicate_event_id", fmt.Sprintf("event %d repeats event_id %q", i+1, id), i+1, typ))
			}
			seenID[id] = true
		}
		if p := StrField(e, "parent_id"); p != "" && !seenID[p] {
			findings = append(findings, finding("parent_not_before", fmt.Sprintf("event %d names parent %q, which does not come before it", i+1, p), i+1, typ))
		}
	}
	s := T("kind", "trace_summary", "event_count", len(events), "event_types", List(types...), "counts", countTable(counts),
		"status_counts", countTable(statuses), "replay_keys", List(keys...), "trace_id", traceID,
		"ordering", T("ok", len(findings) == 0, "findings", List(findings...)))
	return s, findings
}

func countTable(m map[string]int) leia.Value {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t := leia.NewTable(0, len(keys))
	for _, k := range keys {
		t.SetStr(k, leia.Int(int64(m[k])))
	}
	return leia.TableValue(t)
}

func finding(code, message string, index int, typ string) leia.Value {
	f := T("code", code, "message", message)
	if index > 0 {
		f.Table().SetStr("event_index", leia.Int(int64(index)))
	}
	if typ != "" {
		f.Table().SetStr("event_type", leia.String(typ))
	}
	return f
}

func traceAssert(t *leia.Thread, events []leia.Value, opts leia.Value) leia.Value {
	summary, findings := traceSummary(t, events)
	add := func(code, msg string, i int, typ string) { findings = append(findings, finding(code, msg, i, typ)) }
	evType := func(e leia.Value) string {
		if s := StrField(e, "event_type"); s != "" {
			return s
		}
		return StrField(e, "type")
	}
	if Field(opts, "require_provider_free").Truthy() {
		for i, e := range events {
			if pf := Field(e, "provider_free"); !pf.IsNil() && !pf.Truthy() {
				add("provider_required", fmt.Sprintf("event %d is not provider-free", i+1), i+1, evType(e))
			}
		}
	}
	if Field(opts, "deny_live_network").Truthy() {
		for i, e := range events {
			if Field(e, "live_network").Truthy() {
				add("live_network", fmt.Sprintf("event %d used the live network", i+1), i+1, evType(e))
			}
		}
	}
	counts := Field(summary, "counts")
	for _, typ := range Strings(Field(opts, "required_event_types")) {
		if IntOf(Field(counts, typ)) == 0 {
			add("missing_event_type", "no "+typ+" event", 0, typ)
		}
	}
	for _, field := range Strings(Field(opts, "require_correlation_fields")) {
		for i, e := range events {
			if Field(e, field).IsNil() {
				add("missing_correlation_field", fmt.Sprintf("event %d has no %s", i+1, field), i+1, evType(e))
			}
		}
	}
	allFields := append(Strings(Field(opts, "require_payload_fields")), Strings(Field(opts, "require_event_payload_fields"))...)
	for _, field := range allFields {
		for i, e := range events {
			if Field(Field(e, "payload"), field).IsNil() {
				add("missing_payload_field", fmt.Sprintf("event %d payload has no %s", i+1, field), i+1, evType(e))
			}
		}
	}
	byType := Field(opts, "required_payload_fields_by_event_type")
	if byType.IsNil() {
		if rf := Field(opts, "require_event_payload_fields"); rf.Table() != nil && len(Items(rf)) == 0 {
			byType = rf
		}
	}
	for _, typ := range Keys(byType) {
		for i, e := range events {
			if evType(e) != typ {
				continue
			}
			for _, field := range Strings(Field(byType, typ)) {
				if Field(Field(e, "payload"), field).IsNil() {
					add("missing_payload_field", fmt.Sprintf("event %d (%s) payload has no %s", i+1, typ, field), i+1, typ)
				}
			}
		}
	}
	statuses := Field(summary, "status_counts")
	for _, st := range Keys(Field(opts, "require_status_counts")) {
		want := IntOf(Field(Field(opts, "require_status_counts"), st))
		if got := IntOf(Field(statuses, st)); got < want {
			add("status_count_below", fmt.Sprintf("%d %s events, want at least %d", got, st, want), 0, "")
		}
	}
	limits := Field(opts, "limit_status_counts")
	if limits.IsNil() {
		limits = Field(opts, "max_status_counts")
	}
	for _, st := range Keys(limits) {
		limit := IntOf(Field(limits, st))
		if got := IntOf(Field(statuses, st)); got > limit {
			add("status_count_above", fmt.Sprintf("%d %s events, want at most %d", got, st, limit), 0, "")
		}
	}
	deny := map[string]bool{
		"secret_values_present": Field(opts, "deny_secret_values_present").Truthy() || Field(opts, "deny_secret_values").Truthy(),
		"raw_prompt_stored":     Field(opts, "deny_raw_prompt_stored").Truthy(),
		"raw_completion_stored": Field(opts, "deny_raw_completion_stored").Truthy(),
	}
	for _, flag := range redactionFlags {
		if !deny[flag] {
			continue
		}
		for i, e := range events {
			if Field(Field(e, "redaction"), flag).Truthy() || Field(e, flag).Truthy() {
				add(flag, fmt.Sprintf("event %d has %s", i+1, flag), i+1, evType(e))
			}
		}
	}
	status := "passed"
	if len(findings) > 0 {
		status = "failed"
	}
	return T("ok", len(findings) == 0, "status", status, "summary", summary, "findings", List(findings...), "finding_count", len(findings))
}
