package lex

import (
	"fmt"
	"slices"

	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/lex/charset"
	"github.com/harnlang/harn-check/grammar/generate/lex/regex"
)

// TokenVariable is one token as token extraction leaves it.
type TokenVariable struct {
	Name string
	Kind ir.VariableKind
	// Rule is the token's body: STRING, PATTERN, SEQ, CHOICE, REPEAT,
	// REPEAT1, BLANK, PREC*, FIELD, ALIAS, TOKEN, IMMEDIATE_TOKEN (nested ok).
	Rule *input.Rule
}

// Variable is one lexical token of the expanded grammar.
type Variable struct {
	Name string
	Kind ir.VariableKind
	// ImplicitPrecedence breaks ties between tokens matching the same text:
	// 2 for a string literal, +1 per enclosing token.immediate, else 0.
	ImplicitPrecedence int32
	// IsImmediate reports a token.immediate token (no separator prefix).
	IsImmediate bool
	startState  int32
}

// Grammar is the lexical grammar: the tokens and one NFA recognising all of
// them, each with its optional separator prefix.
type Grammar struct {
	Variables []Variable
	nfa       []nfaState
}

// variableOf returns the token an NFA state belongs to: the states of token
// i lie after token i-1's start state, up to token i's start state.
func (g *Grammar) variableOf(state int32) int {
	i, _ := slices.BinarySearchFunc(g.Variables, state, func(v Variable, s int32) int {
		return int(v.startState) - int(s)
	})
	return i
}

// variablesOf returns the distinct tokens of sorted NFA states, ascending.
func (g *Grammar) variablesOf(states []int32) []int {
	var out []int
	for _, s := range states {
		v := g.variableOf(s)
		if len(out) == 0 || out[len(out)-1] != v {
			out = append(out, v)
		}
	}
	return out
}

// TokenError is a token the lexer generator cannot compile.
type TokenError struct {
	Token string
	Err   error
}

func (e *TokenError) Error() string {
	return fmt.Sprintf("token %q: %v", e.Token, e.Err)
}

func (e *TokenError) Unwrap() error { return e.Err }

// ErrEmptyToken is wrapped by the error for a token matching the empty string.
var ErrEmptyToken = fmt.Errorf("matches the empty string; tree-sitter tokens must consume input")

// Expand compiles tokens and separators (the extras that are plain
// STRING/PATTERN rules) into one NFA, as the CLI's expand_tokens does.
func Expand(tokens []TokenVariable, separators []*input.Rule) (*Grammar, error) {
	b := &nfaBuilder{precStack: []int32{0}}
	sepRoot, err := buildSeparator(separators)
	if err != nil {
		return nil, &TokenError{Token: "extras", Err: err}
	}
	g := &Grammar{}
	for i, tok := range tokens {
		root, err := convert(tok.Rule)
		if err != nil {
			return nil, &TokenError{Token: tok.Name, Err: err}
		}
		root = stripTokenWrapper(root)
		immediate := root.kind == rMeta && root.meta.isMain
		b.isSep = false
		b.push(nfaState{kind: nfaAccept, variable: int32(i), prec: completionPrecedence(root)})
		accept := b.last()
		added, err := b.rule(root, accept)
		if err != nil {
			return nil, &TokenError{Token: tok.Name, Err: err}
		}
		// A token that can only match the empty string is an error. One that
		// may also match longer text is accepted, as CLI 0.25 accepts it
		// (tree-sitter-go's raw string content is /[^`]*/).
		if !added {
			return nil, &TokenError{Token: tok.Name, Err: ErrEmptyToken}
		}
		if !immediate {
			b.isSep = true
			if _, err := b.rule(sepRoot, b.last()); err != nil {
				return nil, &TokenError{Token: "extras", Err: err}
			}
		}
		g.Variables = append(g.Variables, Variable{
			Name:               tok.Name,
			Kind:               tok.Kind,
			ImplicitPrecedence: implicitPrecedence(root),
			IsImmediate:        immediate,
			startState:         b.last(),
		})
	}
	g.nfa = b.states
	return g, nil
}

