package evaluate

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/canonjson"
)

func TestStructuredAnswered(t *testing.T) {
	f := newFakeProvider(t)
	e := newEvaluator(t, f, nil)
	res := mustEvaluate(t, e, request(t, "local", "judge", `, "effort": "low"`))
	if res.Outcome.Kind != OutcomeAnswered {
		t.Fatalf("outcome %v", res.Outcome.Value())
	}
	value := res.Outcome.Field("value").(map[string]any)
	disp := value["disposition"].(map[string]any)
	// Labels are sorted: drop, keep, reword; the fake picks the first.
	if disp["choice"] != "drop" || disp["confidence_kind"] != ConfidenceRationale || disp["evidence_kind"] != EvidenceRationale || disp["confidence"] != 0.95 {
		t.Errorf("disposition %v", disp)
	}
	probs := disp["probabilities"].(map[string]any)
	if probs["drop"] != 0.95 || fmt.Sprintf("%.3f", probs["keep"]) != "0.025" {
		t.Errorf("synthesised distribution %v", probs)
	}
	risk := value["risk"].(map[string]any)
	if risk["level"] != "none" || risk["score"] != 0.0 {
		t.Errorf("risk %v", risk)
	}
	safe := value["safe"].(map[string]any)
	if safe["verdict"] != true || safe["probability"] != 0.95 {
		t.Errorf("safe %v", safe)
	}
	rc := res.Receipt
	if rc.PhysicalAttempts != 1 || rc.AccountingStatus != AccountingSettled || *rc.ServedModel != "judge-served-2026" ||
		*rc.InputTokens != 300 || *rc.OutputTokens != 40 || *rc.CostAdmission != CostAdaptive || rc.Source != SourceLive {
		t.Errorf("receipt %+v", rc)
	}
	if want := (300*1.0 + 40*2.0) / 1e6; *rc.CostUSD != want || *rc.BudgetChargeUSD != want || e.Ledger().State().Spent != want {
		t.Errorf("cost %v, charge %v, ledger %+v", *rc.CostUSD, *rc.BudgetChargeUSD, e.Ledger().State())
	}
	for _, q := range rc.Questions {
		if q.ConfidenceKind == nil || *q.ConfidenceKind != ConfidenceRationale || len(q.RawProbabilities) != 0 {
			t.Errorf("receipt question %+v: a model report measures no distribution", q)
		}
	}
	// The wire request: one chat completion, native schema, temperature 0.
	body := f.lastBody()
	if body["temperature"] != 0.0 || body["reasoning_effort"] != "low" || body["max_tokens"] != float64(MaxEvaluationOutputTokens) || body["model"] != "judge" {
		t.Errorf("request body %v", body)
	}
	if rf := body["response_format"].(map[string]any); rf["type"] != "json_schema" {
		t.Errorf("response_format %v", rf)
	}
	if f.requests.Load() != 1 {
		t.Errorf("requests %d", f.requests.Load())
	}
}

