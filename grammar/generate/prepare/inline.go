package prepare

// InlineMap holds, for production steps that reference inline rules, the
// productions obtained by splicing the inline rules' productions in.
type InlineMap struct {
	// Productions made by inlining.
	Productions []*Production
	byStep      map[inlineKey][]int
}

type inlineKey struct {
	prod *Production
	step int
}

// At returns the productions replacing prod when its step-th symbol is an
// inline rule, or nil.
func (m *InlineMap) At(prod *Production, step int) []*Production {
	if m == nil {
		return nil
	}
	idx, ok := m.byStep[inlineKey{prod, step}]
	if !ok {
		return nil
	}
	out := make([]*Production, len(idx))
	for i, j := range idx {
		out[i] = m.Productions[j]
	}
	return out
}

type stepID struct {
	prod *Production
	step int
}

func buildInlineMap(g *SyntaxGrammar, lexical *LexicalGrammar) (*InlineMap, error) {
	for _, s := range g.Inline {
		switch {
		case s.Kind == External:
			return nil, errf(g.Externals[s.Index].Name, "an external token cannot be inlined")
		case s.Kind == Terminal:
			return nil, errf(lexical.Variables[s.Index].Name, "a token cannot be inlined")
		case s.Kind == NonTerminal && s.Index == 0:
			return nil, errf(g.Variables[0].Name, "the first rule cannot be inlined")
		}
	}
	m := &InlineMap{byStep: map[inlineKey][]int{}}
	if len(g.Inline) == 0 {
		return m, nil
	}
	for _, v := range g.Variables {
		for _, p := range v.Productions {
			pending := []stepID{{p, 0}}
			for len(pending) > 0 {
				i := 0
				for i < len(pending) {
					id := pending[i]
					if id.step >= len(id.prod.Steps) {
						pending = append(pending[:i], pending[i+1:]...)
						continue
					}
					if g.IsInline(id.prod.Steps[id.step].Symbol) {
						idx, err := m.inlineAt(g, id)
						if err != nil {
							return nil, err
						}
						var repl []stepID
						for _, j := range idx {
							repl = append(repl, stepID{m.Productions[j], id.step})
						}
						rest := append(repl, pending[i+1:]...)
						pending = append(pending[:i], rest...)
						continue
					}
					pending[i].step++
					i++
				}
			}
		}
	}
	return m, nil
}

// pendingInline is a production being expanded at one step, with the
// inline rules already expanded there (a rule reappearing means the
// inline rules expand into each other forever).
type pendingInline struct {
	p    *Production
	seen []Symbol
}

func (m *InlineMap) inlineAt(g *SyntaxGrammar, id stepID) ([]int, error) {
	if idx, ok := m.byStep[inlineKey(id)]; ok {
		return idx, nil
	}
	at := id.step
	work := []pendingInline{{p: id.prod}}
	for i := 0; i < len(work); {
		p := work[i].p
		if at >= len(p.Steps) || !g.IsInline(p.Steps[at].Symbol) {
			i++
			continue
		}
		removed := p.Steps[at]
		for _, s := range work[i].seen {
			if s == removed.Symbol {
				return nil, errf(g.Variables[s.Index].Name, "cannot be inlined: inlining it leads back to itself")
			}
		}
		seen := append(append([]Symbol(nil), work[i].seen...), removed.Symbol)
		var repl []pendingInline
		for _, ip := range g.Variables[removed.Symbol.Index].Productions {
			np := &Production{DynamicPrecedence: p.DynamicPrecedence}
			np.Steps = append(np.Steps, p.Steps[:at]...)
			inserted := make([]Step, len(ip.Steps))
			copy(inserted, ip.Steps)
			for k := range inserted {
				if removed.Alias != nil {
					a := *removed.Alias
					inserted[k].Alias = &a
				}
				if removed.Field != "" {
					inserted[k].Field = removed.Field
				}
			}
			if n := len(inserted); n > 0 {
				if inserted[n-1].Prec.Kind == PrecNone {
					inserted[n-1].Prec = removed.Prec
				}
				if inserted[n-1].Assoc == AssocNone {
					inserted[n-1].Assoc = removed.Assoc
				}
			}
			np.Steps = append(np.Steps, inserted...)
			np.Steps = append(np.Steps, p.Steps[at+1:]...)
			if abs(ip.DynamicPrecedence) > abs(np.DynamicPrecedence) {
				np.DynamicPrecedence = ip.DynamicPrecedence
			}
			repl = append(repl, pendingInline{np, seen})
		}
		work = append(work[:i], append(repl, work[i+1:]...)...)
	}
	var idx []int
	for _, w := range work {
		p := w.p
		found := -1
		for j, q := range m.Productions {
			if q.Equal(p) {
				found = j
				break
			}
		}
		if found < 0 {
			m.Productions = append(m.Productions, p)
			found = len(m.Productions) - 1
		}
		idx = append(idx, found)
	}
	m.byStep[inlineKey(id)] = idx
	return idx, nil
}
