package harn_test

import (
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
)

// TestReadsRecordDependencies: every file the check read or looked for is
// reported once, missing ones marked, so caches can invalidate: the
// harn.toml candidates in Reads, the modules of the closure by Imports.
func TestReadsRecordDependencies(t *testing.T) {
	loader := harn.MapLoader{
		"proj/lib.harn":  []byte("pub fn f() -> string { return \"x\" }\n"),
		"harn.toml":      []byte("[[routes]]\nprovider = \"acme\"\nmodel = \"m\"\noperations = [\"text_generation\", \"decision\"]\n"),
		"proj/util.harn": []byte("import {f} from \"./lib\"\npub fn g() -> string { return f() }\n"),
	}
	src := []byte("import {f} from \"./lib\"\nimport {g} from \"./util\"\nimport {h} from \"./gone\"\nfn main(harness: Harness) { log(f() + g()) }\n")
	res := harn.Check("proj/a.harn", src, harn.Options{Loader: loader})
	type read struct {
		path    string
		missing bool
	}
	check := func(what string, got []harn.Read, want []read) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %+v", what, got)
		}
		for i, w := range want {
			if r := got[i]; r.Path != w.path || r.Missing != w.missing || (!r.Missing && string(r.Content) != string(loader[w.path])) {
				t.Errorf("%s %d = %s missing=%v, want %s missing=%v", what, i, r.Path, r.Missing, w.path, w.missing)
			}
		}
	}
	check("reads", res.Reads, []read{{"proj/harn.toml", true}, {"harn.toml", false}})
	check("imports", res.Imports(), []read{{"proj/lib.harn", false}, {"proj/util.harn", false}, {"proj/gone.harn", true}})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "HARN-MOD-001" {
		t.Errorf("diagnostics %+v", res.Diagnostics)
	}
}
