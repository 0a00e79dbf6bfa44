package ai

import "testing"

func TestCamel(t *testing.T) {
	tests := []struct{ in, want string }{
		{"run", "run"},
		{"max_turns", "maxTurns"},
		{"tool_call_id", "toolCallId"},
		{"a__b", "aB"},
		{"trailing_", "trailing"},
		{"_leading", "Leading"},
		{"step_2", "step2"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := camel(tt.in); got != tt.want {
			t.Errorf("camel(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
