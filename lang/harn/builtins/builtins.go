package builtins

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/harnlang/harn-check/lang/harn/types"
)

//go:embed builtins.spec
var spec string

//go:embed methods.spec
var methodSpec string

// Capability names a host capability a builtin needs at run time. The
// runtime's host grants or denies each; the checker ignores them.
type Capability string

// The host capabilities.
const (
	// FS reads or writes files.
	FS Capability = "fs"
	// Process starts processes (exec, shell).
	Process Capability = "process"
	// Net opens network connections (HTTP, MCP, sockets).
	Net Capability = "net"
	// Env reads or changes the process environment.
	Env Capability = "env"
	// Clock reads the wall clock or sleeps.
	Clock Capability = "clock"
	// Random draws random numbers.
	Random Capability = "random"
	// LLM calls a model provider.
	LLM Capability = "llm"
)

var capabilities = []Capability{FS, Process, Net, Env, Clock, Random, LLM}

// Param is one parameter of a builtin.
type Param struct {
	// Name is the parameter's name as documentation shows it.
	Name string
	// Type is the checker's type of the parameter (opaque kinds and type
	// parameters are any).
	Type types.Type
	// TypeText is the type as written in the table, for display.
	TypeText string
	// Optional parameters may be left out; Rest marks the last parameter
	// taking any number of arguments.
	Optional, Rest bool
}

// Builtin is one builtin function.
type Builtin struct {
	// Name is the name a program calls: "read_file", or "stream.map" for
	// a member of a namespace.
	Name string
	// Namespace and Member split a dotted name ("stream", "map"); both
	// are empty for a free function.
	Namespace, Member string
	// Category is the id of the table section the builtin is listed in.
	Category string
	// Params are the parameters in order.
	Params []Param
	// Result is the checker's result type; ResultText as written.
	Result     types.Type
	ResultText string
	// Doc is a one-line description.
	Doc string
	// Needs lists the host capabilities a call requires.
	Needs []Capability
	// Receiver is the value kind a method or property belongs to
	// ("string", "list", "dict", "set", "range", "iter", "generator",
	// "channel", "Result", "Pair", "closure"); empty for a function.
	// A method's Name is "kind.member" and Member its name.
	Receiver string
	// Property marks a member read without parentheses (`xs.count`);
	// its type is Result.
	Property bool
	// Aliases are other names of the same method (`strip` for `trim`).
	Aliases []string

	sig *types.Func
}

// Signature returns the builtin's function type (shared; do not modify).
func (b *Builtin) Signature() *types.Func { return b.sig }

// String renders the signature as the table writes it:
// `name(p: T, q?: U) -> R`.
func (b *Builtin) String() string {
	var sb strings.Builder
	sb.WriteString(b.Name)
	sb.WriteByte('(')
	for i, p := range b.Params {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(p.Label())
	}
	sb.WriteString(") -> ")
	sb.WriteString(b.ResultText)
	return sb.String()
}

// Label renders a parameter as `name: T`, `name?: T` or `...name: T`.
func (p Param) Label() string {
	s := p.Name
	switch {
	case p.Rest:
		s = "..." + s
	case p.Optional:
		s += "?"
	}
	return s + ": " + p.TypeText
}

// Global is a value the runtime provides under a fixed name (`argv`,
// `pi`, the `skills` registry).
type Global struct {
	Name     string
	Type     types.Type
	TypeText string
	Category string
	Doc      string
	Needs    []Capability
}

// Category is one section of the table.
type Category struct {
	// ID is a short lower-case name ("strings"); Title a heading.
	ID, Title string
}

// table is the spec indexed by a scan of its lines that parses no
// signature: each entry is parsed at its first use (checking a hello
// world looks up one builtin of about 2,000) and the whole table only
// when a caller asks for all of it (All, Globals, SpecErrors).
type table struct {
	// funcs and values index the function entries (dotted names too)
	// and the global values by name; namespaces lists each namespace's
	// function entries in table order.
	funcs, values map[string]*entry
	namespaces    map[string][]*entry
	categories    []Category
	// named are the types the spec defines with `type name = ...`,
	// parsed by the scan (entries refer to them).
	named map[string]types.Type
	// methods and props map a receiver kind and a member name (an alias
	// too) to its entry; kinds lists the receiver kinds in table order;
	// inherit maps a kind to the kind it is lifted to for the methods
	// it does not list itself.
	methods, props map[string]map[string]*entry
	kinds          []string
	inherit        map[string]string
	// files are the scanned entries in table order, in chunks that
	// are never grown (the maps point into them).
	files [][]entry
	// problems are what the scan found wrong (an entry's own parse
	// error is kept with the entry).
	problems []error

	// parseMu serialises the parsing of entries; a parsed entry is
	// read without it.
	parseMu sync.Mutex
	allOnce sync.Once
	all     *whole
}

