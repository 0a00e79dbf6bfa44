package harn

import (
	"sort"
	"sync"
)

// Standard-library modules written in Go (import "std/NAME") are
// registered by the package that implements them, like harness methods:
// RegisterStdModule(spec, functions) from an init function. A registered
// module's functions are its exports.

var (
	stdMu      sync.RWMutex
	stdModules = map[string]map[string]func(c *Call, args []Value) (Value, error){}
)

// RegisterStdModule makes `import ... from SPEC` bind the given
// functions. A later registration of the same spec replaces the earlier.
func RegisterStdModule(spec string, functions map[string]func(c *Call, args []Value) (Value, error)) {
	stdMu.Lock()
	defer stdMu.Unlock()
	stdModules[spec] = functions
}

// registeredStdModule builds the module of a registered spec for one run.
func (in *Interp) registeredStdModule(spec string) (*module, bool) {
	stdMu.RLock()
	fns, ok := stdModules[spec]
	stdMu.RUnlock()
	if !ok {
		return nil, false
	}
	key := "std:" + spec // never a file path
	if m, ok := in.modules[key]; ok {
		return m, true
	}
	m := &module{path: spec, globalIndex: map[string]int{}, imports: map[string]importRef{},
		exports: map[string]importRef{}, pipelines: map[string]*Closure{}, initialized: true}
	names := make([]string, 0, len(fns))
	for name := range fns {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		i := m.addGlobal(name)
		m.globals[i] = BuiltinValue(name, fns[name])
		m.exports[name] = importRef{mod: m, index: i}
	}
	in.modules[key] = m
	return m, true
}
