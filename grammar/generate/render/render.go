// Package render writes a generated parser as C: parser.c in the layout
// tree-sitter's runtime reads (ABI 14), and the tree_sitter/parser.h
// header describing that layout.
//
// Output depends only on its inputs: maps are always walked in sorted
// order, so two runs give byte-identical files. The package does no IO.
package render

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/lex"
	"github.com/harnlang/harn-check/grammar/generate/lr"
	"github.com/harnlang/harn-check/grammar/generate/nodetypes"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

// Input is everything the C renderer needs.
type Input struct {
	Grammar    *prepare.Grammar
	Table      *lr.Table
	MainLex    *lex.Table
	KeywordLex *lex.Table // nil without a word token
	// Name is the language name in tree_sitter_<Name>.
	Name string
	// ABI is the language version to emit: 14 (default) or 15.
	ABI int
	// Subtypes lists each supertype's children (ABI 15).
	Subtypes map[prepare.Symbol][]nodetypes.Child
	// Version is the grammar's semantic version (ABI 15 metadata).
	Version [3]uint8
}

type symbol = prepare.Symbol

type renderer struct {
	in          *Input
	g           *prepare.Grammar
	syn         *prepare.SyntaxGrammar
	t           *lr.Table
	b           bytes.Buffer
	ids         map[symbol]string
	order       map[symbol]int
	publicMap   map[symbol]symbol
	aliasIDs    map[prepare.Alias]string
	unique      []prepare.Alias
	fieldNames  []string
	largeStates int
	// ABI 15: reserved-word sets (set 0 empty) and each state's set.
	reservedSets  []ir.TokenSet
	reservedOf    []int
	supertypeIDs  []string
	supertypeSubs map[string][]string
}

const smallStateThreshold = 64

// ParserC renders parser.c.
func ParserC(in *Input) ([]byte, error) {
	if in.ABI == 0 {
		in.ABI = 14
	}
	if in.ABI != 14 && in.ABI != 15 {
		return nil, fmt.Errorf("render: ABI %d is not supported; use 14 or 15", in.ABI)
	}
	r := &renderer{in: in, g: in.Grammar, syn: in.Grammar.Syntax, t: in.Table}
	r.init()
	r.header()
	r.symbolEnum()
	r.symbolNames()
	r.symbolMap()
	r.symbolMetadata()
	if len(r.fieldNames) > 0 {
		r.fieldEnum()
		r.fieldNamesList()
		r.fieldMaps()
	}
	r.aliasSequences()
	r.nonTerminalAliasMap()
	r.primaryStateIDs()
	if r.in.ABI >= 15 && len(r.supertypeIDs) > 0 {
		r.supertypeMap()
	}
	if err := r.lexFunctions(); err != nil {
		return nil, err
	}
	r.lexModes()
	if r.in.ABI >= 15 && len(r.reservedSets) > 1 {
		r.reservedWords()
	}
	if err := r.parseTable(); err != nil {
		return nil, err
	}
	if len(r.syn.Externals) > 0 {
		r.externalScanner()
	}
	r.export()
	return r.b.Bytes(), nil
}

func (r *renderer) line(format string, args ...any) {
	fmt.Fprintf(&r.b, format, args...)
	r.b.WriteByte('\n')
}

// metadata returns a symbol's name and kind.
func (r *renderer) metadata(s symbol) (string, ir.VariableKind) {
	switch s.Kind {
	case prepare.End, prepare.EndOfNonTerminalExtra:
		return "end", ir.Hidden
	case prepare.NonTerminal:
		v := r.syn.Variables[s.Index]
		return v.Name, v.Kind
	case prepare.Terminal:
		v := r.g.Lexical.Variables[s.Index]
		return v.Name, v.Kind
	}
	e := r.syn.Externals[s.Index]
	return e.Name, e.Kind
}

