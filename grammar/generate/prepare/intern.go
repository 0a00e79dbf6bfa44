package prepare

import (
	"strings"

	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/ir"
)

// variable is a named rule during preparation.
type variable struct {
	name string
	kind ir.VariableKind
	rule *rule
}

// loaded is the grammar after conversion and unused-rule removal.
type loaded struct {
	name        string
	word        string
	variables   []variable
	extras      []*rule
	externals   []*rule
	conflicts   [][]string
	precedences [][]PrecedenceEntry
	inline      []string
	supertypes  []string
	reserved    []reservedSet
}

type reservedSet struct {
	name  string
	rules []*rule
}

// load converts grammar.json rules and drops rules nothing reaches from
// the start rule, the extras or inside the externals.
func load(g *input.Grammar) (*loaded, error) {
	l := &loaded{name: g.Name, word: g.Word}
	extras := g.Extras
	if !g.HasExtras {
		extras = []*input.Rule{{Type: input.Pattern, Value: `\s`}}
	}
	for i, e := range extras {
		r, err := fromInput(e, "", false)
		if err != nil {
			return nil, err
		}
		if r.kind == rString && r.value == "" {
			return nil, errf("", "extras[%d] is an empty string", i)
		}
		l.extras = append(l.extras, r)
	}
	for _, e := range g.Externals {
		r, err := fromInput(e, "", false)
		if err != nil {
			return nil, err
		}
		l.externals = append(l.externals, r)
	}
	for _, list := range g.Precedences {
		var entries []PrecedenceEntry
		for _, e := range list {
			switch e.Type {
			case input.String:
				entries = append(entries, PrecedenceEntry{Name: e.Value})
			case input.Symbol:
				entries = append(entries, PrecedenceEntry{Name: e.Name, IsSymbol: true})
			default:
				return nil, errf("", "precedences may list only strings and symbols, not %s", e.Type)
			}
		}
		l.precedences = append(l.precedences, entries)
	}
	type named struct {
		name string
		r    *rule
	}
	var rules []named
	for _, nr := range g.Rules {
		r, err := fromInput(nr.Rule, nr.Name, false)
		if err != nil {
			return nil, err
		}
		rules = append(rules, named{nr.Name, r})
	}
	l.conflicts = append(l.conflicts, g.Conflicts...)
	l.supertypes = append(l.supertypes, g.Supertypes...)
	l.inline = append(l.inline, g.Inline...)

	// Reachability: the start rule, references inside extras, and
	// references nested inside externals (a bare external name does not
	// keep a same-named rule alive).
	index := map[string]int{}
	for i, r := range rules {
		if _, dup := index[r.name]; !dup {
			index[r.name] = i
		}
	}
	used := make([]bool, len(rules))
	var queue []int
	mark := func(name string) {
		if i, ok := index[name]; ok && !used[i] {
			used[i] = true
			queue = append(queue, i)
		}
	}
	mark(rules[0].name)
	for _, e := range l.extras {
		collectRefs(e, false, mark)
	}
	for _, e := range l.externals {
		collectRefs(e, true, mark)
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		collectRefs(rules[i].r, false, mark)
	}
	for i, r := range rules {
		if !used[i] && r.name != g.Word {
			l.dropRule(r.name)
			continue
		}
		l.variables = append(l.variables, variable{name: r.name, kind: ir.Named, rule: r.r})
	}
	for _, set := range g.Reserved {
		rs := reservedSet{name: set.Name}
		for _, x := range set.Rules {
			r, err := fromInput(x, "", false)
			if err != nil {
				return nil, err
			}
			rs.rules = append(rs.rules, r)
		}
		l.reserved = append(l.reserved, rs)
	}
	return l, nil
}

// dropRule removes every mention of an unused rule from the top-level
// lists, as tree-sitter does before interning.
func (l *loaded) dropRule(name string) {
	var conflicts [][]string
	for _, c := range l.conflicts {
		keep := true
		for _, n := range c {
			if n == name {
				keep = false
			}
		}
		if keep {
			conflicts = append(conflicts, c)
		}
	}
	l.conflicts = conflicts
	l.supertypes = without(l.supertypes, name)
	l.inline = without(l.inline, name)
	refers := func(r *rule) bool {
		found := false
		collectRefs(r, true, func(n string) {
			if n == name {
				found = true
			}
		})
		return found
	}
	var extras, externals []*rule
	for _, e := range l.extras {
		if !refers(e) {
			extras = append(extras, e)
		}
	}
	for _, e := range l.externals {
		if !refers(e) {
			externals = append(externals, e)
		}
	}
	l.extras, l.externals = extras, externals
	var precs [][]PrecedenceEntry
	for _, list := range l.precedences {
		keep := true
		for _, e := range list {
			if e.IsSymbol && e.Name == name {
				keep = false
			}
		}
		if keep {
			precs = append(precs, list)
		}
	}
	l.precedences = precs
}

