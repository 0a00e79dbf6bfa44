package lr

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

// ConflictError is an unresolved LR conflict, described the way
// tree-sitter describes it: the symbols leading to the state, the
// lookahead, each competing interpretation and the possible resolutions.
type ConflictError struct {
	Sequence        []string
	Lookahead       string
	Interpretations []Interpretation
	Resolutions     []string
}

// Interpretation is one item taking part in a conflict.
type Interpretation struct {
	Preceding []string
	Rule      string
	Steps     []string
	Dot       int
	Done      bool
	Lookahead string
	Prec      string
	Assoc     string
}

// String renders the interpretation as one line of the conflict report.
func (i Interpretation) String() string {
	var b strings.Builder
	for _, s := range i.Preceding {
		b.WriteString("  " + s)
	}
	b.WriteString("  (" + i.Rule)
	for j, s := range i.Steps {
		if j == i.Dot {
			b.WriteString("  •")
		}
		b.WriteString("  " + s)
	}
	b.WriteString(")")
	if i.Done {
		b.WriteString("  •  " + i.Lookahead + "  …")
	}
	return b.String()
}

// Error renders the full conflict report.
func (e *ConflictError) Error() string {
	var b strings.Builder
	b.WriteString("Unresolved conflict for symbol sequence:\n\n")
	for _, s := range e.Sequence {
		b.WriteString("  " + s)
	}
	fmt.Fprintf(&b, "  •  %s  …\n\nPossible interpretations:\n\n", e.Lookahead)
	type line struct{ text, suffix string }
	var lines []line
	width := 0
	for _, in := range e.Interpretations {
		l := line{text: in.String()}
		switch {
		case in.Prec != "" && in.Assoc != "":
			l.suffix = fmt.Sprintf("(precedence: %s, associativity: %s)", in.Prec, in.Assoc)
		case in.Prec != "":
			l.suffix = fmt.Sprintf("(precedence: %s)", in.Prec)
		}
		if n := len([]rune(l.text)); n > width {
			width = n
		}
		lines = append(lines, l)
	}
	sort.Slice(lines, func(i, j int) bool {
		if lines[i].text != lines[j].text {
			return lines[i].text < lines[j].text
		}
		return lines[i].suffix < lines[j].suffix
	})
	for i, l := range lines {
		fmt.Fprintf(&b, "  %d:%s", i+1, l.text)
		if l.suffix != "" {
			b.WriteString(strings.Repeat(" ", width-len([]rune(l.text))+2) + l.suffix)
		}
		b.WriteString("\n")
	}
	b.WriteString("\nPossible resolutions:\n\n")
	for i, r := range e.Resolutions {
		fmt.Fprintf(&b, "  %d:  %s\n", i+1, r)
	}
	return b.String()
}

func (b *builder) symbolName(s Symbol) string {
	switch s.Kind {
	case prepare.End, prepare.EndOfNonTerminalExtra:
		return "EOF"
	case prepare.External:
		return b.syn.Externals[s.Index].Name
	case prepare.NonTerminal:
		return b.syn.Variables[s.Index].Name
	}
	v := b.g.Lexical.Variables[s.Index]
	if v.Kind == ir.Named {
		return v.Name
	}
	return "'" + v.Name + "'"
}

type precSym struct {
	prec prepare.Precedence
	sym  Symbol
}

