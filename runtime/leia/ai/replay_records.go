package ai

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Script-side replay records: llm.replay_record(spec) normalizes one
// provider-free record around the identity the strict ordered matcher
// uses (operation, capability, replay_key, request_hash);
// llm.replay_index(records, opts) is that matcher ({match(request),
// summary(), replay(request, replay_key)}); llm.replay_fixture(records,
// opts) wraps normalized records with the same matcher;
// llm.replay_trace_event(match, opts) projects a match result into the
// generic trace event shape without re-matching; llm.replay_http_record
// (alias replay_api_record) and llm.replay_artifact_record normalize
// HTTP/API and downloaded-artifact replay metadata. camelCase aliases
// exist for each.
//
// Nothing here calls a provider, opens a file, makes a request or
// stores state outside the returned values: a fixture's records are the
// script's own tables, matched in order. Request hashes are runtime/llm's
// hash of the normalized turn request (the one strict replay compares),
// other hashes runtime/llm's hash of the value.

// requestHash is the hash of a request table: the normalized turn
// request's hash when it lowers as a turn, else the value's hash.
func requestHash(req leia.Value) string {
	if req.Table() != nil {
		opts := Clone(req)
		if m := opts.GetStr("messages"); m.Table() != nil {
			opts.SetStr("messages", List(ExpandMessages(m)...))
		}
		if r, err := Request(leia.TableValue(opts)); err == nil {
			return r.Hash()
		}
	}
	return llm.ValueHash(ToGo(req))
}

// ReplayRecord is llm.replay_record.
func ReplayRecord(src leia.Value) leia.Value {
	out := copyAll(src)
	out.SetStr("mode", leia.String(optString(src, "mode", replayModeFixture)))
	out.SetStr("operation", leia.String(optString(src, "operation", "llm.turn")))
	out.SetStr("capability", leia.String(optString(src, "capability", "generic.ai.turn")))
	out.SetStr("provider_free", leia.Bool(optBool(src, "provider_free", true)))
	for _, f := range []string{"live_network", "live_model", "created_from_provider"} {
		out.SetStr(f, leia.Bool(optBool(src, f, false)))
	}
	if out.GetStr("replay_key").IsNil() {
		out.SetStr("replay_key", leia.String(optString(src, "record_id", optString(src, "fixture_key", "record:1"))))
	}
	if out.GetStr("request_hash").IsNil() {
		out.SetStr("request_hash", leia.String(requestHash(out.GetStr("request"))))
	}
	if out.GetStr("response_hash").IsNil() {
		out.SetStr("response_hash", leia.String(llm.ValueHash(ToGo(out.GetStr("response")))))
	}
	if out.GetStr("replay").IsNil() {
		out.SetStr("replay", turnReplay(leia.TableValue(out)))
	}
	return leia.TableValue(out)
}

// turnReplay is the replay option table a matched record gives llm.turn.
func turnReplay(rec leia.Value) leia.Value {
	r := leia.NewTable(0, 8)
	r.SetStr("mode", leia.String(optString(rec, "mode", replayModeFixture)))
	for _, k := range []string{"replay_key", "request_hash", "response_hash"} {
		r.SetStr(k, Field(rec, k))
	}
	r.SetStr("provider_free", leia.Bool(optBool(rec, "provider_free", true)))
	r.SetStr("live_network", leia.Bool(optBool(rec, "live_network", false)))
	r.SetStr("created_from_provider", leia.Bool(optBool(rec, "created_from_provider", false)))
	r.SetStr("response", deepClone(Field(rec, "response")))
	return leia.TableValue(r)
}

// replayIndex is the strict ordered matcher's state.
type replayIndex struct {
	fixtureID, strategy        string
	identity                   []string
	consumeMatch, consumeMiss  bool
	records                    []leia.Value
	next, requests             int
	matched, misses, exhausted int
	findings, matchedRecordIDs []string
}