func without(list []string, name string) []string {
	var out []string
	for _, x := range list {
		if x != name {
			out = append(out, x)
		}
	}
	return out
}

// collectRefs calls f for each rule name referenced in r. When top is
// set, a reference that is r itself (possibly under metadata) is skipped.
func collectRefs(r *rule, top bool, f func(string)) {
	switch r.kind {
	case rNamed:
		if !top {
			f(r.value)
		}
	case rChoice, rSeq:
		for _, m := range r.members {
			collectRefs(m, false, f)
		}
	case rMeta, rReserved:
		collectRefs(r.content, top, f)
	case rRepeat:
		collectRefs(r.content, false, f)
	}
}

// interned is the grammar with names resolved to symbols.
type interned struct {
	variables   []variable
	extras      []*rule
	externals   []variable // name, kind, rule
	conflicts   [][]Symbol
	precedences [][]PrecedenceEntry
	inline      []Symbol
	supertypes  []Symbol
	word        *Symbol
	reserved    []reservedSet
}

func kindForName(name string) ir.VariableKind {
	if strings.HasPrefix(name, "_") {
		return ir.Hidden
	}
	return ir.Named
}

// intern resolves rule names (variables first, then external names).
func intern(l *loaded) (*interned, error) {
	out := &interned{precedences: l.precedences}
	syms := map[string]Symbol{}
	for i, v := range l.variables {
		if _, ok := syms[v.name]; !ok {
			syms[v.name] = NonTerm(i)
		}
	}
	for i, e := range l.externals {
		if e.kind == rNamed {
			if _, ok := syms[e.value]; !ok {
				syms[e.value] = Ext(i)
			}
		}
	}
	if kindForName(l.variables[0].name) == ir.Hidden {
		return nil, errf(l.variables[0].name, "a grammar's start rule must be visible")
	}
	var resolve func(r *rule, owner string) (*rule, error)
	resolve = func(r *rule, owner string) (*rule, error) {
		switch r.kind {
		case rNamed:
			s, ok := syms[r.value]
			if !ok {
				if owner == "" {
					return nil, errf("", "undefined symbol `%s`", r.value)
				}
				return nil, errf(owner, "undefined symbol `%s`", r.value)
			}
			return symRule(s), nil
		case rChoice, rSeq:
			c := &rule{kind: r.kind}
			for _, m := range r.members {
				x, err := resolve(m, owner)
				if err != nil {
					return nil, err
				}
				c.members = append(c.members, x)
			}
			return c, nil
		case rRepeat, rMeta, rReserved:
			x, err := resolve(r.content, owner)
			if err != nil {
				return nil, err
			}
			c := *r
			c.content = x
			return &c, nil
		}
		return r, nil
	}
	for _, v := range l.variables {
		r, err := resolve(v.rule, v.name)
		if err != nil {
			return nil, err
		}
		out.variables = append(out.variables, variable{name: v.name, kind: kindForName(v.name), rule: r})
	}
	for _, e := range l.externals {
		r, err := resolve(e, "")
		if err != nil {
			return nil, err
		}
		v := variable{kind: ir.Anonymous, rule: r}
		if e.kind == rNamed {
			v.name, v.kind = e.value, kindForName(e.value)
		}
		out.externals = append(out.externals, v)
	}
	for _, e := range l.extras {
		r, err := resolve(e, "")
		if err != nil {
			return nil, err
		}
		out.extras = append(out.extras, r)
	}
	for _, set := range l.reserved {
		rs := reservedSet{name: set.name}
		for _, x := range set.rules {
			r, err := resolve(x, "")
			if err != nil {
				return nil, err
			}
			rs.rules = append(rs.rules, r)
		}
		out.reserved = append(out.reserved, rs)
	}
	var supertypes []Symbol
	for _, n := range l.supertypes {
		s, ok := syms[n]
		if !ok {
			return nil, errf("", "undefined symbol `%s` in the supertypes list", n)
		}
		supertypes = append(supertypes, s)
	}
	for _, c := range l.conflicts {
		var list []Symbol
		for _, n := range c {
			s, ok := syms[n]
			if !ok {
				return nil, errf("", "undefined symbol `%s` in the conflicts list", n)
			}
			list = append(list, s)
		}
		out.conflicts = append(out.conflicts, list)
	}
	for _, n := range l.inline {
		if s, ok := syms[n]; ok {
			out.inline = append(out.inline, s)
		}
	}
	// Supertypes that are also inlined stay supertypes (they still describe
	// node types), as in the 0.25 CLI.
	out.supertypes = supertypes
	if l.word != "" {
		s, ok := syms[l.word]
		if !ok {
			return nil, errf("", "undefined symbol `%s` given as the word token", l.word)
		}
		out.word = &s
	}
	for _, s := range out.supertypes {
		if s.Kind == NonTerminal {
			out.variables[s.Index].kind = ir.Hidden
		}
	}
	return out, nil
}