// rule is the CLI's rule model after grammar parsing: metadata nodes merge
// as its add_metadata does, CHOICE flattens and deduplicates, REPEAT is
// CHOICE(REPEAT1, BLANK).
type rkind uint8

const (
	rBlank rkind = iota
	rString
	rPattern
	rSeq
	rChoice
	rRepeat // one or more
	rMeta
)

type metaParams struct {
	hasPrec bool // an integer precedence
	prec    int32
	other   bool // named precedence, associativity, dynamic precedence, field or alias
	isToken bool
	isMain  bool
}

type rule struct {
	kind         rkind
	value, flags string
	subs         []*rule
	meta         metaParams
}

func addMeta(r *rule, f func(*metaParams)) *rule {
	if r.kind == rMeta && !r.meta.isToken {
		c := *r
		f(&c.meta)
		return &c
	}
	m := &rule{kind: rMeta, subs: []*rule{r}}
	f(&m.meta)
	return m
}

func equalRule(a, b *rule) bool {
	if a.kind != b.kind || a.value != b.value || a.flags != b.flags || a.meta != b.meta || len(a.subs) != len(b.subs) {
		return false
	}
	for i := range a.subs {
		if !equalRule(a.subs[i], b.subs[i]) {
			return false
		}
	}
	return true
}

func choice(members []*rule) *rule {
	out := &rule{kind: rChoice}
	var add func(r *rule)
	add = func(r *rule) {
		if r.kind == rChoice {
			for _, m := range r.subs {
				add(m)
			}
			return
		}
		for _, e := range out.subs {
			if equalRule(e, r) {
				return
			}
		}
		out.subs = append(out.subs, r)
	}
	for _, m := range members {
		add(m)
	}
	return out
}

