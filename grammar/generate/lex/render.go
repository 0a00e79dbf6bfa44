package lex

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/lex/charset"
)

// StateCount returns the number of DFA states (the CLI disables C
// optimisation of the lexer above 300 main states).
func (t *Table) StateCount() int { return len(t.States) }

// RenderLexHelpers writes the static TSCharacterRange tables the lex
// functions of tables use, named after the tokens with default C
// identifiers (sym_/anon_sym_/aux_sym_ + sanitized name). Call it before
// RenderLexFunction; use RenderLexHelpersNamed to match the renderer's
// own symbol identifiers.
func RenderLexHelpers(w io.Writer, tables ...*Table) error {
	return RenderLexHelpersNamed(w, nil, tables...)
}

// RenderLexHelpersNamed is RenderLexHelpers with tokenSymbol giving each
// token's C identifier, so tables are named "<symbol>_character_set_<n>"
// exactly as the CLI names them. A nil tokenSymbol uses default names.
func RenderLexHelpersNamed(w io.Writer, tokenSymbol func(i int) string, tables ...*Table) error {
	var sets *largeSets
	var g *Grammar
	for _, t := range tables {
		if t != nil && t.sets != nil {
			sets, g = t.sets, t.g
			break
		}
	}
	if sets == nil {
		return nil
	}
	sets.collect(g)
	if tokenSymbol == nil {
		tokenSymbol = func(i int) string { return DefaultSymbolName(g.Variables[i].Name, g.Variables[i].Kind) }
	}
	counts := map[int]int{}
	for i := range sets.sets {
		s := &sets.sets[i]
		counts[s.token]++
		if s.token >= 0 {
			s.name = fmt.Sprintf("%s_character_set_%d", tokenSymbol(s.token), counts[s.token])
		} else {
			s.name = fmt.Sprintf("extras_character_set_%d", counts[s.token])
		}
		s.used = false
	}
	sets.named = true
	// Render the functions once to learn which tables they use.
	for _, t := range tables {
		if t != nil {
			if err := renderFunction(io.Discard, "f", t, func(int) string { return "s" }); err != nil {
				return err
			}
		}
	}
	bw := bufio.NewWriter(w)
	for _, s := range sets.sets {
		if !s.used {
			continue
		}
		fmt.Fprintf(bw, "static const TSCharacterRange %s[] = {\n", s.name)
		for i, r := range s.chars.Ranges() {
			if i%8 == 0 {
				if i > 0 {
					bw.WriteString("\n")
				}
				bw.WriteString("  ")
			} else {
				bw.WriteString(" ")
			}
			fmt.Fprintf(bw, "{%s, %s},", cChar(r[0]), cChar(r[1]))
		}
		bw.WriteString("\n};\n\n")
	}
	return bw.Flush()
}

// DefaultSymbolName is the CLI's C identifier for a token before
// de-duplication: aux_sym_/anon_sym_/sym_ plus the sanitized name.
func DefaultSymbolName(name string, kind ir.VariableKind) string {
	switch kind {
	case ir.Auxiliary:
		return "aux_sym_" + SanitizeIdentifier(name)
	case ir.Anonymous:
		return "anon_sym_" + SanitizeIdentifier(name)
	}
	return "sym_" + SanitizeIdentifier(name)
}

var charNames = map[rune]string{
	'~': "TILDE", '`': "BQUOTE", '!': "BANG", '@': "AT", '#': "POUND", '$': "DOLLAR", '%': "PERCENT",
	'^': "CARET", '&': "AMP", '*': "STAR", '(': "LPAREN", ')': "RPAREN", '-': "DASH", '+': "PLUS",
	'=': "EQ", '{': "LBRACE", '}': "RBRACE", '[': "LBRACK", ']': "RBRACK", '\\': "BSLASH", '|': "PIPE",
	':': "COLON", ';': "SEMI", '"': "DQUOTE", '\'': "SQUOTE", '<': "LT", '>': "GT", ',': "COMMA",
	'.': "DOT", '?': "QMARK", '/': "SLASH", '\n': "LF", '\r': "CR", '\t': "TAB", 0: "NULL",
	1: "SOH", 2: "STX", 3: "ETX", 4: "EOT", 5: "ENQ", 6: "ACK", 7: "BEL", 8: "BS", 0xb: "VTAB",
	0xc: "FF", 0xe: "SO", 0xf: "SI", 0x10: "DLE", 0x11: "DC1", 0x12: "DC2", 0x13: "DC3", 0x14: "DC4",
	0x15: "NAK", 0x16: "SYN", 0x17: "ETB", 0x18: "CAN", 0x19: "EM", 0x1a: "SUB", 0x1b: "ESC",
	0x1c: "FS", 0x1d: "GS", 0x1e: "RS", 0x1f: "US", 0x7f: "DEL", 0xfeff: "BOM",
}

