package lex

// A check against parsers the official CLI generated: the token rules come
// from an npm package's src/grammar.json (extracted here as the CLI does),
// the parse states' token sets from its src/parser.c (the CLI builds lex
// tables from exactly those minimized states), and the lex DFA sizes are
// compared with the ts_lex / ts_lex_keywords switch statements.
//
// The packages come from difftest/npmcache (downloaded with `npm pack` on
// first use, cached outside the repository); the test skips only when the
// npm registry is unreachable, or under -short.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/grammar/generate/difftest/npmcache"
	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/ir"
)

// extractTokens mimics the CLI's token extraction closely enough to
// reproduce the lexical variables and their order.
func extractTokens(g *input.Grammar) (tokens []TokenVariable, seps []*input.Rule, word int) {
	type tok struct {
		TokenVariable
		uses int
	}
	var all []*tok
	find := func(r *input.Rule) int {
		for i, t := range all {
			if equalInput(t.Rule, r) {
				return i
			}
		}
		return -1
	}
	bodyToken := map[string]int{}
	for _, nr := range g.Rules {
		count := 0
		extract := func(r *input.Rule, str *string) int {
			if i := find(r); i >= 0 {
				all[i].uses++
				return i
			}
			t := &tok{uses: 1}
			t.Rule = r
			if str != nil {
				t.Name, t.Kind = *str, ir.Anonymous
			} else {
				count++
				t.Name, t.Kind = fmt.Sprintf("%s_token%d", nr.Name, count), ir.Auxiliary
			}
			all = append(all, t)
			return len(all) - 1
		}
		var walk func(r *input.Rule) int
		walk = func(r *input.Rule) int {
			switch r.Type {
			case input.String:
				v := r.Value
				return extract(r, &v)
			case input.Pattern:
				return extract(r, nil)
			case input.Token, input.ImmediateToken:
				var s *string
				inner := r.Content
				for inner.Type == input.Prec || inner.Type == input.PrecLeft || inner.Type == input.PrecRight || inner.Type == input.PrecDynamic {
					inner = inner.Content
				}
				if inner.Type == input.String {
					v := inner.Value
					s = &v
				}
				target := r
				if r.Type == input.Token && r.Content.Type != input.Prec && r.Content.Type != input.PrecLeft &&
					r.Content.Type != input.PrecRight && r.Content.Type != input.PrecDynamic {
					target = r.Content
				}
				return extract(target, s)
			}
			for _, m := range r.Members {
				walk(m)
			}
			if r.Content != nil {
				walk(r.Content)
			}
			return -1
		}
		if i := walk(nr.Rule); i >= 0 {
			bodyToken[nr.Name] = i
		}
	}
	for name, i := range bodyToken {
		hidden := strings.HasPrefix(name, "_")
		if all[i].uses == 1 && name != g.Rules[0].Name && (all[i].Kind == ir.Auxiliary || !hidden) {
			all[i].Name = name
			all[i].Kind = ir.Named
			if hidden {
				all[i].Kind = ir.Hidden
			}
		}
	}
	extras := g.Extras
	if !g.HasExtras {
		extras = []*input.Rule{{Type: input.Pattern, Value: `\s`}}
	}
	for _, e := range extras {
		if e.Type == input.Symbol {
			continue
		}
		if find(e) < 0 {
			seps = append(seps, e)
		}
	}
	word = -1
	for i, t := range all {
		tokens = append(tokens, t.TokenVariable)
		if g.Word != "" && t.Name == g.Word {
			word = i
		}
	}
	return tokens, seps, word
}

func equalInput(a, b *input.Rule) bool {
	if a.Type != b.Type || a.Value != b.Value || a.Flags != b.Flags || a.Name != b.Name || a.Prec != b.Prec ||
		a.Named != b.Named || len(a.Members) != len(b.Members) || (a.Content == nil) != (b.Content == nil) {
		return false
	}
	for i := range a.Members {
		if !equalInput(a.Members[i], b.Members[i]) {
			return false
		}
	}
	return a.Content == nil || equalInput(a.Content, b.Content)
}

// cliParser is what the test reads back from a CLI-generated parser.c.
type cliParser struct {
	tokenCount   int
	ids          map[string]int // C identifier -> symbol id
	names        []string       // symbol id -> C identifier
	stateTokens  [][]string     // parse state -> terminal identifiers with entries
	shifts       [][]int        // action index -> shift targets
	stateActions []map[string]int
	lexModes     []int // -1 for end-of-extra states
	reservedSet  []int
	reserved     map[int][]string
	lexCases     int
	kwCases      int
	kwAccepts    map[string]bool
}

