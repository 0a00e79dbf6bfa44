package evaluate

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Every local refusal is decided before dispatch: the fake provider sees
// zero requests, the receipt says not_dispatched with zero attempts.
func TestAdmissionRefusalsMakeZeroRequests(t *testing.T) {
	f := newFakeProvider(t)
	bigState := `{"log": "` + strings.Repeat("x", 4*8192) + `"}`
	nativeBig := `{"log": "` + strings.Repeat("y", 4*31_000) + `"}`
	cancelledCtx, cancel := context.WithCancel(context.Background())
	cancel()
	pastCtx, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Minute))
	defer cancel2()
	one := 1.0
	tests := []struct {
		name      string
		req       func(t *testing.T) Request
		ctx       context.Context
		ceiling   *float64
		kind      string
		field     string
		value     any
		admission string
	}{
		{name: "unknown route", req: func(t *testing.T) Request { return request(t, "nobody", "x", "") },
			kind: OutcomeUnavailable, field: "reason", value: "model_unconfigured"},
		{name: "route without decision support", req: func(t *testing.T) Request { return request(t, "local", "nodecide", "") },
			kind: OutcomeUnavailable, field: "reason", value: "model_unconfigured"},
		{name: "empty question set", req: func(t *testing.T) Request {
			r := request(t, "local", "judge", "")
			r.Questions = decode(t, `{}`)
			return r
		}, kind: OutcomeQuestionInvalid, field: "reason", value: "empty_questions"},
		{name: "too many questions", req: func(t *testing.T) Request {
			r := request(t, "local", "judge", "")
			r.Questions = decode(t, `{"a":{"kind":"boolean","instructions":"a"},"b":{"kind":"boolean","instructions":"b"},"c":{"kind":"boolean","instructions":"c"},"d":{"kind":"boolean","instructions":"d"},"e":{"kind":"boolean","instructions":"e"}}`)
			return r
		}, kind: OutcomeQuestionInvalid, field: "reason", value: "too_many_questions"},
		{name: "empty instructions", req: func(t *testing.T) Request {
			r := request(t, "local", "judge", "")
			r.Questions = decode(t, `{"a":{"kind":"boolean","instructions":"  "}}`)
			return r
		}, kind: OutcomeQuestionInvalid, field: "question", value: "a"},
		{name: "empty identifier", req: func(t *testing.T) Request {
			r := request(t, "local", "judge", "")
			r.Questions = decode(t, `{" ":{"kind":"boolean","instructions":"q"}}`)
			return r
		}, kind: OutcomeQuestionInvalid, field: "reason", value: "empty_identifier"},
		{name: "empty options", req: func(t *testing.T) Request {
			r := request(t, "local", "judge", "")
			r.Questions = decode(t, `{"a":{"kind":"choice","instructions":"q","criteria":{}}}`)
			return r
		}, kind: OutcomeQuestionInvalid, field: "reason", value: "empty_options"},
		{name: "duplicate levels", req: func(t *testing.T) Request {
			r := request(t, "local", "judge", "")
			r.Questions = decode(t, `{"a":{"kind":"score","instructions":"q","levels":["lo","lo","hi"]}}`)
			return r
		}, kind: OutcomeQuestionInvalid, field: "reason", value: "duplicate_labels"},
		{name: "too few levels", req: func(t *testing.T) Request {
			r := request(t, "local", "judge", "")
			r.Questions = decode(t, `{"a":{"kind":"score","instructions":"q","levels":["only"]}}`)
			return r
		}, kind: OutcomeQuestionInvalid, field: "reason", value: "too_few_levels"},
		{name: "too many levels", req: func(t *testing.T) Request {
			r := request(t, "local", "judge", "")
			r.Questions = decode(t, `{"a":{"kind":"score","instructions":"q","levels":["1","2","3","4","5","6","7","8","9","10","11"]}}`)
			return r
		}, kind: OutcomeQuestionInvalid, field: "reason", value: "too_many_levels"},
		{name: "state too large", req: func(t *testing.T) Request {
			r := request(t, "local", "judge", "")
			r.State = decode(t, bigState)
			return r
		}, kind: OutcomeStateTooLarge, field: "limit_tokens", value: int64(8192 - 2048)},
		{name: "native state plus longest question", req: func(t *testing.T) Request {
			r := request(t, "vercel", "typesafe/jev-1.13", ", \"run_cost_limit\": 1.0")
			r.State = decode(t, nativeBig)
			r.Questions = decode(t, `{"q":{"kind":"boolean","instructions":"`+strings.Repeat("z", 4*2000)+`"}}`)
			return r
		}, kind: OutcomeStateTooLarge, field: "limit_tokens", value: int64(32000)},
		{name: "native whole request", req: func(t *testing.T) Request {
			r := request(t, "vercel", "typesafe/jev-1.13", ", \"run_cost_limit\": 1.0")
			r.State = decode(t, `{"log": "`+strings.Repeat("y", 4*20_000)+`"}`)
			qs := `{`
			for i := range 9 {
				if i > 0 {
					qs += ","
				}
				qs += `"q` + string(rune('a'+i)) + `":{"kind":"boolean","instructions":"` + strings.Repeat("z", 4*5000) + `"}`
			}
			r.Questions = decode(t, qs+`}`)
			return r
		}, kind: OutcomeStateTooLarge, field: "limit_tokens", value: int64(64000)},
		{name: "route without a window", req: func(t *testing.T) Request { return request(t, "local", "nowindow", "") },
			kind: OutcomeUnavailable, field: "reason", value: "unsupported_options"},
		{name: "unknown price", req: func(t *testing.T) Request { return request(t, "local", "unpriced", "") },
			kind: OutcomeUnavailable, field: "reason", value: "unsupported_options"},
		{name: "evaluation cost limit", req: func(t *testing.T) Request {
			return request(t, "local", "judge", `, "evaluation_cost_limit": 0.000001`)
		}, kind: OutcomeBudgetCut, field: "limit", value: "evaluation_cost"},
		{name: "run cost limit", req: func(t *testing.T) Request {
			return request(t, "local", "judge", `, "run_cost_limit": 0.000001`)
		}, kind: OutcomeBudgetCut, field: "limit", value: "run_cost"},
		{name: "cancelled", req: func(t *testing.T) Request { return request(t, "local", "judge", "") }, ctx: cancelledCtx,
			kind: OutcomeCancelled, field: "control_event", value: "interrupt"},
		{name: "deadline passed", req: func(t *testing.T) Request { return request(t, "local", "judge", "") }, ctx: pastCtx,
			kind: OutcomeBudgetCut, field: "limit", value: "deadline"},
		{name: "native with effort", req: func(t *testing.T) Request {
			return request(t, "vercel", "typesafe/jev-1.13", `, "effort": "none", "run_cost_limit": 1.0`)
		}, kind: OutcomeUnavailable, field: "reason", value: "unsupported_options"},
		{name: "native with temperature", req: func(t *testing.T) Request {
			return request(t, "openrouter", "typesafe/jev-1.13", `, "temperature": 0.0, "run_cost_limit": 1.0`)
		}, kind: OutcomeUnavailable, field: "reason", value: "unsupported_options"},
		{name: "structured backend on a native route", req: func(t *testing.T) Request {
			r := request(t, "typesafe", "jev-1.13", `, "run_cost_limit": 1.0`)
			r.Policy = decode(t, `{"backend":"structured_llm","provider":"typesafe","model":"jev-1.13","threshold":0.5}`)
			return r
		}, kind: OutcomeUnavailable, field: "reason", value: "unsupported_options"},
		{name: "native backend on a chat route", req: func(t *testing.T) Request {
			r := request(t, "local", "judge", "")
			r.Policy = decode(t, `{"backend":"native_decision","provider":"local","model":"judge","threshold":0.5,"run_cost_limit":1.0}`)
			return r
		}, kind: OutcomeUnavailable, field: "reason", value: "unsupported_options"},
		{name: "native without conservative authority", req: func(t *testing.T) Request {
			return request(t, "vercel", "typesafe/jev-1.13", "")
		}, kind: OutcomeUnavailable, field: "reason", value: "admission_refused", admission: "no_conservative_ceiling"},
		{name: "native over the execution ceiling", req: func(t *testing.T) Request {
			return request(t, "vercel", "typesafe/jev-1.13", "")
		}, ceiling: ptrF(0), kind: OutcomeBudgetCut, field: "limit", value: "run_cost"},
		{name: "structured call over the execution ceiling", req: func(t *testing.T) Request {
			return request(t, "local", "judge", "")
		}, ceiling: ptrF(0.000001), kind: OutcomeBudgetCut, field: "limit", value: "run_cost"},
		{name: "structured temperature", req: func(t *testing.T) Request {
			return request(t, "local", "judge", `, "temperature": 0.7`)
		}, kind: OutcomeUnavailable, field: "reason", value: "unsupported_options"},
		{name: "structured empty effort", req: func(t *testing.T) Request {
			return request(t, "local", "judge", `, "effort": " "`)
		}, kind: OutcomeUnavailable, field: "reason", value: "unsupported_options"},
	}
	_ = one
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := f.requests.Load()
			e := newEvaluator(t, f, tc.ceiling)
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			res, err := e.Evaluate(ctx, tc.req(t))
			if err != nil {
				t.Fatal(err)
			}
			if n := f.requests.Load() - before; n != 0 {
				t.Errorf("%d provider request(s), want 0", n)
			}
			o := res.Outcome
			if o.Kind != tc.kind || o.Field(tc.field) != tc.value {
				t.Errorf("outcome %v, want %s with %s = %v", o.Value(), tc.kind, tc.field, tc.value)
			}
			rc := res.Receipt
			if rc.PhysicalAttempts != 0 || rc.AccountingStatus != AccountingNotDispatched || rc.OutcomeKind != tc.kind || rc.ServedModel != nil {
				t.Errorf("receipt %+v", rc)
			}
			if tc.admission != "" && (rc.AdmissionReason == nil || *rc.AdmissionReason != tc.admission) {
				t.Errorf("admission_reason %v, want %s", rc.AdmissionReason, tc.admission)
			}
			if got := e.Journal(); got == nil {
				t.Fatal("no journal")
			} else if rs, _ := got.Snapshot(); len(rs) != 1 || rs[0] != rc {
				t.Errorf("journal holds %d receipts", len(rs))
			}
			if st := e.Ledger().State(); st.Reserved != 0 || st.Spent != 0 || st.Uncertain != 0 {
				t.Errorf("ledger %+v after a refusal", st)
			}
		})
	}
}