func newReplayIndex(records, opts leia.Value) (*replayIndex, leia.Value) {
	s := &replayIndex{
		fixtureID:    optString(opts, "fixture_id", "fixture"),
		strategy:     optString(opts, "strategy", "strict_ordered"),
		identity:     identityFields(opts),
		consumeMatch: optBool(opts, "consume_on_match", true),
		consumeMiss:  optBool(opts, "consume_on_mismatch", false),
	}
	if s.strategy != "strict_ordered" {
		return nil, ErrorValue("validation", "llm.replay_index only supports strict_ordered strategy")
	}
	for i, r := range Items(records) {
		if r.Table() == nil {
			return nil, ErrorValue("validation", fmt.Sprintf("llm.replay_index record #%d must be a table", i+1))
		}
		s.records = append(s.records, deepClone(r))
	}
	return s, leia.Nil
}

func identityString(v leia.Value) string {
	if v.IsNil() {
		return "<nil>"
	}
	if s := text(v); s != "" || v.Kind() == leia.KindString {
		return s
	}
	return jsonText(v)
}

func identityEqual(a, b leia.Value) bool {
	if a.Kind() == leia.KindString || b.Kind() == leia.KindString {
		return text(a) == text(b)
	}
	if a.Table() != nil || b.Table() != nil {
		return jsonText(a) == jsonText(b)
	}
	return leia.RawEqual(a, b)
}

func (s *replayIndex) summary() leia.Value {
	unconsumed := max(len(s.records)-s.next, 0)
	kinds := append([]string(nil), s.findings...)
	for i := 0; i < unconsumed; i++ {
		kinds = append(kinds, "generic.ai.replay.unconsumed_record")
	}
	return T("fixture_id", s.fixtureID, "strategy", s.strategy, "loaded_records", len(s.records), "requests", s.requests,
		"matched", s.matched, "mismatches", s.misses, "exhausted", s.exhausted, "unconsumed", unconsumed,
		"next_index", s.next, "finding_kinds", StringList(kinds), "matched_record_ids", StringList(s.matchedRecordIDs))
}

func (s *replayIndex) match(req leia.Value) leia.Value {
	s.requests++
	out := leia.NewTable(0, 8)
	out.SetStr("request", deepClone(req))
	out.SetStr("next_index", leia.Int(int64(s.next)))
	if s.next >= len(s.records) {
		s.exhausted++
		s.findings = append(s.findings, "generic.ai.replay.exhausted")
		out.SetStr("ok", leia.False)
		out.SetStr("status", leia.String("exhausted"))
		out.SetStr("finding_kind", leia.String("generic.ai.replay.exhausted"))
		out.SetStr("summary", s.summary())
		return leia.TableValue(out)
	}
	rec := s.records[s.next]
	out.SetStr("record", deepClone(rec))
	for _, f := range s.identity {
		want, got := Field(rec, f), Field(req, f)
		if !identityEqual(want, got) {
			s.misses++
			s.findings = append(s.findings, "generic.ai.replay.mismatch")
			if s.consumeMiss {
				s.next++
			}
			out.SetStr("ok", leia.False)
			out.SetStr("status", leia.String("mismatch"))
			out.SetStr("finding_kind", leia.String("generic.ai.replay.mismatch"))
			out.SetStr("message", leia.String(fmt.Sprintf("replay identity mismatch on %s: got %s want %s", f, identityString(got), identityString(want))))
			out.SetStr("summary", s.summary())
			return leia.TableValue(out)
		}
	}
	s.matched++
	if id := optString(rec, "record_id", ""); id != "" {
		s.matchedRecordIDs = append(s.matchedRecordIDs, id)
	}
	if s.consumeMatch {
		s.next++
	}
	out.SetStr("ok", leia.True)
	out.SetStr("status", leia.String("matched"))
	out.SetStr("summary", s.summary())
	return leia.TableValue(out)
}

func (s *replayIndex) needs(field string) bool {
	for _, f := range s.identity {
		if f == field {
			return true
		}
	}
	return false
}

