package prepare

import (
	"fmt"
	"sort"

	"github.com/harnlang/harn-check/grammar/generate/ir"
)

// extracted is the grammar split into syntax and lexical parts.
type extracted struct {
	variables   []variable
	extras      []Symbol
	conflicts   [][]Symbol
	precedences [][]PrecedenceEntry
	inline      []Symbol
	supertypes  []Symbol
	externals   []ExternalToken
	word        int
	reserved    []reservedWords
	lexical     []lexVar
	separators  []*rule
}

type reservedWords struct {
	name  string
	words []Symbol
}

type lexVar struct {
	name string
	kind ir.VariableKind
	rule *rule
	key  string
}

type tokenExtractor struct {
	varName    string
	tokenCount int
	isFirst    bool
	vars       []lexVar
	usage      []int
	byKey      map[string]int
}

func (x *tokenExtractor) extractIn(r *rule) (*rule, error) {
	switch r.kind {
	case rString:
		s, err := x.token(r, r.value, true)
		return symRule(s), err
	case rPattern:
		s, err := x.token(r, "", false)
		return symRule(s), err
	case rMeta:
		if r.m.isToken {
			m := r.m
			m.isToken = false
			target := r.content
			if !m.isDefault() {
				c := *r
				c.m = m
				target = &c
			}
			str, isStr := "", false
			if r.content.kind == rString {
				str, isStr = r.content.value, true
			}
			s, err := x.token(target, str, isStr)
			return symRule(s), err
		}
		c, err := x.extractIn(r.content)
		if err != nil {
			return nil, err
		}
		n := *r
		n.content = c
		return &n, nil
	case rRepeat, rReserved:
		c, err := x.extractIn(r.content)
		if err != nil {
			return nil, err
		}
		n := *r
		n.content = c
		return &n, nil
	case rSeq, rChoice:
		n := &rule{kind: r.kind}
		for _, m := range r.members {
			c, err := x.extractIn(m)
			if err != nil {
				return nil, err
			}
			n.members = append(n.members, c)
		}
		return n, nil
	}
	return r, nil
}

func (x *tokenExtractor) token(r *rule, str string, isStr bool) (Symbol, error) {
	k := r.key()
	if i, ok := x.byKey[k]; ok {
		x.usage[i]++
		return Term(i), nil
	}
	i := len(x.vars)
	var v lexVar
	if isStr {
		if str == "" && !x.isFirst {
			return Symbol{}, errf(x.varName, "contains an empty string; tree-sitter supports empty strings only in the start rule")
		}
		v = lexVar{name: str, kind: ir.Anonymous, rule: r, key: k}
	} else {
		x.tokenCount++
		v = lexVar{name: fmt.Sprintf("%s_token%d", x.varName, x.tokenCount), kind: ir.Auxiliary, rule: r, key: k}
	}
	x.vars = append(x.vars, v)
	x.usage = append(x.usage, 1)
	x.byKey[k] = i
	return Term(i), nil
}

// symbolReplacer renumbers non-terminals after variables that were
// entirely tokens moved to the lexical grammar.
type symbolReplacer struct {
	replaced map[int]int
	removed  []int // sorted indices of removed variables
}

func (s *symbolReplacer) symbol(sym Symbol) Symbol {
	if sym.Kind != NonTerminal {
		return sym
	}
	if t, ok := s.replaced[sym.Index]; ok {
		return Term(t)
	}
	n := sort.SearchInts(s.removed, sym.Index)
	return NonTerm(sym.Index - n)
}

func (s *symbolReplacer) rule(r *rule) *rule {
	switch r.kind {
	case rSymbol:
		return symRule(s.symbol(r.sym))
	case rChoice, rSeq:
		n := &rule{kind: r.kind}
		for _, m := range r.members {
			n.members = append(n.members, s.rule(m))
		}
		return n
	case rRepeat, rMeta, rReserved:
		n := *r
		n.content = s.rule(r.content)
		return &n
	}
	return r
}