func TestStructuredLowConfidenceAndRefusals(t *testing.T) {
	f := newFakeProvider(t)
	reply := func(content, finish string) func(w http.ResponseWriter, path string, body map[string]any) {
		return func(w http.ResponseWriter, path string, body map[string]any) {
			c := content
			if c == "" {
				c = structuredAnswer(body, 0.95, map[string]any{"risk": map[string]any{"level": "high", "confidence": 0.3, "evidence": "x"}})
			}
			chatReply(w, c, finish)
		}
	}
	tests := []struct {
		name, content, finish string
		kind, reason          string
	}{
		{"low confidence keeps every candidate", "", "stop", OutcomeLowConfidence, ""},
		{"truncated", "", "length", OutcomeRefused, "output_truncated"},
		{"content filter", "", "content_filter", OutcomeRefused, "provider_refusal"},
		{"not JSON", "I think it is fine.", "stop", OutcomeRefused, "schema_invalid"},
		{"partial answer set", `{"answers":{"safe":{"verdict":true,"confidence":0.9,"evidence":"e"}}}`, "stop", OutcomeRefused, "schema_invalid"},
		{"extra answer", `{"answers":{"safe":{"verdict":true,"confidence":0.9,"evidence":"e"},"risk":{"level":"low","confidence":0.9,"evidence":"e"},"disposition":{"choice":"keep","confidence":0.9,"evidence":"e"},"extra":{"verdict":true,"confidence":0.9,"evidence":"e"}}}`, "stop", OutcomeRefused, "schema_invalid"},
		{"undeclared label", `{"answers":{"safe":{"verdict":true,"confidence":0.9,"evidence":"e"},"risk":{"level":"catastrophic","confidence":0.9,"evidence":"e"},"disposition":{"choice":"keep","confidence":0.9,"evidence":"e"}}}`, "stop", OutcomeRefused, "schema_invalid"},
		{"confidence out of range", `{"answers":{"safe":{"verdict":true,"confidence":1.9,"evidence":"e"},"risk":{"level":"low","confidence":0.9,"evidence":"e"},"disposition":{"choice":"keep","confidence":0.9,"evidence":"e"}}}`, "stop", OutcomeRefused, "schema_invalid"},
		{"extra field", `{"answers":{"safe":{"verdict":true,"confidence":0.9,"evidence":"e","why":"x"},"risk":{"level":"low","confidence":0.9,"evidence":"e"},"disposition":{"choice":"keep","confidence":0.9,"evidence":"e"}}}`, "stop", OutcomeRefused, "schema_invalid"},
		{"verdict of the wrong type", `{"answers":{"safe":{"verdict":"yes","confidence":0.9,"evidence":"e"},"risk":{"level":"low","confidence":0.9,"evidence":"e"},"disposition":{"choice":"keep","confidence":0.9,"evidence":"e"}}}`, "stop", OutcomeRefused, "schema_invalid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f.set(reply(tc.content, tc.finish))
			before := f.requests.Load()
			res := mustEvaluate(t, newEvaluator(t, f, nil), request(t, "local", "judge", ""))
			if res.Outcome.Kind != tc.kind || (tc.reason != "" && res.Outcome.Field("reason") != tc.reason) {
				t.Fatalf("outcome %v", res.Outcome.Value())
			}
			if f.requests.Load()-before != 1 || res.Receipt.PhysicalAttempts != 1 {
				t.Errorf("requests %d, attempts %d", f.requests.Load()-before, res.Receipt.PhysicalAttempts)
			}
			if tc.kind == OutcomeLowConfidence {
				ids := res.Outcome.Field("question_ids").([]any)
				cands := res.Outcome.Field("candidates").(map[string]any)
				if len(ids) != 1 || ids[0] != "risk" || len(cands) != 3 || res.Outcome.Field("threshold") != 0.5 ||
					cands["risk"].(map[string]any)["level"] != "high" {
					t.Errorf("low_confidence %v", res.Outcome.Value())
				}
			}
			if tc.kind == OutcomeRefused && res.Receipt.AccountingStatus != AccountingSettled {
				t.Errorf("a completed malformed response keeps its settled usage: %s", res.Receipt.AccountingStatus)
			}
		})
	}
}

