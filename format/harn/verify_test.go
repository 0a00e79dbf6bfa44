package harn

import (
	"strings"
	"testing"
)

// TestVerify: Verify accepts layout changes and catches every other kind
// of change, so the safety checks that rely on it can fail.
func TestVerify(t *testing.T) {
	src := "fn f(a, b) { // why\n  let x = [1, 2]; return a + b /* sum */\n}\n"
	tests := []struct {
		name, out string
		ok        bool
	}{
		{"formatted", "fn f(a, b) { // why\n  let x = [1, 2]\n  return a + b /* sum */\n}\n", true},
		{"trailing comma and newlines", "fn f(\n  a,\n  b,\n) { // why\n  let x = [1, 2]\n  return a + b /* sum */\n}\n", true},
		{"comment moved past a comma", "fn f(a, b) { // why\n  let x = [1, 2]; return a + b /* sum */\n}\n", true},
		{"renamed", "fn f(a, c) { // why\n  let x = [1, 2]; return a + c /* sum */\n}\n", false},
		{"operator", "fn f(a, b) { // why\n  let x = [1, 2]; return a - b /* sum */\n}\n", false},
		{"dropped comment", "fn f(a, b) {\n  let x = [1, 2]; return a + b /* sum */\n}\n", false},
		{"changed comment", "fn f(a, b) { // why not\n  let x = [1, 2]; return a + b /* sum */\n}\n", false},
		{"reordered", "fn f(a, b) { // why\n  return a + b /* sum */; let x = [1, 2]\n}\n", false},
		{"syntax error", "fn f(a, b { // why\n  let x = [1, 2]; return a + b /* sum */\n}\n", false},
		{"string content", strings.Replace(src, "[1, 2]", `["1", 2]`, 1), false},
	}
	for _, tc := range tests {
		err := Verify([]byte(src), []byte(tc.out))
		if (err == nil) != tc.ok {
			t.Errorf("%s: Verify = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
	// A string's spaces are its content.
	if err := Verify([]byte(`let s = "a  b"`), []byte(`let s = "a b"`)); err == nil {
		t.Error("Verify missed a change inside a string")
	}
	if err := Verify([]byte("let s = \"\"\"\n  x\n\"\"\"\n"), []byte("let s = \"\"\"\nx\n\"\"\"\n")); err == nil {
		t.Error("Verify missed a change inside a multi-line string")
	}
}
