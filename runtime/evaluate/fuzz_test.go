package evaluate

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/harnlang/harn-check/internal/sealed"
	"github.com/harnlang/harn-check/runtime/canonjson"
)

// FuzzEvaluateRequest: any request either is malformed (an error) or
// yields an outcome whose receipt verifies against it; nothing panics and
// nothing reaches a network (only the built-in mock routes resolve).
func FuzzEvaluateRequest(f *testing.F) {
	for _, s := range []string{
		`{"site_id":"s","state":{"a":[1,2.5]},"questions":{"q":{"kind":"boolean","instructions":"x"}},"policy":{"backend":"structured_llm","provider":"mock","model":"fixture","threshold":0.5}}`,
		`{"site_id":"s","state":"t","questions":{"c":{"kind":"choice","instructions":"x","criteria":{"a":"A","b":"B"}},"s":{"kind":"score","instructions":"y","levels":["l","h"]}},"policy":{"backend":"structured_llm","provider":"mock","model":"fixture","threshold":0.95,"effort":"low","temperature":0}}`,
		`{"site_id":"","state":null,"questions":{},"policy":{"backend":"native_decision","provider":"vercel","model":"typesafe/jev-1.13","threshold":1}}`,
	} {
		f.Add([]byte(s))
	}
	e := New(Options{})
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := DecodeRequest(data)
		if err != nil {
			return
		}
		res, err := e.Evaluate(context.Background(), req)
		if err != nil {
			return
		}
		receipt := canonjson.MustEncode(res.Receipt.Value())
		v, err := Verify(e.Catalog(), canonjson.MustEncode(req.Value()), receipt)
		if err != nil || !v.Verified {
			t.Fatalf("receipt does not verify: %v %+v", err, v)
		}
		if res.Receipt.OutcomeKind != res.Outcome.Kind {
			t.Fatalf("outcome %s, receipt %s", res.Outcome.Kind, res.Receipt.OutcomeKind)
		}
	})
}

// FuzzVerify: arbitrary receipts never panic the verifier.
func FuzzVerify(f *testing.F) {
	req := []byte(`{"site_id":"s","state":1,"questions":{"q":{"kind":"boolean","instructions":"x"}},"policy":{"backend":"structured_llm","provider":"mock","model":"fixture","threshold":0.5}}`)
	f.Add([]byte(`{"schema":"harn.evaluation.receipt.v1","evaluation_id":"x","site_id":"s","requested_provider":"mock","requested_model":"fixture","identity":{"contract_version":"harn.evaluation_identity.v1"}}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, receipt []byte) {
		_, _ = Verify(New(Options{}).Catalog(), req, receipt)
	})
}

// FuzzCacheEntry: any bytes stored as a request's cache entry are either
// refused (a miss, with a reason) or a reusable entry whose answers cover
// the request's questions with declared labels; decoding never panics.
func FuzzCacheEntry(f *testing.F) {
	dir := f.TempDir()
	cache, err := OpenCache(dir)
	if err != nil {
		f.Fatal(err)
	}
	ev := New(Options{Cache: cache})
	req, err := DecodeRequest([]byte(`{"site_id":"s","state":"t","questions":{"c":{"kind":"choice","instructions":"x","criteria":{"a":"A","b":"B"}},"s":{"kind":"score","instructions":"y","levels":["l","h"]},"q":{"kind":"boolean","instructions":"z"}},"policy":{"backend":"structured_llm","provider":"mock","model":"fixture","threshold":0.5}}`))
	if err != nil {
		f.Fatal(err)
	}
	res, err := ev.Evaluate(context.Background(), req)
	if err != nil || res.Outcome.Kind != OutcomeAnswered {
		f.Fatalf("seed evaluation: %v %v", err, res)
	}
	route, _ := ev.Catalog().Lookup("mock", "fixture")
	good := encodeCacheEntry(RouteBinding(&route), res)
	f.Add(good)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"schema":"harn-check.evaluation_cache.v1","evaluation_id":"x","route":"y","answers":[{}],"receipt":{}}`))
	f.Add(bytes.Replace(good, []byte(`"choice":"a"`), []byte(`"choice":"z"`), 1))
	p, _ := DecodePolicy(req.Policy)
	qs, _ := DecodeQuestions(req.Questions)
	file, _ := cache.file(res.Receipt.EvaluationID)
	if _, err := cache.lookup(ev.Catalog(), req, p, qs, &route, res.Receipt.EvaluationID); err != nil {
		f.Fatalf("the stored answer is not reused: %v", err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = decodeCacheEntry(data)
		if !json.Valid(data) {
			return
		}
		if err := sealed.Write(file, cacheFormat, data); err != nil {
			t.Fatal(err)
		}
		e, err := cache.lookup(ev.Catalog(), req, p, qs, &route, res.Receipt.EvaluationID)
		if err != nil {
			return
		}
		if err := checkAnswers(qs, e.answers, p.Threshold); err != nil || e.receipt.Source != SourceLive {
			t.Fatalf("a reused entry fails its own checks: %v", err)
		}
	})
}