func ptrF(f float64) *float64 { return &f }

// Late activation: unreserved spending before any ceiling cannot be
// covered by a ceiling a later native policy brings.
func TestLateActivation(t *testing.T) {
	f := newFakeProvider(t)
	e := newEvaluator(t, f, nil)
	if res := mustEvaluate(t, e, request(t, "local", "judge", "")); res.Outcome.Kind != OutcomeAnswered {
		t.Fatalf("adaptive call: %v", res.Outcome.Value())
	}
	before := f.requests.Load()
	res := mustEvaluate(t, e, request(t, "vercel", "typesafe/jev-1.13", `, "run_cost_limit": 1.0`))
	if res.Outcome.Field("reason") != "admission_refused" || *res.Receipt.AdmissionReason != "late_activation" || f.requests.Load() != before {
		t.Errorf("late activation: %v %v", res.Outcome.Value(), res.Receipt.AdmissionReason)
	}
}

// Malformed input is an error, not an outcome, and makes no request.
func TestMalformedInputIsAnError(t *testing.T) {
	f := newFakeProvider(t)
	e := newEvaluator(t, f, nil)
	for name, mutate := range map[string]func(r *Request){
		"policy unknown field": func(r *Request) {
			r.Policy = decode(t, `{"backend":"structured_llm","provider":"p","model":"m","threshold":0.5,"colour":"red"}`)
		},
		"policy threshold above 1": func(r *Request) {
			r.Policy = decode(t, `{"backend":"structured_llm","provider":"p","model":"m","threshold":1.5}`)
		},
		"policy negative limit": func(r *Request) {
			r.Policy = decode(t, `{"backend":"structured_llm","provider":"p","model":"m","threshold":0.5,"run_cost_limit":-1}`)
		},
		"policy bad backend": func(r *Request) {
			r.Policy = decode(t, `{"backend":"oracle","provider":"p","model":"m","threshold":0.5}`)
		},
		"policy missing model":   func(r *Request) { r.Policy = decode(t, `{"backend":"structured_llm","provider":"p","threshold":0.5}`) },
		"policy not a record":    func(r *Request) { r.Policy = decode(t, `[1]`) },
		"questions not a map":    func(r *Request) { r.Questions = decode(t, `["q"]`) },
		"question unknown kind":  func(r *Request) { r.Questions = decode(t, `{"a":{"kind":"essay","instructions":"q"}}`) },
		"question unknown field": func(r *Request) { r.Questions = decode(t, `{"a":{"kind":"boolean","instructions":"q","levels":[]}}`) },
		"choice without criteria": func(r *Request) {
			r.Questions = decode(t, `{"a":{"kind":"choice","instructions":"q"}}`)
		},
		"score level not a string": func(r *Request) {
			r.Questions = decode(t, `{"a":{"kind":"score","instructions":"q","levels":["a",1]}}`)
		},
		"boolean criteria shape": func(r *Request) {
			r.Questions = decode(t, `{"a":{"kind":"boolean","instructions":"q","criteria":{"true":"y"}}}`)
		},
	} {
		r := request(t, "local", "judge", "")
		mutate(&r)
		if _, err := e.Evaluate(context.Background(), r); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if n := f.requests.Load(); n != 0 {
		t.Errorf("%d requests", n)
	}
	for _, bad := range []string{`{"site_id":"s","state":1,"questions":{},"policy":{},"labels":[]}`, `{"site_id":"s"}`, `{"site_id":1,"state":1,"questions":{},"policy":{}}`, `[]`, `{`} {
		if _, err := DecodeRequest([]byte(bad)); err == nil {
			t.Errorf("DecodeRequest(%s): no error", bad)
		}
	}
}
