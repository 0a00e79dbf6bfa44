package rhai

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

type tokKind int

const (
	tEOF tokKind = iota
	tInt
	tFloat
	tString
	tInterp
	tChar
	tIdent
	tPunct
)

// token is one lexeme with its byte range in the source.
type token struct {
	kind     tokKind
	text     string // identifier or punctuation
	pos, end int
	ival     int64
	fval     float64
	sval     string
	cval     rune
	parts    []interpPart
}

// interpPart is a piece of a backtick string: literal text, or the byte
// range of an interpolated ${...} expression.
type interpPart struct {
	lit        string
	isExpr     bool
	start, end int
}

// lexer turns source bytes into tokens on demand.
type lexer struct {
	src string
	pos int
	// nest counts backtick strings being scanned inside ${...}, bounding
	// the lexer's recursion.
	nest int
}

// maxInterpNesting bounds backtick strings nested through ${...}.
const maxInterpNesting = 32

// puncts lists the punctuation, longest first so that the first match wins.
var puncts = []string{
	"**=", "<<=", ">>=", "..=",
	"==", "!=", "<=", ">=", "&&", "||", "??", "..", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
	"**", "<<", ">>", "=>", "::", "?.", "?[", "#{",
	"+", "-", "*", "/", "%", "<", ">", "=", "!", "&", "|", "^", "(", ")", "[", "]", "{", "}", ",", ";", ":", ".", "?",
}

func (lx *lexer) errAt(pos int, format string, args ...any) *ParseError {
	return newParseError(lx.src, pos, format, args...)
}

// skipSpace skips white space and comments; /* */ comments nest.
func (lx *lexer) skipSpace() *ParseError {
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			lx.pos++
		case strings.HasPrefix(lx.src[lx.pos:], "//"):
			i := strings.IndexByte(lx.src[lx.pos:], '\n')
			if i < 0 {
				lx.pos = len(lx.src)
			} else {
				lx.pos += i + 1
			}
		case strings.HasPrefix(lx.src[lx.pos:], "/*"):
			start := lx.pos
			depth := 0
			for {
				if lx.pos >= len(lx.src) {
					return lx.errAt(start, "Unterminated comment")
				}
				if strings.HasPrefix(lx.src[lx.pos:], "/*") {
					depth++
					lx.pos += 2
				} else if strings.HasPrefix(lx.src[lx.pos:], "*/") {
					depth--
					lx.pos += 2
					if depth == 0 {
						break
					}
				} else {
					lx.pos++
				}
			}
		default:
			return nil
		}
	}
	return nil
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || c >= '0' && c <= '9' }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }

// next returns the next token.
func (lx *lexer) next() (token, *ParseError) {
	if err := lx.skipSpace(); err != nil {
		return token{}, err
	}
	start := lx.pos
	if lx.pos >= len(lx.src) {
		return token{kind: tEOF, pos: start, end: start}, nil
	}
	c := lx.src[lx.pos]
	switch {
	case isIdentStart(c):
		for lx.pos < len(lx.src) && isIdentChar(lx.src[lx.pos]) {
			lx.pos++
		}
		name := lx.src[start:lx.pos]
		if name != "_" && (strings.Trim(name, "_") == "" || isDigit(strings.TrimLeft(name, "_")[0])) {
			return token{}, lx.errAt(start, "Invalid identifier '%s'", name)
		}
		return token{kind: tIdent, text: name, pos: start, end: lx.pos}, nil
	case isDigit(c):
		return lx.number()
	case c == '"':
		s, err := lx.quoted('"')
		if err != nil {
			return token{}, err
		}
		return token{kind: tString, sval: s, pos: start, end: lx.pos}, nil
	case c == '\'':
		s, err := lx.quoted('\'')
		if err != nil {
			return token{}, err
		}
		if utf8.RuneCountInString(s) != 1 {
			return token{}, lx.errAt(start, "A character literal must hold exactly one character")
		}
		r, _ := utf8.DecodeRuneInString(s)
		return token{kind: tChar, cval: r, pos: start, end: lx.pos}, nil
	case c == '`':
		return lx.backtick()
	case c == '#' && lx.pos+1 < len(lx.src) && (lx.src[lx.pos+1] == '"' || lx.src[lx.pos+1] == '#'):
		return lx.raw()
	}
	for _, p := range puncts {
		if strings.HasPrefix(lx.src[lx.pos:], p) {
			lx.pos += len(p)
			return token{kind: tPunct, text: p, pos: start, end: lx.pos}, nil
		}
	}
	r, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
	lx.pos += size
	return token{}, lx.errAt(start, "Unexpected character '%c'", r)
}

