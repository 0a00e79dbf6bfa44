package prepare

import (
	"github.com/harnlang/harn-check/grammar/generate/input"
)

// Prepare runs every normalization stage on a decoded grammar.
func Prepare(g *input.Grammar) (*Grammar, error) {
	if len(g.Rules) == 0 {
		return nil, errf("", "the grammar has no rules")
	}
	l, err := load(g)
	if err != nil {
		return nil, err
	}
	in, err := intern(l)
	if err != nil {
		return nil, err
	}
	ex, err := extractTokens(in)
	if err != nil {
		return nil, err
	}
	expandRepeats(ex)
	syn, err := flatten(ex)
	if err != nil {
		return nil, err
	}
	lex := &LexicalGrammar{}
	for _, v := range ex.lexical {
		lex.Variables = append(lex.Variables, LexicalVariable{Name: v.name, Kind: v.kind, Rule: toInput(v.rule)})
	}
	for _, s := range ex.separators {
		lex.Separators = append(lex.Separators, toInput(s))
	}
	aliases := extractDefaultAliases(syn, len(lex.Variables))
	inl, err := buildInlineMap(syn, lex)
	if err != nil {
		return nil, err
	}
	return &Grammar{
		Name:           g.Name,
		Syntax:         syn,
		Lexical:        lex,
		DefaultAliases: aliases,
		Inlines:        inl,
		Fields:         computeFields(syn),
	}, nil
}
