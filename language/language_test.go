package language

import (
	"context"
	"errors"
	"testing"

	framework "github.com/harnlang/harn-check/checker/analysis"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/format"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/runtime/runner"
)

// TestFacets: each consumer sees the facets of the languages listed, in
// list order; a language without a facet is left out of that consumer's
// view (or, for the driver, listed without a checker), and a failing
// editor facet is reported and skipped.
func TestFacets(t *testing.T) {
	check := func(driver.Request) driver.Result { return driver.Result{} }
	run := func(context.Context, runner.Program, runner.Env) error { return nil }
	broken := errors.New("query does not compile")
	ls := []Language{
		{Name: "A", Extension: ".a", Check: check, Run: run, Format: &format.Harn,
			Editor: func() (Editor, error) { return Editor{Features: features.Unimplemented{}}, nil }},
		{Name: "B", Extension: ".b", Editor: func() (Editor, error) { return Editor{}, broken }},
		{Name: "C", Extension: ".c", Run: run},
	}
	d := Drivers(ls)
	if len(d) != 3 || d[0].Name != "A" || d[0].Check == nil || d[1].Check != nil || d[2].Extension != ".c" {
		t.Errorf("Drivers = %+v", d)
	}
	if r := Runners(ls); len(r) != 2 || r[0].Extension != ".a" || r[1].Extension != ".c" {
		t.Errorf("Runners = %+v", r)
	}
	if f := Formatters(ls); len(f) != 1 || f[".a"] != &format.Harn {
		t.Errorf("Formatters = %v", f)
	}
	var failed []string
	store, feats := Editors(ls, func(l Language, err error) {
		if !errors.Is(err, broken) {
			t.Errorf("%s: error %v", l.Name, err)
		}
		failed = append(failed, l.Name)
	})
	if len(failed) != 1 || failed[0] != "B" {
		t.Errorf("failed editors %v, want [B]", failed)
	}
	if len(feats) != 1 || feats[".a"] == nil || len(store.Syntax) != 0 || len(store.Check) != 3 {
		t.Errorf("Editors = %+v, %v", store, feats)
	}
}

// TestLint: a language's lint facet describes its rules (the title is the
// documentation's first line without the name), and an entry is unknown
// only when no listed language's rule answers to it.
func TestLint(t *testing.T) {
	a := LintOf([]*framework.Rule[int]{{Name: "first", Codes: []string{"HARN-LNT-002"}, Doc: framework.TextDoc("first: flags a thing\nMore.")}})
	b := LintOf([]*framework.Rule[int]{{Name: "second", Codes: []string{"LEIA4013"}, Doc: framework.TextDoc("second: flags another"), OptIn: true}})
	if r := a.Rules(); len(r) != 1 || r[0].Title != "flags a thing" || r[0].OptIn || b.Rules()[0].Title != "flags another" || !b.Rules()[0].OptIn {
		t.Errorf("rules %+v %+v", a.Rules(), b.Rules())
	}
	ls := []Language{{Name: "A", Lint: a}, {Name: "B", Lint: b}, {Name: "C"}}
	got := UnknownLint(ls, []string{"first", "HARN-LNT-0", "LEIA4013", "nope", "ALL"})
	if len(got) != 1 || got[0] != "nope" {
		t.Errorf("unknown %q, want [nope]", got)
	}
	if got := UnknownLint(ls[2:], []string{"first"}); len(got) != 1 {
		t.Errorf("without lint rules every entry is unknown: %q", got)
	}
}
