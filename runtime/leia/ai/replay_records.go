package ai

import (
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
	"github.com/harnlang/harn-check/runtime/redact"
)

// Replay metadata records: llm.replay_http_record(spec, opts) (aliases
// replay_api_record, replayHttpRecord, replayApiRecord) and
// llm.replay_artifact_record(spec, opts) (alias replayArtifactRecord)
// normalize HTTP/API and downloaded-artifact replay metadata around the
// replay identity (operation, capability, replay_key, request_hash) that
// llm.replay_record and llm.replay_index (replay.go) match on. They make
// no request, open no file, resolve no path and hash nothing from disk:
// bodies and artifact content are reduced to presence, size and
// runtime/llm's value hash; credentials in URLs, headers and auth are
// replaced by "<redacted>". Both return (record, nil).

func redactHeaders(h leia.Value) (leia.Value, int) {
	out := leia.NewTable(0, 4)
	n := 0
	for _, k := range Keys(h) {
		v := Field(h, k)
		if redact.LeiaNames.Sensitive(k) || !isScalar(v) {
			out.SetStr(k, leia.String(redacted))
			n++
			continue
		}
		out.SetStr(k, v)
	}
	return leia.TableValue(out), n
}

// redactURL drops a URL's user info and the values of query parameters
// whose names hold one of upstream Leia's words (redact.LeiaNames); a
// text that is no URL is redacted whole.
func redactURL(raw string) (string, bool) {
	safe, changed, err := redact.URL(raw, redact.LeiaNames, redacted, true)
	if err != nil {
		return redacted, true
	}
	return safe, changed
}

func replayIdentity(out *leia.Table, src, opts leia.Value, defaultOp string) {
	out.SetStr("operation", leia.String(optString(src, "operation", optString(opts, "operation", defaultOp))))
	for _, k := range []string{"capability", "replay_key", "record_id", "fixture_key", "request_hash", "response_hash", "source",
		"provider", "dataset", "workflow_run_id", "workflow_step_id", "trace_id", "correlation_id", "replay_session_id"} {
		for _, from := range []leia.Value{opts, src} {
			if v := Field(from, k); isScalar(v) {
				out.SetStr(k, v)
				break
			}
		}
	}
	if out.GetStr("replay_key").IsNil() {
		out.SetStr("replay_key", leia.String(optString(src, "record_id", optString(src, "fixture_key", "record:1"))))
	}
	out.SetStr("provider_free", leia.Bool(boolOf(src, opts, "provider_free", true)))
	for _, f := range []string{"live_network", "live_model", "created_from_provider", "credentials_required"} {
		out.SetStr(f, leia.Bool(boolOf(src, opts, f, false)))
	}
	out.SetStr("offline", leia.Bool(!optBool(leia.TableValue(out), "live_network", false)))
}

// ReplayHTTPRecord is llm.replay_http_record: method, redacted URL and
// headers, body hash and size (never the body), response status, type,
// size and hash, and the caller's retry, pagination, rate-limit, error
// and terms metadata.
func ReplayHTTPRecord(src, opts leia.Value) leia.Value {
	out := leia.NewTable(0, 24)
	out.SetStr("kind", leia.String("replay_http_record"))
	out.SetStr("schema_version", leia.Int(1))
	out.SetStr("version", leia.String("replay_http_record.v1"))
	replayIdentity(out, src, opts, "http.request")
	red := leia.NewTable(0, 8)
	redactedHeaders := 0
	reqIn := Field(src, "request")
	if reqIn.Table() == nil {
		reqIn = src
	}
	req := leia.NewTable(0, 8)
	copyScalars(req, reqIn, []string{"method", "content_type", "body_hash", "body_bytes"})
	if m := req.GetStr("method"); m.IsNil() {
		req.SetStr("method", leia.String("GET"))
	}
	if u := optString(reqIn, "url", ""); u != "" {
		safe, changed := redactURL(u)
		req.SetStr("url", leia.String(safe))
		red.SetStr("url_redacted", leia.Bool(changed))
	}
	if h := Field(reqIn, "headers"); h.Table() != nil {
		hv, n := redactHeaders(h)
		req.SetStr("headers", hv)
		redactedHeaders += n
	}
	if b := Field(reqIn, "body"); !b.IsNil() {
		req.SetStr("body_present", leia.True)
		if req.GetStr("body_hash").IsNil() {
			req.SetStr("body_hash", leia.String(llm.ValueHash(ToGo(b))))
		}
	}
	if a := Field(reqIn, "auth"); !a.IsNil() {
		req.SetStr("auth", T("redacted", true, "type", optString(a, "type", "")))
	}
	out.SetStr("request", leia.TableValue(req))
	resp := leia.NewTable(0, 8)
	respIn := Field(src, "response")
	copyScalars(resp, respIn, []string{"status", "status_code", "content_type", "bytes", "body_hash", "etag", "last_modified", "uri"})
	if h := Field(respIn, "headers"); h.Table() != nil {
		hv, n := redactHeaders(h)
		resp.SetStr("headers", hv)
		redactedHeaders += n
	}
	if b := Field(respIn, "body"); !b.IsNil() {
		resp.SetStr("body_present", leia.True)
		if resp.GetStr("body_hash").IsNil() {
			resp.SetStr("body_hash", leia.String(llm.ValueHash(ToGo(b))))
		}
		if resp.GetStr("bytes").IsNil() && b.Kind() == leia.KindString {
			resp.SetStr("bytes", leia.Int(int64(len(b.AsString()))))
		}
	}
	resp.SetStr("raw_body_stored", leia.False)
	out.SetStr("response", leia.TableValue(resp))
	for _, k := range []string{"retry", "pagination", "rate_limit", "error", "terms"} {
		if v := Field(src, k); v.Table() != nil {
			t := leia.NewTable(0, 6)
			copyScalars(t, v, Keys(v))
			out.SetStr(k, leia.TableValue(t))
		}
	}
	red.SetStr("enabled", leia.True)
	red.SetStr("policy", leia.String(optString(opts, "redaction_policy", "replay_http_metadata_only")))
	red.SetStr("headers_redacted", leia.Int(int64(redactedHeaders)))
	red.SetStr("raw_request_body_stored", leia.False)
	red.SetStr("raw_response_body_stored", leia.False)
	red.SetStr("secret_values_present", leia.False)
	out.SetStr("redaction", leia.TableValue(red))
	out.SetStr("summary", replaySummary(out, "method", "url", "status"))
	return leia.TableValue(out)
}

