// Package regex parses the regular-expression dialect tree-sitter grammars
// use in PATTERN rules (Rust regex-syntax semantics, Unicode mode) into a
// small syntax tree of character classes, concatenations, alternations and
// counted repetitions, ready for NFA construction.
//
// Supported: literals and escapes (\n \t \r \f \v \a \e \0 \xHH \x{H..}
// \uHHHH \u{H..} \UHHHHHHHH \U{..}, escaped punctuation), `.` (anything but
// newline unless (?s)), classes with ranges, negation, nesting, POSIX
// [:name:] items and the && -- ~~ operators, \d \w \s (ASCII, as the CLI
// rewrites them) and negations, \p{..}/\P{..} general categories, scripts
// and binary properties from generated Unicode 16.0.0 tables (see
// UnicodeVersion and unicode16_tables.go), groups (capturing,
// named, non-capturing, with flags), the i and s flags, * + ? {n} {n,}
// {n,m} with optional lazy suffix. Anchors, word boundaries, lookaround and
// backreferences are rejected. Classes hold surrogates only inside ranges spanning
// U+D7FF..U+E000, as Rust's char ranges do.
package regex

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/harnlang/harn-check/grammar/generate/lex/charset"
)

// Kind is the type of a Node.
type Kind uint8

// Node kinds.
const (
	Empty  Kind = iota // matches the empty string
	Class              // one character from Set
	Concat             // Subs in sequence
	Alt                // one of Subs
	Repeat             // Subs[0] between Min and Max times (Max < 0: unbounded)
)

// Node is one node of a parsed pattern.
type Node struct {
	Kind     Kind
	Set      charset.Set
	Subs     []*Node
	Min, Max int
}

// Error is a pattern that cannot be used, with the byte offset of the problem.
type Error struct {
	Pattern string
	Offset  int
	Msg     string
}

func (e *Error) Error() string {
	return fmt.Sprintf("regex /%s/ at offset %d: %s", e.Pattern, e.Offset, e.Msg)
}

// Parse parses pattern; caseInsensitive applies the i flag to the whole pattern.
func Parse(pattern string, caseInsensitive bool) (*Node, error) {
	p := &parser{src: pattern, flags: flags{i: caseInsensitive}}
	n, err := p.alternation()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.src) {
		return nil, p.errf("unmatched ')'")
	}
	return n, nil
}

// RewritePerlClasses applies the CLI's textual rewrite of \w \s \d and
// their negations to the ASCII classes, before parsing.
func RewritePerlClasses(s string) string {
	for _, r := range [][2]string{
		{`\w`, `[0-9A-Za-z_]`}, {`\s`, `[\t-\r ]`}, {`\d`, `[0-9]`},
		{`\W`, `[^0-9A-Za-z_]`}, {`\S`, `[^\t-\r ]`}, {`\D`, `[^0-9]`},
	} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	return s
}

type flags struct{ i, s bool }

type parser struct {
	src   string
	pos   int
	flags flags
	depth int
}