// whole is every entry parsed: what the functions listing the whole
// table return.
type whole struct {
	builtins   []*Builtin // sorted by name
	globals    []*Global  // sorted by name
	members    map[string][]*Builtin
	namespaces []string // sorted
	errs       []error
}

// entryKind says which of the spec's entry forms an entry line is.
type entryKind uint8

const (
	funcEntry entryKind = iota
	valueEntry
	methodEntry
	propertyEntry
)

// entry is one entry line of the spec, parsed at its first use.
type entry struct {
	kind entryKind
	// category indexes table.categories.
	category int32
	line     int32
	file     string
	// text is the line after its keyword (`method `, `property `,
	// `value `), trailers included; doc is the doc line below it.
	text, doc string
	parsed    atomic.Pointer[parsedEntry]
}

// parsedEntry is the result of parsing an entry: a function, method or
// property (b), a global value (g), or why the entry is malformed.
type parsedEntry struct {
	b   *Builtin
	g   *Global
	err error
}

var (
	once   sync.Once
	loaded *table
)

func get() *table {
	once.Do(func() {
		loaded = newTable()
		loaded.scan("builtins.spec", spec)
		loaded.scan("methods.spec", methodSpec)
	})
	return loaded
}

// everything parses every entry once and lists them.
func (t *table) everything() *whole {
	t.allOnce.Do(func() {
		w := &whole{members: map[string][]*Builtin{}}
		w.errs = append(w.errs, t.problems...)
		for _, es := range t.files {
			for i := range es {
				p := t.entry(&es[i])
				switch {
				case p.err != nil:
					w.errs = append(w.errs, p.err)
				case p.g != nil:
					w.globals = append(w.globals, p.g)
				case es[i].kind == funcEntry:
					w.builtins = append(w.builtins, p.b)
					if p.b.Namespace != "" {
						w.members[p.b.Namespace] = append(w.members[p.b.Namespace], p.b)
					}
				}
			}
		}
		byName := func(a, b *Builtin) int { return strings.Compare(a.Name, b.Name) }
		slices.SortFunc(w.builtins, byName)
		for ns, ms := range w.members {
			slices.SortFunc(ms, byName)
			w.namespaces = append(w.namespaces, ns)
		}
		slices.Sort(w.namespaces)
		slices.SortFunc(w.globals, func(a, b *Global) int { return strings.Compare(a.Name, b.Name) })
		t.all = w
	})
	return t.all
}

// SpecErrors returns the problems found parsing the embedded spec; a
// test requires none. Malformed entries are left out of the table.
func SpecErrors() []error { return get().everything().errs }

// Lookup returns the builtin called name ("len", "stream.map"), or nil.
func Lookup(name string) *Builtin {
	t := get()
	if e := t.funcs[name]; e != nil {
		return t.entry(e).b
	}
	return nil
}

// All returns every builtin sorted by name. The slice is shared: do not
// modify it.
func All() []*Builtin { return get().everything().builtins }

// Members returns the builtins of a namespace (`stream` gives stream.map,
// stream.collect, ...) sorted by name, or nil when ns is no namespace.
func Members(ns string) []*Builtin {
	t := get()
	if len(t.namespaces[ns]) == 0 {
		return nil
	}
	return t.everything().members[ns]
}

// IsNamespace reports whether name prefixes dotted builtins (`stream`,
// `event_log`, `workflow`).
func IsNamespace(name string) bool { return len(get().namespaces[name]) > 0 }

// Namespaces returns the namespace names, sorted.
func Namespaces() []string { return slices.Clone(get().everything().namespaces) }

// LookupGlobal returns the runtime-provided global value called name, or
// nil.
func LookupGlobal(name string) *Global {
	t := get()
	if e := t.values[name]; e != nil {
		return t.entry(e).g
	}
	return nil
}

// Globals returns every runtime-provided global, sorted by name.
func Globals() []*Global { return get().everything().globals }

// Categories returns the sections of the table in table order.
func Categories() []Category { return get().categories }

// HostProvided reports whether name follows a naming rule under which
// the host, not the standard library, provides the function: names
// starting `hostlib_` (host library bindings registered when the runtime
// starts) or `__` (internal entry points). The checker accepts calls of
// them without a signature.
func HostProvided(name string) bool {
	return strings.HasPrefix(name, "hostlib_") || strings.HasPrefix(name, "__")
}

