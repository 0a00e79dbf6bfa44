package syntaxdiag

import "unicode/utf8"

// lexProblem is a syntax problem the lexical scan finds by itself.
type lexProblem struct {
	code    string
	start   int
	end     int
	message string
	help    string
	// upstream, when set, is upstream Harn's wording of the problem,
	// which the diagnostic leads with, followed by " at LINE:COL" (as
	// upstream prints it) and message.
	upstream string
	// open, for bracket problems, is the bracket left open; found is the
	// mismatched closer met instead (0 at the end of the file), or a
	// closer met with nothing for it open (open nil).
	open  *opener
	found byte
	// orphan marks a closer met with nothing open; since is where the
	// top-level item holding it starts (its opener was lost somewhere
	// after that).
	orphan bool
	since  int
}

// opener is an open bracket (or an interpolation's `${`) awaiting its
// closer.
type opener struct {
	char   byte // '(', '[', '{'
	pos    int
	width  int  // 2 for `${`
	interp bool // `${`: its `}` returns to the string that contains it
	// single marks the interpolation of a single-line "..." string.
	single bool
}

// scanner walks the source once, tracking strings, comments and brackets
// the way the Harn lexer does, so that problems the parser only notices
// later (an unclosed brace, an unterminated string) are reported where they
// start.
type scanner struct {
	src      []byte
	pos      int
	stack    []opener
	problems []lexProblem
	// runsToEOF is set when a comment or multi-line string swallows the rest
	// of the file.
	runsToEOF bool
	// abort unwinds the scan of an interpolation whose `}` never came: a
	// string inside it ran to the end of its line.
	abort bool
	// simulations counts look-ahead scans (bounded by maxSimulations).
	simulations int
	// item is where the current top-level item starts: the last line
	// that starts at column 0, with nothing open, with something other
	// than a closer.
	item int
}

// scan returns the lexical problems of src, and whether one of them runs
// to the end of the file.
func scan(src []byte) ([]lexProblem, bool) {
	s := &scanner{src: src}
	if len(src) >= 2 && src[0] == '#' && src[1] == '!' {
		for s.pos < len(src) && !isNL(src[s.pos]) {
			s.pos++
		}
	}
	s.code()
	for i := len(s.stack) - 1; i >= 0; i-- {
		o := s.stack[i]
		if o.interp {
			continue // reported as an unterminated string
		}
		s.problems = append(s.problems, lexProblem{
			code:  "HARN-PAR-002",
			start: len(src),
			end:   len(src),
			open:  &o,
		})
	}
	return s.problems, s.runsToEOF
}

