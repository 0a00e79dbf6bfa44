package validator

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
)

// summarize renders each file's diagnostics as "CODE line:col" (1-based,
// character columns).
func summarize(rs []FileResult) map[string][]string {
	out := map[string][]string{}
	for _, r := range rs {
		li := diagnostics.NewLineIndex(r.Content)
		out[r.Path] = []string{}
		for _, d := range r.Diagnostics {
			p := li.RuneColumn(d.Span.Start)
			out[r.Path] = append(out[r.Path], fmt.Sprintf("%s %d:%d", d.Code, p.Line+1, p.Column+1))
			if _, ok := diagnostics.Lookup(d.Code); !ok {
				panic("unregistered code " + d.Code)
			}
			if d.Source != diagnostics.SourceValidator {
				panic("wrong source")
			}
		}
	}
	return out
}

func TestCheckPaths(t *testing.T) {
	rs, err := CheckPaths([]string{"testdata/check"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"testdata/check/bad/blueprint.toml": {
			"RHAI-BLU-001 4:22",  // on_validator_error = "ignore": the value
			"RHAI-BLU-002 7:13",  // ../../outside/v.rhai
			"RHAI-BLU-003 10:13", // validators/nope.rhai
			"RHAI-SYN-001 14:77", // inline script: the second `let`, mapped into the TOML file
			"RHAI-BLU-005 18:12", // both file and inline: the validator key
		},
		"testdata/check/bad/validators/arity.rhai":      {"RHAI-VAL-002 1:4"},
		"testdata/check/bad/validators/novalidate.rhai": {"RHAI-VAL-001 1:1"},
		"testdata/check/bad/validators/syntax.rhai":     {"RHAI-SYN-001 3:5"},
		"testdata/check/bad/validators/twice.rhai":      {"RHAI-VAL-003 2:4"},
		"testdata/check/broken.toml":                    {"RHAI-BLU-004 1:6"},
		"testdata/check/bad/tools_broken.rhai":          {"RHAI-SYN-001 1:14"}, // walked, not a validator: syntax only
		"testdata/check/good/blueprint.toml":            {},
		"testdata/check/good/tools/fetch.rhai":          {}, // walked tool script without validate: no contract
		"testdata/check/good/validators/a2ui.rhai":      {},
	}
	got := summarize(rs)
	for path, w := range want {
		if !slices.Equal(got[path], w) {
			t.Errorf("%s: got %v, want %v", path, got[path], w)
		}
	}
	for path := range got {
		if _, ok := want[path]; !ok {
			t.Errorf("unexpected result for %s (Cargo.toml and friends are not blueprints)", path)
		}
	}
	if !slices.IsSortedFunc(rs, func(a, b FileResult) int { return cmpString(a.Path, b.Path) }) {
		t.Error("results are not sorted by path")
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestCheckPathsWalking(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write(".git/hooks/x.rhai", "fn validate(c) { eval(c) }")
	write("node_modules/pkg/x.rhai", "fn validate(c) { eval(c) }")
	bad := write("agent/validators/bad.rhai", "fn validate() { () }")
	bp := write("agent/blueprint.toml", "[agent.output]\nvalidator = \"validators/bad.rhai\"\n")
	other := write("other.txt", "fn validate(c) {")
	tool := write("agent/tools/fetch.rhai", "fn run(args) { args.url }")

	rs, err := CheckPaths([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	got := summarize(rs)
	want := map[string][]string{bp: {}, bad: {"RHAI-VAL-002 1:4"}, tool: {}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v (.git and node_modules are skipped, problems reported once)", got, want)
	}
	for p, w := range want {
		if !slices.Equal(got[p], w) {
			t.Errorf("%s: got %v, want %v", p, got[p], w)
		}
	}
	// A blueprint named alone still compiles the scripts it references.
	rs, _ = CheckPaths([]string{bp})
	if got := summarize(rs); len(got) != 2 || !slices.Equal(got[bad], []string{"RHAI-VAL-002 1:4"}) {
		t.Errorf("blueprint alone: %v", got)
	}
	// A file named explicitly is checked whatever its extension.
	rs, _ = CheckPaths([]string{other})
	if got := summarize(rs); !slices.Equal(got[other], []string{"RHAI-SYN-001 1:16"}) {
		t.Errorf("explicit file: %v", got)
	}
	// A script named explicitly is held to the validator contract.
	rs, _ = CheckPaths([]string{tool})
	if got := summarize(rs); !slices.Equal(got[tool], []string{"RHAI-VAL-001 1:1"}) {
		t.Errorf("explicit tool script: %v", got)
	}
	if _, err := CheckPaths([]string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing path must be an error")
	}
}
