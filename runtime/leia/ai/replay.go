package ai

import (
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Script-level replay, provider-free, in upstream Leia's shapes (from its
// own source): llm.replay_record(spec) normalizes one record around the
// identity the strict ordered matcher uses (operation, capability,
// replay_key, request_hash) and returns (record, nil);
// llm.replay_index(records, opts) is that matcher, (index, nil) with
// index.match(request) -> {ok, status matched|mismatch|exhausted,
// next_index, record, finding_kind, message, summary}, index.summary()
// and index.replay(request, replay_key); llm.replay_fixture(records,
// opts) wraps normalized records with the same matcher, and
// fixture.replay(request, replay_key) returns the replay options a turn
// answers from (llm.turn({..., replay = options}) asks no provider:
// replayedResult, used by Runtime.Turn); llm.replay_trace_event(match,
// opts) projects a match into the generic trace event shape without
// re-matching or copying the request, record or response. camelCase
// aliases exist for each. Records are the script's own tables, matched in
// order; nothing is stored, opened or fetched.
//
// A mismatch does not consume the record unless consume_on_mismatch says
// so; a match does unless consume_on_match is false. Request hashes are
// the runtime's hash of the turn request the table describes (model alias
// resolved, messages built as a turn builds them).

// replayFamily is the llm module's natives from this file (see families).
func replayFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		src, err := needTable(a, 0, "llm.replay_record", "record table")
		if err != nil {
			return nil, err
		}
		return t.Ret2(rt.ReplayRecord(src), leia.Nil), nil
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
		return t.Ret2(rt.ReplayFixture(src, opts)), nil
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
		s, e := rt.newReplayIndex(src, opts)
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
	return m
}

// requestHash is the hash of a request table as a turn would send it (the
// model alias resolved, messages built from system/user when absent).
func (rt *Runtime) requestHashOf(req leia.Value) string {
	opts := Clone(req)
	opts.SetStr("model", leia.String(rt.ResolveModel(opts.GetStr("model"))))
	if opts.GetStr("messages").IsNil() && !opts.GetStr("user").IsNil() {
		msgs := []leia.Value{}
		if s := opts.GetStr("system"); !s.IsNil() {
			msgs = append(msgs, Message("system", Str(s)))
		}
		msgs = append(msgs, Message("user", Str(opts.GetStr("user"))))
		opts.SetStr("messages", List(msgs...))
	}
	r, err := Request(leia.TableValue(opts))
	if err != nil {
		return llm.ValueHash(ToGo(req))
	}
	return r.Hash()
}

// ReplayRecord is llm.replay_record.
func (rt *Runtime) ReplayRecord(src leia.Value) leia.Value {
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
		out.SetStr("request_hash", leia.String(rt.requestHashOf(out.GetStr("request"))))
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
	// hash is the request hash of a turn request (the runtime's).
	hash                       func(leia.Value) string
	fixtureID, strategy        string
	identity                   []string
	consumeMatch, consumeMiss  bool
	records                    []leia.Value
	next, requests             int
	matched, misses, exhausted int
	findings, matchedRecordIDs []string
}

func (rt *Runtime) newReplayIndex(records, opts leia.Value) (*replayIndex, leia.Value) {
	s := &replayIndex{
		hash:         rt.requestHashOf,
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
		id.SetStr("request_hash", leia.String(s.hash(req)))
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
func (rt *Runtime) ReplayFixture(input, opts leia.Value) (leia.Value, leia.Value) {
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
		appendTo(norm, rt.ReplayRecord(r))
	}
	io := leia.NewTable(0, 6)
	for _, src := range []leia.Value{input, opts} {
		setEach(io, []string{"fixture_id", "strategy", "identity_fields", "consume_on_match", "consume_on_mismatch"}, src)
	}
	iov := leia.TableValue(io)
	s, e := rt.newReplayIndex(leia.TableValue(norm), iov)
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

// replayedResult answers a turn from replay options ({response}): the
// response's status, text, calls, reason and usage (a string response is
// the text of a final answer).
func replayedResult(opts leia.Value) (llm.TurnResult, bool) {
	resp := Field(Field(opts, "replay"), "response")
	if resp.IsNil() {
		return llm.TurnResult{}, false
	}
	if resp.Kind() == leia.KindString {
		return llm.TurnResult{Status: llm.StatusFinalAnswer, Text: resp.AsString()}, true
	}
	res := llm.TurnResult{Status: StrField(resp, "status"), Text: StrField(resp, "text"), Reason: StrField(resp, "reason")}
	for _, c := range Items(Field(resp, "calls")) {
		res.Calls = append(res.Calls, toolCall(c))
	}
	u := Field(resp, "usage")
	res.Usage = llm.TurnUsage{InputTokens: IntOf(Field(u, "input_tokens")), OutputTokens: IntOf(Field(u, "output_tokens")), Cost: Field(u, "cost").AsFloat()}
	return res, true
}
