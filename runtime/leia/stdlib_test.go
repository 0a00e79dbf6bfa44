package leia

import (
	"sort"
	"testing"

	"github.com/harnlang/harn-check/lang/leia/stdlib"
)

// registeredElsewhere are the table's categories whose names other
// packages register on this interpreter: the AI layer (runtime/leia/ai)
// and the evaluation harness (runtime/leia/harness), each with its own
// test against the table.
var registeredElsewhere = map[string]bool{"ai": true, "evaluate": true}

// TestStdlibTableMatchesRuntime keeps lang/leia/stdlib, the one table of
// Leia's predeclared names, and this runtime in step, both ways: every
// entry of the table is implemented here unless the table says why not
// (Unimplemented), an entry marked unimplemented is indeed absent, and
// every global and module member this runtime installs has an entry.
func TestStdlibTableMatchesRuntime(t *testing.T) {
	in := New(Options{})
	var missing, stale, extra []string
	present := func(v Value, e *stdlib.Entry) bool {
		switch e.Kind {
		case stdlib.Function:
			return v.IsFunction()
		case stdlib.Module:
			return v.Table() != nil
		}
		return v.k != KindNil
	}
	check := func(e *stdlib.Entry, v Value) {
		switch ok := present(v, e); {
		case e.Unimplemented != "" && ok:
			stale = append(stale, e.Name)
		case e.Unimplemented == "" && !ok:
			missing = append(missing, e.Name)
		}
	}
	for _, e := range stdlib.Globals() {
		if registeredElsewhere[e.Category] || e.Scope != stdlib.Everywhere || e.Name == "arg" {
			continue // arg is set per run, from the program's arguments
		}
		v := in.GetGlobal(e.Name)
		check(e, v)
		if mod := v.Table(); e.Kind == stdlib.Module && mod != nil {
			for name, m := range e.Members {
				check(m, mod.GetStr(name))
			}
		}
	}
	in.globals.Iter(func(k, v Value) bool {
		name := k.AsString()
		e := stdlib.Lookup(name)
		if e == nil {
			extra = append(extra, name)
			return true
		}
		if mod := v.Table(); mod != nil && e.Kind == stdlib.Module && name != "_G" {
			mod.Iter(func(mk, _ Value) bool {
				if e.Member(mk.AsString()) == nil {
					extra = append(extra, name+"."+mk.AsString())
				}
				return true
			})
		}
		return true
	})
	for _, l := range [][]string{missing, stale, extra} {
		sort.Strings(l)
	}
	if len(missing) > 0 {
		t.Errorf("in lang/leia/stdlib but not implemented (implement them, or mark them unimplemented with the reason): %v", missing)
	}
	if len(stale) > 0 {
		t.Errorf("marked unimplemented in lang/leia/stdlib but implemented here (drop the reason): %v", stale)
	}
	if len(extra) > 0 {
		t.Errorf("installed by the runtime but missing from lang/leia/stdlib: %v", extra)
	}
}
