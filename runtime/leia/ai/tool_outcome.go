package ai

import (
	"github.com/harnlang/harn-check/runtime/leia"
)

// Tool outcomes: llm.tool_outcome(call_or_tool_message, result_or_err,
// opts) (alias toolOutcome) projects one tool dispatch into a ref-only
// table {kind: "tool_outcome", schema_version: 1, version:
// "tool_outcome.v1", ok, status, result_status, tool, tool_name,
// tool_call_id, arg_names, result_present, result_type, result_ref,
// error_kind, replay_key, correlation ids, redaction};
// llm.tool_outcome_event(outcome, opts) (aliases
// tool_outcome_trace_event and the camelCase spellings) puts it into the
// generic trace event shape.
//
// The argument values, the result value, an error's message (which may
// echo inputs or carry a stack) and the tool descriptor are never
// copied: only names, kinds, types and refs.

func toolOutcomeString(fields []string, tables ...leia.Value) string {
	for _, f := range fields {
		for _, t := range tables {
			if s := optString(t, f, ""); s != "" {
				return s
			}
		}
	}
	return ""
}

func valueType(v leia.Value) string {
	switch v.Kind() {
	case leia.KindNil:
		return "nil"
	case leia.KindString:
		return "string"
	case leia.KindBool:
		return "bool"
	case leia.KindInt:
		return "int"
	case leia.KindFloat:
		return "number"
	case leia.KindTable:
		return "table"
	case leia.KindFunction, leia.KindNative:
		return "function"
	}
	return "value"
}

func isErrorValue(v leia.Value) bool {
	return v.Table() != nil && !Field(v, "kind").IsNil() && !Field(v, "message").IsNil()
}

// ToolOutcome builds the projection.
func ToolOutcome(src, result, opts leia.Value) leia.Value {
	call := Field(src, "tool_call")
	if call.Table() == nil {
		call = src
	}
	out := leia.NewTable(0, 20)
	out.SetStr("kind", leia.String("tool_outcome"))
	out.SetStr("schema_version", leia.Int(1))
	out.SetStr("version", leia.String("tool_outcome.v1"))
	out.SetStr("ok", leia.True)
	out.SetStr("status", leia.String("ok"))
	out.SetStr("result_status", leia.String("ok"))
	out.SetStr("redaction", T("args_redacted", true, "result_redacted", true, "raw_args_stored", false,
		"raw_result_stored", false, "error_message_stored", false, "policy", "tool_outcome_ref_only"))
	if tool := toolOutcomeString([]string{"tool"}, opts, src, call); tool != "" {
		out.SetStr("tool", leia.String(tool))
		out.SetStr("tool_name", leia.String(tool))
	}
	if id := toolOutcomeString([]string{"tool_call_id", "id", "tool_use_id"}, opts, src, call); id != "" {
		out.SetStr("tool_call_id", leia.String(id))
	}
	for _, k := range []string{"operation", "component", "workflow_run_id", "workflow_step_id", "agent_run_id",
		"turn_id", "correlation_id", "replay_key", "result_ref"} {
		for _, from := range []leia.Value{opts, src} {
			if v := Field(from, k); isScalar(v) {
				out.SetStr(k, v)
				break
			}
		}
	}
	names := newList()
	for _, k := range Keys(Field(call, "args")) {
		appendTo(names, leia.String(k))
	}
	if names.Len() > 0 {
		out.SetStr("arg_names", leia.TableValue(names))
	}
	if optString(src, "role", "") == "tool" {
		if e := Field(src, "error"); !e.IsNil() {
			result = ErrorValue("tool", text(e))
		} else if v := Field(src, "value"); !v.IsNil() && result.IsNil() {
			result = v
		}
	}
	if isErrorValue(result) {
		out.SetStr("ok", leia.False)
		out.SetStr("status", leia.String("error"))
		out.SetStr("result_status", leia.String("error"))
		if k := Field(result, "kind"); isScalar(k) {
			out.SetStr("error_kind", k)
		}
		out.SetStr("message", leia.String("tool outcome error"))
		out.SetStr("error_message_present", leia.True)
	} else {
		out.SetStr("result_present", leia.Bool(!result.IsNil()))
		out.SetStr("result_type", leia.String(valueType(result)))
		if out.GetStr("result_ref").IsNil() {
			if id := text(out.GetStr("tool_call_id")); id != "" {
				out.SetStr("result_ref", leia.String(id+":result"))
			}
		}
	}
	return leia.TableValue(out)
}

// toolEvent projects a tool outcome (type tool_outcome; correlation_id
// defaults to the tool call id).
func (rt *Runtime) toolEvent(outcome, opts leia.Value) leia.Value {
	p := leia.NewTable(0, 16)
	copyScalars(p, outcome, []string{"kind", "schema_version", "version", "ok", "status", "result_status", "tool", "tool_name",
		"tool_call_id", "result_present", "result_type", "result_ref", "error_kind", "error_message_present", "replay_key",
		"operation", "component"})
	if names := Field(outcome, "arg_names"); names.Table() != nil {
		p.SetStr("arg_names", StringList(Strings(names)))
	}
	if Field(outcome, "message").Kind() == leia.KindString {
		p.SetStr("message", leia.String("tool outcome error"))
	}
	src := deepClone(opts)
	if src.Table() == nil {
		src = leia.TableValue(leia.NewTable(0, 4))
	}
	if Field(src, "redaction").IsNil() {
		if r := Field(outcome, "redaction"); r.Table() != nil {
			red := leia.NewTable(0, 8)
			copyScalars(red, r, Keys(r))
			src.Table().SetStr("redaction", leia.TableValue(red))
		}
	}
	if k := Field(outcome, "replay_key"); isScalar(k) && Field(src, "replay_key").IsNil() {
		src.Table().SetStr("replay_key", k)
	}
	return rt.projectEvent(src, "tool_outcome", optString(outcome, "status", "ok"), outcome, Field(outcome, "tool_call_id"), p)
}

// toolOutcomeFamily is the llm module's natives from this file (see families).
func toolOutcomeFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		src, err := needTable(a, 0, "llm.tool_outcome", "tool call or tool message table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 2, "llm.tool_outcome", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(ToolOutcome(src, leia.Arg(a, 1), opts)), nil
	}, "tool_outcome")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		o, err := needTable(a, 0, "llm.tool_outcome_event", "tool outcome table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.tool_outcome_event", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(rt.toolEvent(o, opts)), nil
	}, "tool_outcome_event", "tool_outcome_trace_event")
	return m
}