// 429/529/401/timeouts/redirects map onto the typed arms, each after
// exactly one request and never retried.
func TestTransportMapping(t *testing.T) {
	f := newFakeProvider(t)
	tests := []struct {
		name    string
		respond func(w http.ResponseWriter)
		kind    string
		field   string
		value   any
		reason  string
	}{
		{"429 with Retry-After", func(w http.ResponseWriter) { w.Header().Set("Retry-After", "3"); w.WriteHeader(429) },
			OutcomeRateLimited, "retry_after_ms", int64(3000), "rate_limited (HTTP 429)"},
		{"429 without delay", func(w http.ResponseWriter) { w.WriteHeader(429) }, OutcomeRateLimited, "retry_after_ms", nil, "rate_limited (HTTP 429)"},
		{"529", func(w http.ResponseWriter) { w.WriteHeader(529) }, OutcomeOverloaded, "kind", OutcomeOverloaded, "overloaded (HTTP 529)"},
		{"403", func(w http.ResponseWriter) { w.WriteHeader(403) }, OutcomeUnavailable, "reason", "authority_denied", "authority_denied (HTTP 403)"},
		{"timeout", func(w http.ResponseWriter) { time.Sleep(600 * time.Millisecond) }, OutcomeUnavailable, "reason", "transport_failed", "timeout"},
		{"redirect", func(w http.ResponseWriter) { w.Header().Set("Location", "http://127.0.0.1:1/"); w.WriteHeader(302) },
			OutcomeUnavailable, "reason", "transport_failed", "redirect_refused (HTTP 302)"},
		{"context window", func(w http.ResponseWriter) {
			w.WriteHeader(400)
			fmt.Fprint(w, `{"error":{"code":"context_length_exceeded","message":"too long: `+secretText+`"}}`)
		}, OutcomeStateTooLarge, "limit_tokens", int64(8192 - 2048), "context_window (HTTP 400) [context_length_exceeded]"},
		{"500", func(w http.ResponseWriter) { w.WriteHeader(500) }, OutcomeUnavailable, "reason", "transport_failed", "http_status (HTTP 500)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f.set(func(w http.ResponseWriter, _ string, _ map[string]any) { tc.respond(w) })
			before := f.requests.Load()
			e := newEvaluator(t, f, nil)
			res := mustEvaluate(t, e, request(t, "local", "judge", ""))
			if res.Outcome.Kind != tc.kind || res.Outcome.Field(tc.field) != tc.value {
				t.Fatalf("outcome %v", res.Outcome.Value())
			}
			if n := f.requests.Load() - before; n != 1 {
				t.Errorf("%d requests, want exactly 1", n)
			}
			rc := res.Receipt
			if rc.PhysicalAttempts != 1 || rc.AccountingStatus != AccountingUsageUnknown || rc.ProviderReason == nil || !strings.HasPrefix(*rc.ProviderReason, tc.reason) {
				t.Errorf("receipt attempts %d, accounting %s, reason %v", rc.PhysicalAttempts, rc.AccountingStatus, rc.ProviderReason)
			}
			// Unknown usage is never free: the bound stays charged.
			if rc.BudgetChargeUSD == nil || *rc.BudgetChargeUSD <= 0 || e.Ledger().State().Uncertain != *rc.BudgetChargeUSD {
				t.Errorf("charge %v, ledger %+v", rc.BudgetChargeUSD, e.Ledger().State())
			}
		})
	}
}

func TestMissingCredentialMakesNoRequest(t *testing.T) {
	f := newFakeProvider(t)
	e := New(Options{Catalog: testCatalog(t, f.srv.URL)})
	res := mustEvaluate(t, e, request(t, "local", "judge", ""))
	if res.Outcome.Field("reason") != "authority_denied" || res.Receipt.PhysicalAttempts != 0 || f.requests.Load() != 0 ||
		res.Receipt.AccountingStatus != AccountingNotDispatched {
		t.Errorf("%v %+v", res.Outcome.Value(), res.Receipt)
	}
}

// nativeFixture answers the three native wires with the shapes of the
// recorded Vercel and OpenRouter exchanges.
func nativeFixture(attempts int, contradict bool) func(w http.ResponseWriter, path string, body map[string]any) {
	return func(w http.ResponseWriter, path string, body map[string]any) {
		vercel := strings.HasSuffix(path, "/evaluate")
		qs := body["questions"].(map[string]any)
		answers := map[string]any{}
		for id, q := range qs {
			q := q.(map[string]any)
			switch q["type"] {
			case "noul":
				answers[id] = map[string]any{"type": "noul", "noul": 0.94}
			case "boolean":
				answers[id] = map[string]any{"type": "boolean", "probability": 0.95}
			case "choice":
				labels := q["criteria"].(map[string]any)
				probs := map[string]any{}
				best := ""
				for l := range labels {
					probs[l] = 0.0
					if best == "" || l < best {
						best = l
					}
				}
				probs[best] = 1.0
				named := best
				if contradict {
					for l := range labels {
						if l != best {
							named = l
						}
					}
				}
				answers[id] = map[string]any{"type": "choice", "choice": named, "probabilities": probs, "confidence": 1.0}
			case "score":
				levels := q["criteria"].([]any)
				probs := map[string]any{}
				for i := range levels {
					probs[fmt.Sprint(i)] = 0.0
				}
				probs["1"] = 1.0
				answers[id] = map[string]any{"type": "score", "score": 1.0, "probabilities": probs, "confidence": 0.9}
			}
		}
		resp := map[string]any{"model": "typesafe/jev-1.13-20260917", "answers": answers}
		if vercel {
			resp["usage"] = map[string]any{"inputTokens": 356, "outputTokens": 61}
			resp["providerMetadata"] = map[string]any{"gateway": map[string]any{"routing": map[string]any{
				"finalProvider": "typesafe-ai", "totalProviderAttemptCount": attempts}}}
		} else {
			resp["usage"] = map[string]any{"input_tokens": 356, "output_tokens": 61, "cost": 1.4952e-05}
		}
		_ = json.NewEncoder(w).Encode(resp)
	}
}

