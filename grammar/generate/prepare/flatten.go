package prepare

import (
	"fmt"

	"github.com/harnlang/harn-check/grammar/generate/ir"
)

// expandRepeats replaces each repeat by an auxiliary rule R -> R R | x,
// sharing rules for identical contents. A hidden rule whose whole body is
// a repeat becomes that auxiliary rule itself (and can no longer be inlined).
func expandRepeats(g *extracted) {
	existing := map[string]Symbol{}
	var aux []variable
	base := len(g.variables)
	var name string
	var count int
	var expand func(r *rule) *rule
	wrap := func(s Symbol, inner *rule) *rule {
		return choiceOf([]*rule{{kind: rSeq, members: []*rule{symRule(s), symRule(s)}}, inner})
	}
	expand = func(r *rule) *rule {
		switch r.kind {
		case rChoice, rSeq:
			n := &rule{kind: r.kind}
			for _, m := range r.members {
				n.members = append(n.members, expand(m))
			}
			return n
		case rMeta:
			n := *r
			n.content = expand(r.content)
			return &n
		case rRepeat:
			inner := expand(r.content)
			k := inner.key()
			if s, ok := existing[k]; ok {
				return symRule(s)
			}
			count++
			s := NonTerm(base + len(aux))
			existing[k] = s
			aux = append(aux, variable{name: fmt.Sprintf("%s_repeat%d", name, count), kind: ir.Auxiliary, rule: wrap(s, inner)})
			return symRule(s)
		}
		return r
	}
	for i := range g.variables {
		v := &g.variables[i]
		name, count = v.name, 0
		if v.kind == ir.Hidden && v.rule.kind == rRepeat {
			inner := expand(v.rule.content)
			v.rule = wrap(NonTerm(i), inner)
			v.kind = ir.Auxiliary
			var inl []Symbol
			for _, s := range g.inline {
				if s != NonTerm(i) {
					inl = append(inl, s)
				}
			}
			g.inline = inl
			continue
		}
		v.rule = expand(v.rule)
	}
	g.variables = append(g.variables, aux...)
}

// extractChoices distributes choices over sequences, giving one rule per
// alternative.
func extractChoices(r *rule) []*rule {
	switch r.kind {
	case rSeq:
		result := []*rule{blank()}
		for _, m := range r.members {
			parts := extractChoices(m)
			var next []*rule
			for _, e := range result {
				for _, p := range parts {
					next = append(next, &rule{kind: rSeq, members: []*rule{e, p}})
				}
			}
			result = next
		}
		return result
	case rChoice:
		var out []*rule
		for _, m := range r.members {
			out = append(out, extractChoices(m)...)
		}
		return out
	case rMeta, rReserved:
		var out []*rule
		for _, c := range extractChoices(r.content) {
			n := *r
			n.content = c
			out = append(out, &n)
		}
		return out
	}
	return []*rule{r}
}

type flattener struct {
	prod       *Production
	precs      []Precedence
	assocs     []Assoc
	aliases    []*Alias
	fields     []string
	reserved   []int
	reservedID map[string]int
}

