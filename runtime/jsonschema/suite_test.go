package jsonschema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// suiteSkips are the official test suite's files and groups this package
// does not implement on purpose: references to other documents and to the
// meta-schemas (a schema never loads anything), the dynamic scope of
// $dynamicRef/$recursiveRef (they resolve statically here), and
// vocabularies.
var suiteSkips = []string{
	"refRemote.json", "dynamicRef.json", "recursiveRef.json", "vocabulary.json",
	"validate definition against metaschema", "remote ref, containing refs itself",
	"unevaluatedItems with $recursiveRef", "unevaluatedProperties with $recursiveRef",
	"unevaluatedItems with $dynamicRef", "unevaluatedProperties with $dynamicRef",
}

// TestOfficialSuite runs the JSON-Schema-Test-Suite (github.com/json-schema-org/JSON-Schema-Test-Suite)
// when JSON_SCHEMA_TEST_SUITE names a checkout of it.
func TestOfficialSuite(t *testing.T) {
	root := os.Getenv("JSON_SCHEMA_TEST_SUITE")
	if root == "" {
		t.Skip("set JSON_SCHEMA_TEST_SUITE to a checkout of the JSON-Schema-Test-Suite to run it")
	}
	for _, d := range []string{"draft4", "draft6", "draft7", "draft2019-09", "draft2020-12"} {
		files, _ := filepath.Glob(filepath.Join(root, "tests", d, "*.json"))
		if len(files) == 0 {
			t.Fatalf("no tests under %s", filepath.Join(root, "tests", d))
		}
		passed, failed := 0, 0
		for _, f := range files {
			if skipped(filepath.Base(f)) {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var groups []struct {
				Description string          `json:"description"`
				Schema      json.RawMessage `json:"schema"`
				Tests       []struct {
					Description string          `json:"description"`
					Data        json.RawMessage `json:"data"`
					Valid       bool            `json:"valid"`
				} `json:"tests"`
			}
			if err := json.Unmarshal(data, &groups); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, g := range groups {
				if skipped(g.Description) {
					continue
				}
				doc, err := DecodeJSON(g.Schema)
				if err != nil {
					t.Fatal(err)
				}
				if m, ok := doc.(map[string]any); ok && m["$schema"] == nil {
					m["$schema"] = map[string]string{"draft4": "http://json-schema.org/draft-04/schema#", "draft6": "http://json-schema.org/draft-06/schema#",
						"draft7": "http://json-schema.org/draft-07/schema#", "draft2019-09": "https://json-schema.org/draft/2019-09/schema",
						"draft2020-12": "https://json-schema.org/draft/2020-12/schema"}[d]
				}
				s, err := Compile(doc)
				if err != nil {
					t.Errorf("%s %s / %s: compile: %v", d, filepath.Base(f), g.Description, err)
					failed += len(g.Tests)
					continue
				}
				for _, tc := range g.Tests {
					if skipped(tc.Description) {
						continue
					}
					v, err := DecodeJSON(tc.Data)
					if err != nil {
						t.Fatal(err)
					}
					if got := s.Validate(v) == nil; got != tc.Valid {
						t.Errorf("%s %s / %s / %s: valid = %v, want %v", d, filepath.Base(f), g.Description, tc.Description, got, tc.Valid)
						failed++
					} else {
						passed++
					}
				}
			}
		}
		t.Logf("%s: %d passed, %d failed", d, passed, failed)
	}
}

func skipped(desc string) bool {
	for _, s := range suiteSkips {
		if desc == s || strings.Contains(desc, s) {
			return true
		}
	}
	return false
}