// ReplayArtifactRecord is llm.replay_artifact_record: the artifact's
// identity, location (as given), media type, size and hash, never its
// content.
func ReplayArtifactRecord(src, opts leia.Value) leia.Value {
	out := leia.NewTable(0, 20)
	out.SetStr("kind", leia.String("replay_artifact_record"))
	out.SetStr("schema_version", leia.Int(1))
	out.SetStr("version", leia.String("replay_artifact_record.v1"))
	replayIdentity(out, src, opts, "artifact.fetch")
	in := Field(src, "artifact")
	if in.Table() == nil {
		in = src
	}
	art := leia.NewTable(0, 10)
	copyScalars(art, in, []string{"id", "artifact_id", "name", "uri", "path", "media_type", "content_type", "bytes", "size",
		"sha256", "hash", "digest", "source", "license", "retrieved_at", "as_of"})
	if u := optString(leia.TableValue(art), "uri", ""); u != "" {
		safe, _ := redactURL(u)
		art.SetStr("uri", leia.String(safe))
	}
	if c := Field(in, "content"); !c.IsNil() {
		art.SetStr("content_present", leia.True)
		if art.GetStr("sha256").IsNil() && art.GetStr("hash").IsNil() {
			art.SetStr("hash", leia.String(llm.ValueHash(ToGo(c))))
		}
	}
	art.SetStr("raw_content_stored", leia.False)
	out.SetStr("artifact", leia.TableValue(art))
	for _, k := range []string{"retry", "rate_limit", "error", "terms"} {
		if v := Field(src, k); v.Table() != nil {
			t := leia.NewTable(0, 6)
			copyScalars(t, v, Keys(v))
			out.SetStr(k, leia.TableValue(t))
		}
	}
	out.SetStr("redaction", T("enabled", true, "policy", optString(opts, "redaction_policy", "replay_artifact_metadata_only"),
		"raw_content_stored", false, "secret_values_present", false))
	out.SetStr("summary", replaySummary(out))
	return leia.TableValue(out)
}

func replaySummary(out *leia.Table, extra ...string) leia.Value {
	sum := leia.NewTable(0, 10)
	ov := leia.TableValue(out)
	copyScalars(sum, ov, []string{"kind", "operation", "replay_key", "request_hash", "response_hash", "provider_free", "live_network"})
	for _, k := range extra {
		for _, from := range []leia.Value{Field(ov, "request"), Field(ov, "response")} {
			if v := Field(from, k); isScalar(v) {
				sum.SetStr(k, v)
				break
			}
		}
	}
	return leia.TableValue(sum)
}

// replayRecordsFamily is the llm module's natives from this file (see families).
func replayRecordsFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	http := tableAndOptions("replay_http_record", "HTTP replay record table", ReplayHTTPRecord)
	aliases(m, http, "replay_http_record", "replayHttpRecord", "replay_api_record", "replayApiRecord")
	withCamel(m, tableAndOptions("replay_artifact_record", "artifact replay record table", ReplayArtifactRecord), "replay_artifact_record")
	return m
}