// SanitizeIdentifier turns a symbol name into the CLI's C identifier body.
func SanitizeIdentifier(name string) string {
	var b strings.Builder
	for _, c := range name {
		switch {
		case c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'):
			b.WriteRune(c)
			continue
		case c == ' ' && len(name) == 1:
			b.WriteString("SPACE")
			continue
		case c == ' ':
			continue
		}
		if r, ok := charNames[c]; ok {
			if s := b.String(); s != "" && !strings.HasSuffix(s, "_") {
				b.WriteString("_")
			}
			b.WriteString(r)
		} else if c <= 0xFFFF {
			fmt.Fprintf(&b, "u%04x", c)
		} else {
			fmt.Fprintf(&b, "U%08x", c)
		}
	}
	return b.String()
}

// RenderLexFunction writes `static bool fnName(TSLexer *lexer, TSStateId
// state)` for t in the CLI's layout. tokenSymbol(i) is the C expression of
// token i's symbol; EOF is ts_builtin_sym_end.
func RenderLexFunction(w io.Writer, fnName string, t *Table, tokenSymbol func(i int) string) error {
	if t.sets != nil && !t.sets.named {
		if err := RenderLexHelpers(io.Discard, t); err != nil {
			return err
		}
	}
	return renderFunction(w, fnName, t, tokenSymbol)
}

func renderFunction(w io.Writer, fnName string, t *Table, tokenSymbol func(i int) string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "static bool %s(TSLexer *lexer, TSStateId state) {\n", fnName)
	bw.WriteString("  START_LEXER();\n  eof = lexer->eof(lexer);\n  switch (state) {\n")
	for i := range t.States {
		fmt.Fprintf(bw, "    case %d:\n", i)
		renderState(bw, t, &t.States[i], tokenSymbol)
	}
	bw.WriteString("    default:\n      return false;\n  }\n}\n\n")
	return bw.Flush()
}

const indent = "      "

