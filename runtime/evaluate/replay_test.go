package evaluate

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/llm"
)

// A tape recorded from the fake HTTP provider replays byte for byte with
// no provider; a changed question set is a replay_mismatch, never a
// silent answer, and fails the tape.
func TestReplayTape(t *testing.T) {
	f := newFakeProvider(t)
	cat := testCatalog(t, f.srv.URL)
	tape := llm.NewRecordingTape()
	live := New(Options{Catalog: cat, Tape: tape, LLM: llm.Options{Getenv: getenv}})
	reqs := []Request{
		request(t, "local", "judge", ""),
		request(t, "nobody", "x", ""), // a local refusal is recorded too
		request(t, "local", "judge", ""),
	}
	var liveOut [][]byte
	for _, r := range reqs {
		res := mustEvaluate(t, live, r)
		liveOut = append(liveOut, canonjson.MustEncode(res.Outcome.Value()))
	}
	var file bytes.Buffer
	if _, err := tape.WriteTo(&file); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(file.String(), fakeKey) {
		t.Error("the tape holds the credential")
	}
	sent := f.requests.Load()
	if sent != 2 {
		t.Fatalf("recording made %d requests", sent)
	}
	open := func() *llm.Tape {
		tp, err := llm.ReadTape(bytes.NewReader(file.Bytes()), "t.tape")
		if err != nil {
			t.Fatal(err)
		}
		return tp
	}
	// Replay: no credentials, no provider.
	rt := open()
	replay := New(Options{Catalog: cat, Tape: rt})
	for i, r := range reqs {
		res := mustEvaluate(t, replay, r)
		if got := canonjson.MustEncode(res.Outcome.Value()); !bytes.Equal(got, liveOut[i]) {
			t.Errorf("replay %d:\n%s\nlive:\n%s", i, got, liveOut[i])
		}
		rc := res.Receipt
		if rc.Source != SourceTape || rc.PhysicalAttempts != 0 || *rc.CostUSD != 0 || rc.ReusedFrom == nil || rc.AccountingStatus != AccountingNotDispatched {
			t.Errorf("replay receipt %d: %+v", i, rc)
		}
		if orig, _ := ParseReceipt(rc.ReusedFrom); orig == nil || orig.Source != SourceLive || orig.InvocationID != rc.InvocationID {
			t.Errorf("reused_from %d: %+v", i, orig)
		}
		// A replayed receipt still verifies against its request.
		if v, err := Verify(cat, canonjson.MustEncode(r.Value()), canonjson.MustEncode(rc.Value())); err != nil || !v.Verified {
			t.Errorf("replayed receipt %d does not verify: %v %+v", i, err, v)
		}
	}
	if err := rt.Finish(); err != nil {
		t.Errorf("finish: %v", err)
	}
	if f.requests.Load() != sent {
		t.Errorf("replay made %d requests", f.requests.Load()-sent)
	}
	// A changed question set.
	rt = open()
	replay = New(Options{Catalog: cat, Tape: rt})
	changed := reqs[0]
	changed.Questions = decode(t, strings.Replace(triageQuestions, `"high"]`, `"high", "critical"]`, 1))
	res := mustEvaluate(t, replay, changed)
	if res.Outcome.Kind != OutcomeReplayMismatch || res.Outcome.Field("occurrence") != int64(1) ||
		res.Outcome.Field("actual_identity") != res.Receipt.EvaluationID || res.Outcome.Field("expected_identity") == res.Receipt.EvaluationID ||
		res.Receipt.PhysicalAttempts != 0 || res.Receipt.OutcomeKind != OutcomeReplayMismatch {
		t.Errorf("changed questions: %v", res.Outcome.Value())
	}
	if err := rt.Finish(); err == nil || !strings.Contains(err.Error(), "replay mismatch") {
		t.Errorf("finish after a mismatch: %v", err)
	}
	// Fewer evaluations than records fail at Finish; more are mismatches.
	rt = open()
	replay = New(Options{Catalog: cat, Tape: rt})
	mustEvaluate(t, replay, reqs[0])
	if err := rt.Finish(); err == nil || !strings.Contains(err.Error(), "2 unconsumed") {
		t.Errorf("unconsumed: %v", err)
	}
	rt = open()
	replay = New(Options{Catalog: cat, Tape: rt})
	for _, r := range reqs {
		mustEvaluate(t, replay, r)
	}
	if res := mustEvaluate(t, replay, reqs[0]); res.Outcome.Kind != OutcomeReplayMismatch || res.Outcome.Field("expected_identity") != "" {
		t.Errorf("past the end: %v", res.Outcome.Value())
	}
	if f.requests.Load() != sent {
		t.Errorf("a replaying tape reached the provider")
	}
}

