package harn

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// BuiltinFunc is the Go implementation of a builtin: it receives the call
// (to reach the interpreter, host and callbacks) and the evaluated
// arguments.
type BuiltinFunc = func(c *Call, args []Value) (Value, error)

// Family is one family of builtins (dates, crypto, http, ...): a name
// and the function that adds the family's builtins, std modules and
// harness methods to a library. Families are values listed where the
// runtime is assembled (NewLibrary), never entries a package puts into a
// process-wide registry.
type Family struct {
	// Name names the family in a duplicate's error.
	Name string
	// Install adds the family's builtins, std modules and harness
	// methods; it only declares them (no program runs yet).
	Install func(lib *Library)
}

// Library is what a runtime offers programs: builtins by name, std
// modules by spec and harness methods by capability, assembled from
// families by NewLibrary. It does not change once built, so every
// interpreter of a process may share one.
type Library struct {
	builtins   map[string]*Builtin
	stdModules map[string]map[string]BuiltinFunc
	harness    map[string]map[string]*Builtin
	// family is the family installing (NewLibrary); owner names, per
	// declared key, the family that declared it; duplicates are the
	// keys declared twice.
	family     string
	owner      map[string]string
	duplicates []string
}

// NewLibrary assembles the families into a library. A family name, a
// builtin, a std module or a harness method declared twice is an error
// naming both families: a name means one thing.
func NewLibrary(families []Family) (*Library, error) {
	lib := &Library{
		builtins:   make(map[string]*Builtin, 1024),
		stdModules: map[string]map[string]BuiltinFunc{},
		harness:    map[string]map[string]*Builtin{},
		owner:      make(map[string]string, 1100),
	}
	for _, f := range families {
		lib.family = f.Name
		if !lib.claim("family", f.Name) {
			continue
		}
		f.Install(lib)
	}
	lib.family, lib.owner = "", nil
	if len(lib.duplicates) > 0 {
		return nil, errors.New("harn: " + strings.Join(lib.duplicates, "; "))
	}
	return lib, nil
}

// claim records that the installing family declares the key of the kind
// and reports whether no family declared it before.
func (lib *Library) claim(kind, key string) bool {
	k := kind + " " + key
	if prev, ok := lib.owner[k]; ok {
		lib.duplicates = append(lib.duplicates, fmt.Sprintf("%s %s is declared by %s and by %s", kind, key, prev, lib.family))
		return false
	}
	lib.owner[k] = lib.family
	return true
}

// Builtin declares the builtin name.
func (lib *Library) Builtin(name string, fn BuiltinFunc) {
	lib.add(Builtin{Name: name, Fn: fn})
}

// Leaf declares a builtin that neither keeps its Call (nor anything
// reaching it) past its return nor runs program code (no Invoke, no
// iteration of generators or streams, no blocking): its calls share the
// thread's Call, which the next call overwrites.
func (lib *Library) Leaf(name string, fn BuiltinFunc) {
	lib.add(Builtin{Name: name, Fn: fn, leaf: true})
}

func (lib *Library) add(b Builtin) {
	if lib.claim("builtin", b.Name) {
		lib.builtins[b.Name] = &b
	}
}

// StdModule declares `import ... from SPEC`, binding the functions as
// the module's exports.
func (lib *Library) StdModule(spec string, functions map[string]BuiltinFunc) {
	if lib.claim("std module", spec) {
		lib.stdModules[spec] = functions
	}
}

// HarnessMethod declares harness.<capability>.<method>.
func (lib *Library) HarnessMethod(capability, method string, fn BuiltinFunc) {
	if !lib.claim("harness method", capability+"."+method) {
		return
	}
	m := lib.harness[capability]
	if m == nil {
		m = map[string]*Builtin{}
		lib.harness[capability] = m
	}
	m[method] = &Builtin{Name: "harness." + capability + "." + method, Fn: fn}
}

// Builtins lists the names of the library's builtins, sorted.
func (lib *Library) Builtins() []string { return sortedKeys(lib.builtins) }

// StdModules lists the std/ modules the library provides, sorted.
func (lib *Library) StdModules() []string { return sortedKeys(lib.stdModules) }

// HarnessMethods lists the library's methods of a harness capability,
// sorted.
func (lib *Library) HarnessMethods(capability string) []string {
	return sortedKeys(lib.harness[capability])
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
