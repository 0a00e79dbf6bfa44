package evaluate

import (
	"bytes"
	"context"
	"encoding/hex"
	"strings"
	"testing"

	"lukechampine.com/blake3"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/canonjson"
)

// refParts re-implements the documented parts layout independently:
// the whole byte string is built first, lengths by explicit shifts.
func refParts(parts ...string) string {
	var buf bytes.Buffer
	for _, p := range parts {
		n := uint64(len(p))
		for i := 0; i < 8; i++ {
			buf.WriteByte(byte(n >> (8 * i)))
		}
		buf.WriteString(p)
	}
	return refBytes(buf.Bytes())
}

func refBytes(b []byte) string {
	sum := blake3.Sum256(b)
	return "blake3:" + hex.EncodeToString(sum[:])
}

func TestBlake3KnownVector(t *testing.T) {
	// The BLAKE3 reference test vector for empty input.
	if got := refBytes(nil); got != "blake3:af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262" {
		t.Fatalf("blake3(\"\") = %s", got)
	}
}

// The identity's digests, recomputed from the byte layouts the package
// documentation gives, written out literally here.
func TestIdentityDigestsMatchDocumentedLayouts(t *testing.T) {
	state := decode(t, `{"messages": ["rm -rf build/", "ls"], "n": 1.0}`)
	qs, err := DecodeQuestions(decode(t, triageQuestions))
	if err != nil {
		t.Fatal(err)
	}
	p, err := DecodePolicy(decode(t, `{"backend": "structured_llm", "provider": "mock", "model": "fixture",
		"effort": "low", "temperature": 0.0, "threshold": 0.8, "evaluation_cost_limit": 0.0, "run_cost_limit": 0.01}`))
	if err != nil {
		t.Fatal(err)
	}
	route, _ := catalog.Default().Lookup("mock", "fixture")
	id, err := RequestIdentity(state, qs, p, &route)
	if err != nil {
		t.Fatal(err)
	}
	if want := refParts(`{"messages":["rm -rf build/","ls"],"n":1.0}`); id.InputDigest != want {
		t.Errorf("input_digest %s, want %s", id.InputDigest, want)
	}
	questions := `{"questions":[` +
		`{"body":{"Choice":[["drop","Superseded by later work"],["keep","Still load-bearing for the current task"],["reword","Useful but far longer than it needs to be"]]},"id":"disposition","instructions":"Keep, reword, or drop this window?"},` +
		`{"body":{"Score":["none","low","medium","high"]},"id":"risk","instructions":"How much blast radius?"},` +
		`{"body":"Boolean","id":"safe","instructions":"Is this safe to run without asking?"}]}`
	if want := refBytes([]byte(questions)); id.QuestionSetDigest != want {
		t.Errorf("question_set_digest %s, want %s", id.QuestionSetDigest, want)
	}
	if want := refParts("structured_llm", "mock", "fixture", "low", "0.0", "true", "0.8", "Some(0.0)", "Some(0.01)"); id.PolicyDigest != want {
		t.Errorf("policy_digest %s, want %s", id.PolicyDigest, want)
	}
	if id.CanonicalInputType != "record" || id.Protocol != "structured_llm" || *id.StructuredOutputStrategy != "prompt_validation" ||
		id.EvaluatorInstructionVersion != "harn.evaluator.structured.v1" || id.OutputSchemaVersion != "harn.evaluation.answers.v1" ||
		id.ContractVersion != "harn.evaluation_identity.v1" || id.BackendKind != "structured_llm" {
		t.Errorf("identity %+v", id)
	}
	identityJSON := `{"contract_version":"harn.evaluation_identity.v1","structured_output_strategy":"prompt_validation",` +
		`"input_digest":"` + id.InputDigest + `","canonical_input_type":"record","question_set_digest":"` + id.QuestionSetDigest +
		`","policy_digest":"` + id.PolicyDigest + `","evaluator_instruction_version":"harn.evaluator.structured.v1",` +
		`"output_schema_version":"harn.evaluation.answers.v1","backend_kind":"structured_llm","protocol":"structured_llm"}`
	if want := refParts("compaction.triage.v1", identityJSON); StableRequestID("compaction.triage.v1", id) != want {
		t.Errorf("evaluation_id %s, want %s", StableRequestID("compaction.triage.v1", id), want)
	}
	if want := refParts("harn-check.evaluation_invocation.v1", "blake3:x", "7"); invocationID("blake3:x", 7) != want {
		t.Errorf("invocation_id %s", invocationID("blake3:x", 7))
	}
	// An absent policy option is "None"; absent effort is "none" and not
	// "supplied"; an unresolved route has protocol "unresolved" and no
	// strategy.
	p2, _ := DecodePolicy(decode(t, `{"backend": "native_decision", "provider": "nobody", "model": "x", "threshold": 1}`))
	id2, _ := RequestIdentity(decode(t, `"text"`), qs, p2, nil)
	if want := refParts("native_decision", "nobody", "x", "none", "0.0", "false", "1.0", "None", "None"); id2.PolicyDigest != want {
		t.Errorf("policy_digest %s, want %s", id2.PolicyDigest, want)
	}
	if id2.Protocol != "unresolved" || id2.StructuredOutputStrategy != nil || id2.CanonicalInputType != "string" ||
		!strings.Contains(encodeIdentity(id2), `"structured_output_strategy":null`) {
		t.Errorf("unresolved identity %+v", id2)
	}
}

