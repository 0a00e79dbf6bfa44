// Package stdlib is the table of Leia's predeclared names: the builtin
// functions (print, pairs, tostring, pcall, ...), the standard-library and
// AI modules (string, table, math, os, json, llm, msg, history, ...) with
// the members the toolchain knows, and the names that exist only in some
// places (eval, inside evaluate blocks under the harness).
//
// It is the one table per language of the design: the Leia checker
// resolves names and checks arities with it, the language server completes
// from it, and the Leia runtime registers its implementations against it
// (its test goes both ways: every entry is implemented there or carries
// the reason it is not, Unimplemented; every name the runtime installs has
// an entry). Every function carries typed parameters and typed results
// (table.go for the base library and the modules with their own list,
// members.go for the members of the others); the Leia checker types
// calls from them. The table is data, built once and shared read-only.
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
	"cmp"
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

// Param is one parameter of a function's signature.
type Param struct {
	// Name is the parameter's name, without "?" or "...".
	Name string
	// Type is its type as documentation ("string", "integer", "table",
	// "function", "any", "string|table", ...), "" when not recorded.
	Type string
	// Optional parameters may be left out (nil).
	Optional bool
	// Variadic is the last parameter taking any number of values.
	Variadic bool
}

// String renders the parameter as in a signature: "init?: integer".
func (p Param) String() string {
	s := p.Name
	switch {
	case p.Variadic:
		s += "..."
	case p.Optional:
		s += "?"
	}
	if p.Type != "" {
		s += ": " + p.Type
	}
	return s
}

// Entry is one predeclared name: a global, or a member of a module (Name
// then is "module.member").
type Entry struct {
	// Name is the global's name, or "module.member".
	Name string
	Kind Kind
	// MinArgs and MaxArgs bound the argument count of a Function (see the
	// package comment); MaxArgs is Unbounded when any count is accepted.
	MinArgs, MaxArgs int
	// Params are the parameters, for messages, signature help and
	// completion; nil with Unknown set when the signature is not recorded.
	Params []Param
	// Unknown marks a function whose parameters are not recorded (any
	// number of arguments of any type).
	Unknown bool
	// Returns describes the results ("integer?, integer?", "value: any,
	// err: error?"), "" when not recorded.
	Returns string
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
	// Category is the family of the runtime that implements a module
	// (base, text, collections, math, os, io, encoding, data, net,
	// concurrency, dialect, ai, evaluate).
	Category string
	// Unimplemented, when set, says why this runtime provides no
	// implementation of the name (a host module it does not provide).
	Unimplemented string
	// Members are a module's known members, by member name.
	Members map[string]*Entry
}

// Signature renders a function as "name(a: string, b?: integer) ->
// results" ("name(...)" when its parameters are not recorded).
func (e *Entry) Signature() string {
	if e.Unknown {
		return e.Name + "(...)"
	}
	ps := make([]string, len(e.Params))
	for i, p := range e.Params {
		ps[i] = p.String()
	}
	s := e.Name + "(" + strings.Join(ps, ", ") + ")"
	if e.Returns != "" {
		s += " -> " + e.Returns
	}
	return s
}

// ResultType returns the type of a function's i-th result (from 0) as
// Returns writes it, without its name ("string?", "integer", "table"),
// or "" when the function has no such result.
func (e *Entry) ResultType(i int) string {
	if e == nil || e.Returns == "" {
		return ""
	}
	rs := strings.Split(e.Returns, ",")
	if i >= len(rs) {
		return ""
	}
	r := strings.TrimSpace(rs[i])
	if _, t, ok := strings.Cut(r, ":"); ok {
		r = strings.TrimSpace(t)
	}
	return r
}

// Member returns the known member of a module, or nil.
func (e *Entry) Member(name string) *Entry {
	if e == nil || e.Members == nil {
		return nil
	}
	return e.Members[name]
}

// global is one predeclared global of the table, made into its Entry at
// its first lookup: a checker that looks up print parses print's
// signature, not the whole table's (a hello world's check spent a sixth
// of its time parsing every signature).
type global struct {
	once sync.Once
	make func() *Entry
	e    *Entry
}

func (g *global) entry() *Entry {
	g.once.Do(func() { g.e = g.make() })
	return g.e
}