// Resolves reports whether a name that no program scope declares still
// means something at run time: a builtin, a namespace, a global value, or
// a host-provided name.
func Resolves(name string) bool {
	if Lookup(name) != nil || LookupGlobal(name) != nil || IsNamespace(name) {
		return true
	}
	return HostProvided(name)
}

func newTable() *table {
	return &table{funcs: make(map[string]*entry, funcsHint), values: map[string]*entry{}, namespaces: map[string][]*entry{}, named: map[string]types.Type{},
		methods: map[string]map[string]*entry{}, props: map[string]map[string]*entry{}, inherit: map[string]string{}}
}

// funcsHint is about the number of function entries in the embedded
// spec, so that the index is sized once (a hint: more entries only cost
// a map growth).
const funcsHint = 1024

// parse reads one spec file (named file in problems) into t and parses
// every entry of it, returning every problem found.
func (t *table) parse(file, src string) []error {
	first := len(t.files)
	problems := t.scan(file, src)
	for _, es := range t.files[first:] {
		for i := range es {
			if p := t.entry(&es[i]); p.err != nil {
				problems = append(problems, p.err)
			}
		}
	}
	return problems
}

// scan indexes one spec file (named file in problems): categories,
// inherit lines and named types are read, each entry is filed under
// its name with its doc line, unparsed. It returns the problems it
// found, which it also keeps in t.problems.
func (t *table) scan(file, src string) []error {
	var problems []error
	bad := func(line int, format string, args ...any) {
		problems = append(problems, fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, args...)))
	}
	// Entries are stored in chunks that never grow (the index points
	// into them), the first sized for an entry every two lines.
	es := make([]entry, 0, strings.Count(src, "\n")/2+1)
	category := int32(-1)
	// last is the entry awaiting its doc line.
	var last *entry
	// skipDoc is set after a malformed entry so its doc line is not
	// reported a second time.
	skipDoc := false
	needDoc := func() {
		if last != nil && last.doc == "" {
			bad(int(last.line), "entry has no doc line")
		}
		last = nil
	}
	for line, rest := 1, src; rest != ""; line++ {
		var raw string
		raw, rest, _ = strings.Cut(rest, "\n")
		// (A line starting with a printable ASCII character is not
		// blank: TrimSpace is only needed for the others.)
		if raw == "" || (raw[0] <= ' ' || raw[0] >= 0x80) && strings.TrimSpace(raw) == "" || strings.HasPrefix(raw, "# ") || raw == "#" {
			continue
		}
		if raw[0] == ' ' || raw[0] == '\t' {
			doc := strings.TrimSpace(raw)
			switch {
			case skipDoc:
				skipDoc = false
			case last != nil && last.doc == "":
				last.doc = doc
			default:
				bad(line, "doc line without an entry above it")
			}
			continue
		}
		needDoc()
		skipDoc = true // until the entry proves well formed
		if rest, ok := strings.CutPrefix(raw, "## "); ok {
			skipDoc = false
			id, title, ok := strings.Cut(rest, ":")
			id, title = strings.TrimSpace(id), strings.TrimSpace(title)
			if i := slices.IndexFunc(t.categories, func(c Category) bool { return c.ID == id }); !ok && i >= 0 {
				category = int32(i) // a later file reopens a category
				continue
			}
			if !ok || id == "" || title == "" {
				bad(line, "category header needs `## id: Title`")
				continue
			}
			for _, c := range t.categories {
				if c.ID == id {
					bad(line, "category %s listed twice", id)
				}
			}
			category = int32(len(t.categories))
			t.categories = append(t.categories, Category{ID: id, Title: title})
			continue
		}
		if rest, ok := strings.CutPrefix(raw, "type "); ok {
			if err := t.defineType(rest); err != nil {
				bad(line, "%v", err)
			}
			skipDoc = false
			continue
		}
		if rest, ok := strings.CutPrefix(raw, "inherit "); ok {
			kind, parent, ok := strings.Cut(rest, ":")
			kind, parent = strings.TrimSpace(kind), strings.TrimSpace(parent)
			if !ok || !isName(kind) || !isName(parent) || t.inherit[kind] != "" {
				bad(line, "inherit line needs `inherit kind: parent`, once per kind")
			} else {
				t.inherit[kind] = parent
			}
			skipDoc = false
			continue
		}
		if category < 0 {
			bad(line, "entry before the first category")
			continue
		}
		kind, text := funcEntry, raw
		for _, k := range []struct {
			prefix string
			kind   entryKind
		}{{"method ", methodEntry}, {"property ", propertyEntry}, {"value ", valueEntry}} {
			if rest, ok := strings.CutPrefix(raw, k.prefix); ok {
				kind, text = k.kind, rest
				break
			}
		}
		// Only a method's or a property's aliases are read here (they
		// are names the entry is filed under); parsing any other entry
		// rejects an aliases trailer.
		var aliases []string
		if (kind == methodEntry || kind == propertyEntry) && strings.Contains(text, "[aliases ") {
			var err error
			if _, aliases, err = cutTrailer(text, "aliases"); err != nil {
				bad(line, "%v", err)
				continue
			}
		}
		name, ok := entryName(kind, text)
		if !ok {
			// Malformed: parsing it says how.
			if p := t.parseEntry(&entry{kind: kind, category: category, line: int32(line), file: file, text: text}); p.err != nil {
				problems = append(problems, p.err)
			}
			continue
		}
		if len(es) == cap(es) {
			t.files = append(t.files, es)
			es = make([]entry, 0, 64)
		}
		es = append(es, entry{kind: kind, category: category, line: int32(line), file: file, text: text})
		ep := &es[len(es)-1]
		switch kind {
		case funcEntry, valueEntry:
			if t.funcs[name] != nil || t.values[name] != nil {
				bad(line, "%s listed twice", name)
				es = es[:len(es)-1]
				continue
			}
			if kind == valueEntry {
				t.values[name] = ep
			} else {
				t.funcs[name] = ep
				if ns, _, dotted := strings.Cut(name, "."); dotted {
					t.namespaces[ns] = append(t.namespaces[ns], ep)
				}
			}
		default:
			into := t.methods
			if kind == propertyEntry {
				into = t.props
			}
			recv, member, _ := strings.Cut(name, ".")
			if err := t.addMember(into, recv, append([]string{member}, aliases...), ep); err != nil {
				bad(line, "%v", err)
				es = es[:len(es)-1]
				continue
			}
		}
		last, skipDoc = ep, false
	}
	needDoc()
	t.files = append(t.files, es)
	t.problems = append(t.problems, problems...)
	return problems
}