func (r *renderer) init() {
	r.ids = map[symbol]string{}
	r.order = map[symbol]int{}
	used := map[string]bool{}
	for _, s := range r.t.Symbols {
		var id string
		if s == prepare.EndSymbol {
			id = "ts_builtin_sym_end"
		} else {
			name, kind := r.metadata(s)
			switch kind {
			case ir.Auxiliary:
				id = "aux_sym_" + lex.SanitizeIdentifier(name)
			case ir.Anonymous:
				id = "anon_sym_" + lex.SanitizeIdentifier(name)
			default:
				id = "sym_" + lex.SanitizeIdentifier(name)
			}
			base := id
			for n := 2; used[id]; n++ {
				id = fmt.Sprintf("%s%d", base, n)
			}
		}
		used[id] = true
		r.ids[s] = id
	}
	r.ids[prepare.EndOfExtraSymbol] = r.ids[prepare.EndSymbol]
	for i, s := range r.t.Symbols {
		r.order[s] = i
	}
	r.order[prepare.EndOfExtraSymbol] = 0

	r.publicMap = map[symbol]symbol{}
	for _, s := range r.t.Symbols {
		mapping := s
		if a, ok := r.g.DefaultAliases[s]; ok {
			for _, o := range r.t.Symbols {
				if oa, ok := r.g.DefaultAliases[o]; ok {
					if o.Less(mapping) && oa == a {
						mapping = o
					}
				} else if n, k := r.metadata(o); n == a.Value && k == a.Kind() {
					mapping = o
					break
				}
			}
		} else if s.Kind == prepare.Terminal {
			n, k := r.metadata(s)
			for _, o := range r.t.Symbols {
				if on, ok := r.metadata(o); on == n && ok == k {
					if m, ok := r.publicMap[o]; ok && m == s {
						break
					}
					mapping = o
					break
				}
			}
		}
		r.publicMap[s] = mapping
	}

	r.aliasIDs = map[prepare.Alias]string{}
	fieldSet := map[string]bool{}
	for _, info := range r.t.ProductionInfos {
		for f := range info.Fields {
			fieldSet[f] = true
		}
		for _, a := range info.Aliases {
			if a == nil {
				continue
			}
			if _, done := r.aliasIDs[*a]; done {
				continue
			}
			if syms := r.symbolsForAlias(*a); len(syms) > 0 {
				r.aliasIDs[*a] = r.ids[r.publicMap[syms[0]]]
				continue
			}
			r.unique = append(r.unique, *a)
			prefix := "anon_alias_sym_"
			if a.Named {
				prefix = "alias_sym_"
			}
			r.aliasIDs[*a] = prefix + lex.SanitizeIdentifier(a.Value)
		}
	}
	sort.Slice(r.unique, func(i, j int) bool { return r.unique[i].Compare(&r.unique[j]) < 0 })
	for f := range fieldSet {
		r.fieldNames = append(r.fieldNames, f)
	}
	sort.Strings(r.fieldNames)

	r.largeStates = LargeStateCount(r.t)

	r.reservedSets = []ir.TokenSet{{}}
	for _, st := range r.t.States {
		id := -1
		for i, set := range r.reservedSets {
			if set.Equal(st.ReservedWords) {
				id = i
				break
			}
		}
		if id < 0 {
			r.reservedSets = append(r.reservedSets, st.ReservedWords.Clone())
			id = len(r.reservedSets) - 1
		}
		r.reservedOf = append(r.reservedOf, id)
	}
	if r.in.ABI >= 15 {
		r.supertypeSubs = map[string][]string{}
		for sup, children := range r.in.Subtypes {
			id, ok := r.ids[sup]
			if !ok {
				continue
			}
			if _, dup := r.supertypeSubs[id]; dup {
				continue
			}
			set := map[string]bool{}
			for _, c := range children {
				if !c.Aliased {
					if cid, ok := r.ids[c.Symbol]; ok {
						set[cid] = true
					}
					continue
				}
				if aid, ok := r.aliasIDs[c.Alias]; ok {
					set[aid] = true
					continue
				}
				for _, s := range r.symbolsForAlias(c.Alias) {
					if cid, ok := r.ids[s]; ok {
						set[cid] = true
					}
				}
			}
			var list []string
			for k := range set {
				list = append(list, k)
			}
			sort.Strings(list)
			r.supertypeSubs[id] = list
			r.supertypeIDs = append(r.supertypeIDs, id)
		}
		sort.Strings(r.supertypeIDs)
	}
}

func (r *renderer) maxReservedSetSize() int {
	n := 0
	for _, s := range r.reservedSets {
		n = max(n, s.Len())
	}
	return n
}