func (b *builder) handleConflict(set *itemSet, state *State, preceding []Symbol, aux []auxInfo, look Symbol, ri *reductionInfo) error {
	entry := state.Terminal[look]
	la := b.syms.index(look)
	consideredAssoc := false
	var shiftPrecs []precSym
	var items []item
	addItem := func(it item) {
		i := sort.Search(len(items), func(i int) bool { return compareItems(items[i], it) >= 0 })
		if i < len(items) && compareItems(items[i], it) == 0 {
			return
		}
		items = append(items, item{})
		copy(items[i+1:], items[i:])
		items[i] = it
	}
	for _, e := range set.entries {
		it := e.item
		if st := it.next(); st != nil {
			first := b.cb.first[st.Symbol]
			if it.step > 0 && first.Has(la) {
				if !it.isAugmented() {
					addItem(it)
				}
				p := precSym{it.precedence(), prepare.NonTerm(it.variable)}
				i := sort.Search(len(shiftPrecs), func(i int) bool { return comparePrecSym(shiftPrecs[i], p) >= 0 })
				if i == len(shiftPrecs) || comparePrecSym(shiftPrecs[i], p) != 0 {
					shiftPrecs = append(shiftPrecs, precSym{})
					copy(shiftPrecs[i+1:], shiftPrecs[i:])
					shiftPrecs[i] = p
				}
			}
		} else if e.lookaheads.Has(la) && !it.isAugmented() {
			addItem(it)
		}
	}
	if ri == nil {
		ri = &reductionInfo{}
	}

	if last := &entry.Actions[len(entry.Actions)-1]; last.Kind == Shift && len(items) > 0 {
		v := items[0].variable
		allSame := b.syn.Variables[v].Kind == ir.Auxiliary
		for _, it := range items {
			if it.variable != v {
				allSame = false
			}
		}
		if allSame {
			last.Repetition = true
			return nil
		}
		less, equal, more := false, false, false
		for _, p := range shiftPrecs {
			switch b.comparePrecedence(p.prec, []Symbol{p.sym}, ri.prec, ri.symbols) {
			case 1:
				more = true
			case -1:
				less = true
			default:
				equal = true
			}
		}
		onlyRight := ri.hasRight && !ri.hasLeft && !ri.hasNonAssoc
		onlyLeft := ri.hasLeft && !ri.hasRight && !ri.hasNonAssoc
		keepShift := func() { entry.Actions = entry.Actions[len(entry.Actions)-1:] }
		dropShift := func() {
			entry.Actions = entry.Actions[:len(entry.Actions)-1]
			var done []item
			for _, it := range items {
				if it.isDone() {
					done = append(done, it)
				}
			}
			items = done
		}
		switch {
		case more && !less:
			keepShift()
		case less && !more:
			if equal && onlyRight {
				keepShift()
			} else {
				dropShift()
			}
		case !less && !more:
			consideredAssoc = true
			if onlyLeft {
				dropShift()
			} else if onlyRight {
				keepShift()
			}
		}
	}
	if len(entry.Actions) == 1 {
		return nil
	}

	var actual []Symbol
	for _, it := range items {
		sym := prepare.NonTerm(it.variable)
		if b.syn.Variables[it.variable].Kind == ir.Auxiliary {
			for i := len(aux) - 1; i >= 0; i-- {
				if aux[i].aux == sym {
					actual = append(actual, aux[i].parents...)
					break
				}
			}
		} else {
			actual = append(actual, sym)
		}
	}
	sort.Slice(actual, func(i, j int) bool { return actual[i].Less(actual[j]) })
	actual = dedup(actual)
	for i, c := range b.syn.ExpectedConflicts {
		if slices.Equal(c, actual) {
			b.usedConflicts[i] = true
			return nil
		}
	}

	ce := &ConflictError{Lookahead: b.symbolName(look)}
	for _, s := range preceding {
		ce.Sequence = append(ce.Sequence, b.symbolName(s))
	}
	for _, it := range items {
		in := Interpretation{Rule: b.syn.Variables[it.variable].Name, Dot: it.step, Done: it.isDone(), Lookahead: ce.Lookahead}
		for _, s := range preceding[:max(0, len(preceding)-it.step)] {
			in.Preceding = append(in.Preceding, b.symbolName(s))
		}
		for _, st := range it.prod.Steps {
			in.Steps = append(in.Steps, b.symbolName(st.Symbol))
		}
		if p := it.precedence(); p.Kind != prepare.PrecNone {
			in.Prec = p.String()
		}
		in.Assoc = it.associativity().String()
		ce.Interpretations = append(ce.Interpretations, in)
	}
	var shifts, reduces []item
	for _, it := range items {
		if it.isDone() {
			reduces = append(reduces, it)
		} else {
			shifts = append(shifts, it)
		}
	}
	ruleNames := func(list []item) []string {
		var out []string
		last := -2
		for _, it := range list {
			if it.variable == last {
				continue
			}
			last = it.variable
			out = append(out, "`"+b.syn.Variables[it.variable].Name+"`")
		}
		return out
	}
	if len(actual) > 1 {
		if len(shifts) > 0 {
			ce.Resolutions = append(ce.Resolutions, "Specify a higher precedence in "+strings.Join(ruleNames(shifts), " and ")+" than in the other rules.")
		}
		for _, it := range reduces {
			ce.Resolutions = append(ce.Resolutions, "Specify a higher precedence in `"+b.syn.Variables[it.variable].Name+"` than in the other rules.")
		}
	}
	if consideredAssoc {
		ce.Resolutions = append(ce.Resolutions, "Specify a left or right associativity in "+strings.Join(ruleNames(reduces), ", "))
	}
	var names []string
	for _, s := range actual {
		names = append(names, "`"+b.symbolName(s)+"`")
	}
	ce.Resolutions = append(ce.Resolutions, "Add a conflict for these rules: "+strings.Join(names, ", "))
	return ce
}

func comparePrecSym(a, b precSym) int {
	if c := a.prec.Compare(b.prec); c != 0 {
		return c
	}
	return a.sym.Compare(b.sym)
}

func dedup(list []Symbol) []Symbol {
	var out []Symbol
	for i, s := range list {
		if i == 0 || s != list[i-1] {
			out = append(out, s)
		}
	}
	return out
}
