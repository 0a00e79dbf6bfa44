package evaluate

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/harnlang/harn-check/runtime/canonjson"
)

// benchState is a transcript-like state of about 100 KB.
func benchState() any {
	msgs := make([]any, 400)
	for i := range msgs {
		msgs[i] = map[string]any{"role": "assistant", "index": int64(i), "score": float64(i) / 7,
			"text": fmt.Sprintf("step %d: ran `go test ./...` and read the failing output for package %d", i, i%17)}
	}
	v, _ := canonjson.Decode(canonjson.MustEncode(map[string]any{"messages": msgs}))
	return v
}

// BenchmarkCanonicalState is the canonical encoding every evaluation pays
// for its state (input digest, estimate); reference: encoding/json.
func BenchmarkCanonicalState(b *testing.B) {
	state := benchState()
	size := len(canonjson.MustEncode(state))
	b.Run("canonjson", func(b *testing.B) {
		b.SetBytes(int64(size))
		for range b.N {
			canonjson.MustEncode(state)
		}
	})
	plain := map[string]any{}
	_ = json.Unmarshal(canonjson.MustEncode(state), &plain)
	b.Run("encoding_json_reference", func(b *testing.B) {
		b.SetBytes(int64(size))
		for range b.N {
			_, _ = json.Marshal(plain)
		}
	})
}

// BenchmarkEvaluateMock is one whole evaluation on the mock route
// (decode, identity, admission, structured request, answer projection,
// receipt) over the 100 KB state; reference: the canonical encoding of
// that state alone.
func BenchmarkEvaluateMock(b *testing.B) {
	state := benchState()
	qs, _ := canonjson.Decode([]byte(triageQuestions))
	pol, _ := canonjson.Decode([]byte(`{"backend":"structured_llm","provider":"mock","model":"fixture","threshold":0.5}`))
	e := New(Options{})
	req := Request{SiteID: "bench", State: state, Questions: qs, Policy: pol}
	b.Run("evaluate", func(b *testing.B) {
		for range b.N {
			if _, err := e.Evaluate(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("canonical_state_reference", func(b *testing.B) {
		for range b.N {
			canonjson.MustEncode(state)
		}
	})
}