func (r *renderer) supertypeMap() {
	r.line("static const TSSymbol ts_supertype_symbols[SUPERTYPE_COUNT] = {")
	for _, id := range r.supertypeIDs {
		r.line("  %s,", id)
	}
	r.line("};")
	r.line("")
	r.line("static const TSMapSlice ts_supertype_map_slices[] = {")
	row := 0
	var starts []int
	for _, id := range r.supertypeIDs {
		n := len(r.supertypeSubs[id])
		r.line("  [%s] = {.index = %d, .length = %d},", id, row, n)
		starts = append(starts, row)
		row += n
	}
	r.line("};")
	r.line("")
	r.line("static const TSSymbol ts_supertype_map_entries[] = {")
	for i, id := range r.supertypeIDs {
		r.line("  [%d] =", starts[i])
		for _, sub := range r.supertypeSubs[id] {
			r.line("    %s,", sub)
		}
	}
	r.line("};")
	r.line("")
}

func (r *renderer) reservedWords() {
	r.line("static const TSSymbol ts_reserved_words[%d][MAX_RESERVED_WORD_SET_SIZE] = {", len(r.reservedSets))
	for i, set := range r.reservedSets {
		if i == 0 {
			continue
		}
		r.line("  [%d] = {", i)
		set.Each(func(t int) { r.line("    %s,", r.tokenSymbol(t)) })
		r.line("  },")
	}
	r.line("};")
	r.line("")
}

func (r *renderer) symbolsForAlias(a prepare.Alias) []symbol {
	var out []symbol
	for _, s := range r.t.Symbols {
		if d, ok := r.g.DefaultAliases[s]; ok {
			if d == a {
				out = append(out, s)
			}
		} else if n, k := r.metadata(s); n == a.Value && k == a.Kind() {
			out = append(out, s)
		}
	}
	return out
}

func (r *renderer) tokenCount() int {
	n := 0
	for _, s := range r.t.Symbols {
		switch s.Kind {
		case prepare.Terminal, prepare.End:
			n++
		case prepare.External:
			if r.syn.Externals[s.Index].Internal < 0 {
				n++
			}
		}
	}
	return n
}

func (r *renderer) header() {
	r.line("/* Automatically generated by harn-check tsgen */")
	r.line("")
	r.line(`#include "tree_sitter/parser.h"`)
	r.line("")
	r.line("#if defined(__GNUC__) || defined(__clang__)")
	r.line(`#pragma GCC diagnostic ignored "-Wmissing-field-initializers"`)
	r.line("#endif")
	r.line("")
	if r.in.MainLex != nil && r.in.MainLex.StateCount() > 300 {
		r.line("#ifdef _MSC_VER")
		r.line(`#pragma optimize("", off)`)
		r.line("#elif defined(__clang__)")
		r.line("#pragma clang optimize off")
		r.line("#elif defined(__GNUC__)")
		r.line(`#pragma GCC optimize ("O0")`)
		r.line("#endif")
		r.line("")
	}
	r.line("#define LANGUAGE_VERSION %d", r.in.ABI)
	r.line("#define STATE_COUNT %d", len(r.t.States))
	r.line("#define LARGE_STATE_COUNT %d", r.largeStates)
	r.line("#define SYMBOL_COUNT %d", len(r.t.Symbols))
	r.line("#define ALIAS_COUNT %d", len(r.unique))
	r.line("#define TOKEN_COUNT %d", r.tokenCount())
	r.line("#define EXTERNAL_TOKEN_COUNT %d", len(r.syn.Externals))
	r.line("#define FIELD_COUNT %d", len(r.fieldNames))
	r.line("#define MAX_ALIAS_SEQUENCE_LENGTH %d", r.t.MaxAliasLength)
	if r.in.ABI >= 15 {
		r.line("#define MAX_RESERVED_WORD_SET_SIZE %d", r.maxReservedSetSize())
	}
	r.line("#define PRODUCTION_ID_COUNT %d", len(r.t.ProductionInfos))
	if r.in.ABI >= 15 {
		r.line("#define SUPERTYPE_COUNT %d", len(r.supertypeIDs))
	}
	r.line("")
}

func (r *renderer) symbolEnum() {
	r.line("enum ts_symbol_identifiers {")
	i := 1
	for _, s := range r.t.Symbols {
		if s == prepare.EndSymbol {
			continue
		}
		r.line("  %s = %d,", r.ids[s], i)
		i++
	}
	for _, a := range r.unique {
		r.line("  %s = %d,", r.aliasIDs[a], i)
		i++
	}
	r.line("};")
	r.line("")
}