func TestNativeProtocols(t *testing.T) {
	f := newFakeProvider(t)
	f.set(nativeFixture(1, false))
	for _, tc := range []struct{ provider, model, path string }{
		{"vercel", "typesafe/jev-1.13", "/v1/evaluate"},
		{"openrouter", "typesafe/jev-1.13", "/api/alpha/decisions"},
		{"typesafe", "jev-1.13", "/v1/systemone"},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			e := newEvaluator(t, f, ptrF(0.01))
			res := mustEvaluate(t, e, request(t, tc.provider, tc.model, ""))
			if res.Outcome.Kind != OutcomeAnswered {
				t.Fatalf("outcome %v", res.Outcome.Value())
			}
			f.mu.Lock()
			path := f.paths[len(f.paths)-1]
			f.mu.Unlock()
			if path != tc.path {
				t.Errorf("path %s, want %s", path, tc.path)
			}
			body := f.lastBody()
			if _, has := body["temperature"]; has {
				t.Error("native body carries temperature")
			}
			if risk := body["questions"].(map[string]any)["risk"].(map[string]any); risk["type"] != "score" || len(risk["criteria"].([]any)) != 4 {
				t.Errorf("score question on the wire: %v", risk)
			}
			switch tc.provider {
			case "vercel":
				gw := body["providerOptions"].(map[string]any)["gateway"].(map[string]any)
				if gw["zeroDataRetention"] != true || gw["disallowPromptTraining"] != true || body["model"] != "typesafe-ai/jev" {
					t.Errorf("vercel body %v", body)
				}
			case "openrouter":
				if body["provider"].(map[string]any)["allow_fallbacks"] != false {
					t.Errorf("openrouter body %v", body)
				}
			}
			v := res.Outcome.Field("value").(map[string]any)
			safe := v["safe"].(map[string]any)
			if safe["confidence_kind"] != ConfidenceBinary || safe["evidence_kind"] != EvidenceInput {
				t.Errorf("safe %v", safe)
			}
			if risk := v["risk"].(map[string]any); risk["level"] != "low" || risk["score"] != 1.0 || risk["confidence_kind"] != ConfidenceDistribution {
				t.Errorf("risk %v", risk)
			}
			rc := res.Receipt
			if rc.Identity.StructuredOutputStrategy != nil || rc.Identity.EvaluatorInstructionVersion != NativeInstructionVer || rc.Identity.Protocol == ProtocolStructured {
				t.Errorf("identity %+v", rc.Identity)
			}
			if *rc.CostAdmission != CostConservative || rc.AccountingStatus != AccountingSettled {
				t.Errorf("admission %s, accounting %s", *rc.CostAdmission, rc.AccountingStatus)
			}
			if math.Abs(*rc.CostUSD-356*0.042/1e6) > 1e-18 || *rc.BudgetChargeUSD != *rc.CostUSD {
				t.Errorf("cost %v, charge %v", *rc.CostUSD, *rc.BudgetChargeUSD)
			}
			if rc.EstimatedRequestTokens == nil || rc.EstimatedLongestQuestionTokens == nil || *rc.ServedModel != "typesafe/jev-1.13-20260917" {
				t.Errorf("estimates %v %v, served %s", rc.EstimatedRequestTokens, rc.EstimatedLongestQuestionTokens, *rc.ServedModel)
			}
			if rc.NativeTransport == nil || (tc.provider == "vercel") != (rc.NativeTransport.ProviderAttemptsReported != nil) {
				t.Errorf("native transport %+v", rc.NativeTransport)
			}
			if len(rc.Questions) != 3 || len(rc.Questions[1].RawProbabilities) != 4 {
				t.Errorf("raw probabilities %+v", rc.Questions)
			}
			st := e.Ledger().State()
			if st.Reserved != 0 || st.Spent != *rc.CostUSD {
				t.Errorf("ledger %+v", st)
			}
		})
	}
}

