package lib

import (
	"testing"

	"github.com/harnlang/harn-check/runtime/harn"
)

// TestFamiliesAssemble: the listed families build into one library (no
// name declared twice) that holds their builtins, std modules and
// harness methods.
func TestFamiliesAssemble(t *testing.T) {
	lib, err := Library()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		what string
		got  []string
		want string
	}{
		{"builtin", lib.Builtins(), "println"},
		{"builtin", lib.Builtins(), "date_now"},
		{"std module", lib.StdModules(), "std/math"},
		{"harness method", lib.HarnessMethods("stdio"), "println"},
	}
	for _, tc := range tests {
		found := false
		for _, name := range tc.got {
			found = found || name == tc.want
		}
		if !found {
			t.Errorf("the library has no %s %s", tc.what, tc.want)
		}
	}
}

// BenchmarkNewLibrary: assembling the library, which the first Harn run
// of every process pays.
func BenchmarkNewLibrary(b *testing.B) {
	families := Families()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := harn.NewLibrary(families); err != nil {
			b.Fatal(err)
		}
	}
}
