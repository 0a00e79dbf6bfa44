package harn

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lang/harn/builtins"
)

// TestEveryTableBuiltinImplemented keeps the runtime and the one builtin
// table in step, both ways: a builtin the runtime implements must be
// declared there (with its parameters, result and needed capabilities);
// every builtin of the table is implemented or listed in unimplemented
// with its reason; a listed one is really absent, and every listed name
// is a builtin of the table.
func TestEveryTableBuiltinImplemented(t *testing.T) {
	registered := map[string]bool{}
	for _, name := range testLibrary(t).Builtins() {
		registered[name] = true
		if builtins.Lookup(name) == nil && builtins.LookupGlobal(name) == nil {
			t.Errorf("%s is implemented but has no entry in lang/harn/builtins", name)
		}
	}
	for _, b := range builtins.All() {
		why, listed := unimplemented[b.Name]
		switch {
		case registered[b.Name] && listed:
			t.Errorf("%s is implemented but listed as unimplemented (%s)", b.Name, why)
		case !registered[b.Name] && !listed:
			t.Errorf("%s is in the table but neither implemented nor listed as unimplemented with a reason", b.Name)
		case listed && why == "":
			t.Errorf("%s is listed as unimplemented without a reason", b.Name)
		}
	}
	for name := range unimplemented {
		if builtins.Lookup(name) == nil {
			t.Errorf("%s is listed as unimplemented but is no builtin of the table", name)
		}
	}
}

// TestUnimplementedBuiltinsSayWhy: calling a table builtin the runtime
// lacks is a catchable error giving the reason; an unknown name is an
// undefined builtin.
func TestUnimplementedBuiltinsSayWhy(t *testing.T) {
	tests := []struct{ src, want string }{
		{"pg_connect(\"postgres://db\")", "not available in this runtime: pg_connect " + unimplemented["pg_connect"]},
		{"zstd_encode(\"x\")", "not available in this runtime: zstd_encode needs a Zstandard codec, which Go's standard library does not include"},
		{"no_such_builtin_anywhere()", "Undefined builtin: no_such_builtin_anywhere"},
	}
	for _, tt := range tests {
		out, err := runSource(t, "let r = try { "+tt.src+" }\nprintln(unwrap_err(r))\n", runOpts{})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(out); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.src, got, tt.want)
		}
	}
}
