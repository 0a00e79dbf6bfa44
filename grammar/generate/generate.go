// Package generate is the pure-Go tree-sitter parser generator: it turns
// a grammar.json into parser.c, tree_sitter/parser.h and node-types.json
// by running the stages in order (prepare, lexical expansion, LR table,
// token analysis, keywords, error state, minimization, lex tables,
// rendering).
//
// The output depends only on the input bytes and options, so repeated
// runs are byte-identical. No stage does IO; cmd/tsgen reads and writes
// files.
//
// The stages reproduce the tree-sitter CLI (0.25) closely enough that, at
// the official ABI, the generated parser.c of every npm grammar package the
// differential tests use equals the shipped one except for the header
// comment; TestOfficialParsers pins this, and the difftest package compares
// the parsers' trees.
package generate

import (
	"fmt"
	"regexp"

	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/lex"
	"github.com/harnlang/harn-check/grammar/generate/lr"
	"github.com/harnlang/harn-check/grammar/generate/nodetypes"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
	"github.com/harnlang/harn-check/grammar/generate/render"
)

// Options tune generation.
type Options struct {
	// Name overrides the grammar's name in the exported
	// tree_sitter_<name> function.
	Name string
	// ABI is the language version to emit: 14 or 15, which adds reserved
	// words, the supertype map, the name and Version. Zero means 14, or 15
	// when the grammar declares reserved words (ABI 14 cannot carry them,
	// and parsers would then read keywords differently).
	ABI int
	// Version is the grammar's semantic version, recorded in ABI-15
	// parsers.
	Version [3]uint8
}

// Output holds the generated files.
type Output struct {
	ParserC, ParserH, GrammarJSON, NodeTypesJSON []byte
	// Stats summarises the tables, for comparisons with official parsers.
	Stats Stats
	// Warnings are grammar problems that did not stop generation.
	Warnings []string
}

// Stats are table sizes of a generated parser.
type Stats struct {
	States, LargeStates, Symbols, Tokens, LexStates, KeywordLexStates int
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Generate builds a parser from grammar.json text. A bad grammar yields
// an error naming the rule at fault; an internal failure is reported as
// an error too, never as a panic.
func Generate(grammarJSON []byte, opts Options) (out *Output, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("generate: internal error (please report with the grammar): %v", r)
		}
	}()
	return generate(grammarJSON, opts)
}

func generate(grammarJSON []byte, opts Options) (*Output, error) {
	in, err := input.Parse(grammarJSON)
	if err != nil {
		return nil, err
	}
	name := in.Name
	if opts.Name != "" {
		name = opts.Name
	}
	if !identifier.MatchString(name) {
		return nil, fmt.Errorf("generate: language name %q is not a C identifier", name)
	}
	abi := opts.ABI
	if abi == 0 {
		abi = 14
		if len(in.Reserved) > 0 {
			abi = 15
		}
	}
	if abi != 14 && abi != 15 {
		return nil, fmt.Errorf("generate: ABI %d is not supported; use 14 or 15", abi)
	}
	g, err := prepare.Prepare(in)
	if err != nil {
		return nil, err
	}
	infos, err := nodetypes.Infos(g)
	if err != nil {
		return nil, err
	}
	for i, info := range infos {
		g.Fields[i] = info.FieldNames()
	}
	tokens := make([]lex.TokenVariable, len(g.Lexical.Variables))
	for i, v := range g.Lexical.Variables {
		tokens[i] = lex.TokenVariable{Name: v.Name, Kind: v.Kind, Rule: v.Rule}
	}
	lg, err := lex.Expand(tokens, g.Lexical.Separators)
	if err != nil {
		return nil, fmt.Errorf("grammar: %w", err)
	}
	built, err := lr.Build(g)
	if err != nil {
		return nil, fmt.Errorf("grammar: %w", err)
	}
	t := built.Table
	word := g.Syntax.Word
	cm := lex.NewConflictMap(lg, built.FollowingTokens)
	stateTokens := lr.StateTokens(t)
	ci := lex.NewCoincidentIndex(len(lg.Variables), stateTokens)
	keywords := lex.IdentifyKeywords(lg, word, cm, ci, stateTokens)
	lr.PopulateErrorState(t, g.Syntax, lex.ErrorStateTokens(lg, word, keywords, cm, ci))
	lr.PopulateUsedSymbols(t, g.Syntax, len(lg.Variables))
	lr.Minimize(t, g, cm, keywords)

	inputs := make([]lex.LexStateInput, len(t.States))
	for i, s := range t.States {
		var toks ir.TokenSet
		for sym := range s.Terminal {
			switch sym.Kind {
			case prepare.Terminal:
				toks.Add(sym.Index)
			case prepare.End:
				inputs[i].EOF = true
			}
		}
		toks.Union(s.ReservedWords)
		inputs[i].Tokens = toks
	}
	mainLex, kwLex, lexStateOf := lex.BuildLexTables(lg, inputs, word, keywords, cm, ci)
	for i, s := range t.States {
		s.LexState = lexStateOf[i]
	}
	lr.PopulateExternalLexStates(t, g.Syntax)
	lr.MarkFragileTokens(t, cm)

	ri := &render.Input{Grammar: g, Table: t, MainLex: mainLex, KeywordLex: kwLex, Name: name, ABI: abi,
		Subtypes: nodetypes.Subtypes(g, infos), Version: opts.Version}
	c, err := render.ParserC(ri)
	if err != nil {
		return nil, err
	}
	nt, err := nodetypes.JSON(g)
	if err != nil {
		return nil, err
	}
	out := &Output{ParserC: c, ParserH: render.ParserHeader(abi), GrammarJSON: grammarJSON, NodeTypesJSON: nt,
		Warnings: built.Warnings}
	if abi < 15 && len(in.Reserved) > 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("the grammar declares reserved words, which ABI %d parsers "+
			"cannot carry; keywords may then be read as identifiers where the grammar forbids it (use ABI 15)", abi))
	}
	out.Stats = Stats{
		States: len(t.States), Symbols: len(t.Symbols), LexStates: mainLex.StateCount(),
		LargeStates: render.LargeStateCount(t),
	}
	if kwLex != nil {
		out.Stats.KeywordLexStates = kwLex.StateCount()
	}
	for _, s := range t.Symbols {
		if s.Kind == prepare.Terminal || s.Kind == prepare.End ||
			(s.Kind == prepare.External && g.Syntax.Externals[s.Index].Internal < 0) {
			out.Stats.Tokens++
		}
	}
	return out, nil
}