func (r *renderer) symbolNames() {
	r.line("static const char * const ts_symbol_names[] = {")
	for _, s := range r.t.Symbols {
		name, _ := r.metadata(s)
		if a, ok := r.g.DefaultAliases[s]; ok {
			name = a.Value
		}
		r.line("  [%s] = \"%s\",", r.ids[s], cString(name))
	}
	for _, a := range r.unique {
		r.line("  [%s] = \"%s\",", r.aliasIDs[a], cString(a.Value))
	}
	r.line("};")
	r.line("")
}

func (r *renderer) symbolMap() {
	r.line("static const TSSymbol ts_symbol_map[] = {")
	for _, s := range r.t.Symbols {
		r.line("  [%s] = %s,", r.ids[s], r.ids[r.publicMap[s]])
	}
	for _, a := range r.unique {
		r.line("  [%s] = %s,", r.aliasIDs[a], r.aliasIDs[a])
	}
	r.line("};")
	r.line("")
}

func (r *renderer) symbolMetadata() {
	r.line("static const TSSymbolMetadata ts_symbol_metadata[] = {")
	meta := func(id string, visible, named, supertype bool) {
		r.line("  [%s] = {", id)
		r.line("    .visible = %t,", visible)
		r.line("    .named = %t,", named)
		if supertype {
			r.line("    .supertype = true,")
		}
		r.line("  },")
	}
	for _, s := range r.t.Symbols {
		if a, ok := r.g.DefaultAliases[s]; ok {
			meta(r.ids[s], true, a.Named, false)
			continue
		}
		_, kind := r.metadata(s)
		switch kind {
		case ir.Named:
			meta(r.ids[s], true, true, false)
		case ir.Anonymous:
			meta(r.ids[s], true, false, false)
		case ir.Hidden:
			meta(r.ids[s], false, true, r.syn.IsSupertype(s))
		default:
			meta(r.ids[s], false, false, false)
		}
	}
	for _, a := range r.unique {
		meta(r.aliasIDs[a], true, a.Named, false)
	}
	r.line("};")
	r.line("")
}

func (r *renderer) fieldEnum() {
	r.line("enum ts_field_identifiers {")
	for i, f := range r.fieldNames {
		r.line("  field_%s = %d,", f, i+1)
	}
	r.line("};")
	r.line("")
}

func (r *renderer) fieldNamesList() {
	r.line("static const char * const ts_field_names[] = {")
	r.line("  [0] = NULL,")
	for _, f := range r.fieldNames {
		r.line("  [field_%s] = \"%s\",", f, cString(f))
	}
	r.line("};")
	r.line("")
}

type flatField struct {
	name string
	loc  lr.FieldLocation
}

func (r *renderer) fieldMaps() {
	type flatMap struct {
		index   int
		entries []flatField
	}
	maps := []flatMap{{0, nil}}
	next := 0
	find := func(entries []flatField) int {
		for _, m := range maps {
			if len(m.entries) == len(entries) {
				same := true
				for i := range entries {
					if m.entries[i] != entries[i] {
						same = false
						break
					}
				}
				if same {
					return m.index
				}
			}
		}
		idx := next
		next += len(entries)
		maps = append(maps, flatMap{idx, entries})
		return idx
	}
	type slice struct{ index, length int }
	var slices []slice
	for _, info := range r.t.ProductionInfos {
		if len(info.Fields) == 0 {
			slices = append(slices, slice{})
			continue
		}
		var names []string
		for f := range info.Fields {
			names = append(names, f)
		}
		sort.Strings(names)
		var flat []flatField
		for _, f := range names {
			for _, l := range info.Fields[f] {
				flat = append(flat, flatField{f, l})
			}
		}
		slices = append(slices, slice{find(flat), len(flat)})
	}
	sliceType := "TSFieldMapSlice"
	if r.in.ABI >= 15 {
		sliceType = "TSMapSlice"
	}
	r.line("static const %s ts_field_map_slices[PRODUCTION_ID_COUNT] = {", sliceType)
	for i, s := range slices {
		if s.length > 0 {
			r.line("  [%d] = {.index = %d, .length = %d},", i, s.index, s.length)
		}
	}
	r.line("};")
	r.line("")
	r.line("static const TSFieldMapEntry ts_field_map_entries[] = {")
	for _, m := range maps[1:] {
		r.line("  [%d] =", m.index)
		for _, e := range m.entries {
			if e.loc.Inherited {
				r.line("    {field_%s, %d, .inherited = true},", e.name, e.loc.Index)
			} else {
				r.line("    {field_%s, %d},", e.name, e.loc.Index)
			}
		}
	}
	r.line("};")
	r.line("")
}

