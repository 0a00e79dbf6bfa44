package harn

import (
	"strings"
	"testing"
)

// TestLibraryRejectsDuplicates: a name declared by two families (or a
// family listed twice) fails NewLibrary with an error naming the name and
// both families; distinct names assemble.
func TestLibraryRejectsDuplicates(t *testing.T) {
	nothing := func(*Call, []Value) (Value, error) { return Nil, nil }
	fam := func(name string, install func(lib *Library)) Family { return Family{Name: name, Install: install} }
	tests := []struct {
		name     string
		families []Family
		want     string // "" means no error
	}{
		{"distinct names", []Family{
			fam("a", func(lib *Library) { lib.Builtin("x", nothing); lib.StdModule("std/x", nil) }),
			fam("b", func(lib *Library) { lib.Leaf("y", nothing); lib.HarnessMethod("fs", "x", nothing) }),
		}, ""},
		{"builtin", []Family{
			fam("a", func(lib *Library) { lib.Builtin("x", nothing) }),
			fam("b", func(lib *Library) { lib.Leaf("x", nothing) }),
		}, "builtin x is declared by a and by b"},
		{"builtin within one family", []Family{
			fam("a", func(lib *Library) { lib.Builtin("x", nothing); lib.Builtin("x", nothing) }),
		}, "builtin x is declared by a and by a"},
		{"std module", []Family{
			fam("a", func(lib *Library) { lib.StdModule("std/x", nil) }),
			fam("b", func(lib *Library) { lib.StdModule("std/x", nil) }),
		}, "std module std/x is declared by a and by b"},
		{"harness method", []Family{
			fam("a", func(lib *Library) { lib.HarnessMethod("fs", "read", nothing) }),
			fam("b", func(lib *Library) { lib.HarnessMethod("fs", "read", nothing) }),
		}, "harness method fs.read is declared by a and by b"},
		{"family", []Family{
			fam("a", func(lib *Library) { lib.Builtin("x", nothing) }),
			fam("a", func(lib *Library) { lib.Builtin("y", nothing) }),
		}, "family a is declared by a and by a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lib, err := NewLibrary(tc.families)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want == "" && len(lib.Builtins()) != 2:
				t.Errorf("builtins %v, want x and y", lib.Builtins())
			case tc.want != "" && err == nil:
				t.Fatalf("no error, want %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("error %q, want it to say %q", err, tc.want)
			}
		})
	}
}