func closing(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

func (s *scanner) peek(off int) byte {
	if s.pos+off < len(s.src) {
		return s.src[s.pos+off]
	}
	return 0
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// code scans program text until the end of the file, or until the `}` that
// closes the interpolation on top of the stack.
func (s *scanner) code() {
	for s.pos < len(s.src) && !s.abort {
		c := s.src[s.pos]
		if len(s.stack) == 0 && (s.pos == 0 || isNL(s.src[s.pos-1])) && c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != ')' && c != ']' && c != '}' {
			s.item = s.pos
		}
		switch {
		case c == ' ' || c == '\t' || isNL(c) || c == '\f':
			s.pos++
		case c == '/' && s.peek(1) == '/':
			for s.pos < len(s.src) && !isNL(s.src[s.pos]) {
				s.pos++
			}
		case c == '/' && s.peek(1) == '*':
			s.blockComment()
		case c == '"':
			if s.peek(1) == '"' && s.peek(2) == '"' {
				s.multiline()
			} else {
				s.str()
			}
		case c == 'r' && (s.peek(1) == '"' || s.peek(1) == '#') && (s.pos == 0 || !isIdentChar(s.src[s.pos-1])):
			if !s.raw() {
				s.pos++
			}
		case isIdentChar(c):
			for s.pos < len(s.src) && isIdentChar(s.src[s.pos]) {
				s.pos++
			}
		case c == '(' || c == '[' || c == '{':
			s.stack = append(s.stack, opener{char: c, pos: s.pos, width: 1})
			s.pos++
		case c == ')' || c == ']' || c == '}':
			if s.close(c) {
				return
			}
		case c == '\\' && isNL(s.peek(1)):
			s.pos += 2
			if s.peek(-1) == '\r' && s.peek(0) == '\n' {
				s.pos++
			}
		case c < utf8.RuneSelf && isOperatorChar(c):
			s.pos++
		default:
			r, size := utf8.DecodeRune(s.src[s.pos:])
			up := "Unexpected character '" + string(r) + "'"
			if r == utf8.RuneError && size <= 1 {
				up = "Unexpected character (a byte that is not UTF-8)"
				size = 1
			}
			s.problems = append(s.problems, lexProblem{
				code:     "HARN-PAR-003",
				start:    s.pos,
				end:      s.pos + size,
				upstream: up,
				help:     "outside strings and comments, Harn uses ASCII letters, digits, `_`, operators and brackets only",
			})
			s.pos += size
		}
	}
}

func isOperatorChar(c byte) bool {
	switch c {
	case '=', '!', '.', '+', '-', '*', '/', '<', '>', '%', '?', '|', '&', ':', ',', ';', '@':
		return true
	}
	return false
}

// close handles a closing bracket. It returns true when the bracket closes
// the interpolation the current code() call scans.
func (s *scanner) close(c byte) bool {
	if len(s.stack) == 0 {
		s.problems = append(s.problems, lexProblem{
			code:    "HARN-PAR-001",
			start:   s.pos,
			end:     s.pos + 1,
			message: "nothing is open here",
			found:   c,
			orphan:  true,
			since:   s.item,
		})
		s.pos++
		return false
	}
	if top := s.stack[len(s.stack)-1]; closing(top.char) == c {
		s.stack = s.stack[:len(s.stack)-1]
		s.pos++
		return top.interp
	}
	// A copy of its own for the problems to point at: taking the
	// address of the stack's top made every closing bracket allocate.
	top := s.stack[len(s.stack)-1]
	// A mismatched closer: report the innermost opener it leaves open. If
	// something further out (up to the enclosing interpolation) matches,
	// assume the inner ones were never closed and close up to it; otherwise
	// skip the stray closer.
	match := -1
	for i := len(s.stack) - 1; i >= 0; i-- {
		if closing(s.stack[i].char) == c {
			match = i
			break
		}
		if s.stack[i].interp {
			break
		}
	}
	if s.strayFits(match) {
		// Taking the closer as one too many (an opener deleted, or typed
		// twice) leaves the rest of the file more consistent than letting
		// it close anything: report it and leave the stack alone.
		p := lexProblem{code: "HARN-PAR-001", start: s.pos, end: s.pos + 1, open: &top, found: c}
		if match < 0 {
			p.open = nil
			p.message = "no `" + string(openingOf(c)) + "` is open here"
		}
		s.problems = append(s.problems, p)
		s.pos++
		return false
	}
	s.problems = append(s.problems, lexProblem{
		code:  "HARN-PAR-001",
		start: s.pos,
		end:   s.pos + 1,
		open:  &top,
		found: c,
	})
	s.pos++
	if match < 0 {
		// Most often the wrong closer was typed: let it close the top.
		match = len(s.stack) - 1
	}
	interp := s.stack[match].interp
	s.stack = s.stack[:match]
	return interp
}

func openingOf(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// maxSimulations bounds the look-ahead work of strayFits and
// unterminatedIsStray on inputs with very many bracket mistakes.
const maxSimulations = 64

// misfitWindow bounds how far one look-ahead scan reads.
const misfitWindow = 256 << 10

// strayFits reports whether the rest of the file balances better if the
// mismatched closer at s.pos is skipped than if it closes the top of the
// stack (or, when match >= 0, everything down to the opener it matches).
// Inside an interpolation the current behaviour stays.
func (s *scanner) strayFits(match int) bool {
	for _, o := range s.stack {
		if o.interp {
			return false
		}
	}
	if s.simulations >= maxSimulations {
		return false
	}
	s.simulations++
	closeTo := len(s.stack) - 1
	if match >= 0 {
		closeTo = match
	}
	return s.misfits(s.pos+1, s.stack) < s.misfits(s.pos+1, s.stack[:closeTo])
}

// quoteWasStray reports whether the rest of the file balances better if the
// line after an unterminated string's quote (at start; the scan is at the
// end of the line) is read as code rather than as the string's text, with
// the brackets opened earlier on the line kept open. Inside an
// interpolation the current behaviour stays.
func (s *scanner) quoteWasStray(start int) bool {
	for _, o := range s.stack {
		if o.interp {
			return false
		}
	}
	if s.simulations >= maxSimulations {
		return false
	}
	s.simulations++
	lineStart := start
	for lineStart > 0 && !isNL(s.src[lineStart-1]) {
		lineStart--
	}
	kept := len(s.stack)
	for kept > 0 && s.stack[kept-1].pos >= lineStart {
		kept--
	}
	return s.misfits(start+1, s.stack) < s.misfits(s.pos, s.stack[:kept])
}

// misfits counts the bracket problems of src[pos:] when scanned with the
// given open brackets: closers that match nothing on top, and brackets
// still open at the end. Strings and comments are skipped roughly (an
// interpolation is skipped with its string).
func (s *scanner) misfits(pos int, open []opener) int {
	stack := make([]byte, 0, len(open)+16)
	for _, o := range open {
		stack = append(stack, o.char)
	}
	n := 0
	// The look-ahead reads at most misfitWindow bytes: in a file of
	// several megabytes, maxSimulations scans to the end would cost
	// more than the rest of the check.
	end := min(len(s.src), pos+misfitWindow)
	for pos < end {
		c := s.src[pos]
		switch {
		case c == '/' && pos+1 < len(s.src) && s.src[pos+1] == '/':
			for pos < len(s.src) && !isNL(s.src[pos]) {
				pos++
			}
		case c == '/' && pos+1 < len(s.src) && s.src[pos+1] == '*':
			pos += 2
			for pos+1 < len(s.src) && (s.src[pos] != '*' || s.src[pos+1] != '/') {
				pos++
			}
			pos += 2
		case c == '"':
			pos++
			for pos < len(s.src) && s.src[pos] != '"' && !isNL(s.src[pos]) {
				if s.src[pos] == '\\' {
					pos++
				}
				pos++
			}
			pos++
		case c == '(' || c == '[' || c == '{':
			stack = append(stack, c)
			pos++
		case c == ')' || c == ']' || c == '}':
			switch {
			case len(stack) > 0 && closing(stack[len(stack)-1]) == c:
				stack = stack[:len(stack)-1]
			default:
				n++
				for i := len(stack) - 1; i >= 0; i-- {
					if closing(stack[i]) == c {
						stack = stack[:i]
						break
					}
				}
			}
			pos++
		default:
			pos++
		}
	}
	return n + len(stack)
}

func (s *scanner) blockComment() {
	start := s.pos
	s.pos += 2
	depth := 1
	for s.pos < len(s.src) {
		switch {
		case s.src[s.pos] == '/' && s.peek(1) == '*':
			depth++
			s.pos += 2
		case s.src[s.pos] == '*' && s.peek(1) == '/':
			depth--
			s.pos += 2
			if depth == 0 {
				return
			}
		default:
			s.pos++
		}
	}
	s.runsToEOF = true
	s.problems = append(s.problems, lexProblem{
		code:     "HARN-PAR-005",
		start:    start,
		end:      start + 2,
		upstream: "Unterminated block comment",
		help:     "block comments nest: every `/*` inside needs its own `*/`",
	})
}

// str scans a "..." string; the scanner is at its opening quote.
func (s *scanner) str() {
	start := s.pos
	s.pos++
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '"':
			s.pos++
			return
		case c == '\\' && s.pos+1 < len(s.src) && !isNL(s.src[s.pos+1]):
			s.pos += 2
		case isNL(c):
			if s.unclosedInterpolation(start) {
				return
			}
			s.unterminated(start, s.pos, "not closed on its line")
			if s.quoteWasStray(start) {
				// The opening quote was lost and this one closed nothing:
				// what follows it on the line is code.
				s.pos = start + 1
				return
			}
			s.dropOpenedOnLine(start)
			return
		case c == '$' && s.peek(1) == '{':
			if !s.interpolation(true) {
				return
			}
		default:
			s.pos++
		}
	}
	s.unterminated(start, s.pos, "")
}

// unclosedInterpolation handles a "..." string that starts inside the
// interpolation of another single-line string on the same line and runs to
// the end of the line: `"a ${x")`. Its quote was meant to close the outer
// string, so the mistake is the interpolation's missing `}`. That is
// reported once, and the scan unwinds to the code around the outer string.
func (s *scanner) unclosedInterpolation(start int) bool {
	lineStart := start
	for lineStart > 0 && !isNL(s.src[lineStart-1]) {
		lineStart--
	}
	for i := len(s.stack) - 1; i >= 0; i-- {
		o := s.stack[i]
		if o.pos < lineStart {
			return false
		}
		if !o.interp {
			continue
		}
		if !o.single {
			return false
		}
		s.problems = append(s.problems, lexProblem{
			code:  "HARN-PAR-001",
			start: start,
			end:   start + 1,
			open:  &o,
			found: '"',
		})
		s.stack = s.stack[:i+1]
		s.abort = true
		return true
	}
	return false
}

// multiline scans a """...""" string; a backslash is literal there.
func (s *scanner) multiline() {
	start := s.pos
	s.pos += 3
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '"' && s.peek(1) == '"' && s.peek(2) == '"':
			s.pos += 3
			return
		case c == '$' && s.peek(1) == '{':
			if !s.interpolation(false) {
				return
			}
		default:
			s.pos++
		}
	}
	s.runsToEOF = true
	s.unterminated(start, start+3, "the multi-line string is not closed")
}

