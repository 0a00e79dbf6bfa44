package harn

import "testing"

// TestParseToolCallBody covers the text-mode tool call forms an agent
// loop accepts: JSON with name and arguments, and NAME({...}) with bare or
// quoted keys; anything else is not a call.
func TestParseToolCallBody(t *testing.T) {
	for _, tc := range []struct {
		body, name, args string
		ok               bool
	}{
		{`{"name": "read", "arguments": {"path": "a.txt"}}`, "read", `{"path":"a.txt"}`, true},
		{`{"name": "read"}`, "read", `{}`, true},
		{`read({ path: "src/lib.rs" })`, "read", `{"path":"src/lib.rs"}`, true},
		{`search({query: "a: b", limit: 3})`, "search", `{"limit":3,"query":"a: b"}`, true},
		{`list_dir()`, "list_dir", `{}`, true},
		{`read({"path": "x"})`, "read", `{"path":"x"}`, true},
		{`not a call`, "", "", false},
		{`{"arguments": {}}`, "", "", false},
		{`bad name({})`, "", "", false},
	} {
		name, args, ok := parseToolCallBody(tc.body)
		if ok != tc.ok || name != tc.name {
			t.Errorf("%s: got %q ok=%v, want %q ok=%v", tc.body, name, ok, tc.name, tc.ok)
			continue
		}
		if ok && jsonText(args) != tc.args {
			t.Errorf("%s: arguments %s, want %s", tc.body, jsonText(args), tc.args)
		}
	}
}

// TestLoopProfiles keeps the profile budgets as upstream documents them
// and explicit options above them.
func TestLoopProfiles(t *testing.T) {
	for _, tc := range []struct {
		profile           string
		maxIter, maxNudge int64
		override          int64 // max_iterations given explicitly (0: none)
	}{
		{"", 50, 8, 0},
		{"researcher", 30, 4, 0},
		{"verifier", 5, 0, 0},
		{"completer", 1, 0, 0},
		{"completer", 2, 0, 2},
	} {
		opts := NewDict(2)
		if tc.profile != "" {
			opts.Set("profile", Str(tc.profile))
		}
		want := tc.maxIter
		if tc.override > 0 {
			opts.Set("max_iterations", Int(tc.override))
			want = tc.override
		}
		cfg, err := parseLoopConfig(nil, "agent_loop", opts)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.maxIterations != want || cfg.maxNudges != tc.maxNudge {
			t.Errorf("profile %q: max_iterations %d, max_nudges %d; want %d, %d", tc.profile, cfg.maxIterations, cfg.maxNudges, want, tc.maxNudge)
		}
	}
	if _, err := parseLoopConfig(nil, "agent_loop", func() *Dict { d := NewDict(1); d.Set("profile", Str("fast")); return d }()); err == nil {
		t.Error("an unknown profile was accepted")
	}
}
