package ai

import (
	"github.com/harnlang/harn-check/runtime/leia"
)

// Approval replay traces: llm.approval_trace({token, pending, approval,
// result, policy}) records a human decision as portable audit data
// {kind: "approval_replay_trace", version: "approval_replay.v1", token?,
// pending?, approval?, result?, policy, decision?}; decision.status is
// approved when approval.ok is truthy, else denied (with the approver's
// reason). llm.approval_trace_event(trace, opts) projects it into the
// generic trace event shape (type approval_replay_trace unless
// opts.event_type says otherwise) with identity and summary fields only:
// never the token, the pending call's arguments, the result's values or
// the approver's free-text reason. Neither resumes anything nor touches
// an approval store (loop.resume does the resuming).

// ApprovalTrace builds the approval replay trace.
func ApprovalTrace(src leia.Value) leia.Value {
	out := leia.NewTable(0, 8)
	out.SetStr("kind", leia.String("approval_replay_trace"))
	out.SetStr("version", leia.String("approval_replay.v1"))
	setEach(out, []string{"token", "pending", "approval", "result"}, src)
	if p := Field(src, "policy"); p.Table() != nil {
		out.SetStr("policy", deepClone(p))
	} else {
		out.SetStr("policy", NewPolicy(leia.Nil))
	}
	if a := out.GetStr("approval"); a.Table() != nil {
		d := leia.NewTable(0, 2)
		if Field(a, "ok").Truthy() {
			d.SetStr("status", leia.String("approved"))
		} else {
			d.SetStr("status", leia.String("denied"))
		}
		if r := Field(a, "reason"); !r.IsNil() {
			d.SetStr("reason", r)
		}
		out.SetStr("decision", leia.TableValue(d))
	}
	return leia.TableValue(out)
}

func decisionStatus(trace leia.Value) string {
	if d := Field(trace, "decision"); d.Table() != nil {
		return optString(d, "status", "denied")
	}
	if Field(Field(trace, "approval"), "ok").Truthy() {
		return "approved"
	}
	return "denied"
}

// approvalRequest is the call an approval was about.
func approvalRequest(trace leia.Value) leia.Value {
	if p := Field(trace, "pending"); p.Table() != nil {
		return p
	}
	return Field(trace, "request")
}

// approvalEvent projects an approval trace.
func (rt *Runtime) approvalEvent(trace, opts leia.Value) leia.Value {
	status := decisionStatus(trace)
	src := deepClone(opts).Table()
	if src == nil {
		src = leia.NewTable(0, 8)
	}
	sv := leia.TableValue(src)
	src.SetStr("event_type", leia.String(optString(opts, "event_type", "approval_replay_trace")))
	src.SetStr("status", leia.String(optString(opts, "status", status)))
	for _, f := range traceFlags {
		src.SetStr(f.name, leia.Bool(optBool(opts, f.name, optBool(trace, f.name, f.def))))
	}
	req := approvalRequest(trace)
	for _, p := range [][2]string{{"request_id", "tool_call_id"}, {"id", "tool_call_id"}, {"turn_id", "turn_id"},
		{"workflow_run_id", "workflow_run_id"}, {"workflow_step_id", "workflow_step_id"}, {"agent_run_id", "agent_run_id"}} {
		if src.GetStr(p[1]).IsNil() {
			if v := Field(req, p[0]); isScalar(v) {
				src.SetStr(p[1], v)
			}
		}
	}
	for _, from := range []string{"approval", "decision"} {
		if src.GetStr("approval_id").IsNil() {
			if v := Field(Field(trace, from), "approval_id"); isScalar(v) {
				src.SetStr("approval_id", v)
			}
		}
	}
	if fk := Field(trace, "fixture_key"); isScalar(fk) && src.GetStr("replay_session_id").IsNil() {
		src.SetStr("replay_session_id", fk)
	}
	if src.GetStr("correlation_id").IsNil() {
		if v := src.GetStr("tool_call_id"); !v.IsNil() {
			src.SetStr("correlation_id", v)
		} else if v := src.GetStr("approval_id"); !v.IsNil() {
			src.SetStr("correlation_id", v)
		}
	}
	replay := leia.NewTable(0, 8)
	replay.SetStr("mode", leia.String(optString(opts, "replay_mode", replayModeFixture)))
	replay.SetStr("provider_free", leia.True)
	replay.SetStr("deterministic", leia.True)
	replay.SetStr("created_from_provider", leia.False)
	ids := []string{"fixture_key", "replay_key", "request_hash", "response_hash", "record_id"}
	for _, k := range ids {
		for _, from := range []leia.Value{opts, trace} {
			if v := Field(from, k); isScalar(v) && replay.GetStr(k).IsNil() {
				replay.SetStr(k, v)
			}
		}
	}
	if r := Field(trace, "replay"); r.Table() != nil {
		for _, k := range append(ids, "deterministic") {
			if v := Field(r, k); isScalar(v) && replay.GetStr(k).IsNil() {
				replay.SetStr(k, v)
			}
		}
	}
	payload := leia.NewTable(0, 16)
	payload.SetStr("kind", leia.String(optString(trace, "kind", "approval_replay_trace")))
	payload.SetStr("version", leia.String(optString(trace, "version", "approval_replay.v1")))
	payload.SetStr("decision", leia.String(status))
	payload.SetStr("decision_status", leia.String(status))
	if rs := optString(Field(trace, "result"), "status", ""); rs != "" {
		payload.SetStr("result_status", leia.String(rs))
	}
	reason := Field(Field(trace, "decision"), "reason")
	if reason.IsNil() {
		reason = Field(Field(trace, "approval"), "reason")
	}
	payload.SetStr("reason_present", leia.Bool(!reason.IsNil()))
	copyScalars(payload, req, []string{"id", "request_id", "tool", "operation", "capability", "risk_level", "approval_required"})
	if payload.GetStr("operation").IsNil() {
		if v := payload.GetStr("tool"); !v.IsNil() {
			payload.SetStr("operation", v)
		}
	}
	if pol := Field(trace, "policy"); pol.Table() != nil {
		for _, p := range [][2]string{{"kind", "policy_kind"}, {"version", "policy_version"}, {"default", "policy_default"}, {"package", "policy_id"}} {
			if v := Field(pol, p[0]); isScalar(v) {
				payload.SetStr(p[1], v)
			}
		}
	}
	if v := replay.GetStr("fixture_key"); !v.IsNil() {
		payload.SetStr("source_fixture_key", v)
	}
	src.SetStr("replay", leia.TableValue(replay))
	src.SetStr("payload", leia.TableValue(payload))
	return rt.TraceEvent(sv)
}

// isScalar reports a string, number or boolean.
func isScalar(v leia.Value) bool {
	switch v.Kind() {
	case leia.KindString, leia.KindInt, leia.KindFloat, leia.KindBool:
		return true
	}
	return false
}

// approvalFamily is the llm module's natives from this file (see families).
func approvalFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		src, err := needTable(a, 0, "llm.approval_trace", "table")
		if err != nil {
			return nil, err
		}
		return t.Ret1(ApprovalTrace(src)), nil
	}, "approval_trace")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		tr, err := needTable(a, 0, "llm.approval_trace_event", "approval trace table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.approval_trace_event", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(rt.approvalEvent(tr, opts)), nil
	}, "approval_trace_event")
	return m
}