// entryName is the name an entry is filed under, read without parsing
// it ("read_file", "stream.map", "list.take" for a method or property);
// false when the entry is not well formed enough to have one.
func entryName(kind entryKind, body string) (string, bool) {
	var name string
	switch kind {
	case funcEntry, methodEntry:
		open := strings.IndexByte(body, '(')
		if open < 0 {
			return "", false
		}
		name = body[:open]
	default:
		n, _, ok := strings.Cut(body, ":")
		if !ok {
			return "", false
		}
		name = strings.TrimSpace(n)
	}
	a, b, dotted := strings.Cut(name, ".")
	switch {
	case kind == valueEntry:
		return name, isName(name)
	case dotted:
		return name, isName(a) && isName(b)
	default:
		return name, kind == funcEntry && isName(name)
	}
}

// entry returns e parsed, parsing it at the first call.
func (t *table) entry(e *entry) *parsedEntry {
	if p := e.parsed.Load(); p != nil {
		return p
	}
	t.parseMu.Lock()
	defer t.parseMu.Unlock()
	if p := e.parsed.Load(); p != nil {
		return p
	}
	p := t.parseEntry(e)
	e.parsed.Store(p)
	return p
}

// parseEntry parses an entry line.
func (t *table) parseEntry(e *entry) *parsedEntry {
	p := &parsedEntry{}
	body, aliases, err := cutTrailer(e.text, "aliases")
	if err == nil {
		var needs []Capability
		body, needs, err = cutNeeds(body)
		if err == nil {
			category := ""
			if e.category >= 0 {
				category = t.categories[e.category].ID
			}
			switch {
			case len(aliases) > 0 && (e.kind == funcEntry || e.kind == valueEntry):
				err = fmt.Errorf("only methods and properties have aliases")
			case e.kind == funcEntry:
				if p.b, err = t.parseBuiltin(body, false); err == nil {
					p.b.Category, p.b.Needs, p.b.Doc = category, needs, e.doc
				}
			case e.kind == valueEntry:
				if p.g, err = t.parseGlobal(body); err == nil {
					p.g.Category, p.g.Needs, p.g.Doc = category, needs, e.doc
				}
			default:
				if p.b, err = t.parseMember(body, e.kind == propertyEntry); err == nil {
					p.b.Category, p.b.Aliases, p.b.Doc = category, aliases, e.doc
				}
			}
		}
	}
	if err != nil {
		*p = parsedEntry{err: fmt.Errorf("%s:%d: %v", e.file, e.line, err)}
	}
	return p
}

