package ai

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Script-level replay, provider-free: records and fixtures are ordinary
// tables around the identity fields operation, capability, replay_key and
// request_hash, matched strictly in order by one matcher (the same rule
// as the host's Replay: the next record must carry the identity asked
// for; a mismatch consumes it, past the end is exhausted).
//
//	llm.replay_record(spec)             record, err: {kind: "replay_record", version: "replay_record.v1",
//	                                    operation, capability, replay_key, request_hash, response_hash,
//	                                    request, response, replay: {strategy: "strict_ordered"}}
//	llm.replay_index(records, opts)     a matcher: index.match({operation, capability, replay_key,
//	                                    request_hash}) -> {status: matched|mismatch|exhausted, ...}
//	llm.replay_fixture(records, opts)   a fixture: the matcher plus fixture.replay(request, replay_key)
//	                                    -> replay options for llm.turn({..., replay = options}), or nil, err
//	llm.replay_trace_event(match, opts) the match as a trace event (replay_record_matched,
//	                                    replay_record_mismatch, replay_record_exhausted), identity only
//
// A turn whose request carries replay options with a response answers
// from them: no provider is asked, and the turn is traced as replayed.

// DefaultReplayOperation is a record's operation (and capability) when
// the spec names none.
const DefaultReplayOperation = "llm.turn"

func init() {
	Register("llm", func(rt *Runtime) map[string]leia.NativeFunc {
		return map[string]leia.NativeFunc{
			"replay_record": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				spec := leia.Arg(a, 0)
				if spec.Table() == nil {
					return nil, fmt.Errorf("bad argument #1 to 'llm.replay_record' (table expected)")
				}
				rec, e := replayRecord(spec)
				return t.Ret2(rec, e), nil
			},
			"replay_index": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				if leia.Arg(a, 0).Table() == nil {
					return nil, fmt.Errorf("bad argument #1 to 'llm.replay_index' (record list expected)")
				}
				idx, e := newReplayMatcher(a[0])
				if !e.IsNil() {
					return t.Ret2(leia.Nil, e), nil
				}
				return t.Ret1(idx.table("replay_index", leia.Arg(a, 1))), nil
			},
			"replay_fixture": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				if leia.Arg(a, 0).Table() == nil {
					return nil, fmt.Errorf("bad argument #1 to 'llm.replay_fixture' (record list expected)")
				}
				idx, e := newReplayMatcher(a[0])
				if !e.IsNil() {
					return t.Ret2(leia.Nil, e), nil
				}
				fx := idx.table("replay_fixture", leia.Arg(a, 1))
				fx.Table().SetStr("fixture_id", leia.String(StrField(leia.Arg(a, 1), "fixture_id")))
				fx.Table().SetStr("replay", leia.NewNative("replay", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
					// fixture.replay(request, key) or fixture:replay(request, key)
					if len(a) > 0 && a[0].Table() == fx.Table() {
						a = a[1:]
					}
					if leia.Arg(a, 0).Table() == nil {
						return nil, fmt.Errorf("bad argument #1 to 'replay' (request table expected)")
					}
					m := idx.match(T("operation", DefaultReplayOperation, "capability", DefaultReplayOperation,
						"replay_key", leia.Arg(a, 1), "request_hash", requestHash(rt, a[0])))
					if StrField(m, "status") != "matched" {
						return t.Ret2(leia.Nil, ErrorWith("validation", "replay "+StrField(m, "status")+": "+StrField(m, "message"), "match", m)), nil
					}
					rec := Field(m, "record")
					return t.Ret2(T("status", "matched", "replay_key", Field(rec, "replay_key"), "request_hash", Field(rec, "request_hash"),
						"response_hash", Field(rec, "response_hash"), "response", Field(rec, "response")), leia.Nil), nil
				}))
				return t.Ret1(fx), nil
			},
			"replay_trace_event": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				m := leia.Arg(a, 0)
				if m.Table() == nil {
					return nil, fmt.Errorf("bad argument #1 to 'llm.replay_trace_event' (match table expected)")
				}
				return t.Ret1(replayTraceEvent(m, leia.Arg(a, 1))), nil
			},
		}
	})
}

