package main

import (
	"io"
	"log"
	"testing"

	"github.com/harnlang/harn-check/language"
	"github.com/harnlang/harn-check/language/harn"
	"github.com/harnlang/harn-check/language/leia"
	"github.com/harnlang/harn-check/lsp/features"
)

// TestSameLanguagesAsHarnCheck: the server must serve every language the
// CLI checks, with the same check, or the editor would not show what CI
// reports.
func TestSameLanguagesAsHarnCheck(t *testing.T) {
	got := language.Drivers(languages(log.New(io.Discard, "", 0)))
	for _, l := range []language.Language{harn.Language, leia.Language} {
		d, ok := got.ForExt(l.Extension)
		if !ok || d.Name != l.Name || d.Check == nil || d.Parse == nil {
			t.Errorf("leia-lsp does not serve the %s front end (%s)", l.Name, l.Extension)
		}
	}
}

// TestEditorFeatures: .harn and .leia documents get their languages'
// editor features and trees, not the empty Unimplemented set.
func TestEditorFeatures(t *testing.T) {
	langs, feats := language.Editors(languages(log.New(io.Discard, "", 0)), func(l language.Language, err error) {
		t.Errorf("%s editor features: %v", l.Name, err)
	})
	for _, ext := range []string{".harn", ".leia"} {
		if f, ok := feats[ext]; !ok {
			t.Errorf("leia-lsp serves no editor features for %s", ext)
		} else if _, empty := f.(features.Unimplemented); empty {
			t.Errorf("leia-lsp serves the empty feature set for %s", ext)
		}
		if langs.Syntax[ext] == nil {
			t.Errorf("leia-lsp keeps no syntax tree for %s documents", ext)
		}
	}
}