func (r *renderer) aliasSequences() {
	r.line("static const TSSymbol ts_alias_sequences[PRODUCTION_ID_COUNT][MAX_ALIAS_SEQUENCE_LENGTH] = {")
	for i, info := range r.t.ProductionInfos {
		if len(info.Aliases) == 0 {
			if i == 0 {
				r.line("  [0] = {0},")
			}
			continue
		}
		r.line("  [%d] = {", i)
		for j, a := range info.Aliases {
			if a != nil {
				r.line("    [%d] = %s,", j, r.aliasIDs[*a])
			}
		}
		r.line("  },")
	}
	r.line("};")
	r.line("")
}

func (r *renderer) nonTerminalAliasMap() {
	byID := map[symbol][]string{}
	for _, v := range r.syn.Variables {
		for _, p := range v.Productions {
			for _, st := range p.Steps {
				if st.Alias == nil || st.Symbol.Kind != prepare.NonTerminal {
					continue
				}
				if d, ok := r.g.DefaultAliases[st.Symbol]; ok && d == *st.Alias {
					continue
				}
				if _, ok := r.ids[st.Symbol]; !ok {
					continue
				}
				id, ok := r.aliasIDs[*st.Alias]
				if !ok {
					continue
				}
				list := byID[st.Symbol]
				i := sort.SearchStrings(list, id)
				if i == len(list) || list[i] != id {
					list = append(list, "")
					copy(list[i+1:], list[i:])
					list[i] = id
				}
				byID[st.Symbol] = list
			}
		}
	}
	var syms []symbol
	for s := range byID {
		syms = append(syms, s)
	}
	sort.Slice(syms, func(i, j int) bool { return syms[i].Less(syms[j]) })
	r.line("static const uint16_t ts_non_terminal_alias_map[] = {")
	for _, s := range syms {
		r.line("  %s, %d,", r.ids[s], 1+len(byID[s]))
		r.line("    %s,", r.ids[r.publicMap[s]])
		for _, id := range byID[s] {
			r.line("    %s,", id)
		}
	}
	r.line("  0,")
	r.line("};")
	r.line("")
}

func (r *renderer) primaryStateIDs() {
	r.line("static const TSStateId ts_primary_state_ids[STATE_COUNT] = {")
	first := map[int]int{}
	for i, s := range r.t.States {
		p, ok := first[s.CoreID]
		if !ok {
			p = i
			first[s.CoreID] = i
		}
		r.line("  [%d] = %d,", i, p)
	}
	r.line("};")
	r.line("")
}

func (r *renderer) tokenSymbol(i int) string {
	if id, ok := r.ids[prepare.Term(i)]; ok {
		return id
	}
	v := r.g.Lexical.Variables[i]
	return lex.DefaultSymbolName(v.Name, v.Kind)
}

func (r *renderer) lexFunctions() error {
	if err := lex.RenderLexHelpersNamed(&r.b, r.tokenSymbol, r.in.MainLex, r.in.KeywordLex); err != nil {
		return err
	}
	if err := lex.RenderLexFunction(&r.b, "ts_lex", r.in.MainLex, r.tokenSymbol); err != nil {
		return err
	}
	if r.syn.Word >= 0 && r.in.KeywordLex != nil {
		if err := lex.RenderLexFunction(&r.b, "ts_lex_keywords", r.in.KeywordLex, r.tokenSymbol); err != nil {
			return err
		}
	}
	return nil
}

func (r *renderer) lexModes() {
	if r.in.ABI >= 15 {
		r.line("static const TSLexerMode ts_lex_modes[STATE_COUNT] = {")
	} else {
		r.line("static const TSLexMode ts_lex_modes[STATE_COUNT] = {")
	}
	for i, s := range r.t.States {
		if s.IsEndOfNonTerminalExtra() {
			r.line("  [%d] = {(TSStateId)(-1),},", i)
			continue
		}
		mode := fmt.Sprintf(".lex_state = %d", s.LexState)
		if s.ExternalLexState > 0 {
			mode += fmt.Sprintf(", .external_lex_state = %d", s.ExternalLexState)
		}
		if r.in.ABI >= 15 && r.reservedOf[i] != 0 {
			mode += fmt.Sprintf(", .reserved_word_set_id = %d", r.reservedOf[i])
		}
		r.line("  [%d] = {%s},", i, mode)
	}
	r.line("};")
	r.line("")
}

