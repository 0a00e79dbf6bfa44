package prepare

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/grammar/generate/input"
)

// rkind is the shape of an internal rule node.
type rkind uint8

const (
	rBlank rkind = iota
	rString
	rPattern
	rNamed // unresolved reference by name
	rSymbol
	rChoice
	rSeq
	rRepeat // one or more
	rMeta
	rReserved
)

// meta is the metadata a rule node carries; nested PREC/ALIAS/FIELD nodes
// merge into one meta unless the inner one marks a token.
type meta struct {
	prec    Precedence
	dyn     int
	assoc   Assoc
	isToken bool
	isMain  bool // token.immediate
	alias   *Alias
	field   string
}

func (m *meta) isDefault() bool {
	return m.prec.Kind == PrecNone && m.dyn == 0 && m.assoc == AssocNone && !m.isToken && !m.isMain &&
		m.alias == nil && m.field == ""
}

// rule is the generator's working rule tree.
type rule struct {
	kind    rkind
	value   string // string/pattern text, named reference, reserved context
	flags   string
	sym     Symbol
	members []*rule
	content *rule
	m       meta
}

func blank() *rule { return &rule{kind: rBlank} }

func symRule(s Symbol) *rule { return &rule{kind: rSymbol, sym: s} }

// choiceOf builds a CHOICE, flattening nested choices and dropping
// duplicates as tree-sitter does.
func choiceOf(members []*rule) *rule {
	out := &rule{kind: rChoice}
	var add func(r *rule)
	add = func(r *rule) {
		if r.kind == rChoice {
			for _, m := range r.members {
				add(m)
			}
			return
		}
		for _, e := range out.members {
			if rulesEqual(e, r) {
				return
			}
		}
		out.members = append(out.members, r)
	}
	for _, m := range members {
		add(m)
	}
	return out
}

// withMeta applies f to the metadata of r, merging into r when r already
// is a non-token metadata node.
func withMeta(r *rule, f func(m *meta)) *rule {
	if r.kind == rMeta && !r.m.isToken {
		c := *r
		f(&c.m)
		return &c
	}
	n := &rule{kind: rMeta, content: r}
	f(&n.m)
	return n
}

// key serializes a rule canonically; equal keys mean equal rules.
func (r *rule) key() string {
	var b strings.Builder
	r.writeKey(&b)
	return b.String()
}

func (r *rule) writeKey(b *strings.Builder) {
	switch r.kind {
	case rBlank:
		b.WriteString("B")
	case rString:
		b.WriteString("S")
		b.WriteString(strconv.Quote(r.value))
	case rPattern:
		b.WriteString("P")
		b.WriteString(strconv.Quote(r.value))
		b.WriteString(strconv.Quote(r.flags))
	case rNamed:
		b.WriteString("N")
		b.WriteString(strconv.Quote(r.value))
	case rSymbol:
		fmt.Fprintf(b, "Y%d.%d", r.sym.Kind, r.sym.Index)
	case rChoice, rSeq:
		if r.kind == rChoice {
			b.WriteString("C(")
		} else {
			b.WriteString("Q(")
		}
		for i, m := range r.members {
			if i > 0 {
				b.WriteByte(',')
			}
			m.writeKey(b)
		}
		b.WriteByte(')')
	case rRepeat:
		b.WriteString("R(")
		r.content.writeKey(b)
		b.WriteByte(')')
	case rMeta:
		m := &r.m
		fmt.Fprintf(b, "M[%d,%d,%q,%d,%d,%t,%t,", m.prec.Kind, m.prec.Int, m.prec.Name, m.dyn, m.assoc, m.isToken, m.isMain)
		if m.alias != nil {
			fmt.Fprintf(b, "%q/%t", m.alias.Value, m.alias.Named)
		}
		fmt.Fprintf(b, ",%q](", m.field)
		r.content.writeKey(b)
		b.WriteByte(')')
	case rReserved:
		fmt.Fprintf(b, "V%q(", r.value)
		r.content.writeKey(b)
		b.WriteByte(')')
	}
}

func rulesEqual(a, b *rule) bool { return a.key() == b.key() }