func (p *parser) errf(format string, args ...any) error {
	return &Error{Pattern: p.src, Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() rune {
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return r
}

func (p *parser) next() rune {
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += n
	return r
}

func (p *parser) lookingAt(s string) bool { return strings.HasPrefix(p.src[p.pos:], s) }

func (p *parser) alternation() (*Node, error) {
	var alts []*Node
	for {
		c, err := p.concat()
		if err != nil {
			return nil, err
		}
		alts = append(alts, c)
		if p.eof() || p.peek() != '|' {
			break
		}
		p.next()
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &Node{Kind: Alt, Subs: alts}, nil
}

func (p *parser) concat() (*Node, error) {
	var items []*Node
	for !p.eof() {
		c := p.peek()
		if c == '|' || c == ')' {
			break
		}
		atom, err := p.atom()
		if err != nil {
			return nil, err
		}
		if atom == nil { // a flag directive such as (?i)
			continue
		}
		atom, err = p.repetitions(atom)
		if err != nil {
			return nil, err
		}
		items = append(items, atom)
	}
	switch len(items) {
	case 0:
		return &Node{Kind: Empty}, nil
	case 1:
		return items[0], nil
	}
	return &Node{Kind: Concat, Subs: items}, nil
}

func (p *parser) repetitions(atom *Node) (*Node, error) {
	for !p.eof() {
		start := p.pos
		min, max := 0, 0
		switch p.peek() {
		case '*':
			p.next()
			min, max = 0, -1
		case '+':
			p.next()
			min, max = 1, -1
		case '?':
			p.next()
			min, max = 0, 1
		case '{':
			lo, hi, ok := p.counted()
			if !ok {
				p.pos = start
				return atom, nil
			}
			min, max = lo, hi
		default:
			return atom, nil
		}
		if !p.eof() && p.peek() == '?' { // lazy: same language
			p.next()
		}
		if max >= 0 && min > max {
			p.pos = start
			return nil, p.errf("invalid repetition range {%d,%d}", min, max)
		}
		if min > 1000 || max > 1000 {
			p.pos = start
			return nil, p.errf("repetition count too large")
		}
		atom = &Node{Kind: Repeat, Subs: []*Node{atom}, Min: min, Max: max}
	}
	return atom, nil
}

// counted parses {n}, {n,}, {n,m}; ok is false (nothing consumed) when the
// brace does not start a repetition, in which case it is a literal.
func (p *parser) counted() (int, int, bool) {
	m := p.src[p.pos:]
	end := strings.IndexByte(m, '}')
	if end < 0 {
		return 0, 0, false
	}
	body := strings.ReplaceAll(m[1:end], " ", "")
	lo, hi, comma := body, "", false
	if i := strings.IndexByte(body, ','); i >= 0 {
		lo, hi, comma = body[:i], body[i+1:], true
	}
	n, err := strconv.Atoi(lo)
	if err != nil || n < 0 {
		return 0, 0, false
	}
	mx := n
	if comma {
		if hi == "" {
			mx = -1
		} else if mx, err = strconv.Atoi(hi); err != nil || mx < 0 {
			return 0, 0, false
		}
	}
	p.pos += end + 1
	return n, mx, true
}

// negate complements s within the scalar values, folding first under the
// i flag as Rust does (so (?i)[^x] excludes X).
func (p *parser) negate(s charset.Set) charset.Set {
	if p.flags.i {
		s = caseFold(s)
	}
	return scalars.Difference(s)
}

func (p *parser) class(s charset.Set) *Node {
	if p.flags.i {
		s = caseFold(s)
	}
	return &Node{Kind: Class, Set: charRanges(s)}
}

// surrogates is the block of UTF-16 surrogate code points.
var surrogates = charset.Between(0xD800, 0xDFFF)

// charRanges gives a class the representation Rust's char ranges have:
// surrogates are not characters, so ranges run across the surrogate block
// whenever both its neighbours U+D7FF and U+E000 are in the class (as in
// any negated class) and never start or end inside it.
func charRanges(s charset.Set) charset.Set {
	s = s.Difference(surrogates)
	if s.Contains(0xD7FF) && s.Contains(0xE000) {
		s = s.Union(surrogates)
	}
	return s
}

func (p *parser) atom() (*Node, error) {
	start := p.pos
	c := p.next()
	switch c {
	case '(':
		return p.group(start)
	case '[':
		s, err := p.bracket()
		if err != nil {
			return nil, err
		}
		return p.class(s), nil
	case '.':
		if p.flags.s {
			return &Node{Kind: Class, Set: charRanges(scalars)}, nil
		}
		return &Node{Kind: Class, Set: charRanges(scalars.Difference(charset.Char('\n')))}, nil
	case '^', '$':
		p.pos = start
		return nil, p.errf("anchor %q is not supported in tokens", c)
	case '*', '+', '?':
		p.pos = start
		return nil, p.errf("repetition operator %q has nothing to repeat", c)
	case '\\':
		s, err := p.escape(false)
		if err != nil {
			return nil, err
		}
		return p.class(s), nil
	}
	return p.class(charset.Char(c)), nil
}

func (p *parser) group(start int) (*Node, error) {
	saved := p.flags
	if p.lookingAt("?") {
		p.next()
		switch {
		case p.lookingAt("=") || p.lookingAt("!") || p.lookingAt("<=") || p.lookingAt("<!"):
			p.pos = start
			return nil, p.errf("lookaround is not supported")
		case p.lookingAt("P<") || p.lookingAt("<"):
			if p.lookingAt("P") {
				p.next()
			}
			end := strings.IndexByte(p.src[p.pos:], '>')
			if end < 0 {
				return nil, p.errf("unterminated group name")
			}
			p.pos += end + 1
		default:
			// flags: (?flags) or (?flags:...)
			neg := false
			for {
				if p.eof() {
					return nil, p.errf("unterminated flag group")
				}
				f := p.next()
				switch f {
				case '-':
					neg = true
				case 'i':
					p.flags.i = !neg
				case 's':
					p.flags.s = !neg
				case 'm', 'u', 'U', 'x', 'R':
					if f == 'x' && !neg {
						p.pos--
						return nil, p.errf("the x (verbose) flag is not supported")
					}
				case ')':
					// (?flags) applies to the rest of the enclosing group.
					return nil, nil
				case ':':
					goto body
				default:
					p.pos--
					return nil, p.errf("unknown flag %q", f)
				}
			}
		}
	}
body:
	p.depth++
	if p.depth > 250 {
		return nil, p.errf("groups nested too deeply")
	}
	n, err := p.alternation()
	p.depth--
	if err != nil {
		return nil, err
	}
	if p.eof() || p.peek() != ')' {
		p.pos = start
		return nil, p.errf("unclosed group")
	}
	p.next()
	p.flags = saved
	return n, nil
}

func hexValue(s string) (rune, bool) {
	if s == "" || len(s) > 8 {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) {
		return 0, false
	}
	return rune(v), true
}

// escape parses what follows a backslash; inClass allows [\b] style items.
func (p *parser) escape(inClass bool) (charset.Set, error) {
	start := p.pos - 1
	if p.eof() {
		return charset.Set{}, p.errf("pattern ends with a backslash")
	}
	c := p.next()
	hex := func(fixed int) (charset.Set, error) {
		if p.lookingAt("{") {
			end := strings.IndexByte(p.src[p.pos:], '}')
			if end < 0 {
				return charset.Set{}, p.errf("unterminated \\%c{...} escape", c)
			}
			v, ok := hexValue(p.src[p.pos+1 : p.pos+end])
			if !ok {
				return charset.Set{}, p.errf("invalid code point in \\%c{...}", c)
			}
			p.pos += end + 1
			return charset.Char(v), nil
		}
		if p.pos+fixed > len(p.src) {
			return charset.Set{}, p.errf("short \\%c escape", c)
		}
		v, ok := hexValue(p.src[p.pos : p.pos+fixed])
		if !ok || strings.ContainsAny(p.src[p.pos:p.pos+fixed], "+- ") {
			return charset.Set{}, p.errf("invalid \\%c escape", c)
		}
		p.pos += fixed
		return charset.Char(v), nil
	}
	switch c {
	case 'n':
		return charset.Char('\n'), nil
	case 't':
		return charset.Char('\t'), nil
	case 'r':
		return charset.Char('\r'), nil
	case 'f':
		return charset.Char('\f'), nil
	case 'v':
		return charset.Char('\v'), nil
	case 'a':
		return charset.Char(7), nil
	case 'e':
		return charset.Char(0x1B), nil
	case '0':
		return charset.Char(0), nil
	case 'x':
		return hex(2)
	case 'u':
		return hex(4)
	case 'U':
		return hex(8)
	case 'd':
		return charset.Between('0', '9'), nil
	case 'D':
		return p.negate(charset.Between('0', '9')), nil
	case 'w':
		return asciiWord, nil
	case 'W':
		return p.negate(asciiWord), nil
	case 's':
		return asciiSpace, nil
	case 'S':
		return p.negate(asciiSpace), nil
	case 'p', 'P':
		var body string
		if p.lookingAt("{") {
			end := strings.IndexByte(p.src[p.pos:], '}')
			if end < 0 {
				return charset.Set{}, p.errf("unterminated \\%c{...}", c)
			}
			body = p.src[p.pos+1 : p.pos+end]
			p.pos += end + 1
		} else if !p.eof() {
			body = string(p.next())
		}
		set, ok := property(body)
		if !ok {
			p.pos = start
			return charset.Set{}, &UnknownPropertyError{Pattern: p.src, Offset: start, Name: body}
		}
		set = set.Intersect(scalars)
		if c == 'P' {
			set = p.negate(set)
		}
		return set, nil
	case 'b':
		if inClass {
			return charset.Char(8), nil
		}
		fallthrough
	case 'B', 'A', 'z', 'Z', 'G', '<', '>':
		p.pos = start
		return charset.Set{}, p.errf("assertion \\%c is not supported in tokens", c)
	case 'k', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		p.pos = start
		return charset.Set{}, p.errf("backreferences are not supported")
	}
	if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
		p.pos = start
		return charset.Set{}, p.errf("unrecognized escape \\%c", c)
	}
	return charset.Char(c), nil
}

// UnknownPropertyError reports a \p{...} name that has no table here.
type UnknownPropertyError struct {
	Pattern string
	Offset  int
	Name    string
}

func (e *UnknownPropertyError) Error() string {
	return fmt.Sprintf("regex /%s/ at offset %d: Unicode property %q is not available", e.Pattern, e.Offset, e.Name)
}

var (
	asciiWord  = charset.Between('0', '9').Union(charset.Between('A', 'Z')).Union(charset.Between('a', 'z')).Union(charset.Char('_'))
	asciiSpace = charset.Between('\t', '\r').Union(charset.Char(' '))
)

var posixClasses = map[string]charset.Set{
	"alnum":  charset.FromRanges(charset.Range{Start: '0', End: '9' + 1}, charset.Range{Start: 'A', End: 'Z' + 1}, charset.Range{Start: 'a', End: 'z' + 1}),
	"alpha":  charset.FromRanges(charset.Range{Start: 'A', End: 'Z' + 1}, charset.Range{Start: 'a', End: 'z' + 1}),
	"ascii":  charset.Between(0, 0x7F),
	"blank":  charset.FromRanges(charset.Range{Start: '\t', End: '\t' + 1}, charset.Range{Start: ' ', End: ' ' + 1}),
	"cntrl":  charset.FromRanges(charset.Range{Start: 0, End: 0x20}, charset.Range{Start: 0x7F, End: 0x80}),
	"digit":  charset.Between('0', '9'),
	"graph":  charset.Between('!', '~'),
	"lower":  charset.Between('a', 'z'),
	"print":  charset.Between(' ', '~'),
	"punct":  charset.FromRanges(charset.Range{Start: '!', End: '/' + 1}, charset.Range{Start: ':', End: '@' + 1}, charset.Range{Start: '[', End: '`' + 1}, charset.Range{Start: '{', End: '~' + 1}),
	"space":  charset.FromRanges(charset.Range{Start: '\t', End: '\r' + 1}, charset.Range{Start: ' ', End: ' ' + 1}),
	"upper":  charset.Between('A', 'Z'),
	"word":   asciiWord,
	"xdigit": charset.FromRanges(charset.Range{Start: '0', End: '9' + 1}, charset.Range{Start: 'A', End: 'F' + 1}, charset.Range{Start: 'a', End: 'f' + 1}),
}

// bracket parses a class after its '['. Rust semantics: a leading ']' (after
// an optional '^') is literal, '-' at either end is literal, nested
// brackets union, and && -- ~~ combine (lowest precedence, left to right).
func (p *parser) bracket() (charset.Set, error) {
	open := p.pos - 1
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 250 {
		return charset.Set{}, p.errf("classes nested too deeply")
	}
	negated := false
	if p.lookingAt("^") {
		p.next()
		negated = true
	}
	acc, err := p.classUnion(true)
	if err != nil {
		return charset.Set{}, err
	}
	for {
		var op string
		switch {
		case p.lookingAt("&&"):
			op = "&&"
		case p.lookingAt("--"):
			op = "--"
		case p.lookingAt("~~"):
			op = "~~"
		}
		if op == "" {
			break
		}
		p.pos += 2
		rhs, err := p.classUnion(false)
		if err != nil {
			return charset.Set{}, err
		}
		switch op {
		case "&&":
			acc = acc.Intersect(rhs)
		case "--":
			acc = acc.Difference(rhs)
		case "~~":
			acc = acc.SymmetricDifference(rhs)
		}
	}
	if p.eof() || p.peek() != ']' {
		p.pos = open
		return charset.Set{}, p.errf("unclosed character class")
	}
	p.next()
	if negated {
		acc = p.negate(acc)
	}
	return acc, nil
}

func (p *parser) classUnion(first bool) (charset.Set, error) {
	acc := charset.Empty()
	begin := true
	for !p.eof() {
		if p.lookingAt("&&") || p.lookingAt("--") && !begin || p.lookingAt("~~") {
			return acc, nil
		}
		c := p.peek()
		if c == ']' && !(begin && first) {
			return acc, nil
		}
		item, isChar, ch, err := p.classItem()
		if err != nil {
			return charset.Set{}, err
		}
		begin = false
		if isChar && p.lookingAt("-") && !p.lookingAt("-]") && !p.lookingAt("--") && p.pos+1 < len(p.src) {
			save := p.pos
			p.next()
			hiItem, hiIsChar, hi, err := p.classItem()
			if err != nil {
				return charset.Set{}, err
			}
			if !hiIsChar {
				_ = hiItem
				p.pos = save
				return charset.Set{}, p.errf("invalid range end in character class")
			}
			if hi < ch {
				p.pos = save
				return charset.Set{}, p.errf("invalid range %q-%q in character class", ch, hi)
			}
			item = charset.Between(ch, hi)
		}
		acc = acc.Union(item)
	}
	return charset.Set{}, p.errf("unclosed character class")
}

// classItem reads one item; isChar reports a single character usable as a
// range end.
func (p *parser) classItem() (charset.Set, bool, rune, error) {
	if p.lookingAt("[:") {
		end := strings.Index(p.src[p.pos+2:], ":]") + 2
		if end >= 2 {
			name := p.src[p.pos+2 : p.pos+end]
			neg := strings.HasPrefix(name, "^")
			if s, ok := posixClasses[strings.TrimPrefix(name, "^")]; ok {
				p.pos += end + 2
				if neg {
					s = p.negate(s)
				}
				return s, false, 0, nil
			}
		}
	}
	c := p.next()
	switch c {
	case '[':
		s, err := p.bracket()
		return s, false, 0, err
	case '\\':
		s, err := p.escape(true)
		if err != nil {
			return charset.Set{}, false, 0, err
		}
		if s.RangeCount() == 1 && s.Size() == 1 {
			return s, true, s.RawRanges()[0].Start, nil
		}
		return s, false, 0, nil
	}
	return charset.Char(c), true, c, nil
}

// MaxSize bounds Size for patterns the generator accepts.
const MaxSize = 1 << 20

// Size estimates the number of NFA states n expands to, saturating just
// above MaxSize, so counted repetitions cannot blow up memory.
func (n *Node) Size() int {
	switch n.Kind {
	case Class:
		return 1
	case Concat, Alt:
		total := len(n.Subs)
		for _, s := range n.Subs {
			total += s.Size()
			if total > MaxSize {
				return MaxSize + 1
			}
		}
		return total
	case Repeat:
		copies := n.Max
		if copies < 0 {
			copies = n.Min + 1
		}
		if copies < 1 {
			copies = 1
		}
		sub := n.Subs[0].Size()
		if sub > 0 && copies > (MaxSize+1)/sub {
			return MaxSize + 1
		}
		return sub*copies + copies + 1
	}
	return 0
}