// Key order and whitespace in the request do not change the identity;
// choice label order does not either (labels are a map), but level order
// and every text does.
func TestIdentityNormalisation(t *testing.T) {
	base, _ := DecodeQuestions(decode(t, triageQuestions))
	reordered, _ := DecodeQuestions(decode(t, `{"safe":{"instructions":"Is this safe to run without asking?","kind":"boolean"},
	  "risk":{"levels":["none","low","medium","high"],"kind":"score","instructions":"How much blast radius?"},
	  "disposition":{"criteria":{"drop":"Superseded by later work","reword":"Useful but far longer than it needs to be","keep":"Still load-bearing for the current task"},
	  "instructions":"Keep, reword, or drop this window?","kind":"choice"}}`))
	if base.Digest() != reordered.Digest() {
		t.Error("key order changed the question-set digest")
	}
	for name, src := range map[string]string{
		"level order":        strings.Replace(triageQuestions, `"none", "low"`, `"low", "none"`, 1),
		"choice description": strings.Replace(triageQuestions, "Superseded by later work", "Superseded", 1),
		"instructions":       strings.Replace(triageQuestions, "How much blast radius?", "How much blast radius", 1),
		"question id":        strings.Replace(triageQuestions, `"safe"`, `"safe2"`, 1),
		"boolean criteria":   strings.Replace(triageQuestions, `"Is this safe to run without asking?"}`, `"Is this safe to run without asking?", "criteria": {"true": "y", "false": "n"}}`, 1),
	} {
		qs, err := DecodeQuestions(decode(t, src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if qs.Digest() == base.Digest() {
			t.Errorf("%s did not change the digest", name)
		}
	}
}

func TestEstimateStateTokens(t *testing.T) {
	for src, want := range map[string]int{`"abcd"`: 2, `{"b":1,"a":"xyz"}`: 5, `[]`: 1, `"` + strings.Repeat("é", 10) + `"`: 6} {
		got, err := EstimateStateTokens(decode(t, src))
		canonical := canonjson.MustEncode(decode(t, src))
		if err != nil || got != want || got != (len(canonical)+3)/4 {
			t.Errorf("EstimateStateTokens(%s) = %d, want %d", src, got, want)
		}
	}
}

// Every receipt the evaluator writes verifies against its request, and a
// change to any one of state, questions, policy, site or route is refused
// with that binding's code.
func TestVerifyReceipts(t *testing.T) {
	f := newFakeProvider(t)
	e := newEvaluator(t, f, nil)
	cat := e.Catalog()
	requests := []Request{
		request(t, "local", "judge", ""),
		request(t, "local", "judge", `, "evaluation_cost_limit": 0.0000001`), // budget_cut
		request(t, "nobody", "x", ""),                                        // model_unconfigured
		request(t, "vercel", "typesafe/jev-1.13", ""),                        // admission_refused
	}
	for i, req := range requests {
		res := mustEvaluate(t, e, req)
		receipt := canonjson.MustEncode(res.Receipt.Value())
		reqJSON := canonjson.MustEncode(req.Value())
		v, err := Verify(cat, reqJSON, receipt)
		if err != nil || !v.Verified || *v.StableRequestID != res.Receipt.EvaluationID {
			t.Fatalf("request %d (%s): %v %+v", i, res.Outcome.Kind, err, v)
		}
		// Whitespace and key order do not change the result.
		pretty, _ := canonjson.MarshalIndent(reversed(req.Value()))
		if v, err := Verify(cat, pretty, receipt); err != nil || !v.Verified {
			t.Errorf("request %d reformatted: %v %+v", i, err, v)
		}
	}
	req := requests[0]
	res := mustEvaluate(t, e, req)
	receipt := canonjson.MustEncode(res.Receipt.Value())
	for name, tc := range map[string]struct {
		mutate func(r *Request)
		code   string
	}{
		"state":      {func(r *Request) { r.State = decode(t, `{"messages": ["ls"]}`) }, RefuseInput},
		"state type": {func(r *Request) { r.State = decode(t, `["ls"]`) }, RefuseInput},
		"questions": {func(r *Request) {
			r.Questions = decode(t, strings.Replace(triageQuestions, "blast radius", "damage", 1))
		}, RefuseQuestions},
		"policy": {func(r *Request) { r.Policy = policy(t, "local", "judge", `, "evaluation_cost_limit": 1.0`) }, RefusePolicy},
		"threshold": {func(r *Request) {
			r.Policy = decode(t, `{"backend":"structured_llm","provider":"local","model":"judge","threshold":0.6}`)
		}, RefusePolicy},
		"site":  {func(r *Request) { r.SiteID = "compaction.triage.v2" }, RefuseSite},
		"route": {func(r *Request) { r.Policy = policy(t, "local", "prompt", "") }, RefuseRoute},
	} {
		r := req
		tc.mutate(&r)
		v, err := Verify(cat, canonjson.MustEncode(r.Value()), receipt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		found := false
		for _, ref := range v.Refusals {
			found = found || ref.Code == tc.code
		}
		if v.Verified || !found {
			t.Errorf("%s: %+v, want a %s refusal", name, v.Refusals, tc.code)
		}
	}
	// A forged evaluation id, and an unknown contract.
	forged := res.Receipt.Value()
	forged.Set("evaluation_id", "blake3:00")
	v, _ := Verify(cat, canonjson.MustEncode(req.Value()), canonjson.MustEncode(forged))
	if v.Verified || len(v.Refusals) != 1 || v.Refusals[0] != (VerificationRefusal{RefuseIdentity, "evaluation_id"}) {
		t.Errorf("forged id: %+v", v.Refusals)
	}
	old := res.Receipt.Value()
	id := old.Values["identity"].(*canonjson.Object)
	delete(id.Values, "contract_version")
	id.Keys = id.Keys[1:]
	v, _ = Verify(cat, canonjson.MustEncode(req.Value()), canonjson.MustEncode(old))
	if v.Verified || v.Refusals[0].Code != RefuseUnsupportedContract || v.RequestIdentity != nil {
		t.Errorf("historical receipt: %+v", v)
	}
	// A route whose protocol changed since is an unsupported contract.
	changed, _ := cat.Parse("harn.toml", []byte(`
[[routes]]
provider = "local"
model = "judge"
operations = ["text_generation"]
structured_transport = "tool_schema"
`))
	v, _ = Verify(changed, canonjson.MustEncode(req.Value()), receipt)
	if v.Verified || v.Refusals[0] != (VerificationRefusal{RefuseUnsupportedContract, "identity.structured_output_strategy"}) {
		t.Errorf("changed catalog: %+v", v.Refusals)
	}
	// Unreadable input is an error (exit status 2), not a refusal.
	for _, bad := range [][2]string{{`{`, string(receipt)}, {string(canonjson.MustEncode(req.Value())), `[]`}, {string(canonjson.MustEncode(req.Value())), `{"schema":"x"}`}} {
		if _, err := Verify(cat, []byte(bad[0]), []byte(bad[1])); err == nil {
			t.Errorf("Verify(%.30s, %.30s): no error", bad[0], bad[1])
		}
	}
	if f.requests.Load() != 2 {
		t.Errorf("verification made requests: %d", f.requests.Load())
	}
}

// reversed rebuilds an object with its keys in reverse order at every
// depth.
func reversed(v any) any {
	switch t := v.(type) {
	case *canonjson.Object:
		o := canonjson.NewObject()
		for i := len(t.Keys) - 1; i >= 0; i-- {
			o.Set(t.Keys[i], reversed(t.Values[t.Keys[i]]))
		}
		return o
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = reversed(e)
		}
		return out
	}
	return v
}

func TestPredicateProjection(t *testing.T) {
	e := New(Options{})
	pol := decode(t, `{"backend": "structured_llm", "provider": "mock", "model": "fixture", "effort": "low", "temperature": 0.0, "threshold": 0.8, "evaluation_cost_limit": 0.0, "run_cost_limit": 0.0}`)
	input := decode(t, `{"claim": "the cache is warm", "observation": "hit rate 99%"}`)
	res, err := e.EvaluatePredicate(context.Background(), "finding.support.v1", "Does the observation support the claim?", input, pol)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := res.Outcome.Field("value").(map[string]any)
	if res.Outcome.Kind != OutcomeVerdict || v["verdict"] != true || v["confidence"] != 0.9 || res.Receipt.OutcomeKind != OutcomeAnswered {
		t.Errorf("predicate: %v (receipt %s)", res.Outcome.Value(), res.Receipt.OutcomeKind)
	}
	if len(res.Receipt.Questions) != 1 || res.Receipt.Questions[0].ID != "finding.support.v1" || res.Receipt.Questions[0].Kind != KindBoolean {
		t.Errorf("questions %+v", res.Receipt.Questions)
	}
	strict := decode(t, `{"backend": "structured_llm", "provider": "mock", "model": "fixture", "threshold": 0.95}`)
	res, _ = e.EvaluatePredicate(context.Background(), "finding.support.v1", "Does the observation support the claim?", input, strict)
	if res.Outcome.Kind != OutcomeLowConfidence || res.Outcome.Field("candidate").(map[string]any)["verdict"] != true || res.Outcome.Field("threshold") != 0.95 {
		t.Errorf("low confidence predicate: %v", res.Outcome.Value())
	}
	res, _ = e.EvaluatePredicate(context.Background(), "s", "q", input, decode(t, `{"backend": "structured_llm", "provider": "mock", "model": "nope", "threshold": 0.5}`))
	if res.Outcome.Kind != OutcomeUnavailable {
		t.Errorf("refusals pass through: %v", res.Outcome.Value())
	}
}
