package models_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/rules/models"
)

func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", leia.Checker, models.Rule)
}

func TestSupportedProtocol(t *testing.T) {
	for p, want := range map[string]bool{"openai_compatible": true, "Anthropic": true, "chat_completions": true, "gemini": false, "": false,
		// The runtime dials these too (catalog.ChatAPI): the checker must not reject them.
		"mock": true, "anthropic_messages": true, " openai ": true} {
		if got := models.SupportedProtocol(p); got != want {
			t.Errorf("%q: got %v, want %v", p, got, want)
		}
	}
}
