package prepare

import (
	"sort"

	"github.com/harnlang/harn-check/grammar/generate/ir"
)

type aliasCount struct {
	alias Alias
	count int
}

type aliasStatus struct {
	aliases    []aliasCount
	unaliased  bool
	defaultSet bool
}

// extractDefaultAliases finds symbols that always appear under an alias,
// makes the most frequent alias their default (renaming the symbol
// itself), and clears the now redundant per-step aliases.
func extractDefaultAliases(g *SyntaxGrammar, lexCount int) map[Symbol]Alias {
	status := map[Symbol]*aliasStatus{}
	get := func(s Symbol) *aliasStatus {
		st := status[s]
		if st == nil {
			st = &aliasStatus{}
			status[s] = st
		}
		return st
	}
	for _, v := range g.Variables {
		for _, p := range v.Productions {
			for _, st := range p.Steps {
				s := get(st.Symbol)
				if g.IsInline(st.Symbol) {
					continue
				}
				if st.Alias == nil {
					s.unaliased = true
					continue
				}
				found := false
				for i := range s.aliases {
					if s.aliases[i].alias == *st.Alias {
						s.aliases[i].count++
						found = true
						break
					}
				}
				if !found {
					s.aliases = append(s.aliases, aliasCount{*st.Alias, 1})
				}
			}
		}
	}
	for _, e := range g.Extras {
		get(e).unaliased = true
	}
	var order []Symbol
	for i := 0; i < lexCount; i++ {
		order = append(order, Term(i))
	}
	for i := range g.Variables {
		order = append(order, NonTerm(i))
	}
	for i := range g.Externals {
		order = append(order, Ext(i))
	}
	result := map[Symbol]Alias{}
	for _, sym := range order {
		s := status[sym]
		if s == nil {
			continue
		}
		if s.unaliased || len(s.aliases) == 0 {
			s.aliases = nil
			continue
		}
		best := 0
		for i, a := range s.aliases {
			if a.count > s.aliases[best].count {
				best = i
			}
		}
		s.aliases = []aliasCount{s.aliases[best]}
		s.defaultSet = true
		result[sym] = s.aliases[0].alias
	}
	for _, v := range g.Variables {
		type pos struct{ p, s int }
		var clear []pos
		for i, p := range v.Productions {
			for j, st := range p.Steps {
				s := status[st.Symbol]
				if st.Alias == nil || s == nil || !s.defaultSet || s.aliases[0].alias != *st.Alias {
					continue
				}
				mustKeep := false
				for oi, op := range v.Productions {
					if oi == i || len(op.Steps) <= j {
						continue
					}
					os := op.Steps[j]
					if os.Alias != nil && *os.Alias == *st.Alias {
						if d, ok := result[os.Symbol]; !ok || d != *st.Alias {
							mustKeep = true
							break
						}
					}
				}
				if !mustKeep {
					clear = append(clear, pos{i, j})
				}
			}
		}
		for _, c := range clear {
			v.Productions[c.p].Steps[c.s].Alias = nil
		}
	}
	return result
}

// computeFields returns, per variable, the sorted field names its nodes
// can carry: fields of its own steps plus those surfacing through hidden,
// unaliased, non-supertype children.
func computeFields(g *SyntaxGrammar) [][]string {
	sets := make([]map[string]bool, len(g.Variables))
	for i := range sets {
		sets[i] = map[string]bool{}
	}
	for changed := true; changed; {
		changed = false
		for i, v := range g.Variables {
			for _, p := range v.Productions {
				for _, st := range p.Steps {
					if st.Field != "" && !sets[i][st.Field] {
						sets[i][st.Field] = true
						changed = true
					}
					if st.Symbol.Kind != NonTerminal || st.Alias != nil || g.IsSupertype(st.Symbol) {
						continue
					}
					ck := g.Variables[st.Symbol.Index].Kind
					if ck != ir.Hidden && ck != ir.Auxiliary {
						continue
					}
					for f := range sets[st.Symbol.Index] {
						if !sets[i][f] {
							sets[i][f] = true
							changed = true
						}
					}
				}
			}
		}
	}
	out := make([][]string, len(sets))
	for i, s := range sets {
		for f := range s {
			out[i] = append(out[i], f)
		}
		sort.Strings(out[i])
	}
	return out
}