var (
	reEnum     = regexp.MustCompile(`^  (\w+) = (\d+),$`)
	reDefine   = regexp.MustCompile(`^#define TOKEN_COUNT (\d+)`)
	reLarge    = regexp.MustCompile(`^  \[(?:STATE\()?(\d+)\)?\] = \{$`)
	reEntry    = regexp.MustCompile(`^    \[(\w+)\] = ACTIONS\((\d+)\),$`)
	reSmallRec = regexp.MustCompile(`^  \[(\d+)\] = \d+,$`)
	reSmallHdr = regexp.MustCompile(`^    (ACTIONS|STATE)\((\d+)\), \d+,$`)
	reSmallSym = regexp.MustCompile(`^      (\w+),$`)
	reSmallMap = regexp.MustCompile(`^  \[SMALL_STATE\((\d+)\)\] = (\d+),$`)
	reAction   = regexp.MustCompile(`^  \[(\d+)\] = \{\.entry`)
	reShift    = regexp.MustCompile(`SHIFT(?:_REPEAT)?\((\d+)(?:, \d+)?\)`)
	reLexMode  = regexp.MustCompile(`^  \[(\d+)\] = \{(?:\.lex_state = (\d+))?(.*)\},$`)
	reResSetID = regexp.MustCompile(`\.reserved_word_set_id = (\d+)`)
	reResRow   = regexp.MustCompile(`^  \[(\d+)\] = \{$`)
	reCase     = regexp.MustCompile(`^    case \d+:$`)
	reAccept   = regexp.MustCompile(`ACCEPT_TOKEN\((\w+)\)`)
)

func readCLIParser(t *testing.T, path string) *cliParser {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := &cliParser{ids: map[string]int{}, reserved: map[int][]string{}, kwAccepts: map[string]bool{}}
	section := ""
	var cur map[string]int
	var curState int
	smallRecords := map[int]map[string]int{}
	var smallCur map[string]int
	smallHdr := ""
	smallHdrVal := 0
	resRow := -1
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "enum ts_symbol_identifiers") || (line == "enum {" && len(p.names) == 0):
			section = "enum"
			continue
		case strings.HasPrefix(line, "static const uint16_t ts_parse_table["):
			section = "large"
			continue
		case strings.HasPrefix(line, "static const uint16_t ts_small_parse_table[]"):
			section = "small"
			continue
		case strings.HasPrefix(line, "static const uint32_t ts_small_parse_table_map"):
			section = "smallmap"
			continue
		case strings.HasPrefix(line, "static const TSParseActionEntry ts_parse_actions"):
			section = "actions"
			continue
		case strings.Contains(line, "ts_lex_modes[STATE_COUNT]"):
			section = "modes"
			continue
		case strings.HasPrefix(line, "static const TSSymbol ts_reserved_words"):
			section = "reserved"
			continue
		case strings.HasPrefix(line, "static bool ts_lex("):
			section = "lex"
			continue
		case strings.HasPrefix(line, "static bool ts_lex_keywords("):
			section = "kw"
			continue
		case line == "};" || line == "}":
			section = ""
			continue
		}
		if m := reDefine.FindStringSubmatch(line); m != nil {
			p.tokenCount, _ = strconv.Atoi(m[1])
		}
		switch section {
		case "enum":
			if m := reEnum.FindStringSubmatch(line); m != nil {
				id, _ := strconv.Atoi(m[2])
				p.ids[m[1]] = id
				for len(p.names) <= id {
					p.names = append(p.names, "")
				}
				p.names[id] = m[1]
			}
		case "large":
			if m := reLarge.FindStringSubmatch(line); m != nil {
				curState, _ = strconv.Atoi(m[1])
				cur = map[string]int{}
				for len(p.stateActions) <= curState {
					p.stateActions = append(p.stateActions, nil)
				}
				p.stateActions[curState] = cur
			} else if m := reEntry.FindStringSubmatch(line); m != nil {
				v, _ := strconv.Atoi(m[2])
				cur[m[1]] = v
			}
		case "small":
			if m := reSmallRec.FindStringSubmatch(line); m != nil {
				off, _ := strconv.Atoi(m[1])
				smallCur = map[string]int{}
				smallRecords[off] = smallCur
			} else if m := reSmallHdr.FindStringSubmatch(line); m != nil {
				smallHdr = m[1]
				smallHdrVal, _ = strconv.Atoi(m[2])
			} else if m := reSmallSym.FindStringSubmatch(line); m != nil && smallHdr == "ACTIONS" {
				smallCur[m[1]] = smallHdrVal
			}
		case "smallmap":
			if m := reSmallMap.FindStringSubmatch(line); m != nil {
				s, _ := strconv.Atoi(m[1])
				off, _ := strconv.Atoi(m[2])
				for len(p.stateActions) <= s {
					p.stateActions = append(p.stateActions, nil)
				}
				p.stateActions[s] = smallRecords[off]
			}
		case "actions":
			if m := reAction.FindStringSubmatch(line); m != nil {
				idx, _ := strconv.Atoi(m[1])
				for len(p.shifts) <= idx {
					p.shifts = append(p.shifts, nil)
				}
				for _, s := range reShift.FindAllStringSubmatch(line, -1) {
					v, _ := strconv.Atoi(s[1])
					p.shifts[idx] = append(p.shifts[idx], v)
				}
			}
		case "modes":
			if m := reLexMode.FindStringSubmatch(line); m != nil {
				ls := -1
				if m[2] != "" {
					ls, _ = strconv.Atoi(m[2])
				}
				p.lexModes = append(p.lexModes, ls)
				rs := 0
				if r := reResSetID.FindStringSubmatch(m[3]); r != nil {
					rs, _ = strconv.Atoi(r[1])
				}
				p.reservedSet = append(p.reservedSet, rs)
			}
		case "reserved":
			if m := reResRow.FindStringSubmatch(line); m != nil {
				resRow, _ = strconv.Atoi(m[1])
			} else if m := regexp.MustCompile(`^    (\w+),$`).FindStringSubmatch(line); m != nil && resRow >= 0 {
				p.reserved[resRow] = append(p.reserved[resRow], m[1])
			}
		case "lex":
			if reCase.MatchString(line) {
				p.lexCases++
			}
		case "kw":
			if reCase.MatchString(line) {
				p.kwCases++
			}
			if m := reAccept.FindStringSubmatch(line); m != nil {
				p.kwAccepts[m[1]] = true
			}
		}
	}
	for _, acts := range p.stateActions {
		var toks []string
		for sym := range acts {
			if id, ok := p.ids[sym]; ok && id < p.tokenCount {
				toks = append(toks, sym)
			} else if sym == "ts_builtin_sym_end" {
				toks = append(toks, sym)
			}
		}
		p.stateTokens = append(p.stateTokens, toks)
	}
	return p
}