// fromInput converts a grammar.json rule. inToken reports whether the
// node sits inside token(), where rule references are errors.
func fromInput(r *input.Rule, ruleName string, inToken bool) (*rule, error) {
	sub := func(x *input.Rule, tok bool) (*rule, error) { return fromInput(x, ruleName, tok) }
	switch r.Type {
	case input.Blank:
		return blank(), nil
	case input.String:
		return &rule{kind: rString, value: r.Value}, nil
	case input.Pattern:
		flags := ""
		if strings.Contains(r.Flags, "i") {
			flags = "i"
		}
		return &rule{kind: rPattern, value: r.Value, flags: flags}, nil
	case input.Symbol:
		if inToken {
			return nil, errf(ruleName, "unexpected rule reference `%s` inside token()", r.Name)
		}
		return &rule{kind: rNamed, value: r.Name}, nil
	case input.Seq, input.Choice:
		var ms []*rule
		for _, m := range r.Members {
			x, err := sub(m, inToken)
			if err != nil {
				return nil, err
			}
			ms = append(ms, x)
		}
		if r.Type == input.Seq {
			return &rule{kind: rSeq, members: ms}, nil
		}
		return choiceOf(ms), nil
	case input.Repeat1, input.Repeat:
		c, err := sub(r.Content, inToken)
		if err != nil {
			return nil, err
		}
		rep := &rule{kind: rRepeat, content: c}
		if r.Type == input.Repeat {
			return choiceOf([]*rule{rep, blank()}), nil
		}
		return rep, nil
	case input.Field, input.Alias, input.Prec, input.PrecLeft, input.PrecRight, input.PrecDynamic,
		input.Token, input.ImmediateToken:
		tok := inToken || r.Type == input.Token
		c, err := sub(r.Content, tok)
		if err != nil {
			return nil, err
		}
		p := Precedence{Kind: PrecInt, Int: r.Prec.Int}
		if r.Prec.IsName {
			p = Precedence{Kind: PrecName, Name: r.Prec.Name}
		}
		return withMeta(c, func(m *meta) {
			switch r.Type {
			case input.Field:
				m.field = r.Name
			case input.Alias:
				m.alias = &Alias{Value: r.Value, Named: r.Named}
			case input.Prec:
				m.prec = p
			case input.PrecLeft:
				m.prec, m.assoc = p, AssocLeft
			case input.PrecRight:
				m.prec, m.assoc = p, AssocRight
			case input.PrecDynamic:
				m.dyn = r.Prec.Int
			case input.Token:
				m.isToken = true
			case input.ImmediateToken:
				m.isToken, m.isMain = true, true
			}
		}), nil
	case input.Reserved:
		c, err := sub(r.Content, inToken)
		if err != nil {
			return nil, err
		}
		return &rule{kind: rReserved, value: r.ContextName, content: c}, nil
	}
	return nil, errf(ruleName, "unknown rule type %q", r.Type)
}

// toInput rebuilds a token rule as grammar.json nodes for the lex stage.
func toInput(r *rule) *input.Rule {
	switch r.kind {
	case rBlank:
		return &input.Rule{Type: input.Blank}
	case rString:
		return &input.Rule{Type: input.String, Value: r.value}
	case rPattern:
		return &input.Rule{Type: input.Pattern, Value: r.value, Flags: r.flags}
	case rChoice, rSeq:
		t := input.Seq
		if r.kind == rChoice {
			t = input.Choice
		}
		out := &input.Rule{Type: t}
		for _, m := range r.members {
			out.Members = append(out.Members, toInput(m))
		}
		return out
	case rRepeat:
		return &input.Rule{Type: input.Repeat1, Content: toInput(r.content)}
	case rReserved:
		return toInput(r.content)
	case rMeta:
		c := toInput(r.content)
		if r.m.prec.Kind != PrecNone {
			t := input.Prec
			switch r.m.assoc {
			case AssocLeft:
				t = input.PrecLeft
			case AssocRight:
				t = input.PrecRight
			}
			p := input.Precedence{Int: r.m.prec.Int}
			if r.m.prec.Kind == PrecName {
				p = input.Precedence{IsName: true, Name: r.m.prec.Name}
			}
			c = &input.Rule{Type: t, Prec: p, Content: c}
		}
		if r.m.isMain {
			c = &input.Rule{Type: input.ImmediateToken, Content: c}
		} else if r.m.isToken {
			c = &input.Rule{Type: input.Token, Content: c}
		}
		return c
	}
	// Symbols cannot appear inside tokens; fromInput rejects them.
	return &input.Rule{Type: input.Blank}
}
