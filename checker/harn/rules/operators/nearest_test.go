package operators

import "testing"

func TestNearest(t *testing.T) {
	labels := []string{"billing", "technical", "legal"}
	tests := map[string]string{
		"tech":       "technical",
		"Billing":    "billing",
		"technicals": "technical",
		"legl":       "legal",
		"biling":     "billing",
		"zzz":        "legal",
	}
	for in, want := range tests {
		if got := Nearest(in, labels); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", in, got, want)
		}
	}
}