// replay matches a turn request and returns the matched record's replay
// options, or a validation error.
func (s *replayIndex) replay(req leia.Value, key string) (leia.Value, leia.Value) {
	id := copyAll(req)
	op := optString(req, "operation", "llm.turn")
	id.SetStr("operation", leia.String(op))
	id.SetStr("capability", leia.String(optString(req, "capability", "generic.ai.turn")))
	if key == "" {
		key = optString(req, "replay_key", optString(req, "record_id", ""))
	}
	id.SetStr("replay_key", leia.String(key))
	if h := optString(req, "request_hash", ""); h != "" {
		id.SetStr("request_hash", leia.String(h))
	} else if s.needs("request_hash") {
		id.SetStr("request_hash", leia.String(requestHash(req)))
	}
	m := s.match(leia.TableValue(id))
	if !Field(m, "ok").Truthy() {
		status := optString(m, "status", "mismatch")
		e := ErrorWith("validation", optString(m, "message", "llm.replay_fixture replay "+status), "status", status)
		setEach(e.Table(), []string{"finding_kind", "summary"}, m)
		return leia.Nil, e
	}
	rec := Field(m, "record")
	if r := Field(rec, "replay"); r.Table() != nil {
		return deepClone(r), leia.Nil
	}
	return turnReplay(rec), leia.Nil
}

// indexTable exposes a matcher as a table of functions.
func (s *replayIndex) table(kind string) *leia.Table {
	t := leia.NewTable(0, 10)
	self := t
	args := func(a []leia.Value) []leia.Value {
		if len(a) > 0 && a[0].Table() == self {
			return a[1:]
		}
		return a
	}
	t.SetStr("__llm_replay_index", leia.True)
	t.SetStr("fixture_id", leia.String(s.fixtureID))
	t.SetStr("strategy", leia.String(s.strategy))
	t.SetStr("loaded_records", leia.Int(int64(len(s.records))))
	t.SetStr("identity_fields", StringList(s.identity))
	t.SetStr("match", leia.NewNative(kind+".match", func(th *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		a = args(a)
		if leia.Arg(a, 0).Table() == nil {
			return nil, fmt.Errorf("bad argument #1 to '%s.match' (request table expected)", kind)
		}
		return th.Ret1(s.match(a[0])), nil
	}))
	t.SetStr("summary", leia.NewNative(kind+".summary", func(th *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		return th.Ret1(s.summary()), nil
	}))
	t.SetStr("replay", leia.NewNative(kind+".replay", func(th *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		a = args(a)
		if leia.Arg(a, 0).Table() == nil {
			return nil, fmt.Errorf("bad argument #1 to '%s.replay' (request table expected)", kind)
		}
		key := ""
		if k := leia.Arg(a, 1); !k.IsNil() {
			if k.Kind() != leia.KindString {
				return nil, fmt.Errorf("bad argument #2 to '%s.replay' (replay_key string expected)", kind)
			}
			key = k.AsString()
		}
		return th.Ret2(s.replay(a[0], key)), nil
	}))
	return t
}

// ReplayFixture is llm.replay_fixture: (fixture, nil) or (nil, err).
func ReplayFixture(input, opts leia.Value) (leia.Value, leia.Value) {
	records := input
	if r := Field(input, "records"); r.Table() != nil {
		records = r
	}
	norm := newList()
	t := records.Table()
	for i := 1; i <= t.Len(); i++ {
		r := t.GetInt(int64(i))
		if r.IsNil() {
			continue
		}
		if r.Table() == nil {
			return leia.Nil, ErrorValue("validation", fmt.Sprintf("llm.replay_fixture record #%d must be a table", i))
		}
		appendTo(norm, ReplayRecord(r))
	}
	io := leia.NewTable(0, 6)
	for _, src := range []leia.Value{input, opts} {
		setEach(io, []string{"fixture_id", "strategy", "identity_fields", "consume_on_match", "consume_on_mismatch"}, src)
	}
	iov := leia.TableValue(io)
	s, e := newReplayIndex(leia.TableValue(norm), iov)
	if !e.IsNil() {
		return leia.Nil, e
	}
	idx := s.table("llm.replay_fixture")
	f := leia.NewTable(0, 16)
	f.SetStr("__llm_replay_fixture", leia.True)
	f.SetStr("fixture_id", leia.String(s.fixtureID))
	f.SetStr("mode", leia.String(optString(input, "mode", replayModeFixture)))
	f.SetStr("strategy", leia.String(s.strategy))
	f.SetStr("provider_free", leia.Bool(boolOf(input, opts, "provider_free", true)))
	f.SetStr("live_network", leia.Bool(boolOf(input, opts, "live_network", false)))
	f.SetStr("live_model", leia.Bool(boolOf(input, opts, "live_model", false)))
	f.SetStr("loaded_records", leia.Int(int64(norm.Len())))
	f.SetStr("records", leia.TableValue(norm))
	f.SetStr("index", leia.TableValue(idx))
	for _, k := range []string{"identity_fields", "match", "summary", "replay"} {
		f.SetStr(k, idx.GetStr(k))
	}
	// The fixture's own methods take the fixture itself on a colon call.
	for _, k := range []string{"match", "summary", "replay"} {
		fn := idx.GetStr(k).Native()
		inner := fn.Fn
		f.SetStr(k, leia.NewNative(fn.Name, func(th *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if len(a) > 0 && a[0].Table() == f {
				a = a[1:]
			}
			return inner(th, a)
		}))
	}
	return leia.TableValue(f), leia.Nil
}

