package leia

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/host"

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

// typeSkip are the functions TestStdlibTableTypesMatchRuntime does not
// call: they end the program, block, or change the process.
var typeSkip = map[string]bool{
	"os.exit": true, "process.exit": true, "log.fatal": true, "sleep": true, "time.sleep": true,
	"coroutine.yield": true, "debug.setHook": true, "debug.setSink": true, "io.read": true,
	"io.lines": true, "error": true, "fs.chdir": true, "os.setenv": true, "os.unsetenv": true,
	"process.setArgs": true, "script.setDir": true, "log.setLevel": true, "rand.seed": true, "math.randomseed": true,
}

// checkedKinds are the parameter types the Leia checker holds arguments
// to (checker/leia/rules/argtypes): none of them accepts a boolean.
var checkedKinds = map[string]bool{"string": true, "number": true, "integer": true, "table": true, "function": true}

// TestStdlibTableTypesMatchRuntime holds the table's parameter types to
// the runtime, which the checker relies on: for every parameter the
// checker checks (string, number, integer, table, function, or a union of
// them), a boolean passed there, with fitting values for the others, is
// refused by the implementation. A parameter the runtime does not check
// must be typed any (or a kind the checker leaves alone).
func TestStdlibTableTypesMatchRuntime(t *testing.T) {
	h, err := host.New(host.Config{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	in := New(Options{Stdin: strings.NewReader(""), Host: h})
	noop := NewNative("noop", func(*Thread, []Value) ([]Value, error) { return nil, nil })
	sample := func(typ string) Value {
		typ = strings.TrimSuffix(strings.Split(typ, "|")[0], "?")
		switch typ {
		case "string":
			return String("a")
		case "number", "integer":
			return Int(2)
		case "table":
			return TableValue(NewTable(0, 0))
		case "function":
			return noop
		case "boolean":
			return True
		}
		return Int(1)
	}
	checked := func(typ string) bool {
		if strings.HasSuffix(typ, "?") {
			return false
		}
		for _, alt := range strings.Split(typ, "|") {
			if !checkedKinds[alt] {
				return false
			}
		}
		return true
	}
	var loose []string
	probe := func(e *stdlib.Entry, fn Value) {
		for i, p := range e.Params {
			if !checked(p.Type) {
				continue
			}
			for _, bad := range refused(p.Type, noop) {
				var args []Value
				for j, q := range e.Params {
					switch {
					case j == i:
						args = append(args, bad)
					case q.Variadic || (j > i && q.Optional):
					default:
						args = append(args, sample(q.Type))
					}
				}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				_, err := in.Call(ctx, fn, args...)
				cancel()
				if err != nil && strings.Contains(err.Error(), "not available") {
					return // needs a host: the call stops before the arguments
				}
				if err == nil {
					loose = append(loose, fmt.Sprintf("%s: parameter %d (%s) takes %s", e.Name, i+1, p, bad.TypeName()))
					break
				}
			}
		}
	}
	for _, g := range stdlib.Globals() {
		if registeredElsewhere[g.Category] || g.Scope != stdlib.Everywhere || g.Unimplemented != "" {
			continue
		}
		v := in.GetGlobal(g.Name)
		if g.Kind == stdlib.Function && !typeSkip[g.Name] {
			probe(g, v)
		}
		mod := v.Table()
		if g.Kind != stdlib.Module || mod == nil {
			continue
		}
		for name, m := range g.Members {
			if m.Kind == stdlib.Function && !typeSkip[m.Name] {
				probe(m, mod.GetStr(name))
			}
		}
	}
	sort.Strings(loose)
	for _, l := range loose {
		t.Errorf("lang/leia/stdlib types a parameter the runtime does not check (type it any): %s", l)
	}
}

// refused are values of the kinds a parameter of type typ (a union of
// checked kinds) refuses, as the checker assumes: a boolean always; a
// table and a function unless typ has them; a non-numeric string unless
// typ has string; a number unless typ has string, number or integer.
func refused(typ string, fn Value) []Value {
	has := map[string]bool{}
	for _, alt := range strings.Split(typ, "|") {
		has[alt] = true
	}
	out := []Value{True}
	if !has["table"] {
		out = append(out, TableValue(NewTable(0, 0)))
	}
	if !has["function"] {
		out = append(out, fn)
	}
	if !has["string"] {
		out = append(out, String("not a number"))
	}
	if !has["string"] && !has["number"] && !has["integer"] {
		out = append(out, Int(3))
	}
	return out
}
