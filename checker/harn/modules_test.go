package harn_test

import (
	"os"
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
)

// TestModules checks each module of the graph fixture on its own.
func TestModules(t *testing.T) {
	analysistest.Run(t, "testdata/modules", harn.Checker)
}

// TestImportClosureSites: the sites of a file include those of its
// imports, and a failed import marks the census incomplete.
func TestImportClosureSites(t *testing.T) {
	tests := []struct {
		file   string
		sites  []string
		failed bool
	}{
		{"testdata/modules/main.harn", []string{"helpers.supports.v1"}, true},
		{"testdata/modules/helpers.harn", []string{"helpers.supports.v1"}, false},
		{"testdata/acceptance/triage.harn", []string{"compaction.triage.v1", "compaction.act.v1"}, false},
	}
	for _, tc := range tests {
		src, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		res := harn.Check(tc.file, src, harn.Options{Loader: harn.OSLoader{}})
		var ids []string
		for _, s := range res.Sites {
			ids = append(ids, s.ID)
			if !s.Declared() {
				t.Errorf("%s: site %s not declared: %v", tc.file, s.ID, s.Problems)
			}
		}
		if len(ids) != len(tc.sites) {
			t.Errorf("%s: sites %v, want %v", tc.file, ids, tc.sites)
			continue
		}
		for i := range ids {
			if ids[i] != tc.sites[i] {
				t.Errorf("%s: sites %v, want %v", tc.file, ids, tc.sites)
			}
		}
		if res.Failed != tc.failed {
			t.Errorf("%s: Failed = %v, want %v", tc.file, res.Failed, tc.failed)
		}
	}
}

// TestSiteFacts pins the facts the manifest reads for a literal site.
func TestSiteFacts(t *testing.T) {
	src, err := os.ReadFile("testdata/acceptance/triage.harn")
	if err != nil {
		t.Fatal(err)
	}
	res := harn.Check("triage.harn", src, harn.Options{})
	if len(res.Sites) != 2 {
		t.Fatalf("%d sites", len(res.Sites))
	}
	s := res.Sites[1]
	if s.ID != "compaction.act.v1" || s.Method != "evaluate" || s.Line != 28 || s.Column != 13 || s.OutcomeKind != "EvaluationOutcome" {
		t.Errorf("site %s %s %d:%d %s", s.ID, s.Method, s.Line, s.Column, s.OutcomeKind)
	}
	var got []string
	for _, q := range s.Questions {
		got = append(got, q.ID+":"+q.Kind+":"+q.Instructions+":"+join(q.Labels))
	}
	want := []string{
		"disposition:choice:Keep, reword, or drop this window?:keep,reword,drop",
		"risk:score:How much blast radius?:none,low,medium,high",
		"safe:boolean:Is this safe to run without asking?:",
	}
	if join(got) != join(want) {
		t.Errorf("questions\n%v\nwant\n%v", got, want)
	}
	if !s.Policy.Const || s.Policy.Fields["provider"] != "mock" || s.Policy.Fields["threshold"] != 0.8 {
		t.Errorf("policy %+v", s.Policy)
	}
	if s.Input == nil || s.Input.String() != "{messages: list<string>}" || s.InputDeclared == nil {
		t.Errorf("input %v declared %v", s.Input, s.InputDeclared)
	}
	if p := res.Sites[0].Policy; !p.Parameter || p.Const {
		t.Errorf("parameter policy %+v", p)
	}
}

func join(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}