func TestNativeContradictionAndHiddenAttempts(t *testing.T) {
	f := newFakeProvider(t)
	f.set(nativeFixture(1, true))
	e := newEvaluator(t, f, ptrF(0.01))
	res := mustEvaluate(t, e, request(t, "vercel", "typesafe/jev-1.13", ""))
	if res.Outcome.Field("reason") != "schema_invalid" || !strings.Contains(res.Outcome.Field("diagnostic").(string), "contradicts") {
		t.Errorf("contradiction: %v", res.Outcome.Value())
	}
	f.set(nativeFixture(2, false))
	res = mustEvaluate(t, e, request(t, "vercel", "typesafe/jev-1.13", ""))
	rc := res.Receipt
	if res.Outcome.Field("reason") != "provider_refusal" || rc.AccountingStatus != AccountingUsageUnknown || rc.CostUSD != nil ||
		*rc.NativeTransport.ProviderAttemptsReported != 2 || *rc.BudgetChargeUSD <= 0 {
		t.Errorf("hidden attempts: %v %+v", res.Outcome.Value(), rc)
	}
	st := e.Ledger().State()
	if !st.Closed || st.Uncertain != *rc.BudgetChargeUSD {
		t.Errorf("ledger %+v", st)
	}
	before := f.requests.Load()
	res = mustEvaluate(t, e, request(t, "vercel", "typesafe/jev-1.13", ""))
	if res.Outcome.Field("reason") != "admission_refused" || *res.Receipt.AdmissionReason != "admission_closed" || f.requests.Load() != before {
		t.Errorf("after closing: %v", res.Outcome.Value())
	}
}

// Concurrent evaluations share one ledger: with a ceiling admitting k
// bounds, at most k dispatch, and committed spending never exceeds it.
func TestConcurrentEvaluationsShareTheLedger(t *testing.T) {
	f := newFakeProvider(t)
	release := make(chan struct{})
	var once sync.Once
	f.set(func(w http.ResponseWriter, path string, body map[string]any) {
		<-release // hold every request until all goroutines have tried
		w.WriteHeader(500)
	})
	probe := newEvaluator(t, f, nil)
	r := request(t, "vercel", "typesafe/jev-1.13", "")
	qs, _ := DecodeQuestions(r.Questions)
	route, _ := probe.Catalog().Lookup("vercel", "typesafe/jev-1.13")
	body, _ := nativeBody(&route, r.State, qs)
	bound, _ := costBound(&route, len(canonjson.MustEncode(body)))
	const k, n = 3, 16
	ceiling := bound*k + bound/2
	e := newEvaluator(t, f, &ceiling)
	var wg sync.WaitGroup
	results := make([]*Result, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := e.Evaluate(context.Background(), request(t, "vercel", "typesafe/jev-1.13", ""))
			if err != nil {
				t.Error(err)
			}
			results[i] = res
		}()
	}
	go func() {
		for {
			time.Sleep(5 * time.Millisecond)
			rs, _ := e.Journal().Snapshot()
			if len(rs) >= n-k || f.requests.Load() >= k {
				once.Do(func() { close(release) })
				return
			}
		}
	}()
	wg.Wait()
	once.Do(func() { close(release) })
	dispatched, cut := 0, 0
	for _, res := range results {
		switch res.Outcome.Kind {
		case OutcomeBudgetCut:
			cut++
		default:
			dispatched++
		}
	}
	st := e.Ledger().State()
	if dispatched > k || int(f.requests.Load()) != dispatched || dispatched+cut != n {
		t.Errorf("dispatched %d (requests %d), cut %d of %d with room for %d", dispatched, f.requests.Load(), cut, n, k)
	}
	if st.Spent+st.Uncertain+st.Reserved > ceiling+1e-12 || st.Reserved != 0 {
		t.Errorf("ledger %+v exceeds ceiling %v", st, ceiling)
	}
	// The failed calls' usage is unknown: their bounds stay uncertain.
	if want := float64(dispatched) * bound; st.Uncertain < want-1e-12 || st.Uncertain > want+1e-12 {
		t.Errorf("uncertain %v, want %v", st.Uncertain, want)
	}
}