func (f *flattener) apply(r *rule, atEnd bool) (bool, error) {
	switch r.kind {
	case rSeq:
		pushed := false
		for i, m := range r.members {
			p, err := f.apply(m, atEnd && i == len(r.members)-1)
			if err != nil {
				return false, err
			}
			pushed = pushed || p
		}
		return pushed, nil
	case rMeta:
		m := &r.m
		hasPrec := m.prec.Kind != PrecNone
		if hasPrec {
			f.precs = append(f.precs, m.prec)
		}
		hasAssoc := m.assoc != AssocNone
		if hasAssoc {
			f.assocs = append(f.assocs, m.assoc)
		}
		if m.alias != nil {
			f.aliases = append(f.aliases, m.alias)
		}
		if m.field != "" {
			f.fields = append(f.fields, m.field)
		}
		if abs(m.dyn) > abs(f.prod.DynamicPrecedence) {
			f.prod.DynamicPrecedence = m.dyn
		}
		pushed, err := f.apply(r.content, atEnd)
		if err != nil {
			return false, err
		}
		if hasPrec {
			f.precs = f.precs[:len(f.precs)-1]
			if pushed && !atEnd {
				f.prod.Steps[len(f.prod.Steps)-1].Prec = f.topPrec()
			}
		}
		if hasAssoc {
			f.assocs = f.assocs[:len(f.assocs)-1]
			if pushed && !atEnd {
				f.prod.Steps[len(f.prod.Steps)-1].Assoc = f.topAssoc()
			}
		}
		if m.alias != nil {
			f.aliases = f.aliases[:len(f.aliases)-1]
		}
		if m.field != "" {
			f.fields = f.fields[:len(f.fields)-1]
		}
		return pushed, nil
	case rReserved:
		id, ok := f.reservedID[r.value]
		if !ok {
			return false, errf("", "no reserved word set named %q", r.value)
		}
		f.reserved = append(f.reserved, id)
		pushed, err := f.apply(r.content, atEnd)
		f.reserved = f.reserved[:len(f.reserved)-1]
		return pushed, err
	case rSymbol:
		st := Step{Symbol: r.sym, Prec: f.topPrec(), Assoc: f.topAssoc()}
		if n := len(f.aliases); n > 0 {
			a := *f.aliases[n-1]
			st.Alias = &a
		}
		if n := len(f.fields); n > 0 {
			st.Field = f.fields[n-1]
		}
		if n := len(f.reserved); n > 0 {
			st.ReservedSet = f.reserved[n-1]
		}
		f.prod.Steps = append(f.prod.Steps, st)
		return true, nil
	}
	return false, nil
}

func (f *flattener) topPrec() Precedence {
	if n := len(f.precs); n > 0 {
		return f.precs[n-1]
	}
	return Precedence{}
}

func (f *flattener) topAssoc() Assoc {
	if n := len(f.assocs); n > 0 {
		return f.assocs[n-1]
	}
	return AssocNone
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// flatten turns each variable into its list of distinct productions.
func flatten(g *extracted) (*SyntaxGrammar, error) {
	ids := map[string]int{}
	for i, set := range g.reserved {
		ids[set.name] = i
	}
	out := &SyntaxGrammar{
		Extras:              g.extras,
		ExpectedConflicts:   g.conflicts,
		Inline:              g.inline,
		PrecedenceOrderings: g.precedences,
		Externals:           g.externals,
		Supertypes:          g.supertypes,
		Word:                g.word,
	}
	for _, v := range g.variables {
		sv := SyntaxVariable{Name: v.name, Kind: v.kind}
		for _, alt := range extractChoices(v.rule) {
			f := &flattener{prod: &Production{}, reservedID: ids}
			if _, err := f.apply(alt, true); err != nil {
				if e, ok := err.(*Error); ok && e.Rule == "" {
					e.Rule = v.name
				}
				return nil, err
			}
			dup := false
			for _, p := range sv.Productions {
				if p.Equal(f.prod) {
					dup = true
					break
				}
			}
			if !dup {
				sv.Productions = append(sv.Productions, f.prod)
			}
		}
		out.Variables = append(out.Variables, sv)
	}
	used := map[Symbol]bool{}
	for _, v := range out.Variables {
		for _, p := range v.Productions {
			for _, s := range p.Steps {
				used[s.Symbol] = true
			}
		}
	}
	for i, v := range out.Variables {
		sym := NonTerm(i)
		for _, p := range v.Productions {
			if len(p.Steps) == 0 && used[sym] {
				return nil, errf(v.Name, "matches the empty string; tree-sitter supports rules that match the empty string only as the start rule")
			}
			if out.IsInline(sym) {
				for _, s := range p.Steps {
					if s.Symbol == sym {
						return nil, errf(v.Name, "cannot be inlined because it refers to itself")
					}
				}
			}
		}
	}
	for _, set := range g.reserved {
		out.ReservedWordSets = append(out.ReservedWordSets, set.words)
	}
	if len(out.ReservedWordSets) == 0 {
		out.ReservedWordSets = [][]Symbol{nil}
	}
	return out, nil
}