// replayEvent is llm.replay_trace_event: the match's status kept, never
// the request, record or response themselves.
func (rt *Runtime) replayEvent(match, opts leia.Value) leia.Value {
	status := optString(match, "status", "mismatch")
	eventType := "replay_record_mismatch"
	switch status {
	case "matched":
		eventType = "replay_record_matched"
	case "exhausted":
		eventType = "replay_record_exhausted"
	}
	src := copyAll(opts)
	src.SetStr("event_type", leia.String(optString(opts, "event_type", eventType)))
	src.SetStr("status", leia.String(status))
	for _, f := range []string{"provider_free", "live_network", "live_model"} {
		src.SetStr(f, leia.Bool(optBool(opts, f, f == "provider_free")))
	}
	replay := leia.NewTable(0, 10)
	replay.SetStr("mode", leia.String(optString(opts, "replay_mode", replayModeFixture)))
	replay.SetStr("provider_free", leia.True)
	replay.SetStr("deterministic", leia.True)
	replay.SetStr("created_from_provider", leia.False)
	payload := leia.NewTable(0, 10)
	if v := Field(match, "ok"); isScalar(v) {
		payload.SetStr("ok", v)
	}
	payload.SetStr("status", leia.String(status))
	if v := Field(match, "next_index"); isScalar(v) {
		payload.SetStr("next_index", v)
	}
	if v := Field(match, "finding_kind"); isScalar(v) {
		payload.SetStr("finding_kind", v)
	}
	if msg := Field(match, "message"); !msg.IsNil() {
		safe := "replay trace event"
		if rest, ok := strings.CutPrefix(text(msg), "replay identity mismatch on "); ok {
			if field, _, _ := strings.Cut(rest, ":"); field != "" {
				safe = "replay identity mismatch on " + field
			}
		}
		payload.SetStr("message", leia.String(safe))
	}
	if sum := Field(match, "summary"); sum.Table() != nil {
		ps := leia.NewTable(0, 12)
		copyScalars(ps, sum, []string{"fixture_id", "strategy", "loaded_records", "requests", "matched", "mismatches",
			"exhausted", "unconsumed", "next_index"})
		for _, k := range []string{"finding_kinds", "matched_record_ids"} {
			if v := Field(sum, k); v.Table() != nil {
				ps.SetStr(k, StringList(Strings(v)))
			}
		}
		payload.SetStr("summary", leia.TableValue(ps))
		if src.GetStr("replay_session_id").IsNil() {
			if id := ps.GetStr("fixture_id"); !id.IsNil() {
				src.SetStr("replay_session_id", id)
			}
		}
	}
	rec := Field(match, "record")
	for _, k := range []string{"record_id", "replay_key", "request_hash", "response_hash", "fixture_key"} {
		if v := Field(rec, k); isScalar(v) {
			replay.SetStr(k, v)
		}
	}
	for _, k := range []string{"replay_key", "request_hash", "response_hash"} {
		if v := Field(Field(rec, "replay"), k); isScalar(v) {
			replay.SetStr(k, v)
		}
	}
	if v := Field(rec, "record_id"); isScalar(v) {
		payload.SetStr("record_id", v)
	}
	for _, k := range []string{"replay_key", "request_hash"} {
		if replay.GetStr(k).IsNil() {
			if v := Field(Field(match, "request"), k); isScalar(v) {
				replay.SetStr(k, v)
			}
		}
	}
	if k := replay.GetStr("replay_key"); !k.IsNil() {
		for _, f := range []string{"turn_id", "correlation_id"} {
			if src.GetStr(f).IsNil() {
				src.SetStr(f, k)
			}
		}
	}
	src.SetStr("replay", leia.TableValue(replay))
	src.SetStr("payload", leia.TableValue(payload))
	return rt.TraceEvent(leia.TableValue(src))
}