func extractTokens(g *interned) (*extracted, error) {
	x := &tokenExtractor{byKey: map[string]int{}}
	vars := make([]variable, len(g.variables))
	for i, v := range g.variables {
		x.varName, x.tokenCount, x.isFirst = v.name, 0, i == 0
		r, err := x.extractIn(v.rule)
		if err != nil {
			return nil, err
		}
		vars[i] = variable{name: v.name, kind: v.kind, rule: r}
	}
	externals := make([]variable, len(g.externals))
	for i, v := range g.externals {
		x.varName, x.tokenCount, x.isFirst = v.name, 0, false
		r, err := x.extractIn(v.rule)
		if err != nil {
			return nil, err
		}
		externals[i] = variable{name: v.name, kind: v.kind, rule: r}
	}
	lexical := x.vars

	rep := &symbolReplacer{replaced: map[int]int{}}
	var kept []variable
	for i, v := range vars {
		if v.rule.kind == rSymbol && v.rule.sym.Kind == Terminal && i > 0 && x.usage[v.rule.sym.Index] == 1 {
			lv := &lexical[v.rule.sym.Index]
			if lv.kind == ir.Auxiliary || v.kind != ir.Hidden {
				lv.kind = v.kind
				lv.name = v.name
				rep.replaced[i] = v.rule.sym.Index
				rep.removed = append(rep.removed, i)
				continue
			}
		}
		kept = append(kept, v)
	}
	for i := range kept {
		kept[i].rule = rep.rule(kept[i].rule)
	}
	out := &extracted{variables: kept, lexical: lexical, precedences: g.precedences, word: -1}
	for _, c := range g.conflicts {
		var list []Symbol
		for _, s := range c {
			list = append(list, rep.symbol(s))
		}
		sort.Slice(list, func(a, b int) bool { return list[a].Less(list[b]) })
		list = dedupSymbols(list)
		out.conflicts = append(out.conflicts, list)
	}
	for _, s := range g.supertypes {
		s = rep.symbol(s)
		if s.Kind == Terminal {
			return nil, errf(lexical[s.Index].name, "a terminal rule cannot be a supertype")
		}
		out.supertypes = append(out.supertypes, s)
	}
	for _, s := range g.inline {
		out.inline = append(out.inline, rep.symbol(s))
	}
	for _, e := range g.extras {
		if e.kind == rSymbol {
			out.extras = append(out.extras, rep.symbol(e.sym))
			continue
		}
		k := e.key()
		found := -1
		for i, lv := range lexical {
			if lv.key == k {
				found = i
				break
			}
		}
		if found >= 0 {
			out.extras = append(out.extras, Term(found))
		} else {
			out.separators = append(out.separators, e)
		}
	}
	for _, e := range externals {
		r := rep.rule(e.rule)
		if r.kind != rSymbol {
			return nil, errf("", "externals may list only rule names and strings")
		}
		switch r.sym.Kind {
		case NonTerminal:
			return nil, errf(kept[r.sym.Index].name, "a rule cannot be both an external token and a non-terminal rule")
		case External:
			out.externals = append(out.externals, ExternalToken{Name: e.name, Kind: e.kind, Internal: -1})
		default:
			out.externals = append(out.externals, ExternalToken{Name: lexical[r.sym.Index].name, Kind: e.kind, Internal: r.sym.Index})
		}
	}
	if g.word != nil {
		s := rep.symbol(*g.word)
		if s.Kind == NonTerminal {
			return nil, errf(kept[s.Index].name, "a non-terminal rule cannot be the word token")
		}
		if s.Kind == Terminal {
			out.word = s.Index
		}
	}
	for _, set := range g.reserved {
		rw := reservedWords{name: set.name}
		for _, r := range set.rules {
			if r.kind == rSymbol {
				rw.words = append(rw.words, rep.symbol(r.sym))
				continue
			}
			k := r.key()
			found := -1
			for i, lv := range lexical {
				if lv.key == k {
					found = i
					break
				}
			}
			if found < 0 {
				return nil, errf("", "reserved word set %q: every reserved word must be a token", set.name)
			}
			rw.words = append(rw.words, Term(found))
		}
		out.reserved = append(out.reserved, rw)
	}
	return out, nil
}

func dedupSymbols(list []Symbol) []Symbol {
	var out []Symbol
	for i, s := range list {
		if i == 0 || s != list[i-1] {
			out = append(out, s)
		}
	}
	return out
}