// A tampered record (its receipt no longer binds its request) replays as
// a mismatch, never as an answer.
func TestReplayRejectsTamperedRecord(t *testing.T) {
	f := newFakeProvider(t)
	cat := testCatalog(t, f.srv.URL)
	tape := llm.NewRecordingTape()
	mustEvaluate(t, New(Options{Catalog: cat, Tape: tape, LLM: llm.Options{Getenv: getenv}}), request(t, "local", "judge", ""))
	var file bytes.Buffer
	_, _ = tape.WriteTo(&file)
	tampered := strings.Replace(file.String(), `"outcome_kind":"answered"`, `"outcome_kind":"refused"`, 1)
	rt, err := llm.ReadTape(strings.NewReader(tampered), "t.tape")
	if err != nil {
		t.Fatal(err)
	}
	res := mustEvaluate(t, New(Options{Catalog: cat, Tape: rt}), request(t, "local", "judge", ""))
	if res.Outcome.Kind != OutcomeReplayMismatch || rt.Finish() == nil {
		t.Errorf("tampered: %v", res.Outcome.Value())
	}
}

// The two seed examples against the built-in mock route: answered, with
// receipts that verify.
func TestSeedExamplesOnTheMockRoute(t *testing.T) {
	e := New(Options{})
	triage := Request{SiteID: "compaction.triage.v1", State: decode(t, `{"messages": ["rm -rf build/", "ls"]}`),
		Questions: decode(t, triageQuestions),
		Policy:    decode(t, `{"backend": "structured_llm", "provider": "mock", "model": "fixture", "threshold": 0.8, "evaluation_cost_limit": 0.0, "run_cost_limit": 0.0}`)}
	res := mustEvaluate(t, e, triage)
	if res.Outcome.Kind != OutcomeAnswered || res.Receipt.PhysicalAttempts != 1 || *res.Receipt.CostUSD != 0 || *res.Receipt.ServedModel != "fixture" {
		t.Fatalf("triage: %v %+v", res.Outcome.Value(), res.Receipt)
	}
	if v, err := Verify(e.Catalog(), canonjson.MustEncode(triage.Value()), canonjson.MustEncode(res.Receipt.Value())); err != nil || !v.Verified {
		t.Errorf("triage receipt: %v %+v", err, v)
	}
	rs, dropped := e.Journal().Snapshot()
	if len(rs) != 1 || dropped != 0 {
		t.Errorf("journal %d %d", len(rs), dropped)
	}
	if r, ok := e.Journal().Lookup(res.Outcome.Receipt()); !ok || r != res.Receipt {
		t.Error("the outcome's receipt handle does not find its receipt")
	}
}

func TestJournalBound(t *testing.T) {
	j := &Journal{}
	for range MaxJournal + 5 {
		j.Record(&Receipt{})
	}
	rs, dropped := j.Snapshot()
	if len(rs) != MaxJournal || dropped != 5 {
		t.Errorf("kept %d, dropped %d", len(rs), dropped)
	}
}

// No receipt, outcome error, tape or verification report holds the
// credential; no receipt holds the state text.
func TestNoSecretsInReceipts(t *testing.T) {
	f := newFakeProvider(t)
	e := newEvaluator(t, f, nil)
	var out bytes.Buffer
	for _, respond := range []func(){
		func() { f.set(f.answerAll(0.9)) },
		func() { f.set(nativeFixture(1, false)) },
	} {
		respond()
		for _, r := range []Request{request(t, "local", "judge", ""), request(t, "local", "prompt", ""), request(t, "vercel", "typesafe/jev-1.13", `, "run_cost_limit": 1.0`), request(t, "nobody", "x", "")} {
			res, err := e.Evaluate(context.Background(), r)
			if err != nil {
				out.WriteString(err.Error())
				continue
			}
			out.Write(canonjson.MustEncode(res.Receipt.Value()))
			v, _ := Verify(e.Catalog(), canonjson.MustEncode(r.Value()), canonjson.MustEncode(res.Receipt.Value()))
			out.Write(canonjson.MustEncode(v.Value()))
		}
	}
	// Errors from malformed input name the field, never the state.
	for _, mutate := range []func(r *Request){
		func(r *Request) { r.Questions = decode(t, `{"a":{"kind":"essay","instructions":"q"}}`) },
		func(r *Request) {
			r.Policy = decode(t, `{"backend":"structured_llm","provider":"local","threshold":0.5}`)
		},
	} {
		bad := request(t, "local", "judge", "")
		mutate(&bad)
		_, err := e.Evaluate(context.Background(), bad)
		if err == nil {
			t.Fatal("malformed input accepted")
		}
		out.WriteString(err.Error())
	}
	s := out.String()
	if strings.Contains(s, fakeKey) || strings.Contains(s, secretText) || strings.Contains(s, "rm -rf") {
		t.Errorf("receipts leak a secret or the state:\n%s", s)
	}
	if !strings.Contains(s, ReceiptSchema) {
		t.Error("nothing was checked")
	}
}
