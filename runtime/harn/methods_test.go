package harn

import (
	"slices"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lang/harn/builtins"
)

// TestMethodTableBothWays keeps the runtime's method implementations and
// the builtin table's method entries in step: every entry is implemented
// or listed as unimplemented with a reason, and every implementation is
// registered under an entry's own name (not an alias, not a name the
// table does not know).
func TestMethodTableBothWays(t *testing.T) {
	impls := methodImpls()
	for kind, fns := range impls {
		if !slices.Contains(builtins.Kinds(), kind) {
			t.Errorf("implementations for kind %s, which the table does not list", kind)
			continue
		}
		for name := range fns {
			e := builtins.LookupMethod(kind, name)
			switch {
			case e == nil:
				t.Errorf("%s.%s is implemented but the table has no entry for it", kind, name)
			case e.Receiver != kind || e.Member != name:
				t.Errorf("%s.%s is implemented under a name the table gives to %s; register it as the entry's own name", kind, name, e.Name)
			}
			if _, ok := unimplementedMethods[kind+"."+name]; ok {
				t.Errorf("%s.%s is both implemented and listed as unimplemented", kind, name)
			}
		}
	}
	for _, kind := range builtins.Kinds() {
		for _, e := range builtins.Methods(kind) {
			if impls[kind][e.Member] != nil {
				continue
			}
			if reason, ok := unimplementedMethods[e.Name]; !ok || strings.TrimSpace(reason) == "" {
				t.Errorf("table entry %s has no implementation and no reason why", e.Name)
			}
		}
	}
	for name := range unimplementedMethods {
		kind, member, _ := strings.Cut(name, ".")
		if e := builtins.LookupMethod(kind, member); e == nil || e.Name != name {
			t.Errorf("unimplemented %s is not an entry of the table", name)
		}
	}
}

// TestMethodDispatchByTable runs methods through the table: aliases,
// inherited kinds (a range answers iterator methods), a dict's stored
// function, and a name nothing lists.
func TestMethodDispatchByTable(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"alias", `println("  a ".strip() + "|" + "ab".to_upper())`, "a|AB"},
		{"list alias", `println([1, 2, 3].select({ x -> x > 1 }))`, "[2, 3]"},
		{"inherited", `println((0 to 3).map({ x -> x * 2 }).to_list())`, "[0, 2, 4, 6]"},
		{"own range method", `println((1 to 4).count())`, "4"},
		{"dict stored function", `let d = {f: { x -> x + 1 }}
println(d.f(1))`, "2"},
		{"unknown is nil", `println([1].no_such_method())`, "nil"},
		{"result", `println(Ok(3).unwrap_or(0))`, "3"},
		{"generator inherits", `fn g() { yield 1
yield 2 }
println(g().map({ x -> x + 10 }).to_list())`, "[11, 12]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := runSource(t, tt.src+"\n", runOpts{})
			if err != nil {
				t.Fatalf("run: %v\n%s", err, out)
			}
			if got := strings.TrimSpace(out); got != tt.want {
				t.Errorf("output %q, want %q", got, tt.want)
			}
		})
	}
}