// interpolation scans `${ ... }` inside a string (single: a one-line
// "..." string); it returns false when the file ends inside it or its `}`
// never came (the string around it is then over, already reported).
func (s *scanner) interpolation(single bool) bool {
	s.stack = append(s.stack, opener{char: '{', pos: s.pos, width: 2, interp: true, single: single})
	depth := len(s.stack)
	s.pos += 2
	s.code()
	if s.abort {
		// As for any string cut at the end of its line, brackets opened
		// earlier on the line were most likely closed inside it.
		s.abort = false
		s.stack = s.stack[:depth-1]
		s.dropOpenedOnLine(s.pos)
		return false
	}
	if len(s.stack) >= depth {
		// The file ended inside the interpolation.
		s.stack = s.stack[:depth-1]
		return false
	}
	return true
}

// raw scans r"..." or r#"..."#; it returns false if this is not a raw
// string after all (an identifier `r` followed by `#`).
func (s *scanner) raw() bool {
	start := s.pos
	p := s.pos + 1
	hashes := 0
	for p < len(s.src) && s.src[p] == '#' {
		hashes++
		p++
	}
	if p >= len(s.src) || s.src[p] != '"' {
		return false
	}
	p++
	for p < len(s.src) && !isNL(s.src[p]) {
		if s.src[p] == '"' {
			q := p + 1
			n := 0
			for q < len(s.src) && n < hashes && s.src[q] == '#' {
				n++
				q++
			}
			if n == hashes {
				s.pos = q
				return true
			}
		}
		p++
	}
	s.pos = p
	s.unterminated(start, p, "the raw string is not closed on its line")
	s.dropOpenedOnLine(start)
	return true
}

