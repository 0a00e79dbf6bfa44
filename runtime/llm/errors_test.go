package llm

import (
	"regexp"
	"strings"
	"testing"
)

// TestSafeCode: safeCode keeps exactly the codes the expression it
// replaced, ^[A-Za-z][A-Za-z0-9_.\-]{0,63}$, matches.
func TestSafeCode(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.\-]{0,63}$`)
	cases := []string{"", "a", "Z", "1abc", "_x", "context_length_exceeded", "rate-limit.v2", "a b", "a\n", "é", "aé",
		"x" + strings.Repeat("y", 62), "x" + strings.Repeat("y", 63), "x" + strings.Repeat("y", 64), "a/b", "a:b", "A-Z_0.9"}
	for c := 0; c < 128; c++ {
		cases = append(cases, "a"+string(rune(c)), string(rune(c))+"a")
	}
	for _, s := range cases {
		want := ""
		if re.MatchString(s) {
			want = s
		}
		if got := safeCode(s); got != want {
			t.Errorf("safeCode(%q) = %q, want %q", s, got, want)
		}
	}
}
