package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	Credential("plain-credential-value-42")
	Credential("x") // too short: never registered
	for _, c := range []struct{ in, want string }{
		{"served plain-credential-value-42 here", "served [redacted] here"},
		{"model gpt-4o", "model gpt-4o"},
		{"key sk-abcdefghijklmnopqrstuvwx end", "key [redacted] end"},
		{"sk-ant-api03-abcdefghijklmnopqrstuv", "[redacted]"},
		{"sk-proj-abcdefghijklmnopqrst", "[redacted]"},
		{"AIzaSyA1234567890abcdefghijklmnopqrstu", "[redacted]"},
		{"ghp_abcdefghijklmnopqrstuvwxyz0123456789", "[redacted]"},
		{"xoxb-1234567890-abcdef", "[redacted]"},
		{"AKIAABCDEFGHIJKLMNOP", "[redacted]"},
		{"Authorization: Bearer abc.def-ghi_jkl9", "Authorization: Bearer [redacted]"},
		{"the bearer instruments", "the bearer instruments"},
		{"a task-list and a risk-free x", "a task-list and a risk-free x"},
		{"x is fine", "x is fine"},
	} {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestBytesKeepsJSON(t *testing.T) {
	in := []byte(`{"served_model":"Bearer sk-abcdefghijklmnopqrstuvwx","n":1}`)
	out := Bytes(in)
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("not JSON after redaction: %v: %s", err, out)
	}
	if strings.Contains(string(out), "sk-") {
		t.Errorf("key kept: %s", out)
	}
	clean := []byte(`{"a":"b"}`)
	if got := Bytes(clean); &got[0] != &clean[0] {
		t.Error("a clean slice is copied")
	}
}

// TestKeyLiteralsPrefilter: the literal prefilter lets every key shape
// through to the expression, and a large text without any passes
// unchanged.
func TestKeyLiteralsPrefilter(t *testing.T) {
	for _, key := range []string{"sk-ant-abcdefghijklmnop1234", "sk-proj-abcdefghijklmnop12", "AIza" + strings.Repeat("x", 32),
		"ghp_" + strings.Repeat("a", 24), "github_pat_" + strings.Repeat("a", 24), "xoxb-1234567890ab", "AKIA" + strings.Repeat("A", 16), "bEaReR abc.def.123"} {
		if got := String("pre " + key + " post"); strings.Contains(got, key) {
			t.Errorf("%q kept: %q", key, got)
		}
	}
	big := strings.Repeat("plain prose without tokens ", 1000)
	if String(big) != big || string(Bytes([]byte(big))) != big {
		t.Error("plain text changed")
	}
}