// actionKey identifies an action list for sharing.
func actionKey(e *lr.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%t", e.Reusable)
	for _, a := range e.Actions {
		fmt.Fprintf(&b, "|%d,%d,%t,%d.%d,%d,%d,%d", a.Kind, a.State, a.Repetition, a.Symbol.Kind, a.Symbol.Index,
			a.ChildCount, a.DynamicPrecedence, a.ProductionID)
	}
	return b.String()
}

func (r *renderer) parseTable() error {
	ids := map[string]int{}
	var lists []*lr.Entry
	next := 0
	listID := func(e *lr.Entry) int {
		k := actionKey(e)
		if id, ok := ids[k]; ok {
			return id
		}
		id := next
		ids[k] = id
		lists = append(lists, e)
		next += 1 + len(e.Actions)
		return id
	}
	listID(&lr.Entry{})

	terminals := func(s *lr.State) []symbol {
		out := make([]symbol, 0, len(s.Terminal))
		for k := range s.Terminal {
			out = append(out, k)
		}
		sort.Slice(out, func(i, j int) bool { return r.order[out[i]] < r.order[out[j]] })
		return out
	}
	nonterminals := func(s *lr.State) []int {
		out := make([]int, 0, len(s.NonTerminal))
		for k := range s.NonTerminal {
			out = append(out, k)
		}
		sort.Ints(out)
		return out
	}

	r.line("static const uint16_t ts_parse_table[LARGE_STATE_COUNT][SYMBOL_COUNT] = {")
	for i, s := range r.t.States[:r.largeStates] {
		r.line("  [STATE(%d)] = {", i)
		for _, k := range nonterminals(s) {
			g := s.NonTerminal[k]
			target := g.State
			if g.Extra {
				target = i
			}
			r.line("    [%s] = STATE(%d),", r.ids[prepare.NonTerm(k)], target)
		}
		for _, k := range terminals(s) {
			r.line("    [%s] = ACTIONS(%d),", r.ids[k], listID(s.Terminal[k]))
		}
		r.line("  },")
	}
	r.line("};")
	r.line("")

	if r.largeStates < len(r.t.States) {
		r.line("static const uint16_t ts_small_parse_table[] = {")
		var offsets []int
		index := 0
		type group struct {
			value    int
			terminal bool
			syms     []symbol
		}
		for si, s := range r.t.States[r.largeStates:] {
			stateID := r.largeStates + si
			offsets = append(offsets, index)
			var groups []*group
			byValue := map[[2]int]*group{}
			add := func(value int, terminal bool, sym symbol) {
				k := [2]int{value, 0}
				if !terminal {
					k[1] = 1
				}
				g := byValue[k]
				if g == nil {
					g = &group{value: value, terminal: terminal}
					byValue[k] = g
					groups = append(groups, g)
				}
				g.syms = append(g.syms, sym)
			}
			for _, k := range terminals(s) {
				add(listID(s.Terminal[k]), true, k)
			}
			for _, k := range nonterminals(s) {
				g := s.NonTerminal[k]
				target := g.State
				if g.Extra {
					target = stateID
				}
				add(target, false, prepare.NonTerm(k))
			}
			sort.SliceStable(groups, func(i, j int) bool {
				a, b := groups[i], groups[j]
				if len(a.syms) != len(b.syms) {
					return len(a.syms) < len(b.syms)
				}
				if a.terminal != b.terminal {
					return a.terminal
				}
				if a.value != b.value {
					return a.value < b.value
				}
				return a.syms[0].Less(b.syms[0])
			})
			r.line("  [%d] = %d,", index, len(groups))
			index++
			for _, g := range groups {
				index += 2 + len(g.syms)
				if g.terminal {
					r.line("    ACTIONS(%d), %d,", g.value, len(g.syms))
				} else {
					r.line("    STATE(%d), %d,", g.value, len(g.syms))
				}
				sort.Slice(g.syms, func(i, j int) bool { return g.syms[i].Less(g.syms[j]) })
				for _, sym := range g.syms {
					r.line("      %s,", r.ids[sym])
				}
			}
		}
		r.line("};")
		r.line("")
		r.line("static const uint32_t ts_small_parse_table_map[] = {")
		for i, off := range offsets {
			r.line("  [SMALL_STATE(%d)] = %d,", r.largeStates+i, off)
		}
		r.line("};")
		r.line("")
	}
	if next >= 65535 {
		return fmt.Errorf("render: %d parse action slots exceed the limit of 65535", next)
	}

	r.line("static const TSParseActionEntry ts_parse_actions[] = {")
	idx := 0
	for _, e := range lists {
		fmt.Fprintf(&r.b, "  [%d] = {.entry = {.count = %d, .reusable = %t}},", idx, len(e.Actions), e.Reusable)
		for _, a := range e.Actions {
			r.b.WriteString(" ")
			switch a.Kind {
			case lr.Accept:
				r.b.WriteString(" ACCEPT_INPUT()")
			case lr.Recover:
				r.b.WriteString("RECOVER()")
			case lr.ShiftExtra:
				r.b.WriteString("SHIFT_EXTRA()")
			case lr.Shift:
				if a.Repetition {
					fmt.Fprintf(&r.b, "SHIFT_REPEAT(%d)", a.State)
				} else {
					fmt.Fprintf(&r.b, "SHIFT(%d)", a.State)
				}
			case lr.Reduce:
				fmt.Fprintf(&r.b, "REDUCE(%s, %d, %d, %d)", r.ids[a.Symbol], a.ChildCount, a.DynamicPrecedence, a.ProductionID)
			}
			r.b.WriteString(",")
		}
		r.b.WriteString("\n")
		idx += 1 + len(e.Actions)
	}
	r.line("};")
	r.line("")
	return nil
}

