package harn_test

import (
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
)

// TestReadsRecordDependencies: every file the check read or looked for is
// reported once, missing ones marked, so caches can invalidate.
func TestReadsRecordDependencies(t *testing.T) {
	loader := harn.MapLoader{
		"proj/lib.harn":  []byte("pub fn f() -> string { return \"x\" }\n"),
		"harn.toml":      []byte("[[routes]]\nprovider = \"acme\"\nmodel = \"m\"\noperations = [\"decision\"]\n"),
		"proj/util.harn": []byte("import {f} from \"./lib\"\npub fn g() -> string { return f() }\n"),
	}
	src := []byte("import {f} from \"./lib\"\nimport {g} from \"./util\"\nimport {h} from \"./gone\"\nfn main(harness: Harness) { log(f() + g()) }\n")
	res := harn.Check("proj/a.harn", src, harn.Options{Loader: loader})
	want := []struct {
		path    string
		missing bool
	}{
		{"proj/harn.toml", true},
		{"harn.toml", false},
		{"proj/lib.harn", false},
		{"proj/util.harn", false},
		{"proj/gone.harn", true},
	}
	if len(res.Reads) != len(want) {
		t.Fatalf("reads %+v", res.Reads)
	}
	for i, w := range want {
		if r := res.Reads[i]; r.Path != w.path || r.Missing != w.missing || (!r.Missing && string(r.Content) != string(loader[w.path])) {
			t.Errorf("read %d = %s missing=%v, want %s missing=%v", i, r.Path, r.Missing, w.path, w.missing)
		}
	}
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "HARN-MOD-001" {
		t.Errorf("diagnostics %+v", res.Diagnostics)
	}
}
