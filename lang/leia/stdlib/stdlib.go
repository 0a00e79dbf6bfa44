// Package stdlib is the table of Leia's predeclared names: the builtin
// functions (print, pairs, tostring, pcall, ...), the standard-library and
// AI modules (string, table, math, os, json, llm, msg, history, ...) with
// the members the toolchain knows, and the names that exist only in some
// places (eval, inside evaluate blocks under the harness).
//
// It is the one table per language of the design: the Leia checker
// resolves names and checks arities with it, the language server completes
// from it, and the Leia runtime registers its implementations against it
// (a test there keeps the two sides in step). The table is data, built once
// and shared read-only.
//
// Arity is recorded where Leia's runtime refuses a call: MinArgs is the
// number of arguments below which the builtin raises "bad argument";
// MaxArgs is -1 (Unbounded) unless extra arguments are certainly a mistake.
// Leia itself never rejects a call for its argument count (missing
// arguments are nil, extra ones are dropped), so a function whose arity is
// not known carries MinArgs 0 and MaxArgs Unbounded.
//
// The modules are those of upstream Leia's standard-library catalog
// (docs/reference/stdlib/index.md: array ... vec), the AI modules of its
// AI reference (llm, msg, history, chat, loop, and eval for the evaluation
// harness), the dialect runtime (dialect, q) and the Lua-style base
// library.
//
// Modules are open: a member the table does not list is not an error,
// because hosts and newer runtimes add members. Sources: the Leia
// specification and reference (shared/reference/leia-language.md,
// leia-ai-runtime.md) and the stdlib modules its language tests require.
package stdlib

import (
	"sort"
	"strings"
	"sync"
)

// Kind tells a function from a module or a plain value.
type Kind uint8

const (
	// Function is a callable builtin.
	Function Kind = iota
	// Module is a table of members (string, llm, ...).
	Module
	// Value is any other predeclared value (math.pi, _VERSION).
	Value
)

var kindNames = [...]string{"function", "module", "value"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Unbounded is MaxArgs of a function that takes any number of arguments.
const Unbounded = -1

// Scope says where a predeclared name exists.
type Scope uint8

const (
	// Everywhere: an ordinary global of every program.
	Everywhere Scope = iota
	// EvaluateOnly: installed by the evaluation harness while an
	// `evaluate "name" { ... }` block runs, and nowhere else (eval).
	EvaluateOnly
)

// Entry is one predeclared name: a global, or a member of a module (Name
// then is "module.member").
type Entry struct {
	// Name is the global's name, or "module.member".
	Name string
	Kind Kind
	// MinArgs and MaxArgs bound the argument count of a Function (see the
	// package comment); MaxArgs is Unbounded when any count is accepted.
	MinArgs, MaxArgs int
	// Params names the parameters, for messages, signature help and
	// completion ("s", "pattern", "init?"); a trailing "..." is variadic.
	Params []string
	// Results is the number of values the function returns, 0 when not
	// known; 2 for the (value, err) result pairs of the AI helpers.
	Results int
	// ErrorResult marks a function whose last result is an error value
	// that callers must look at (llm.turn, llm.dispatch, ...).
	ErrorResult bool
	// Scope says where the name exists (globals only).
	Scope Scope
	// Doc is a one-line description.
	Doc string
	// Members are a module's known members, by member name.
	Members map[string]*Entry
}

// Signature renders a function as "name(a, b, c?)".
func (e *Entry) Signature() string {
	return e.Name + "(" + strings.Join(e.Params, ", ") + ")"
}

// Member returns the known member of a module, or nil.
func (e *Entry) Member(name string) *Entry {
	if e == nil || e.Members == nil {
		return nil
	}
	return e.Members[name]
}

var (
	once    sync.Once
	globals map[string]*Entry
	sorted  []*Entry
)

func build() {
	globals = map[string]*Entry{}
	for _, g := range builtinFuncs {
		e := parseFunc(g.sig, g.doc)
		e.Results, e.ErrorResult = g.results, g.errResult
		globals[e.Name] = e
	}
	for _, m := range modules {
		e := &Entry{Name: m.name, Kind: Module, Doc: m.doc, Scope: m.scope, Members: map[string]*Entry{}}
		for _, f := range m.funcs {
			me := parseFunc(f.sig, f.doc)
			me.Results, me.ErrorResult = f.results, f.errResult
			short := strings.TrimPrefix(me.Name, m.name+".")
			e.Members[short] = me
		}
		for _, v := range m.values {
			e.Members[v] = &Entry{Name: m.name + "." + v, Kind: Value}
		}
		globals[e.Name] = e
	}
	for _, v := range values {
		globals[v.name] = &Entry{Name: v.name, Kind: Value, Doc: v.doc}
	}
	for _, e := range globals {
		sorted = append(sorted, e)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
}

// parseFunc reads a signature such as "string.find(s, pattern, init?,
// plain?)": parameters ending in "?" are optional, a final "..." or
// "name..." is variadic. A signature with "*" for its parameters has an
// unknown arity.
func parseFunc(sig, doc string) *Entry {
	open := strings.IndexByte(sig, '(')
	e := &Entry{Name: sig[:open], Kind: Function, Doc: doc, MaxArgs: 0}
	inner := strings.TrimSuffix(sig[open+1:], ")")
	if inner == "*" {
		e.MaxArgs = Unbounded
		return e
	}
	if inner == "" {
		return e
	}
	for _, p := range strings.Split(inner, ",") {
		p = strings.TrimSpace(p)
		e.Params = append(e.Params, p)
		switch {
		case strings.HasSuffix(p, "..."):
			e.MaxArgs = Unbounded
		case strings.HasSuffix(p, "?"):
			if e.MaxArgs != Unbounded {
				e.MaxArgs++
			}
		default:
			e.MinArgs++
			if e.MaxArgs != Unbounded {
				e.MaxArgs++
			}
		}
	}
	return e
}

// Lookup returns the predeclared global called name, or nil.
func Lookup(name string) *Entry {
	once.Do(build)
	return globals[name]
}

// LookupPath returns the entry for a global or a dotted member path
// ("string.find"), or nil.
func LookupPath(path string) *Entry {
	mod, member, ok := strings.Cut(path, ".")
	g := Lookup(mod)
	if !ok {
		return g
	}
	return g.Member(member)
}

// Globals returns every predeclared global, sorted by name. The slice is
// shared: callers must not modify it.
func Globals() []*Entry {
	once.Do(build)
	return sorted
}
