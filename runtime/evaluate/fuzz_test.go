package evaluate

import (
	"context"
	"testing"

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
