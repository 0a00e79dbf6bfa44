package ai

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
)

// The generic trace event shape every *_event projection of the part-3
// families returns (upstream Leia's: memory, evidence, policy, budget,
// approval, tool and checkpoint events). Building one persists nothing
// and sends nothing to a host trace sink (that is rt.Emit's job, for the
// runtime's own events).
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

// TraceEvent normalizes src into the generic trace event shape. The
// timestamp, when src gives none, is
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