// cutNeeds splits a trailing `[needs a, b]` off an entry line.
func cutNeeds(s string) (string, []Capability, error) {
	s = strings.TrimSpace(s)
	i := strings.LastIndex(s, "[needs ")
	if i < 0 || !strings.HasSuffix(s, "]") {
		return s, nil, nil
	}
	var out []Capability
	for _, w := range strings.Split(s[i+len("[needs "):len(s)-1], ",") {
		c := Capability(strings.TrimSpace(w))
		if !slices.Contains(capabilities, c) {
			return "", nil, fmt.Errorf("unknown capability %q", c)
		}
		out = append(out, c)
	}
	return strings.TrimSpace(s[:i]), out, nil
}

func (t *table) parseGlobal(s string) (*Global, error) {
	name, typ, ok := strings.Cut(s, ":")
	name, typ = strings.TrimSpace(name), strings.TrimSpace(typ)
	if !ok || !isName(name) || typ == "" {
		return nil, fmt.Errorf("value entry needs `value name: Type`")
	}
	gt, err := t.parseType(typ, false)
	if err != nil {
		return nil, fmt.Errorf("value %s: %v", name, err)
	}
	return &Global{Name: name, Type: gt, TypeText: typ}, nil
}

// parseBuiltin reads `name(params) -> Result`; member makes capital
// letters type parameters (see TypeParam).
func (t *table) parseBuiltin(s string, member bool) (*Builtin, error) {
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return nil, fmt.Errorf("entry needs `name(params) -> Result`")
	}
	name := s[:open]
	b := &Builtin{Name: name}
	if ns, m, ok := strings.Cut(name, "."); ok {
		if !isName(ns) || !isName(m) {
			return nil, fmt.Errorf("bad name %q", name)
		}
		b.Namespace, b.Member = ns, m
	} else if !isName(name) {
		return nil, fmt.Errorf("bad name %q", name)
	}
	close := matching(s, open)
	if close < 0 {
		return nil, fmt.Errorf("%s: unbalanced parentheses", name)
	}
	rest := strings.TrimSpace(s[close+1:])
	res, ok := strings.CutPrefix(rest, "->")
	if !ok {
		return nil, fmt.Errorf("%s: missing `-> Result`", name)
	}
	b.ResultText = strings.TrimSpace(res)
	rt, err := t.parseType(b.ResultText, member)
	if err != nil {
		return nil, fmt.Errorf("%s: result: %v", name, err)
	}
	b.Result = rt
	sig := &types.Func{Result: rt}
	seenOptional := false
	for _, part := range splitTop(s[open+1:close], ',') {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		pname, ptext, ok := strings.Cut(part, ":")
		pname, ptext = strings.TrimSpace(pname), strings.TrimSpace(ptext)
		if !ok {
			return nil, fmt.Errorf("%s: parameter %q needs a type", name, part)
		}
		p := Param{TypeText: ptext}
		if n, ok := strings.CutPrefix(pname, "..."); ok {
			p.Rest, pname = true, n
		} else if n, ok := strings.CutSuffix(pname, "?"); ok {
			p.Optional, pname = true, n
		}
		if !isName(pname) {
			return nil, fmt.Errorf("%s: bad parameter name %q", name, pname)
		}
		if len(b.Params) > 0 && b.Params[len(b.Params)-1].Rest {
			return nil, fmt.Errorf("%s: a rest parameter must be last", name)
		}
		if seenOptional && !p.Optional && !p.Rest {
			return nil, fmt.Errorf("%s: required parameter %s after an optional one", name, pname)
		}
		seenOptional = seenOptional || p.Optional
		pt, err := t.parseType(ptext, member)
		if err != nil {
			return nil, fmt.Errorf("%s: parameter %s: %v", name, pname, err)
		}
		p.Name, p.Type = pname, pt
		b.Params = append(b.Params, p)
		sig.Params = append(sig.Params, types.Param{Name: pname, Type: pt, Optional: p.Optional || p.Rest})
		if p.Rest {
			sig.Variadic = true
		}
	}
	b.sig = sig
	return b, nil
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// matching returns the index of the bracket closing the one at open.
func matching(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			if s[i] == '>' && i > 0 && s[i-1] == '-' {
				continue // the arrow of a function type
			}
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTop splits s at sep outside brackets and strings.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	inStr := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr:
			if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '(' || c == '[' || c == '{' || c == '<':
			depth++
		case c == '>' && i > 0 && s[i-1] == '-':
		case c == ')' || c == ']' || c == '}' || c == '>':
			depth--
		case c == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
