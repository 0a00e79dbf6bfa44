package models_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/models"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", models.Rule)
}

func TestSupportedProtocol(t *testing.T) {
	for p, want := range map[string]bool{"openai_compatible": true, "Anthropic": true, "chat_completions": true, "gemini": false, "": false} {
		if got := models.SupportedProtocol(p); got != want {
			t.Errorf("%q: got %v, want %v", p, got, want)
		}
	}
}