// mapTokens maps parser.c terminal identifiers to lexical token indices.
func mapTokens(g *Grammar, p *cliParser, word int) map[string]int {
	out := map[string]int{}
	used := make([]bool, len(g.Variables))
	base := func(i int) string { return DefaultSymbolName(g.Variables[i].Name, g.Variables[i].Kind) }
	order := []int{}
	if word >= 0 {
		order = append(order, word)
	}
	for i := range g.Variables {
		if i != word {
			order = append(order, i)
		}
	}
	for id := 1; id < p.tokenCount && id < len(p.names); id++ {
		ident := p.names[id]
		for _, i := range order {
			if used[i] {
				continue
			}
			b := base(i)
			if ident == b {
				out[ident], used[i] = i, true
				break
			}
			if rest, ok := strings.CutPrefix(ident, b); ok {
				if n, err := strconv.Atoi(rest); err == nil && n >= 2 {
					if _, taken := p.ids[b]; taken {
						out[ident], used[i] = i, true
						break
					}
				}
			}
		}
	}
	return out
}

func TestAgainstCLIParsers(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: this test fetches npm grammar packages")
	}
	cases := []struct {
		pkg npmcache.Package
		// render: compare the C text (lua 2.1.3 was built by a CLI that
		// predates ADVANCE_MAP).
		render bool
	}{
		{npmcache.Package{Name: "tree-sitter-json", Version: "0.24.8"}, true},
		{npmcache.Package{Name: "tree-sitter-lua", Version: "2.1.3"}, false},
		{npmcache.Package{Name: "tree-sitter-go", Version: "0.25.0"}, true},
		{npmcache.Package{Name: "tree-sitter-css", Version: "0.25.0"}, true},
		{npmcache.Package{Name: "@tree-sitter-grammars/tree-sitter-toml", Version: "0.7.0"}, true},
		{npmcache.Package{Name: "tree-sitter-make", Version: "1.1.1"}, true},
		{npmcache.Package{Name: "tree-sitter-python", Version: "0.25.0"}, true},
		{npmcache.Package{Name: "@tree-sitter-grammars/tree-sitter-lua", Version: "0.4.1"}, true},
		{npmcache.Package{Name: "tree-sitter-bash", Version: "0.25.1"}, true},
		{npmcache.Package{Name: "tree-sitter-properties", Version: "0.3.0"}, true},
		{npmcache.Package{Name: "tree-sitter-embedded-template", Version: "0.25.0"}, true},
	}
	for _, cc := range cases {
		pkg := cc.pkg.Key()
		t.Run(pkg, func(t *testing.T) {
			root, err := npmcache.Fetch(context.Background(), cc.pkg)
			if errors.Is(err, npmcache.ErrUnreachable) {
				t.Skipf("SKIP: needs the network (the npm registry, offline here): %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(root, "src")
			data, err := os.ReadFile(filepath.Join(dir, "grammar.json"))
			if err != nil {
				t.Fatal(err)
			}
			gj, err := input.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			tokens, seps, word := extractTokens(gj)
			g, err := Expand(tokens, seps)
			if err != nil {
				t.Fatal(err)
			}
			p := readCLIParser(t, filepath.Join(dir, "parser.c"))
			idx := mapTokens(g, p, word)
			var unmapped []string
			for id := 1; id < p.tokenCount && id < len(p.names); id++ {
				if _, ok := idx[p.names[id]]; !ok {
					unmapped = append(unmapped, p.names[id])
				}
			}
			mappedTo := map[int]bool{}
			for _, i := range idx {
				mappedTo[i] = true
			}
			var ours []string
			for i, v := range g.Variables {
				if !mappedTo[i] {
					ours = append(ours, fmt.Sprintf("%d:%s", i, DefaultSymbolName(v.Name, v.Kind)))
				}
			}
			if len(ours) > 0 {
				t.Logf("our tokens not mapped to a CLI terminal (unused or extraction gaps): %v", ours)
			}
			if len(unmapped) > 0 {
				t.Logf("CLI terminals not mapped to a token (externals or extraction gaps): %v", unmapped)
			}
			n := len(g.Variables)

			stateSets := make([]ir.TokenSet, len(p.stateTokens))
			eof := make([]bool, len(p.stateTokens))
			for s, toks := range p.stateTokens {
				for _, sym := range toks {
					if sym == "ts_builtin_sym_end" {
						eof[s] = true
					} else if i, ok := idx[sym]; ok {
						stateSets[s].Add(i)
					}
				}
			}
			// Following tokens, approximated from the shifts of the minimized table.
			follow := make([]ir.TokenSet, n)
			for _, acts := range p.stateActions {
				for sym, a := range acts {
					i, ok := idx[sym]
					if !ok || a >= len(p.shifts) {
						continue
					}
					for _, target := range p.shifts[a] {
						if target < len(stateSets) {
							follow[i].Union(stateSets[target])
						}
					}
				}
			}
			var extras []int
			for _, e := range gj.Extras {
				if e.Type == input.Symbol {
					for _, i := range idx {
						if g.Variables[i].Name == e.Name {
							extras = append(extras, i)
						}
					}
				}
			}
			for _, e := range extras {
				for i := range follow {
					follow[i].Add(e)
				}
				follow[e] = ir.TokenSet{}
				for i := 0; i < n; i++ {
					follow[e].Add(i)
				}
			}
			t0 := time.Now()
			m := NewConflictMap(g, follow)
			tConflicts := time.Since(t0)
			coincidentStates := make([]ir.TokenSet, len(stateSets))
			copy(coincidentStates[1:], stateSets[1:])
			c := NewCoincidentIndex(n, coincidentStates)
			keywords := IdentifyKeywords(g, word, m, c, coincidentStates)

			var kwNames []string
			keywords.Each(func(i int) { kwNames = append(kwNames, g.Variables[i].Name) })
			wantKw := 0
			for sym := range p.kwAccepts {
				if i, ok := idx[sym]; ok {
					wantKw++
					if !keywords.Has(i) {
						t.Errorf("CLI keyword %s not identified", sym)
					}
				}
			}
			if keywords.Len() != wantKw {
				t.Errorf("keywords: ours %d (%v), CLI %d", keywords.Len(), kwNames, wantKw)
			}

			// The error state: the CLI lists ErrorStateTokens plus EOF and externals.
			errTokens := ErrorStateTokens(g, word, keywords, m, c)
			var missing, extra []string
			for i := 0; i < n; i++ {
				in0 := len(stateSets) > 0 && stateSets[0].Has(i)
				if errTokens.Has(i) && !in0 {
					extra = append(extra, g.Variables[i].Name)
				} else if !errTokens.Has(i) && in0 {
					missing = append(missing, g.Variables[i].Name)
				}
			}
			if len(missing)+len(extra) > 0 {
				t.Errorf("error state differs from the CLI's: missing %q, extra %q", missing, extra)
			}

			inputs := make([]LexStateInput, len(stateSets))
			for s := range stateSets {
				toks := stateSets[s].Clone()
				if s < len(p.reservedSet) && p.reservedSet[s] > 0 {
					for _, sym := range p.reserved[p.reservedSet[s]] {
						if i, ok := idx[sym]; ok {
							toks.Add(i)
						}
					}
				}
				inputs[s] = LexStateInput{Tokens: toks, EOF: eof[s]}
			}
			t0 = time.Now()
			main, kw, lexStateOf := BuildLexTables(g, inputs, word, keywords, m, c)
			t.Logf("timing: conflict map %v, lex tables %v", tConflicts, time.Since(t0))
			entries := map[int]bool{}
			cliEntries := map[int]bool{}
			for s, ls := range lexStateOf {
				entries[ls] = true
				if s < len(p.lexModes) && p.lexModes[s] >= 0 {
					cliEntries[p.lexModes[s]] = true
				}
			}
			kwStates := 0
			if kw != nil {
				kwStates = len(kw.States)
			}
			t.Logf("%s: tokens %d mapped %d; main lex states ours %d CLI %d; entry states ours %d CLI %d; keyword states ours %d CLI %d",
				pkg, n, len(idx), len(main.States), p.lexCases, len(entries), len(cliEntries), kwStates, p.kwCases)
			mismatched := 0
			for s, ls := range lexStateOf {
				if s < len(p.lexModes) && p.lexModes[s] >= 0 && p.lexModes[s] != ls {
					mismatched++
				}
			}
			if mismatched > 0 {
				t.Errorf("%d parse states have a different entry lex state than the CLI's", mismatched)
			}
			symbol := map[int]string{}
			for ident, i := range idx {
				symbol[i] = ident
			}
			tokenSymbol := func(i int) string { return symbol[i] }
			var out strings.Builder
			if err := RenderLexHelpersNamed(&out, tokenSymbol, main, kw); err != nil {
				t.Fatal(err)
			}
			if err := RenderLexFunction(&out, "ts_lex", main, tokenSymbol); err != nil {
				t.Fatal(err)
			}
			if kw != nil {
				if err := RenderLexFunction(&out, "ts_lex_keywords", kw, tokenSymbol); err != nil {
					t.Fatal(err)
				}
			}
			want := cliLexText(t, filepath.Join(dir, "parser.c"))
			if d := os.Getenv("TSGEN_DUMP"); d != "" {
				os.WriteFile(filepath.Join(d, pkg+".ours.c"), []byte(out.String()), 0o644)
				os.WriteFile(filepath.Join(d, pkg+".cli.c"), []byte(want), 0o644)
			}
			got := out.String()
			if cc.render && got != want {
				gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
				for i := 0; i < len(gl) && i < len(wl); i++ {
					if gl[i] != wl[i] {
						t.Errorf("rendered lexer differs from the CLI's at line %d:\n ours: %s\n CLI:  %s", i+1, gl[i], wl[i])
						break
					}
				}
				if len(gl) != len(wl) {
					t.Errorf("rendered lexer has %d lines, CLI %d", len(gl), len(wl))
				}
			}
			if len(main.States) != p.lexCases {
				t.Errorf("main lex state count %d, CLI %d", len(main.States), p.lexCases)
			}
			if kwStates != p.kwCases {
				t.Errorf("keyword lex state count %d, CLI %d", kwStates, p.kwCases)
			}
		})
	}
}

// cliLexText returns parser.c from the first character-range table or lex
// function to the end of the last lex function.
func cliLexText(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// CLIs before 0.23 declared the range tables without const.
	text := strings.ReplaceAll(string(data), "static TSCharacterRange ", "static const TSCharacterRange ")
	start := strings.Index(text, "static const TSCharacterRange ")
	if fn := strings.Index(text, "static bool ts_lex("); start < 0 || (fn >= 0 && fn < start) {
		start = fn
	}
	end := strings.Index(text, "static const TSLexMode")
	if e2 := strings.Index(text, "static const TSLexerMode"); end < 0 || (e2 >= 0 && e2 < end) {
		end = e2
	}
	if start < 0 || end < 0 {
		t.Fatal("lexer section not found")
	}
	return text[start:end]
}
