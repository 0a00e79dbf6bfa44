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
	// spare holds Builtins not yet declared: they are made in blocks
	// rather than one allocation each.
	spare []Builtin
	// While NewLibrary runs: families are the names already installed,
	// family the one installing, duplicated whether a name was declared
	// twice. Only on the pass that words that error: owner names, per
	// declared kind and key, the family that declared it, and duplicates
	// are the sentences saying so.
	families   map[string]bool
	family     string
	duplicated bool
	owner      map[string]string
	duplicates []string
}

// NewLibrary assembles the families into a library. A family name, a
// builtin, a std module or a harness method declared twice is an error
// naming both families: a name means one thing.
func NewLibrary(families []Family) (*Library, error) {
	lib := install(families, false)
	if !lib.duplicated {
		return lib, nil
	}
	// Rare: install again, recording who declared each name, to say
	// which two families declared a name (installing only declares).
	lib = install(families, true)
	return nil, errors.New("harn: " + strings.Join(lib.duplicates, "; "))
}

// install runs the families' Install into a new library; owners asks
// it to record each name's family for the duplicates' wording.
func install(families []Family, owners bool) *Library {
	lib := &Library{
		builtins:   make(map[string]*Builtin, 1024),
		stdModules: map[string]map[string]BuiltinFunc{},
		harness:    map[string]map[string]*Builtin{},
		families:   make(map[string]bool, len(families)),
	}
	if owners {
		lib.owner = map[string]string{}
	}
	for _, f := range families {
		lib.family = f.Name
		if !lib.claim("family", f.Name, lib.families[f.Name]) {
			continue
		}
		lib.families[f.Name] = true
		f.Install(lib)
	}
	lib.family, lib.families, lib.owner, lib.spare = "", nil, nil, nil
	return lib
}

// claim reports whether the installing family may declare the key of
// the kind, which is taken when a family declared it before.
func (lib *Library) claim(kind, key string, taken bool) bool {
	if lib.owner == nil {
		lib.duplicated = lib.duplicated || taken
		return !taken
	}
	k := kind + " " + key
	if prev, ok := lib.owner[k]; ok {
		lib.duplicates = append(lib.duplicates, fmt.Sprintf("%s %s is declared by %s and by %s", kind, key, prev, lib.family))
		return false
	}
	lib.owner[k] = lib.family
	return true
}

// newBuiltin returns a Builtin for the library to keep, from a block.
func (lib *Library) newBuiltin(b Builtin) *Builtin {
	if len(lib.spare) == 0 {
		lib.spare = make([]Builtin, 256)
	}
	p := &lib.spare[0]
	lib.spare = lib.spare[1:]
	*p = b
	return p
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
	if lib.claim("builtin", b.Name, lib.builtins[b.Name] != nil) {
		lib.builtins[b.Name] = lib.newBuiltin(b)
	}
}

// StdModule declares `import ... from SPEC`, binding the functions as
// the module's exports.
func (lib *Library) StdModule(spec string, functions map[string]BuiltinFunc) {
	if _, taken := lib.stdModules[spec]; lib.claim("std module", spec, taken) {
		lib.stdModules[spec] = functions
	}
}

// HarnessMethod declares harness.<capability>.<method>.
func (lib *Library) HarnessMethod(capability, method string, fn BuiltinFunc) {
	m := lib.harness[capability]
	if !lib.claim("harness method", capability+"."+method, m[method] != nil) {
		return
	}
	if m == nil {
		m = map[string]*Builtin{}
		lib.harness[capability] = m
	}
	m[method] = lib.newBuiltin(Builtin{Name: "harness." + capability + "." + method, Fn: fn})
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