func (lx *lexer) number() (token, *ParseError) {
	start := lx.pos
	src := lx.src
	if src[lx.pos] == '0' && lx.pos+1 < len(src) && strings.IndexByte("xXoObB", src[lx.pos+1]) >= 0 {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[src[lx.pos+1]]
		lx.pos += 2
		ds := lx.pos
		for lx.pos < len(src) && (isIdentChar(src[lx.pos])) {
			lx.pos++
		}
		digits := strings.ReplaceAll(src[ds:lx.pos], "_", "")
		u, err := strconv.ParseUint(digits, base, 64)
		if err != nil || digits == "" {
			return token{}, lx.errAt(start, "Invalid number literal '%s'", src[start:lx.pos])
		}
		return token{kind: tInt, ival: int64(u), pos: start, end: lx.pos}, nil
	}
	isFloat := false
	for lx.pos < len(src) && (isDigit(src[lx.pos]) || src[lx.pos] == '_') {
		lx.pos++
	}
	if lx.pos+1 < len(src) && src[lx.pos] == '.' && isDigit(src[lx.pos+1]) {
		isFloat = true
		lx.pos++
		for lx.pos < len(src) && (isDigit(src[lx.pos]) || src[lx.pos] == '_') {
			lx.pos++
		}
	}
	if lx.pos < len(src) && (src[lx.pos] == 'e' || src[lx.pos] == 'E') {
		p := lx.pos + 1
		if p < len(src) && (src[p] == '+' || src[p] == '-') {
			p++
		}
		if p < len(src) && isDigit(src[p]) {
			isFloat = true
			lx.pos = p
			for lx.pos < len(src) && isDigit(src[lx.pos]) {
				lx.pos++
			}
		}
	}
	if lx.pos < len(src) && isIdentStart(src[lx.pos]) {
		for lx.pos < len(src) && isIdentChar(src[lx.pos]) {
			lx.pos++
		}
		return token{}, lx.errAt(start, "Invalid number literal '%s'", src[start:lx.pos])
	}
	text := strings.ReplaceAll(src[start:lx.pos], "_", "")
	if isFloat {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !math.IsInf(f, 0) {
			return token{}, lx.errAt(start, "Invalid number literal '%s'", text)
		}
		return token{kind: tFloat, fval: f, pos: start, end: lx.pos}, nil
	}
	i, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return token{}, lx.errAt(start, "Integer literal '%s' is too large", text)
	}
	return token{kind: tInt, ival: i, pos: start, end: lx.pos}, nil
}

// quoted reads a "..." string or '...' char body with escapes.
func (lx *lexer) quoted(q byte) (string, *ParseError) {
	start := lx.pos
	lx.pos++
	var b strings.Builder
	for {
		if lx.pos >= len(lx.src) {
			return "", lx.errAt(start, "Unterminated string literal")
		}
		c := lx.src[lx.pos]
		switch c {
		case q:
			lx.pos++
			return b.String(), nil
		case '\n':
			return "", lx.errAt(start, "Unterminated string literal")
		case '\\':
			esc := lx.pos
			lx.pos++
			if lx.pos >= len(lx.src) {
				return "", lx.errAt(start, "Unterminated string literal")
			}
			e := lx.src[lx.pos]
			lx.pos++
			switch e {
			case '\\':
				b.WriteByte('\\')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case '"', '\'':
				if e != q {
					return "", lx.errAt(esc, "Invalid escape sequence '\\%c'", e)
				}
				b.WriteByte(e)
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if lx.pos+n > len(lx.src) {
					return "", lx.errAt(esc, "Invalid escape sequence")
				}
				v, err := strconv.ParseUint(lx.src[lx.pos:lx.pos+n], 16, 32)
				if err != nil || !utf8.ValidRune(rune(v)) {
					return "", lx.errAt(esc, "Invalid escape sequence '%s'", lx.src[esc:lx.pos+n])
				}
				lx.pos += n
				b.WriteRune(rune(v))
			case '\n', '\r':
				// Line continuation: skip the line break and the next line's indentation.
				for lx.pos < len(lx.src) && strings.IndexByte(" \t\r\n", lx.src[lx.pos]) >= 0 {
					lx.pos++
				}
			default:
				return "", lx.errAt(esc, "Invalid escape sequence '\\%c'", e)
			}
		default:
			r, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
			b.WriteRune(r)
			lx.pos += size
		}
	}
}

// raw reads #"..."# strings, any number of #.
func (lx *lexer) raw() (token, *ParseError) {
	start := lx.pos
	n := 0
	for lx.pos < len(lx.src) && lx.src[lx.pos] == '#' {
		n++
		lx.pos++
	}
	if lx.pos >= len(lx.src) || lx.src[lx.pos] != '"' {
		return token{}, lx.errAt(start, "Unexpected character '#'")
	}
	lx.pos++
	closing := "\"" + strings.Repeat("#", n)
	i := strings.Index(lx.src[lx.pos:], closing)
	if i < 0 {
		return token{}, lx.errAt(start, "Unterminated raw string literal")
	}
	s := lx.src[lx.pos : lx.pos+i]
	lx.pos += i + len(closing)
	return token{kind: tString, sval: s, pos: start, end: lx.pos}, nil
}

// backtick reads a `...` string; ${expr} parts are located by lexing until
// the matching close brace.
func (lx *lexer) backtick() (token, *ParseError) {
	start := lx.pos
	if lx.nest >= maxInterpNesting {
		return token{}, lx.errAt(start, "String interpolation is nested too deeply")
	}
	lx.nest++
	defer func() { lx.nest-- }()
	lx.pos++
	var parts []interpPart
	var lit strings.Builder
	for {
		if lx.pos >= len(lx.src) {
			return token{}, lx.errAt(start, "Unterminated string literal")
		}
		c := lx.src[lx.pos]
		if c == '`' {
			lx.pos++
			if lit.Len() > 0 || len(parts) == 0 {
				parts = append(parts, interpPart{lit: lit.String()})
			}
			return token{kind: tInterp, parts: parts, pos: start, end: lx.pos}, nil
		}
		if c == '$' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '{' {
			if lit.Len() > 0 {
				parts = append(parts, interpPart{lit: lit.String()})
				lit.Reset()
			}
			exprStart := lx.pos + 2
			lx.pos = exprStart
			depth := 0
			for {
				t, err := lx.next()
				if err != nil {
					return token{}, err
				}
				if t.kind == tEOF {
					return token{}, lx.errAt(start, "Unterminated string interpolation")
				}
				if t.kind == tPunct && (t.text == "{" || t.text == "#{") {
					depth++
				}
				if t.kind == tPunct && t.text == "}" {
					if depth == 0 {
						parts = append(parts, interpPart{isExpr: true, start: exprStart, end: t.pos})
						break
					}
					depth--
				}
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
		lit.WriteRune(r)
		lx.pos += size
	}
}
