package leia

import "testing"

// TestVerify: Verify accepts layout changes and catches every other kind
// of change.
func TestVerify(t *testing.T) {
	src := "func f(a, b) { // why\nreturn a+b /* sum */\n}\nq := `raw  text`\n"
	tests := []struct {
		name, out string
		ok        bool
	}{
		{"formatted", "func f(a, b) { // why\n    return a+b /* sum */\n}\nq := `raw  text`\n", true},
		{"renamed", "func f(a, c) { // why\nreturn a+c /* sum */\n}\nq := `raw  text`\n", false},
		{"dropped comment", "func f(a, b) {\nreturn a+b /* sum */\n}\nq := `raw  text`\n", false},
		{"raw string spacing", "func f(a, b) { // why\nreturn a+b /* sum */\n}\nq := `raw text`\n", false},
		{"syntax error", "func f(a, b { // why\nreturn a+b /* sum */\n}\nq := `raw  text`\n", false},
	}
	for _, tc := range tests {
		err := Verify([]byte(src), []byte(tc.out))
		if (err == nil) != tc.ok {
			t.Errorf("%s: Verify = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}