// requestHash is the hash of a request table as a turn would send it (the
// model alias resolved, messages built from system/user when absent).
func requestHash(rt *Runtime, req leia.Value) string {
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

func replayRecord(spec leia.Value) (leia.Value, leia.Value) {
	key := StrField(spec, "replay_key")
	if key == "" {
		return leia.Nil, ErrorWith("validation", "replay_record requires a replay_key", "field", "replay_key")
	}
	req, resp := Field(spec, "request"), Field(spec, "response")
	if req.IsNil() {
		return leia.Nil, ErrorWith("validation", "replay_record requires a request", "field", "request")
	}
	op := StrField(spec, "operation")
	if op == "" {
		op = DefaultReplayOperation
	}
	capability := StrField(spec, "capability")
	if capability == "" {
		capability = op
	}
	hash := StrField(spec, "request_hash")
	if hash == "" {
		if r, err := Request(req); err == nil {
			hash = r.Hash()
		} else {
			hash = llm.ValueHash(ToGo(req))
		}
	}
	return T("kind", "replay_record", "schema_version", 1, "version", "replay_record.v1", "operation", op, "capability", capability,
		"replay_key", key, "request_hash", hash, "response_hash", llm.ValueHash(ToGo(resp)), "request", req, "response", resp,
		"replay", T("strategy", "strict_ordered")), leia.Nil
}

// replayMatcher is the one strict ordered matcher of index and fixture.
type replayMatcher struct {
	records []leia.Value
	next    int
}

func newReplayMatcher(list leia.Value) (*replayMatcher, leia.Value) {
	m := &replayMatcher{}
	for i, r := range Items(list) {
		if StrField(r, "kind") != "replay_record" {
			rec, e := replayRecord(r)
			if !e.IsNil() {
				e.Table().SetStr("record", leia.Int(int64(i+1)))
				return nil, e
			}
			r = rec
		}
		m.records = append(m.records, r)
	}
	return m, leia.Nil
}

func (m *replayMatcher) table(kind string, opts leia.Value) leia.Value {
	t := T("kind", kind, "schema_version", 1, "strategy", "strict_ordered", "records", List(m.records...), "record_count", len(m.records))
	t.Table().SetStr("match", leia.NewNative("match", func(th *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if len(a) > 0 && a[0].Table() == t.Table() {
			a = a[1:]
		}
		if leia.Arg(a, 0).Table() == nil {
			return nil, fmt.Errorf("bad argument #1 to 'match' (identity table expected)")
		}
		return th.Ret1(m.match(a[0])), nil
	}))
	t.Table().SetStr("remaining", leia.NewNative("remaining", func(th *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		return th.Ret1(leia.Int(int64(len(m.records) - m.next))), nil
	}))
	return t
}

// match consumes the next record: matched when its identity fields equal
// the ones asked for (a field the query leaves out is not compared),
// mismatch otherwise (the record is consumed all the same), exhausted
// past the last record.
func (m *replayMatcher) match(q leia.Value) leia.Value {
	pos := m.next + 1
	actual := T("operation", Field(q, "operation"), "capability", Field(q, "capability"), "replay_key", Field(q, "replay_key"), "request_hash", Field(q, "request_hash"))
	if m.next >= len(m.records) {
		return T("status", "exhausted", "position", pos, "actual", actual, "consumed", m.next, "remaining", 0,
			"message", fmt.Sprintf("no record left for position %d", pos))
	}
	rec := m.records[m.next]
	m.next++
	for _, f := range []string{"operation", "capability", "replay_key", "request_hash"} {
		want := Field(q, f)
		if want.IsNil() {
			continue
		}
		if Str(want) != StrField(rec, f) {
			return T("status", "mismatch", "position", pos, "field", f, "actual", actual, "record_id", fmt.Sprintf("record-%d", pos),
				"expected", T("operation", Field(rec, "operation"), "capability", Field(rec, "capability"), "replay_key", Field(rec, "replay_key"), "request_hash", Field(rec, "request_hash")),
				"consumed", m.next, "remaining", len(m.records)-m.next, "message", fmt.Sprintf("position %d: %s differs", pos, f))
		}
	}
	return T("status", "matched", "position", pos, "record", rec, "record_id", fmt.Sprintf("record-%d", pos),
		"consumed", m.next, "remaining", len(m.records)-m.next)
}

func replayTraceEvent(m, opts leia.Value) leia.Value {
	status := StrField(m, "status")
	typ := "replay_record_" + status
	rec := Field(m, "record")
	ident := rec
	if ident.IsNil() {
		ident = Field(m, "expected")
	}
	if ident.IsNil() {
		ident = Field(m, "actual")
	}
	payload := T("position", Field(m, "position"), "consumed", Field(m, "consumed"), "remaining", Field(m, "remaining"),
		"field", Field(m, "field"), "record_id", Field(m, "record_id"))
	if e := StrField(opts, "event_type"); e != "" {
		typ = e
	}
	return TraceEventValue(T("trace_id", Field(opts, "trace_id"), "event_type", typ, "status", status,
		"replay_key", Field(ident, "replay_key"), "request_hash", Field(ident, "request_hash"), "response_hash", Field(rec, "response_hash"),
		"payload", payload), 0)
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
