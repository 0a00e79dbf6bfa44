package catalog

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEvaluationCacheSetting: [evaluation] cache grants a folder inside
// the project, resolved against harn.toml's folder; an absolute or
// climbing path, a non-string and an unknown key are errors naming the
// key; without the table nothing is granted.
func TestEvaluationCacheSetting(t *testing.T) {
	origin := "proj/harn.toml"
	for _, tc := range []struct {
		name, toml, want, err string
	}{
		{"absent", "", "", ""},
		{"relative", "[evaluation]\ncache = \".harn/evals\"\n", filepath.Join("proj", ".harn", "evals"), ""},
		{"inner dots", "[evaluation]\ncache = \"a/../b\"\n", filepath.Join("proj", "b"), ""},
		{"absolute", "[evaluation]\ncache = \"/tmp/evals\"\n", "", `cache "/tmp/evals" must be a folder inside the project`},
		{"climbing", "[evaluation]\ncache = \"../elsewhere\"\n", "", `cache "../elsewhere" must be a folder inside the project`},
		{"climbing after a step", "[evaluation]\ncache = \"a/../../x\"\n", "", "must be a folder inside the project"},
		{"empty", "[evaluation]\ncache = \"\"\n", "", "cache must be a non-empty string"},
		{"not a string", "[evaluation]\ncache = 3\n", "", "cache must be a non-empty string"},
		{"unknown key", "[evaluation]\ncahce = \"x\"\n", "", `[evaluation]: unknown key "cahce"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, err := Default().Parse(origin, []byte(tc.toml))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), origin) {
					t.Fatalf("error %v, want one containing %q and the file", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := cat.EvaluationCache(); got != tc.want {
				t.Errorf("cache %q, want %q", got, tc.want)
			}
		})
	}
	if Default().EvaluationCache() != "" {
		t.Error("the built-in catalog grants a cache folder")
	}
}

// TestUpstreamAssetRootsAccepted: upstream's [asset_roots] table (its
// conformance program asset_paths_package_root) is an upstream manifest
// table, accepted and not read, not HARN-CFG-001.
func TestUpstreamAssetRootsAccepted(t *testing.T) {
	p := Project{Path: "harn.toml", Data: []byte("[package]\nname = \"x\"\n\n[asset_roots]\npartials = \"prompts\"\n")}
	if _, err := p.Catalog(); err != nil {
		t.Fatalf("catalog: %v", err)
	}
	if _, err := p.Config(); err != nil {
		t.Fatalf("config: %v", err)
	}
}