// index holds the globals by name, found by a scan of the table's names
// that parses no signature. A later list's name replaces an earlier one's
// (functions, then modules, then values).
var index = sync.OnceValue(func() map[string]*global {
	idx := make(map[string]*global, len(builtinFuncs)+len(modules)+len(values))
	for _, g := range builtinFuncs {
		name := g.sig[:strings.IndexByte(g.sig, '(')]
		idx[name] = &global{make: func() *Entry {
			e := parseFunc(g)
			e.Category = cmp.Or(g.category, "base")
			return e
		}}
	}
	for i := range modules {
		m := &modules[i]
		idx[m.name] = &global{make: func() *Entry { return makeModule(m) }}
	}
	for _, v := range values {
		idx[v.name] = &global{make: func() *Entry {
			return &Entry{Name: v.name, Kind: Value, Doc: v.doc, Category: "base"}
		}}
	}
	return idx
})

// makeModule makes a module's entry with its members, those the runtime
// adds (runtimeModules) included.
func makeModule(m *module) *Entry {
	e := &Entry{Name: m.name, Kind: Module, Doc: m.doc, Scope: m.scope, Category: m.category, Unimplemented: m.unimplemented, Members: map[string]*Entry{}}
	for _, f := range m.funcs {
		me := parseFunc(f)
		me.Category, me.Unimplemented = m.category, m.unimplemented
		short := strings.TrimPrefix(me.Name, m.name+".")
		e.Members[short] = me
	}
	for _, v := range m.values {
		e.Members[v] = &Entry{Name: m.name + "." + v, Kind: Value, Category: m.category, Unimplemented: m.unimplemented}
	}
	for _, rm := range runtimeModules {
		if rm.module != m.name {
			continue
		}
		for _, f := range rm.funcs {
			me := parseFunc(f)
			me.Category = e.Category
			e.Members[strings.TrimPrefix(me.Name, rm.module+".")] = me
		}
		for _, name := range rm.values {
			e.Members[name] = &Entry{Name: rm.module + "." + name, Kind: Value, Category: e.Category}
		}
	}
	return e
}

// sorted is every global's entry, sorted by name (the entries Lookup
// hands out).
var sorted = sync.OnceValue(func() []*Entry {
	idx := index()
	out := make([]*Entry, 0, len(idx))
	for _, g := range idx {
		out = append(out, g.entry())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
})

// parseFunc reads a function's signature, such as "string.find(s: string,
// pattern: string, init?: integer, plain?: boolean) -> integer?,
// integer?": a parameter ending in "?" is optional, a final "name..." is
// variadic, the part after " -> " describes the results (their count,
// unless f.results says it). A signature with "*" for its parameters has
// an unknown arity.
func parseFunc(f fn) *Entry {
	sig := f.sig
	e := &Entry{Kind: Function, Doc: f.doc, Results: f.results, ErrorResult: f.errResult}
	if head, ret, ok := strings.Cut(sig, " -> "); ok {
		sig, e.Returns = head, ret
		if e.Results == 0 {
			e.Results = strings.Count(ret, ",") + 1
		}
	}
	open := strings.IndexByte(sig, '(')
	e.Name = sig[:open]
	inner := strings.TrimSuffix(sig[open+1:], ")")
	if inner == "*" {
		e.MaxArgs, e.Unknown = Unbounded, true
		return e
	}
	if inner == "" {
		return e
	}
	for _, raw := range strings.Split(inner, ",") {
		name, typ, _ := strings.Cut(strings.TrimSpace(raw), ":")
		p := Param{Name: strings.TrimSpace(name), Type: strings.TrimSpace(typ)}
		switch {
		case strings.HasSuffix(p.Name, "..."):
			p.Name, p.Variadic = strings.TrimSuffix(p.Name, "..."), true
			e.MaxArgs = Unbounded
		case strings.HasSuffix(p.Name, "?"):
			p.Name, p.Optional = strings.TrimSuffix(p.Name, "?"), true
			if e.MaxArgs != Unbounded {
				e.MaxArgs++
			}
		default:
			e.MinArgs++
			if e.MaxArgs != Unbounded {
				e.MaxArgs++
			}
		}
		e.Params = append(e.Params, p)
	}
	return e
}

// Lookup returns the predeclared global called name, or nil.
func Lookup(name string) *Entry {
	if g := index()[name]; g != nil {
		return g.entry()
	}
	return nil
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
func Globals() []*Entry { return sorted() }
