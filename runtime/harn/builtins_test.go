package harn

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lang/harn/builtins"
)

// TestEveryBuiltinHasASignature keeps the runtime and the checker's one
// builtin table in step: a builtin the runtime implements must be
// declared there (with its parameters, result and needed capabilities).
func TestEveryBuiltinHasASignature(t *testing.T) {
	for _, name := range Builtins() {
		if builtins.Lookup(name) == nil && builtins.LookupGlobal(name) == nil {
			t.Errorf("%s is implemented but has no entry in lang/harn/builtins", name)
		}
	}
}

// TestUnimplementedBuiltinsSayWhy: calling a table builtin the runtime
// lacks is a catchable error saying what it needs; an unknown name is an
// undefined builtin.
func TestUnimplementedBuiltinsSayWhy(t *testing.T) {
	var missing *builtins.Builtin
	for _, b := range builtins.All() {
		if _, ok := registry[b.Name]; !ok && b.Namespace == "" && len(b.Needs) > 0 {
			missing = b
			break
		}
	}
	if missing == nil {
		t.Skip("every builtin with a capability need is implemented")
	}
	src := "let r = try { " + missing.Name + "() }\nprintln(unwrap_err(r))\n"
	out, err := runSource(t, src, runOpts{})
	if err != nil {
		t.Fatal(err)
	}
	want := "not available in this runtime: " + missing.Name + " needs the " + string(missing.Needs[0])
	if !strings.HasPrefix(out, want) {
		t.Errorf("got %q, want it to start with %q", out, want)
	}
	out, err = runSource(t, "let r = try { no_such_builtin_anywhere() }\nprintln(unwrap_err(r))\n", runOpts{})
	if err != nil || strings.TrimSpace(out) != "Undefined builtin: no_such_builtin_anywhere" {
		t.Errorf("unknown builtin: %q, %v", out, err)
	}
}