func TestLedgerHolds(t *testing.T) {
	l := NewLedger(ptrF(1))
	a, r := l.Reserve(0.6, nil, true)
	if r != nil {
		t.Fatal(r)
	}
	if _, r := l.Reserve(0.6, nil, true); r == nil || !r.BudgetCut || r.Remaining < 0.39 || r.Remaining > 0.41 {
		t.Errorf("over the ceiling: %+v", r)
	}
	a.Settle(0.1) // known usage releases the rest
	b, r := l.Reserve(0.6, ptrF(0.5), true)
	if r == nil || !r.BudgetCut {
		t.Errorf("a policy run limit tightens the ceiling: %+v %v", r, b)
	}
	b, r = l.Reserve(0.6, nil, true)
	if r != nil {
		t.Fatal(r)
	}
	b.Retain()
	b.Settle(5) // a hold finishes once
	if st := l.State(); st.Spent != 0.1 || st.Uncertain != 0.6 || st.Reserved != 0 {
		t.Errorf("state %+v", st)
	}
	c, _ := l.Reserve(0.2, nil, true)
	c.Release()
	if st := l.State(); st.Reserved != 0 || st.Spent != 0.1 {
		t.Errorf("release: %+v", st)
	}
}

// An HTTP 500 means the same on every route: the request failed in
// transport.
func TestHTTP500IsOneMapping(t *testing.T) {
	f := newFakeProvider(t)
	f.set(func(w http.ResponseWriter, _ string, _ map[string]any) { w.WriteHeader(500) })
	for _, tc := range []struct{ provider, model string }{
		{"local", "judge"},
		{"vercel", "typesafe/jev-1.13"},
		{"openrouter", "typesafe/jev-1.13"},
		{"typesafe", "jev-1.13"},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			before := f.requests.Load()
			res := mustEvaluate(t, newEvaluator(t, f, ptrF(0.01)), request(t, tc.provider, tc.model, ""))
			if res.Outcome.Kind != OutcomeUnavailable || res.Outcome.Field("reason") != "transport_failed" {
				t.Errorf("outcome %v, want unavailable/transport_failed", res.Outcome.Value())
			}
			if n := f.requests.Load() - before; n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
			if r := res.Receipt.ProviderReason; r == nil || !strings.Contains(*r, "HTTP 500") {
				t.Errorf("provider_reason %v", r)
			}
		})
	}
}

// A boolean's criteria change the identity, so every backend must be
// sent them.
func TestBooleanCriteriaReachEveryBackend(t *testing.T) {
	const yes, no = "CRIT-TRUE-5521 only reads", "CRIT-FALSE-5522 writes or deletes"
	questions := strings.Replace(triageQuestions, `"Is this safe to run without asking?"}`,
		`"Is this safe to run without asking?", "criteria": {"true": "`+yes+`", "false": "`+no+`"}}`, 1)
	f := newFakeProvider(t)
	for _, tc := range []struct{ provider, model string }{
		{"local", "judge"},
		{"local", "prompt"},
		{"vercel", "typesafe/jev-1.13"},
		{"openrouter", "typesafe/jev-1.13"},
		{"typesafe", "jev-1.13"},
	} {
		t.Run(tc.provider+"/"+tc.model, func(t *testing.T) {
			if tc.provider == "local" {
				f.set(f.answerAll(0.95))
			} else {
				f.set(nativeFixture(1, false))
			}
			req := request(t, tc.provider, tc.model, "")
			req.Questions = decode(t, questions)
			res := mustEvaluate(t, newEvaluator(t, f, ptrF(0.01)), req)
			if res.Outcome.Kind != OutcomeAnswered {
				t.Fatalf("outcome %v", res.Outcome.Value())
			}
			body, _ := json.Marshal(f.lastBody())
			if !strings.Contains(string(body), yes) || !strings.Contains(string(body), no) {
				t.Errorf("the request body lacks the boolean criteria: %s", body)
			}
			if tc.provider != "local" {
				safe := f.lastBody()["questions"].(map[string]any)["safe"].(map[string]any)
				if c, ok := safe["criteria"].(map[string]any); !ok || c["true"] != yes || c["false"] != no {
					t.Errorf("native boolean question %v", safe)
				}
			}
		})
	}
}
