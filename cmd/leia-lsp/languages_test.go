package main

import (
	"io"
	"log"
	"testing"

	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/frontends"
	"github.com/harnlang/harn-check/lsp/features"
)

// TestSameLanguagesAsHarnCheck: the server must register every front end
// the CLI registers (frontends.Languages), or the editor would not show
// what CI reports.
func TestSameLanguagesAsHarnCheck(t *testing.T) {
	registerLanguages(log.New(io.Discard, "", 0))
	want := frontends.Languages()
	if len(want) == 0 {
		t.Fatal("no front ends to compare")
	}
	for _, l := range want {
		got, ok := driver.Lookup("x" + l.Extension)
		if !ok || got.Name != l.Name || (l.Check != nil) != (got.Check != nil) || (l.Parse != nil) != (got.Parse != nil) {
			t.Errorf("leia-lsp did not register the %s front end (%s)", l.Name, l.Extension)
		}
	}
}

// TestHarnFeaturesRegistered: .harn documents get Harn's editor features,
// not the empty Unimplemented set.
func TestHarnFeaturesRegistered(t *testing.T) {
	registerLanguages(log.New(io.Discard, "", 0))
	if _, empty := features.Lookup(".harn").(features.Unimplemented); empty {
		t.Fatal("leia-lsp registered no editor features for .harn")
	}
}