// sensitiveHeader reports a header whose value is a credential or
// session secret.
func sensitiveHeader(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"auth", "cookie", "token", "key", "secret", "session", "password", "signature"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

func redactHeaders(h leia.Value) (leia.Value, int) {
	out := leia.NewTable(0, 4)
	n := 0
	for _, k := range Keys(h) {
		v := Field(h, k)
		if sensitiveHeader(k) || !isScalar(v) {
			out.SetStr(k, leia.String(redacted))
			n++
			continue
		}
		out.SetStr(k, v)
	}
	return leia.TableValue(out), n
}

// redactURL drops a URL's user info and the values of query parameters
// whose names look sensitive.
func redactURL(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return redacted, true
	}
	changed := false
	if u.User != nil {
		u.User = nil
		changed = true
	}
	q := u.Query()
	for k := range q {
		if sensitiveHeader(k) {
			q.Set(k, redacted)
			changed = true
		}
	}
	if changed {
		u.RawQuery = q.Encode()
	}
	return u.String(), changed
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

func init() {
	Register("llm", func(rt *Runtime) map[string]leia.NativeFunc {
		m := map[string]leia.NativeFunc{}
		withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			src, err := needTable(a, 0, "llm.replay_record", "record table")
			if err != nil {
				return nil, err
			}
			return t.Ret2(ReplayRecord(src), leia.Nil), nil
		}, "replay_record")
		withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			src, err := needTable(a, 0, "llm.replay_fixture", "records or fixture table")
			if err != nil {
				return nil, err
			}
			opts, err := optTable(a, 1, "llm.replay_fixture", "options")
			if err != nil {
				return nil, err
			}
			return t.Ret2(ReplayFixture(src, opts)), nil
		}, "replay_fixture")
		withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			src, err := needTable(a, 0, "llm.replay_index", "records table")
			if err != nil {
				return nil, err
			}
			opts, err := optTable(a, 1, "llm.replay_index", "options")
			if err != nil {
				return nil, err
			}
			s, e := newReplayIndex(src, opts)
			if !e.IsNil() {
				return t.Ret2(leia.Nil, e), nil
			}
			return t.Ret2(leia.TableValue(s.table("llm.replay_index")), leia.Nil), nil
		}, "replay_index")
		withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			mv, err := needTable(a, 0, "llm.replay_trace_event", "replay match table")
			if err != nil {
				return nil, err
			}
			opts, err := optTable(a, 1, "llm.replay_trace_event", "options")
			if err != nil {
				return nil, err
			}
			return t.Ret1(rt.replayEvent(mv, opts)), nil
		}, "replay_trace_event")
		record := func(name, what string, f func(src, opts leia.Value) leia.Value) leia.NativeFunc {
			return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				src, err := needTable(a, 0, "llm."+name, what)
				if err != nil {
					return nil, err
				}
				opts, err := optTable(a, 1, "llm."+name, "options")
				if err != nil {
					return nil, err
				}
				return t.Ret2(f(src, opts), leia.Nil), nil
			}
		}
		http := record("replay_http_record", "HTTP replay record table", ReplayHTTPRecord)
		aliases(m, http, "replay_http_record", "replayHttpRecord", "replay_api_record", "replayApiRecord")
		withCamel(m, record("replay_artifact_record", "artifact replay record table", ReplayArtifactRecord), "replay_artifact_record")
		return m
	})
}
