package main

import (
	"os/exec"
	"strings"
	"testing"
)

// heavyInit are modules whose package initialisation does real work at
// every process start, with what it costs; the binaries must not link
// them (start-up is measured in BENCHMARKS.md, "Whole processes").
var heavyInit = map[string]string{
	// compiles the meta-schemas of five drafts in init: about half of a
	// hello-world run's time. runtime/jsonschema replaces it.
	"github.com/santhosh-tekuri/jsonschema": "compiles every draft's meta-schema at start-up",
	// detects CPU features in init (an assembly BLAKE3 brought it; the
	// digests are internal/blake3's).
	"github.com/klauspost/cpuid": "detects every CPU feature at start-up",
	"lukechampine.com/blake3":    "brings klauspost/cpuid",
}

// TestBinariesAvoidHeavyInit lists the packages linked into the binaries
// and fails on any module of heavyInit.
func TestBinariesAvoidHeavyInit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps",
		"github.com/harnlang/harn-check/cmd/harn-check", "github.com/harnlang/harn-check/cmd/leia-lsp").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 50 {
		t.Fatalf("go list -deps listed only %d packages: %q", len(pkgs), pkgs)
	}
	for _, p := range pkgs {
		for mod, why := range heavyInit {
			if p == mod || strings.HasPrefix(p, mod+"/") {
				t.Errorf("the binaries link %s, whose initialisation %s", p, why)
			}
		}
	}
}
