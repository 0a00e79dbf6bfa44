package harn

import "sort"

// Standard-library modules written in Go (import "std/NAME") come from
// the families that implement them, like harness methods: a family adds
// one with Library.StdModule(spec, functions). A module's functions are
// its exports.

// registeredStdModule builds the module of a library std spec for one run.
func (in *Interp) registeredStdModule(spec string) (*module, bool) {
	fns, ok := in.lib.stdModules[spec]
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
