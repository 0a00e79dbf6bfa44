package frontends

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/harnlang/harn-check/driver"
)

// TestHarnManifest: a clean file gets its site census (imports included),
// a failing one null.
func TestHarnManifest(t *testing.T) {
	tests := []struct {
		path string
		ids  []string // nil: manifest must be null
	}{
		{"../../examples/harn/compaction.harn", []string{"compaction.window.v1", "support.claim.v1"}},
		{"../../examples/triage/labels.harn", []string{}},
		{"../../checker/harn/testdata/readme/route.harn", nil},
	}
	for _, tc := range tests {
		src, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		res := Harn().Check(driver.Request{Path: tc.path, Source: src})
		if tc.ids == nil {
			if res.Manifest != nil {
				t.Errorf("%s: manifest %s, want null", tc.path, res.Manifest)
			}
			continue
		}
		var doc struct {
			Schema string
			Sites  []struct{ ID string }
		}
		if err := json.Unmarshal(res.Manifest, &doc); err != nil || doc.Schema != "harn.predicate_sites.v2" {
			t.Fatalf("%s: manifest %s (%v)", tc.path, res.Manifest, err)
		}
		if len(doc.Sites) != len(tc.ids) {
			t.Fatalf("%s: sites %+v, want %v", tc.path, doc.Sites, tc.ids)
		}
		for i, s := range doc.Sites {
			if s.ID != tc.ids[i] {
				t.Errorf("%s: site %d is %s, want %s", tc.path, i, s.ID, tc.ids[i])
			}
		}
		if len(res.Deps) == 0 {
			t.Errorf("%s: no dependencies recorded", tc.path)
		}
	}
}