// dropOpenedOnLine forgets the brackets opened on the line of an
// unterminated string that starts at pos: their closers were most likely
// swallowed by the string, and one mistake should give one diagnostic.
func (s *scanner) dropOpenedOnLine(pos int) {
	lineStart := pos
	for lineStart > 0 && !isNL(s.src[lineStart-1]) {
		lineStart--
	}
	for len(s.stack) > 0 {
		top := s.stack[len(s.stack)-1]
		if top.interp || top.pos < lineStart {
			return
		}
		s.stack = s.stack[:len(s.stack)-1]
	}
}

func (s *scanner) unterminated(start, end int, message string) {
	s.problems = append(s.problems, lexProblem{
		code:     "HARN-PAR-004",
		start:    start,
		end:      end,
		upstream: "Unterminated string",
		message:  message,
		help:     "close the string with the quote it was opened with; use `\"\"\"` for text that spans lines",
	})
}

// isNL reports whether c ends a line: LF or CR (a lone CR is a line break,
// as for the parser's scanner, editors and the language server).
func isNL(c byte) bool { return c == '\n' || c == '\r' }

// Clean reports whether the lexical scan finds no problem in src[start:end],
// a top-level item of src (it starts in code, with nothing open, and ends
// with its last token): what Diagnose would report inside it is then only
// what the tree's ERROR and MISSING nodes say. An editor's focused check
// scans the one item an edit changed instead of the whole file.
func Clean(src []byte, start, end int) bool {
	if start < 0 || end > len(src) || start > end {
		return false
	}
	s := &scanner{src: src[:end], pos: start, item: start}
	if start == 0 && len(src) >= 2 && src[0] == '#' && src[1] == '!' {
		for s.pos < end && !isNL(src[s.pos]) {
			s.pos++
		}
	}
	s.code()
	return len(s.problems) == 0 && len(s.stack) == 0 && !s.runsToEOF && !s.abort
}
