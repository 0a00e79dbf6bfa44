package builtins

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

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

// Table is the parsed spec.
type table struct {
	builtins   []*Builtin // sorted by name
	byName     map[string]*Builtin
	globals    []*Global
	globalName map[string]*Global
	namespaces map[string][]*Builtin
	categories []Category
	// named are the types the spec defines with `type name = ...`.
	named map[string]types.Type
	// methods and props map a receiver kind and a member name (an alias
	// too) to its entry; kinds lists the receiver kinds in table order;
	// inherit maps a kind to the kind it is lifted to for the methods
	// it does not list itself.
	methods, props map[string]map[string]*Builtin
	kinds          []string
	inherit        map[string]string
	// inMember is set while a method or property entry is parsed, so
	// that its capital letters are type parameters.
	inMember bool
}

var (
	once   sync.Once
	loaded *table
	errs   []error
)

func get() *table {
	once.Do(func() {
		loaded = newTable()
		errs = append(loaded.parse("builtins.spec", spec), loaded.parse("methods.spec", methodSpec)...)
		loaded.finish()
	})
	return loaded
}

// SpecErrors returns the problems found parsing the embedded spec; a
// test requires none. Malformed entries are left out of the table.
func SpecErrors() []error {
	get()
	return errs
}

// Lookup returns the builtin called name ("len", "stream.map"), or nil.
func Lookup(name string) *Builtin { return get().byName[name] }

// All returns every builtin sorted by name. The slice is shared: do not
// modify it.
func All() []*Builtin { return get().builtins }

// Members returns the builtins of a namespace (`stream` gives stream.map,
// stream.collect, ...) sorted by name, or nil when ns is no namespace.
func Members(ns string) []*Builtin { return get().namespaces[ns] }

// IsNamespace reports whether name prefixes dotted builtins (`stream`,
// `event_log`, `workflow`).
func IsNamespace(name string) bool { return len(get().namespaces[name]) > 0 }

// Namespaces returns the namespace names, sorted.
func Namespaces() []string {
	var out []string
	for ns := range get().namespaces {
		out = append(out, ns)
	}
	slices.Sort(out)
	return out
}

// LookupGlobal returns the runtime-provided global value called name, or
// nil.
func LookupGlobal(name string) *Global { return get().globalName[name] }

// Globals returns every runtime-provided global, sorted by name.
func Globals() []*Global { return get().globals }

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
	t := get()
	if t.byName[name] != nil || t.globalName[name] != nil || len(t.namespaces[name]) > 0 {
		return true
	}
	return HostProvided(name)
}

func newTable() *table {
	return &table{byName: map[string]*Builtin{}, globalName: map[string]*Global{}, namespaces: map[string][]*Builtin{}, named: map[string]types.Type{},
		methods: map[string]map[string]*Builtin{}, props: map[string]map[string]*Builtin{}, inherit: map[string]string{}}
}

// parse reads one spec file (named file in problems) into t.
func (t *table) parse(file, src string) []error {
	var problems []error
	bad := func(line int, format string, args ...any) {
		problems = append(problems, fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, args...)))
	}
	category := ""
	// last is the entry awaiting its doc line.
	var lastB *Builtin
	var lastG *Global
	lastLine := 0
	// skipDoc is set after a malformed entry so its doc line is not
	// reported a second time.
	skipDoc := false
	needDoc := func() {
		if (lastB != nil && lastB.Doc == "") || (lastG != nil && lastG.Doc == "") {
			bad(lastLine, "entry has no doc line")
		}
		lastB, lastG = nil, nil
	}
	for i, raw := range strings.Split(src, "\n") {
		line := i + 1
		if strings.TrimSpace(raw) == "" || strings.HasPrefix(raw, "# ") || raw == "#" {
			continue
		}
		if raw[0] == ' ' || raw[0] == '\t' {
			doc := strings.TrimSpace(raw)
			switch {
			case skipDoc:
				skipDoc = false
			case lastB != nil && lastB.Doc == "":
				lastB.Doc = doc
			case lastG != nil && lastG.Doc == "":
				lastG.Doc = doc
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
			if !ok && slices.ContainsFunc(t.categories, func(c Category) bool { return c.ID == id }) {
				category = id // a later file reopens a category
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
			category = id
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
		if category == "" {
			bad(line, "entry before the first category")
			continue
		}
		body, aliases, err := cutTrailer(raw, "aliases")
		if err != nil {
			bad(line, "%v", err)
			continue
		}
		body, needs, err := cutNeeds(body)
		if err != nil {
			bad(line, "%v", err)
			continue
		}
		if rest, ok := strings.CutPrefix(body, "method "); ok {
			m, err := t.parseMember(rest, false)
			if err == nil {
				err = t.addMember(t.methods, m, category, aliases)
			}
			if err != nil {
				bad(line, "%v", err)
				continue
			}
			lastB, lastLine, skipDoc = m, line, false
			continue
		}
		if rest, ok := strings.CutPrefix(body, "property "); ok {
			m, err := t.parseMember(rest, true)
			if err == nil {
				err = t.addMember(t.props, m, category, aliases)
			}
			if err != nil {
				bad(line, "%v", err)
				continue
			}
			lastB, lastLine, skipDoc = m, line, false
			continue
		}
		if len(aliases) > 0 {
			bad(line, "only methods and properties have aliases")
			continue
		}
		if rest, ok := strings.CutPrefix(body, "value "); ok {
			g, err := t.parseGlobal(rest)
			if err != nil {
				bad(line, "%v", err)
				continue
			}
			g.Category, g.Needs = category, needs
			if t.globalName[g.Name] != nil || t.byName[g.Name] != nil {
				bad(line, "%s listed twice", g.Name)
				continue
			}
			t.globalName[g.Name] = g
			t.globals = append(t.globals, g)
			lastG, lastLine, skipDoc = g, line, false
			continue
		}
		b, err := t.parseBuiltin(body)
		if err != nil {
			bad(line, "%v", err)
			continue
		}
		b.Category, b.Needs = category, needs
		if t.byName[b.Name] != nil || t.globalName[b.Name] != nil {
			bad(line, "%s listed twice", b.Name)
			continue
		}
		t.byName[b.Name] = b
		t.builtins = append(t.builtins, b)
		if b.Namespace != "" {
			t.namespaces[b.Namespace] = append(t.namespaces[b.Namespace], b)
		}
		lastB, lastLine, skipDoc = b, line, false
	}
	needDoc()
	return problems
}

// finish sorts the table once every file is read.
func (t *table) finish() {
	byName := func(a, b *Builtin) int { return strings.Compare(a.Name, b.Name) }
	slices.SortFunc(t.builtins, byName)
	for _, ms := range t.namespaces {
		slices.SortFunc(ms, byName)
	}
	slices.SortFunc(t.globals, func(a, b *Global) int { return strings.Compare(a.Name, b.Name) })
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
	gt, err := t.parseType(typ)
	if err != nil {
		return nil, fmt.Errorf("value %s: %v", name, err)
	}
	return &Global{Name: name, Type: gt, TypeText: typ}, nil
}

func (t *table) parseBuiltin(s string) (*Builtin, error) {
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
	rt, err := t.parseType(b.ResultText)
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
		pt, err := t.parseType(ptext)
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