func (r *renderer) externalID(i int) string {
	return "ts_external_token_" + lex.SanitizeIdentifier(r.syn.Externals[i].Name)
}

func (r *renderer) externalScanner() {
	r.line("enum ts_external_scanner_symbol_identifiers {")
	for i := range r.syn.Externals {
		r.line("  %s = %d,", r.externalID(i), i)
	}
	r.line("};")
	r.line("")
	r.line("static const TSSymbol ts_external_scanner_symbol_map[EXTERNAL_TOKEN_COUNT] = {")
	for i, e := range r.syn.Externals {
		s := prepare.Ext(i)
		if e.Internal >= 0 {
			s = prepare.Term(e.Internal)
		}
		id, ok := r.ids[s]
		if !ok {
			id = "0"
		}
		r.line("  [%s] = %s,", r.externalID(i), id)
	}
	r.line("};")
	r.line("")
	r.line("static const bool ts_external_scanner_states[%d][EXTERNAL_TOKEN_COUNT] = {", len(r.t.ExternalLexStates))
	for i, row := range r.t.ExternalLexStates {
		if len(row) == 0 {
			continue
		}
		r.line("  [%d] = {", i)
		for _, tok := range row {
			r.line("    [%s] = true,", r.externalID(tok))
		}
		r.line("  },")
	}
	r.line("};")
	r.line("")
}