func renderState(bw *bufio.Writer, t *Table, st *LexState, tokenSymbol func(i int) string) {
	switch st.Accept {
	case AcceptNone:
	case AcceptEOF:
		fmt.Fprintf(bw, "%sACCEPT_TOKEN(ts_builtin_sym_end);\n", indent)
	default:
		fmt.Fprintf(bw, "%sACCEPT_TOKEN(%s);\n", indent, tokenSymbol(st.Accept))
	}
	if st.EOF {
		fmt.Fprintf(bw, "%sif (eof) ADVANCE(%d);\n", indent, st.EOFState)
	}
	ruledOut := charset.Empty()

	// Leading single-character (or two adjacent characters) main-token
	// transitions below U+10000 become one ADVANCE_MAP when they hold at
	// least eight ranges.
	simple, simpleRanges := 0, 0
	for _, adv := range st.Advances {
		if !adv.InMainToken || !allSmallPairs(adv.Chars) {
			break
		}
		simple++
		simpleRanges += adv.Chars.RangeCount()
	}
	if simpleRanges >= 8 {
		fmt.Fprintf(bw, "%sADVANCE_MAP(\n", indent)
		for _, adv := range st.Advances[:simple] {
			for _, r := range adv.Chars.Ranges() {
				fmt.Fprintf(bw, "%s  %s, %d,\n", indent, cChar(r[0]), adv.State)
				if r[1] > r[0] {
					fmt.Fprintf(bw, "%s  %s, %d,\n", indent, cChar(r[1]), adv.State)
				}
			}
			ruledOut = ruledOut.Union(adv.Chars)
		}
		fmt.Fprintf(bw, "%s);\n", indent)
	} else {
		simple = 0
	}

	lineBreak := "\n" + indent + "    "
	for _, adv := range st.Advances[simple:] {
		bw.WriteString(indent)
		simplified := adv.Chars.SimplifyIgnoring(ruledOut)

		best := -1
		var bestAdd, bestRemove charset.Set
		if t.sets != nil && simplified.RangeCount() >= largeCharacterRangeCount {
			for ix, ls := range t.sets.sets {
				both, onlyChars, onlySet := simplified.Split(ls.chars)
				if both.IsEmpty() {
					continue
				}
				additions := onlyChars.SimplifyIgnoring(ruledOut)
				removals := onlySet.SimplifyIgnoring(ruledOut)
				total := additions.RangeCount() + removals.RangeCount()
				if total >= simplified.RangeCount() {
					continue
				}
				if best >= 0 && bestAdd.RangeCount()+bestRemove.RangeCount() < total {
					continue
				}
				best, bestAdd, bestRemove = ix, additions, removals
			}
		}
		ruledOut = ruledOut.Union(adv.Chars)

		asserted, negated := simplified, charset.Empty()
		if best >= 0 {
			asserted, negated = bestAdd, bestRemove
		}
		hasPositive := best >= 0 || !asserted.IsEmpty()
		hasNegative := !negated.IsEmpty()
		if hasPositive || hasNegative {
			bw.WriteString("if (")
			if hasPositive && hasNegative {
				bw.WriteString("(")
			}
		}
		if best >= 0 {
			ls := &t.sets.sets[best]
			ls.used = true
			checkEOF := ls.chars.Contains(0)
			if checkEOF {
				bw.WriteString("(!eof && ")
			}
			fmt.Fprintf(bw, "set_contains(%s, %d, lookahead)", ls.name, ls.chars.RangeCount())
			if checkEOF {
				bw.WriteString(")")
			}
		}
		if !asserted.IsEmpty() {
			if best >= 0 {
				bw.WriteString(" ||" + lineBreak)
			}
			included := !asserted.Contains(0x10FFFF)
			if !included {
				asserted = asserted.Negate().Union(charset.Char(0))
			}
			rangeConditions(bw, asserted, included, lineBreak)
		}
		if hasNegative {
			if hasPositive {
				bw.WriteString(") &&" + lineBreak)
			}
			rangeConditions(bw, negated, false, lineBreak)
		}
		if hasPositive || hasNegative {
			bw.WriteString(") ")
		}
		if adv.InMainToken {
			fmt.Fprintf(bw, "ADVANCE(%d);\n", adv.State)
		} else {
			fmt.Fprintf(bw, "SKIP(%d);\n", adv.State)
		}
	}
	fmt.Fprintf(bw, "%sEND_STATE();\n", indent)
}

func allSmallPairs(s charset.Set) bool {
	for _, r := range s.Ranges() {
		if r[1] > r[0]+1 || r[1] > 0xFFFF {
			return false
		}
	}
	return true
}

func rangeConditions(bw *bufio.Writer, s charset.Set, included bool, lineBreak string) {
	for i, r := range s.Ranges() {
		lo, hi := r[0], r[1]
		if included {
			if i > 0 {
				bw.WriteString(" ||" + lineBreak)
			}
			switch {
			case lo == 0:
				bw.WriteString("(!eof && ")
				if hi == 0 {
					bw.WriteString("lookahead == 0")
				} else {
					bw.WriteString("lookahead <= ")
				}
				bw.WriteString(cChar(hi))
				bw.WriteString(")")
			case hi == lo:
				bw.WriteString("lookahead == " + cChar(lo))
			case hi == lo+1:
				bw.WriteString("lookahead == " + cChar(lo) + " ||" + lineBreak + "lookahead == " + cChar(hi))
			default:
				bw.WriteString("(" + cChar(lo) + " <= lookahead && lookahead <= " + cChar(hi) + ")")
			}
			continue
		}
		if i > 0 {
			bw.WriteString(" &&" + lineBreak)
		}
		switch {
		case hi == lo:
			bw.WriteString("lookahead != " + cChar(lo))
		case hi == lo+1:
			bw.WriteString("lookahead != " + cChar(lo) + " &&" + lineBreak + "lookahead != " + cChar(hi))
		case lo != 0:
			bw.WriteString("(lookahead < " + cChar(lo) + " || " + cChar(hi) + " < lookahead)")
		default:
			bw.WriteString("lookahead > " + cChar(hi))
		}
	}
}

// cChar renders a code point as the CLI does in conditions.
func cChar(c rune) string {
	switch c {
	case '\'':
		return `'\''`
	case '\\':
		return `'\\'`
	case '\f':
		return `'\f'`
	case '\n':
		return `'\n'`
	case '\t':
		return `'\t'`
	case '\r':
		return `'\r'`
	case 0:
		return "0"
	}
	if c >= ' ' && c <= '~' {
		return "'" + string(c) + "'"
	}
	return fmt.Sprintf("0x%02x", c)
}
