package ai

import (
	"strings"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Model I/O envelopes: llm.model_io_envelope(spec, opts) (aliases
// llm.model_call_envelope, llm.turn_envelope and their camelCase
// spellings) records a model request/response boundary as provider-free
// metadata: routing (model, alias, provider, route), operation and
// capability, message roles and counts, tool names, response presence
// and size, tool-call names, usage totals, schema hints, refs and
// correlation ids. It never calls a provider, runs a tool or needs a
// credential, and it keeps no prompt, message, completion or credential
// text: header values outside a short list of protocol headers and every
// auth field but its type become "<redacted>".

// safeHeaders keep their values in an envelope (lower case).
var safeHeaders = map[string]bool{"content-type": true, "accept": true, "accept-encoding": true,
	"content-length": true, "user-agent": true, "anthropic-version": true, "openai-beta": true}

// safeAuthFields keep their values in an envelope's auth table.
var safeAuthFields = map[string]bool{"type": true, "scheme": true, "kind": true, "location": true,
	"header": true, "api_key_env": true, "env": true}

const redacted = "<redacted>"

// ModelIOEnvelope builds the envelope.
func ModelIOEnvelope(src, opts leia.Value) leia.Value {
	out := leia.NewTable(0, 32)
	out.SetStr("__llm_model_io_envelope", leia.True)
	out.SetStr("kind", leia.String("model_io_envelope"))
	out.SetStr("schema_version", leia.Int(optInt(src, "schema_version", optInt(opts, "schema_version", 1))))
	for _, d := range [][2]string{{"version", "model_io_envelope.v1"}, {"operation", "model.turn"}, {"capability", "generic.ai.model_io"}} {
		out.SetStr(d[0], leia.String(optString(src, d[0], optString(opts, d[0], d[1]))))
	}
	out.SetStr("provider_free", leia.Bool(optBool(src, "provider_free", optBool(opts, "provider_free", true))))
	for _, f := range []string{"live_network", "live_model", "provider_credentials_required"} {
		out.SetStr(f, leia.Bool(optBool(src, f, optBool(opts, f, false))))
	}
	out.SetStr("secret_values_present", leia.False)
	for _, k := range []string{"model", "model_alias", "provider", "route", "replay_key", "fixture_key", "trace_id", "turn_id",
		"agent_run_id", "workflow_run_id", "workflow_step_id", "correlation_id", "replay_session_id", "component"} {
		for _, from := range []leia.Value{opts, src} {
			if v := Field(from, k); isScalar(v) {
				out.SetStr(k, v)
				break
			}
		}
	}
	if out.GetStr("replay_key").IsNil() && !out.GetStr("fixture_key").IsNil() {
		out.SetStr("replay_key", out.GetStr("fixture_key"))
	}
	out.SetStr("request", envelopeRequest(Field(src, "request"), src))
	out.SetStr("response", envelopeResponse(Field(src, "response"), src))
	out.SetStr("usage", envelopeUsage(src))
	sch := leia.NewTable(0, 4)
	for _, k := range []string{"schema", "output_schema", "response_schema", "typed_as"} {
		setFirst(sch, k, opts, src, Field(src, "response"))
	}
	out.SetStr("schema", leia.TableValue(sch))
	refs := leia.NewTable(0, 6)
	setEach(refs, []string{"input_refs", "output_refs", "evidence_refs", "artifact_refs", "memory_refs", "tool_refs"}, opts, src)
	out.SetStr("refs", leia.TableValue(refs))
	red := leia.NewTable(0, 10)
	red.SetStr("enabled", leia.True)
	red.SetStr("policy", leia.String(optString(opts, "redaction_policy", "model_io_metadata_only")))
	for _, f := range []string{"raw_prompt_stored", "raw_messages_stored", "raw_completion_stored", "secret_values_present"} {
		red.SetStr(f, leia.False)
	}
	red.SetStr("headers_redacted", leia.True)
	red.SetStr("auth_redacted", leia.True)
	if r := Field(src, "redaction").Table(); r != nil {
		r.Iter(func(k, v leia.Value) bool {
			if isScalar(v) {
				red.Set(k, v)
			}
			return true
		})
	}
	out.SetStr("redaction", leia.TableValue(red))
	ov := leia.TableValue(out)
	sum := leia.NewTable(0, 20)
	copyScalars(sum, ov, []string{"kind", "operation", "capability", "model", "model_alias", "provider", "replay_key",
		"provider_free", "live_network", "live_model"})
	if v := Field(Field(Field(ov, "request"), "messages"), "count"); !v.IsNil() {
		sum.SetStr("message_count", v)
	}
	if v := Field(Field(Field(ov, "request"), "tools"), "count"); !v.IsNil() {
		sum.SetStr("tool_count", v)
	}
	copyScalars(sum, Field(ov, "response"), []string{"finish_reason", "status", "result_status", "text_present"})
	copyScalars(sum, Field(ov, "usage"), []string{"prompt_tokens", "completion_tokens", "total_tokens", "latency_ms", "cost_usd"})
	out.SetStr("summary", leia.TableValue(sum))
	return ov
}

func envelopeRequest(req, src leia.Value) leia.Value {
	out := leia.NewTable(0, 12)
	from := src
	if req.Table() != nil {
		from = req
		copyScalars(out, req, []string{"request_id", "mode", "temperature", "top_p", "max_tokens", "seed", "tool_choice"})
		if rf := Field(req, "response_format"); !rf.IsNil() {
			out.SetStr("response_format", deepClone(rf))
		}
		if h := Field(req, "headers"); h.Table() != nil {
			hs := leia.NewTable(0, 4)
			for _, k := range Keys(h) {
				v := Field(h, k)
				if safeHeaders[strings.ToLower(k)] && isScalar(v) {
					hs.SetStr(k, v)
				} else {
					hs.SetStr(k, leia.String(redacted))
				}
			}
			out.SetStr("headers", leia.TableValue(hs))
		}
		if a := Field(req, "auth"); a.Table() != nil {
			as := leia.NewTable(0, 4)
			for _, k := range Keys(a) {
				v := Field(a, k)
				if safeAuthFields[k] && isScalar(v) {
					as.SetStr(k, v)
				} else {
					as.SetStr(k, leia.String(redacted))
				}
			}
			as.SetStr("redacted", leia.True)
			out.SetStr("auth", leia.TableValue(as))
		}
	}
	roles := newList()
	var n int64
	for _, m := range Items(Field(from, "messages")) {
		if m.Table() == nil {
			continue
		}
		n++
		role := optString(m, "role", "unknown")
		if Field(m, contextMarker).Truthy() {
			role = optString(Field(m, "message"), "role", "user")
		}
		appendTo(roles, leia.String(role))
	}
	out.SetStr("messages", T("count", n, "roles", leia.TableValue(roles), "raw_content_stored", false))
	out.SetStr("tools", namesSummary(Field(from, "tools"), "name", "tool"))
	out.SetStr("raw_prompt_stored", leia.False)
	out.SetStr("raw_messages_stored", leia.False)
	return leia.TableValue(out)
}

// namesSummary counts a list's tables and lists their names (the first
// of the given fields that is a non-empty string).
func namesSummary(list leia.Value, fields ...string) leia.Value {
	names := newList()
	var n int64
	for _, it := range Items(list) {
		if it.Table() == nil {
			continue
		}
		n++
		for _, f := range fields {
			if s := optString(it, f, ""); s != "" {
				appendTo(names, leia.String(s))
				break
			}
		}
	}
	return T("count", n, "names", leia.TableValue(names))
}

func envelopeResponse(resp, src leia.Value) leia.Value {
	out := leia.NewTable(0, 12)
	from := src
	if resp.Table() != nil {
		from = resp
		copyScalars(out, resp, []string{"response_id", "finish_reason", "stop_reason", "status", "result_status", "error_kind", "retryable"})
	}
	out.SetStr("text_present", leia.False)
	for _, k := range []string{"text", "content", "raw_text", "raw_completion"} {
		if v := Field(from, k); !v.IsNil() {
			out.SetStr("text_present", leia.True)
			if v.Kind() == leia.KindString {
				out.SetStr("text_bytes", leia.Int(int64(len(v.AsString()))))
			}
			break
		}
	}
	calls := Field(from, "tool_calls")
	if calls.Table() == nil {
		calls = Field(from, "calls")
	}
	out.SetStr("tool_calls", namesSummary(calls, "name", "function", "tool"))
	out.SetStr("raw_completion_stored", leia.False)
	return leia.TableValue(out)
}

func envelopeUsage(src leia.Value) leia.Value {
	u := leia.NewTable(0, 10)
	fields := []string{"prompt_tokens", "completion_tokens", "total_tokens", "input_tokens", "output_tokens",
		"cached_tokens", "latency_ms", "cost", "cost_usd"}
	copyScalars(u, Field(src, "usage"), fields)
	copyScalars(u, Field(Field(src, "response"), "usage"), fields)
	if u.GetStr("total_tokens").IsNil() {
		for _, pair := range [][2]string{{"prompt_tokens", "completion_tokens"}, {"input_tokens", "output_tokens"}} {
			p, c := u.GetStr(pair[0]), u.GetStr(pair[1])
			if p.Kind() == leia.KindInt && c.Kind() == leia.KindInt {
				u.SetStr("total_tokens", leia.Int(p.AsInt()+c.AsInt()))
				break
			}
		}
	}
	return leia.TableValue(u)
}

// envelopeFamily is the llm module's natives from this file (see families).
func envelopeFamily(rt *Runtime) map[string]leia.NativeFunc {
	fn := func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		src, err := needTable(a, 0, "llm.model_io_envelope", "model I/O table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.model_io_envelope", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(ModelIOEnvelope(src, opts)), nil
	}
	m := map[string]leia.NativeFunc{}
	aliases(m, fn, "model_io_envelope", "modelIOEnvelope", "model_call_envelope", "modelCallEnvelope", "turn_envelope", "turnEnvelope")
	return m
}