func (r *renderer) export() {
	fn := "tree_sitter_" + r.in.Name
	scanner := fn + "_external_scanner"
	r.line("#ifdef __cplusplus")
	r.line(`extern "C" {`)
	r.line("#endif")
	if len(r.syn.Externals) > 0 {
		r.line("void *%s_create(void);", scanner)
		r.line("void %s_destroy(void *);", scanner)
		r.line("bool %s_scan(void *, TSLexer *, const bool *);", scanner)
		r.line("unsigned %s_serialize(void *, char *);", scanner)
		r.line("void %s_deserialize(void *, const char *, unsigned);", scanner)
		r.line("")
	}
	r.line("#ifdef TREE_SITTER_HIDE_SYMBOLS")
	r.line("#define TS_PUBLIC")
	r.line("#elif defined(_WIN32)")
	r.line("#define TS_PUBLIC __declspec(dllexport)")
	r.line("#else")
	r.line(`#define TS_PUBLIC __attribute__((visibility("default")))`)
	r.line("#endif")
	r.line("")
	r.line("TS_PUBLIC const TSLanguage *%s(void) {", fn)
	r.line("  static const TSLanguage language = {")
	if r.in.ABI >= 15 {
		r.line("    .abi_version = LANGUAGE_VERSION,")
	} else {
		r.line("    .version = LANGUAGE_VERSION,")
	}
	r.line("    .symbol_count = SYMBOL_COUNT,")
	r.line("    .alias_count = ALIAS_COUNT,")
	r.line("    .token_count = TOKEN_COUNT,")
	r.line("    .external_token_count = EXTERNAL_TOKEN_COUNT,")
	r.line("    .state_count = STATE_COUNT,")
	r.line("    .large_state_count = LARGE_STATE_COUNT,")
	r.line("    .production_id_count = PRODUCTION_ID_COUNT,")
	if r.in.ABI >= 15 {
		r.line("    .supertype_count = SUPERTYPE_COUNT,")
	}
	r.line("    .field_count = FIELD_COUNT,")
	r.line("    .max_alias_sequence_length = MAX_ALIAS_SEQUENCE_LENGTH,")
	r.line("    .parse_table = &ts_parse_table[0][0],")
	if r.largeStates < len(r.t.States) {
		r.line("    .small_parse_table = ts_small_parse_table,")
		r.line("    .small_parse_table_map = ts_small_parse_table_map,")
	}
	r.line("    .parse_actions = ts_parse_actions,")
	r.line("    .symbol_names = ts_symbol_names,")
	if len(r.fieldNames) > 0 {
		r.line("    .field_names = ts_field_names,")
		r.line("    .field_map_slices = ts_field_map_slices,")
		r.line("    .field_map_entries = ts_field_map_entries,")
	}
	if r.in.ABI >= 15 && len(r.supertypeIDs) > 0 {
		r.line("    .supertype_map_slices = ts_supertype_map_slices,")
		r.line("    .supertype_map_entries = ts_supertype_map_entries,")
		r.line("    .supertype_symbols = ts_supertype_symbols,")
	}
	r.line("    .symbol_metadata = ts_symbol_metadata,")
	r.line("    .public_symbol_map = ts_symbol_map,")
	r.line("    .alias_map = ts_non_terminal_alias_map,")
	r.line("    .alias_sequences = &ts_alias_sequences[0][0],")
	if r.in.ABI >= 15 {
		r.line("    .lex_modes = (const void*)ts_lex_modes,")
	} else {
		r.line("    .lex_modes = ts_lex_modes,")
	}
	r.line("    .lex_fn = ts_lex,")
	if r.syn.Word >= 0 {
		r.line("    .keyword_lex_fn = ts_lex_keywords,")
		r.line("    .keyword_capture_token = %s,", r.ids[prepare.Term(r.syn.Word)])
	}
	if len(r.syn.Externals) > 0 {
		r.line("    .external_scanner = {")
		r.line("      &ts_external_scanner_states[0][0],")
		r.line("      ts_external_scanner_symbol_map,")
		r.line("      %s_create,", scanner)
		r.line("      %s_destroy,", scanner)
		r.line("      %s_scan,", scanner)
		r.line("      %s_serialize,", scanner)
		r.line("      %s_deserialize,", scanner)
		r.line("    },")
	}
	r.line("    .primary_state_ids = ts_primary_state_ids,")
	if r.in.ABI >= 15 {
		r.line("    .name = \"%s\",", cString(r.in.Name))
		if len(r.reservedSets) > 1 {
			r.line("    .reserved_words = &ts_reserved_words[0][0],")
		}
		r.line("    .max_reserved_word_set_size = %d,", r.maxReservedSetSize())
		r.line("    .metadata = {")
		r.line("      .major_version = %d,", r.in.Version[0])
		r.line("      .minor_version = %d,", r.in.Version[1])
		r.line("      .patch_version = %d,", r.in.Version[2])
		r.line("    },")
	}
	r.line("  };")
	r.line("  return &language;")
	r.line("}")
	r.line("#ifdef __cplusplus")
	r.line("}")
	r.line("#endif")
}

// cString escapes a symbol name for a C string literal.
func cString(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '?':
			b.WriteString(`\?`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == 7:
			b.WriteString(`\a`)
		case c == 8:
			b.WriteString(`\b`)
		case c == 11:
			b.WriteString(`\v`)
		case c == 12:
			b.WriteString(`\f`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == 0:
			b.WriteString(`\0`)
		case c < 0x20:
			fmt.Fprintf(&b, `\x%02x`, c)
		case c >= 0x7f && c <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, c)
		case c > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, c)
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// LargeStateCount is the number of leading states rendered densely: 0, 1
// and the following states with more than min(64, symbols/2) entries.
func LargeStateCount(t *lr.Table) int {
	threshold := min(smallStateThreshold, len(t.Symbols)/2)
	n := 0
	for i, s := range t.States {
		if i > 1 && len(s.Terminal)+len(s.NonTerminal) <= threshold {
			break
		}
		n++
	}
	return n
}
