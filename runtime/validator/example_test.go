package validator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExample keeps examples/validators working: the blueprint and its
// scripts compile, and each sample answer gets the verdict its name says.
func TestExample(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "validators")
	rs, err := CheckPaths([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 {
		t.Fatalf("want the blueprint and the script, got %d results", len(rs))
	}
	for _, r := range rs {
		if len(r.Diagnostics) != 0 {
			t.Errorf("%s: %+v", r.Path, r.Diagnostics)
		}
	}
	script := filepath.Join(dir, "validators", "a2ui.rhai")
	cases := []struct {
		answer, onError string
		exit            int
		verdict, reason string
	}{
		{"good.json", "", 0, "pass", ""},
		{"unknown-component.json", "", 1, "reject", "root.children[0]: unknown component 'Carousel' (use one of Card, Column, Row, Text, Image, Button, List)"},
		{"missing-root.json", "", 1, "reject", "an a2ui document needs a `root` node"},
		{"malformed.json", "", 1, "failure", script + ": validate: Syntax error: unterminated string in the JSON text (line 1, position 40)"},
		{"malformed.json", "accept", 0, "failure", ""},
	}
	for _, c := range cases {
		content, err := os.ReadFile(filepath.Join(dir, "answers", c.answer))
		if err != nil {
			t.Fatal(err)
		}
		res, exit, _ := RunOutput(OutputRequest{ValidatorPath: script, OnError: c.onError, Content: content})
		if exit != c.exit || res.Verdict != c.verdict {
			t.Errorf("%s: exit %d verdict %s (%+v)", c.answer, exit, res.Verdict, res)
			continue
		}
		if (c.reason == "") != (res.Reason == nil) || res.Reason != nil && !strings.HasPrefix(*res.Reason, c.reason) {
			t.Errorf("%s: reason %v, want %q", c.answer, res.Reason, c.reason)
		}
	}
}