func convert(r *input.Rule) (*rule, error) {
	if r == nil {
		return nil, fmt.Errorf("missing rule")
	}
	convertAll := func(rs []*input.Rule) ([]*rule, error) {
		out := make([]*rule, 0, len(rs))
		for _, m := range rs {
			c, err := convert(m)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
		return out, nil
	}
	switch r.Type {
	case input.Blank:
		return &rule{kind: rBlank}, nil
	case input.String:
		return &rule{kind: rString, value: r.Value}, nil
	case input.Pattern:
		return &rule{kind: rPattern, value: r.Value, flags: r.Flags}, nil
	case input.Seq:
		subs, err := convertAll(r.Members)
		if err != nil {
			return nil, err
		}
		return &rule{kind: rSeq, subs: subs}, nil
	case input.Choice:
		subs, err := convertAll(r.Members)
		if err != nil {
			return nil, err
		}
		return choice(subs), nil
	case input.Symbol:
		return nil, fmt.Errorf("unexpected SYMBOL %q inside a token", r.Name)
	}
	content, err := convert(r.Content)
	if err != nil {
		return nil, err
	}
	switch r.Type {
	case input.Repeat:
		return choice([]*rule{{kind: rRepeat, subs: []*rule{content}}, {kind: rBlank}}), nil
	case input.Repeat1:
		return &rule{kind: rRepeat, subs: []*rule{content}}, nil
	case input.Prec, input.PrecLeft, input.PrecRight:
		return addMeta(content, func(m *metaParams) {
			if r.Prec.IsName {
				m.hasPrec, m.prec, m.other = false, 0, true
			} else {
				m.hasPrec, m.prec = true, int32(r.Prec.Int)
			}
			if r.Type != input.Prec {
				m.other = true
			}
		}), nil
	case input.PrecDynamic, input.Field, input.Alias:
		return addMeta(content, func(m *metaParams) { m.other = true }), nil
	case input.Token:
		return addMeta(content, func(m *metaParams) { m.isToken = true }), nil
	case input.ImmediateToken:
		return addMeta(content, func(m *metaParams) { m.isToken, m.isMain = true, true }), nil
	case input.Reserved:
		return nil, fmt.Errorf("RESERVED is not allowed inside a token")
	}
	return nil, fmt.Errorf("unexpected %s rule inside a token", r.Type)
}

// stripTokenWrapper drops a root token(...) that carries nothing else, as
// token extraction does.
func stripTokenWrapper(r *rule) *rule {
	if r.kind == rMeta && r.meta.isToken && !r.meta.isMain && !r.meta.hasPrec && !r.meta.other {
		return r.subs[0]
	}
	return r
}

func implicitPrecedence(r *rule) int32 {
	boost := int32(0)
	for {
		switch r.kind {
		case rString:
			return 2 + boost
		case rMeta:
			if r.meta.isMain {
				boost++
			}
			r = r.subs[0]
			continue
		}
		return boost
	}
}

func completionPrecedence(r *rule) int32 {
	if r.kind == rMeta && r.meta.hasPrec {
		return r.meta.prec
	}
	return 0
}

// buildSeparator returns REPEAT1(CHOICE(separators..., BLANK)) with nested
// choices flattened and duplicates dropped, or BLANK without separators.
func buildSeparator(seps []*input.Rule) (*rule, error) {
	if len(seps) == 0 {
		return &rule{kind: rBlank}, nil
	}
	var members []*rule
	for _, s := range seps {
		c, err := convert(s)
		if err != nil {
			return nil, err
		}
		members = append(members, c)
	}
	members = append(members, &rule{kind: rBlank})
	return &rule{kind: rRepeat, subs: []*rule{choice(members)}}, nil
}

type nfaBuilder struct {
	states    []nfaState
	isSep     bool
	precStack []int32
}

func (b *nfaBuilder) push(s nfaState) { b.states = append(b.states, s) }
func (b *nfaBuilder) last() int32     { return int32(len(b.states) - 1) }

func (b *nfaBuilder) advance(chars charset.Set, next int32) {
	b.push(nfaState{kind: nfaAdvance, chars: chars, next: next, isSep: b.isSep, prec: b.precStack[len(b.precStack)-1]})
}

func (b *nfaBuilder) split(to int32) {
	last := b.last()
	b.push(nfaState{kind: nfaSplit, next: to, alt: last})
}

// rule adds states matching r and then continuing at next; it reports
// whether any state was added (false: r matches only the empty string and
// next is its entry).
func (b *nfaBuilder) rule(r *rule, next int32) (bool, error) {
	switch r.kind {
	case rBlank:
		return false, nil
	case rString:
		rs := []rune(r.value)
		for i := len(rs) - 1; i >= 0; i-- {
			b.advance(charset.Char(rs[i]), next)
			next = b.last()
		}
		return len(rs) > 0, nil
	case rPattern:
		n, err := regex.Parse(regex.RewritePerlClasses(r.value), containsI(r.flags))
		if err != nil {
			return false, err
		}
		if n.Size() > regex.MaxSize {
			return false, fmt.Errorf("regex /%s/ is too large (more than %d NFA states)", r.value, regex.MaxSize)
		}
		return b.regex(n, next), nil
	case rChoice:
		alts := make([]int32, 0, len(r.subs))
		expanded := false
		for _, m := range r.subs {
			ok, err := b.rule(m, next)
			if err != nil {
				return false, err
			}
			if ok {
				expanded = true
				alts = append(alts, b.last())
			} else {
				alts = append(alts, next)
			}
		}
		b.splits(alts)
		return expanded, nil
	case rSeq:
		result := false
		for i := len(r.subs) - 1; i >= 0; i-- {
			ok, err := b.rule(r.subs[i], next)
			if err != nil {
				return false, err
			}
			if ok {
				result = true
			}
			next = b.last()
		}
		return result, nil
	case rRepeat:
		b.push(nfaState{kind: nfaAccept}) // placeholder for the loop split
		loop := b.last()
		ok, err := b.rule(r.subs[0], loop)
		if err != nil {
			return false, err
		}
		if !ok {
			b.states = b.states[:loop]
			return false, nil
		}
		b.states[loop] = nfaState{kind: nfaSplit, next: b.last(), alt: next}
		return true, nil
	case rMeta:
		if r.meta.hasPrec {
			b.precStack = append(b.precStack, r.meta.prec)
			defer func() { b.precStack = b.precStack[:len(b.precStack)-1] }()
		}
		return b.rule(r.subs[0], next)
	}
	return false, fmt.Errorf("unexpected rule")
}

func containsI(flags string) bool {
	for _, f := range flags {
		if f == 'i' {
			return true
		}
	}
	return false
}

// splits joins alternative entry states: sorted, deduplicated, minus the
// newest state, each chained by a split onto the newest state.
func (b *nfaBuilder) splits(alts []int32) {
	slices.Sort(alts)
	alts = slices.Compact(alts)
	last := b.last()
	for _, a := range alts {
		if a != last {
			b.split(a)
		}
	}
}

func (b *nfaBuilder) regex(n *regex.Node, next int32) bool {
	switch n.Kind {
	case regex.Empty:
		return false
	case regex.Class:
		b.advance(n.Set, next)
		return true
	case regex.Concat:
		result := false
		for i := len(n.Subs) - 1; i >= 0; i-- {
			if b.regex(n.Subs[i], next) {
				result = true
				next = b.last()
			}
		}
		return result
	case regex.Alt:
		alts := make([]int32, 0, len(n.Subs))
		for _, m := range n.Subs {
			if b.regex(m, next) {
				alts = append(alts, b.last())
			} else {
				alts = append(alts, next)
			}
		}
		b.splits(alts)
		return true
	case regex.Repeat:
		sub := n.Subs[0]
		switch {
		case n.Min == 0 && n.Max == 1:
			return b.zeroOrOne(sub, next)
		case n.Min == 1 && n.Max < 0:
			return b.oneOrMore(sub, next)
		case n.Min == 0 && n.Max < 0:
			return b.zeroOrMore(sub, next)
		case n.Min == n.Max:
			return b.count(sub, n.Min, next)
		case n.Max < 0:
			// The CLI chains the n copies to the continuation rather than to
			// the loop, so x{n,} matches exactly n copies there (the loop is
			// unreachable). Reproduced for parity with its parsers.
			if b.zeroOrMore(sub, next) {
				return b.count(sub, n.Min, next)
			}
			return false
		default:
			result := b.count(sub, n.Min, next)
			for i := n.Min; i < n.Max; i++ {
				if result {
					next = b.last()
				}
				if b.zeroOrOne(sub, next) {
					result = true
				}
			}
			return result
		}
	}
	return false
}

func (b *nfaBuilder) oneOrMore(n *regex.Node, next int32) bool {
	b.push(nfaState{kind: nfaAccept})
	loop := b.last()
	if b.regex(n, loop) {
		b.states[loop] = nfaState{kind: nfaSplit, next: b.last(), alt: next}
		return true
	}
	b.states = b.states[:loop]
	return false
}

func (b *nfaBuilder) zeroOrOne(n *regex.Node, next int32) bool {
	if b.regex(n, next) {
		b.split(next)
		return true
	}
	return false
}

func (b *nfaBuilder) zeroOrMore(n *regex.Node, next int32) bool {
	if b.oneOrMore(n, next) {
		b.split(next)
		return true
	}
	return false
}

func (b *nfaBuilder) count(n *regex.Node, count int, next int32) bool {
	result := false
	for i := 0; i < count; i++ {
		if b.regex(n, next) {
			result = true
			next = b.last()
		}
	}
	return result
}
