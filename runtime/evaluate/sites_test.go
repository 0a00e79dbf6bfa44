package evaluate

import (
	"path/filepath"
	"testing"

	"github.com/harnlang/harn-check/runtime/llm"
)

// TestUnlistedSiteRefused: with the run's admitted sites installed, an
// evaluation written anywhere else (a receiver whose static type was
// erased, a site the checker could not admit), or with no location, is
// unavailable/admission_refused with admission_reason site_not_admitted
// and makes no provider request; the listed site dispatches. Paths match
// in any spelling of the same file.
func TestUnlistedSiteRefused(t *testing.T) {
	f := newFakeProvider(t)
	abs, err := filepath.Abs(filepath.Join("prog", "main.harn"))
	if err != nil {
		t.Fatal(err)
	}
	listed := Site{Location: Location{Source: "prog/main.harn", Line: 4, Column: 13}, ID: "compaction.triage.v1"}
	for _, tc := range []struct {
		name   string
		at     *Location
		siteID string
		admit  bool
	}{
		{"listed", &Location{Source: abs, Line: 4, Column: 13}, listed.ID, true},
		{"another line", &Location{Source: abs, Line: 9, Column: 13}, listed.ID, false},
		{"another column", &Location{Source: "prog/main.harn", Line: 4, Column: 12}, listed.ID, false},
		{"another module", &Location{Source: "prog/lib.harn", Line: 4, Column: 13}, listed.ID, false},
		{"another id", &Location{Source: "prog/main.harn", Line: 4, Column: 13}, "other.v1", false},
		{"no location", nil, listed.ID, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{Catalog: testCatalog(t, f.srv.URL), LLM: llm.Options{Getenv: getenv}, Sites: NewSites([]Site{listed})})
			req := request(t, "local", "judge", "")
			req.SiteID, req.At = tc.siteID, tc.at
			before := f.requests.Load()
			res := mustEvaluate(t, e, req)
			sent := f.requests.Load() - before
			if tc.admit {
				if res.Outcome.Kind != OutcomeAnswered || sent != 1 {
					t.Fatalf("listed site: %s, %d requests", res.Outcome.Kind, sent)
				}
				return
			}
			rc := res.Receipt
			if res.Outcome.Kind != OutcomeUnavailable || res.Outcome.Field("reason") != "admission_refused" || sent != 0 ||
				rc.PhysicalAttempts != 0 || rc.AdmissionReason == nil || *rc.AdmissionReason != AdmissionUnlistedSite {
				t.Fatalf("outcome %v, %d requests, receipt attempts %d reason %v", res.Outcome.Value(), sent, rc.PhysicalAttempts, rc.AdmissionReason)
			}
			if got, _ := e.Journal().Snapshot(); len(got) != 1 {
				t.Errorf("%d receipts journaled, want 1", len(got))
			}
		})
	}
	// Without a site list (no manifest: `llm evaluate`) a request is not
	// refused for its location.
	res := mustEvaluate(t, newEvaluator(t, f, nil), request(t, "local", "judge", ""))
	if res.Outcome.Kind != OutcomeAnswered {
		t.Errorf("no site list: %s", res.Outcome.Kind)
	}
	// A lazily computed list is computed once.
	n := 0
	lazy := LoadSites(func() []Site { n++; return nil })
	for range 3 {
		if lazy.Admits(&listed.Location, listed.ID) {
			t.Error("an empty list admitted a site")
		}
	}
	if n != 1 {
		t.Errorf("the list was computed %d times", n)
	}
}
