package leia

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// plain shows a scalar as tostring does and anything else by its type
// (addresses differ between interpreters).
func plain(v Value) string {
	switch v.k {
	case KindString, KindInt, KindFloat, KindNil, KindBool:
		return FormatValuePlain(v)
	}
	return v.TypeName()
}

// shape describes a table for comparison: its keys in iteration order,
// each with the kind of its value (a native by its name, a table by its
// own shape, to depth levels).
func shape(t *Table, depth int, seen map[*Table]bool) string {
	if seen[t] {
		return "<seen>"
	}
	seen[t] = true
	var b strings.Builder
	k, v, _ := t.Next(Nil)
	for k.k != KindNil {
		fmt.Fprintf(&b, "%s=", plain(k))
		switch {
		case v.Native() != nil:
			b.WriteString("native " + v.Native().Name)
		case v.Table() != nil && depth > 0:
			b.WriteString("{" + shape(v.Table(), depth-1, seen) + "}")
		default:
			b.WriteString(v.TypeName())
		}
		b.WriteString("; ")
		k, v, _ = t.Next(k)
	}
	if m := t.Meta(); m != nil && depth > 0 {
		b.WriteString("meta{" + shape(m, depth-1, seen) + "}")
	}
	return b.String()
}

// TestLazyLibraryMatchesEager holds librarySteps' module lists to what
// the steps register: the library made at its first use has the same
// globals, loaded modules and module contents, in the same order, as the
// library made at New.
func TestLazyLibraryMatchesEager(t *testing.T) {
	eager := newInterp(Options{}, false)
	lazy := New(Options{})
	if len(lazy.deferred) == 0 {
		t.Fatal("New made the whole library; the module steps should wait for a first use")
	}
	if len(eager.deferred) != 0 {
		t.Fatal("the eager interpreter deferred library steps")
	}
	// Reading the library through pairs makes it; the globals and the
	// loaded table are compared whole, modules to two levels.
	for _, c := range []struct {
		name string
		of   func(*Interp) *Table
	}{
		{"_G", func(in *Interp) *Table { return in.globals }},
		{"package.loaded", func(in *Interp) *Table { return in.loaded }},
		{"string metatable", func(in *Interp) *Table { return in.stringMeta }},
	} {
		want := shape(c.of(eager), 2, map[*Table]bool{})
		got := shape(c.of(lazy), 2, map[*Table]bool{})
		if got != want {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			from := max(0, i-200)
			t.Errorf("%s differs at byte %d:\neager ...%.400s\nlazy  ...%.400s", c.name, i, want[from:], got[from:])
		}
	}
	if len(lazy.deferred) != 0 {
		t.Error("iterating the library left deferred steps")
	}
	if got, want := len(lazy.libs), len(eager.libs); got != want {
		t.Errorf("lazy install knows %d library tables, eager %d", got, want)
	}
	if n := len(eager.libs); n > libraryModules {
		t.Errorf("the library registers %d module tables; libraryModules says %d", n, libraryModules)
	}
}

// runLeia compiles and runs src on in and returns its results as strings.
func runLeia(t *testing.T, in *Interp, src string) []string {
	t.Helper()
	chunk, err := in.Compile("lazy.leia", []byte(src))
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	rets, err := in.Run(context.Background(), chunk)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	out := make([]string, len(rets))
	for i, r := range rets {
		out[i] = plain(r)
	}
	return out
}

// TestLazyLibraryFirstUse: whichever way a program first reaches a
// library table (indexing, a method of a string, pairs, next, rawget,
// _G, a global read, a write), it sees the table whole, as the library
// made at New would show it; and what the program did to the globals
// before the library was made stays done.
func TestLazyLibraryFirstUse(t *testing.T) {
	cases := []struct {
		name, src string
	}{
		{"index", `return string.upper("a"), math.max(1, 2)`},
		{"string method", `return ("abc"):upper(), ("x"):rep(3)`},
		{"pairs", `n := 0
for k, v := range pairs(table) { n = n + 1 }
return n`},
		{"for over a module", `keys := ""
for k, v := range utf8 { keys = keys .. k .. "," }
return keys`},
		{"next", `k, v := next(json)
return k, type(v)`},
		{"rawget", `return type(rawget(string, "format")), type(rawget(rawget(_G, "os"), "time"))`},
		{"_G", `return type(_G.string.format), type(_G["math"].floor)`},
		{"global read cache", `func f() { return math }
a := f()
b := f()
return a == b, type(a.sqrt)`},
		{"write first", `table.extra = 1
keys := ""
for k, v := range table { keys = keys .. k .. "," }
return keys`},
		{"write of a number key first", `os[1] = "x"
os[true] = "y"
n := 0
for k, v := range pairs(os) { n = n + 1 }
return n, os[1], os[true]`},
		{"global replaced first", `s := string
string = nil
json = 5
return s.upper("a"), string, json, math.floor(2.5)`},
		{"helpers added to string", `return type(string.trimLeft), type(string.pack)`},
		{"load with a library table as env", `f := load("return upper", "x", "t", string)
return type(f())`},
		{"length and metatable", `return #math, getmetatable(math), next(math) != nil`},
		{"require", `return require("json") == json, package.loaded.sort == sort`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := runLeia(t, New(Options{}), c.src)
			want := runLeia(t, newInterp(Options{}, false), c.src)
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("lazy library gives %q, eager %q", got, want)
			}
		})
	}
}

// TestHelloMakesNoLibraryTable: a program that calls print only makes
// none of the library's module tables.
func TestHelloMakesNoLibraryTable(t *testing.T) {
	var out strings.Builder
	in := New(Options{Stdout: &out})
	runLeia(t, in, `print("hello")`)
	if out.String() != "hello\n" {
		t.Fatalf("printed %q", out.String())
	}
	if len(in.deferred) == 0 {
		t.Fatal("print made the library's module tables")
	}
	for name, tb := range in.libs {
		if tb.ext != nil && tb.ext.fill == nil {
			t.Errorf("library table %s has an extension but no fill", name)
		}
	}
}
