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
	for p, want := range map[string]bool{"openai_compatible": true, "Anthropic": true, "chat_completions": true, "gemini": false, "": false} {
		if got := models.SupportedProtocol(p); got != want {
			t.Errorf("%q: got %v, want %v", p, got, want)
		}
	}
}
