package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"label", "label", -1, 0},
		{"lable", "label", -1, 1}, // a swap is one edit
		{"grete", "greet", -1, 1},
		{"kitten", "sitting", -1, 3},
		{"kitten", "sitting", 2, 3}, // limit+1 once over the limit
		{"", "abc", -1, 3},
		{"abc", "", 1, 2},
		{"ca", "abc", -1, 3},      // OSA: no edit of a swapped pair
		{"héllo", "hello", -1, 1}, // characters, not bytes
		{"日本語", "日本", -1, 1},
		{"printl", "println", 2, 1},
		{"a-very-long-identifier-that-exceeds-the-stack-buffer-size", "a-very-long-identifier-that-exceeds-the-stack-buffer-sise", 2, 1},
	} {
		if got := Distance(tc.a, tc.b, tc.limit); got != tc.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.limit, got, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cands []string
		want  string
	}{
		{"lable", []string{"label", "table"}, "label"},
		{"grete", []string{"greet", "great"}, "greet"}, // greet: one swap; great: two substitutions
		{"printl", []string{"print", "println"}, "println"},
		{"x", []string{"e", "y"}, ""},    // one character: never corrected
		{"fmtt", []string{"fmt"}, "fmt"}, // one edit within five characters
		{"frmat", []string{"fmt"}, ""},   // two edits: too far for a short name
		{"exlpain", []string{"explain"}, "explain"},
		{"validat-output", []string{"validate-output", "validate"}, "validate-output"},
		{"label", []string{"label"}, ""}, // the name itself is not a suggestion
	} {
		if got := Nearest(tc.name, tc.cands, Limit(tc.name)); got != tc.want {
			t.Errorf("Nearest(%q, %v) = %q, want %q", tc.name, tc.cands, got, tc.want)
		}
	}
}

func BenchmarkDistanceASCII(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Distance("undefined_name", "undefined_nmae", 2)
	}
}
