package catalog

import (
	"math"
	"testing"
)

func TestModelPrice(t *testing.T) {
	for _, tc := range []struct {
		model   string
		in, out float64
		ok      bool
	}{
		{"gpt-4o-mini", 0.15, 0.60, true},                 // a built-in route
		{"gpt-4o-mini-2024-07-18", 0.15, 0.60, true},      // its dated variant
		{"claude-sonnet-4-20250514", 3, 15, true},         // a route's wire name
		{"claude-opus-4-20250514", 15, 75, true},          // a family, no route
		{"claude-3-5-haiku-latest", 0.80, 4, true},        // family
		{"meta-llama-3.1-70b-instruct", 0.59, 0.79, true}, // all parts present
		{"o1-mini", 3, 12, true},                          // narrower family first
		{"unknown-model", 0, 0, false},
		{"harn", 0, 0, false}, // the mock route costs nothing
	} {
		p, ok := ModelPrice(tc.model)
		if ok != tc.ok || p.InputPerMTok != tc.in || p.OutputPerMTok != tc.out {
			t.Errorf("ModelPrice(%q) = %+v, %v; want %v/%v, %v", tc.model, p, ok, tc.in, tc.out, tc.ok)
		}
	}
	if got := Cost("gpt-4o-mini", 1000, 500); math.Abs(got-0.00045) > 1e-12 {
		t.Errorf("Cost(gpt-4o-mini, 1000, 500) = %v, want 0.00045", got)
	}
	if got := Cost("unknown-model", 1000, 500); got != 0 {
		t.Errorf("Cost(unknown) = %v, want 0", got)
	}
}
