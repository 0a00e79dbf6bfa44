package leia

import (
	"errors"
	"strings"
)

// Lua patterns (string.find, match, gmatch, gsub): character classes
// (%a %c %d %g %l %p %s %u %w %x and their complements), sets [...],
// quantifiers * + - ?, anchors, captures (including position captures
// ()), back-references %1-%9, %b() balanced matches and %f[set]
// frontiers. The matcher is a backtracking one like Lua's; its recursion
// is bounded (maxMatchDepth) and so is the work it may do (matchBudget),
// so a hostile pattern is an error, not a hang or a stack overflow.

const (
	maxCaptures   = 32
	capUnfinished = -1
	capPosition   = -2
	maxMatchDepth = 200
	matchBudget   = 50_000_000
)

var errPatternTooComplex = errors.New("pattern too complex")

type matchState struct {
	src    string
	pat    string
	level  int
	depth  int
	budget int
	capt   [maxCaptures]struct{ init, len int }
}

type patternError struct{ msg string }

func (e *patternError) Error() string { return e.msg }

func (ms *matchState) fail(msg string) { panic(&patternError{msg}) }

func classEnd(ms *matchState, p int) int {
	pat := ms.pat
	if p >= len(pat) {
		ms.fail("malformed pattern (ends with '%')")
	}
	c := pat[p]
	p++
	if c == '%' {
		if p >= len(pat) {
			ms.fail("malformed pattern (ends with '%')")
		}
		return p + 1
	}
	if c == '[' {
		if p < len(pat) && pat[p] == '^' {
			p++
		}
		for {
			if p >= len(pat) {
				ms.fail("malformed pattern (missing ']')")
			}
			cc := pat[p]
			p++
			if cc == '%' {
				if p >= len(pat) {
					ms.fail("malformed pattern (missing ']')")
				}
				p++
			}
			if p < len(pat) && pat[p] == ']' {
				return p + 1
			}
			if p >= len(pat) {
				ms.fail("malformed pattern (missing ']')")
			}
		}
	}
	return p
}

func isalpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isdigit(c byte) bool { return c >= '0' && c <= '9' }
func islower(c byte) bool { return c >= 'a' && c <= 'z' }
func isupper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isspace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
func iscntrl(c byte) bool { return c < 32 || c == 127 }
func ispunct(c byte) bool {
	return c >= 33 && c <= 47 || c >= 58 && c <= 64 || c >= 91 && c <= 96 || c >= 123 && c <= 126
}
func isxdigit(c byte) bool { return isdigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func matchClass(c byte, cl byte) bool {
	var res bool
	switch cl | 0x20 {
	case 'a':
		res = isalpha(c)
	case 'c':
		res = iscntrl(c)
	case 'd':
		res = isdigit(c)
	case 'g':
		res = c > 32 && c < 127
	case 'l':
		res = islower(c)
	case 'p':
		res = ispunct(c)
	case 's':
		res = isspace(c)
	case 'u':
		res = isupper(c)
	case 'w':
		res = isalpha(c) || isdigit(c)
	case 'x':
		res = isxdigit(c)
	default:
		return cl == c
	}
	if isupper(cl) {
		return !res
	}
	return res
}

func matchBracketClass(ms *matchState, c byte, p, ec int) bool {
	pat := ms.pat
	sig := true
	if pat[p+1] == '^' {
		sig = false
		p++
	}
	for p++; p < ec; p++ {
		if pat[p] == '%' {
			p++
			if matchClass(c, pat[p]) {
				return sig
			}
		} else if p+2 < ec && pat[p+1] == '-' {
			if pat[p] <= c && c <= pat[p+2] {
				return sig
			}
			p += 2
		} else if pat[p] == c {
			return sig
		}
	}
	return !sig
}

func singleMatch(ms *matchState, s, p, ep int) bool {
	if s >= len(ms.src) {
		return false
	}
	c := ms.src[s]
	switch ms.pat[p] {
	case '.':
		return true
	case '%':
		return matchClass(c, ms.pat[p+1])
	case '[':
		return matchBracketClass(ms, c, p, ep-1)
	}
	return ms.pat[p] == c
}

func (ms *matchState) match(s, p int) int {
	ms.depth++
	if ms.depth > maxMatchDepth {
		ms.fail("pattern too complex")
	}
	defer func() { ms.depth-- }()
	pat := ms.pat
	for {
		ms.budget--
		if ms.budget < 0 {
			ms.fail("pattern too complex")
		}
		if p >= len(pat) {
			return s
		}
		switch pat[p] {
		case '(':
			if p+1 < len(pat) && pat[p+1] == ')' {
				return ms.startCapture(s, p+2, capPosition)
			}
			return ms.startCapture(s, p+1, capUnfinished)
		case ')':
			return ms.endCapture(s, p+1)
		case '$':
			if p+1 == len(pat) {
				if s == len(ms.src) {
					return s
				}
				return -1
			}
		case '%':
			if p+1 < len(pat) {
				switch pat[p+1] {
				case 'b':
					s = ms.matchBalance(s, p+2)
					if s != -1 {
						p += 4
						continue
					}
					return -1
				case 'f':
					p += 2
					if p >= len(pat) || pat[p] != '[' {
						ms.fail("missing '[' after '%f' in pattern")
					}
					ep := classEnd(ms, p)
					var prev byte
					if s > 0 {
						prev = ms.src[s-1]
					}
					var cur byte
					if s < len(ms.src) {
						cur = ms.src[s]
					}
					if !matchBracketClass(ms, prev, p, ep-1) && matchBracketClass(ms, cur, p, ep-1) {
						p = ep
						continue
					}
					return -1
				case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
					s = ms.matchCapture(s, pat[p+1])
					if s == -1 {
						return -1
					}
					p += 2
					continue
				}
			}
		}
		ep := classEnd(ms, p)
		epc := byte(0)
		if ep < len(pat) {
			epc = pat[ep]
		}
		if !singleMatch(ms, s, p, ep) {
			if epc == '*' || epc == '?' || epc == '-' {
				p = ep + 1
				continue
			}
			return -1
		}
		switch epc {
		case '?':
			if r := ms.match(s+1, ep+1); r != -1 {
				return r
			}
			p = ep + 1
			continue
		case '+':
			return ms.maxExpand(s+1, p, ep)
		case '*':
			return ms.maxExpand(s, p, ep)
		case '-':
			return ms.minExpand(s, p, ep)
		}
		s++
		p = ep
	}
}

func (ms *matchState) maxExpand(s, p, ep int) int {
	i := 0
	for singleMatch(ms, s+i, p, ep) {
		i++
	}
	for i >= 0 {
		if r := ms.match(s+i, ep+1); r != -1 {
			return r
		}
		i--
		ms.budget--
		if ms.budget < 0 {
			ms.fail("pattern too complex")
		}
	}
	return -1
}

func (ms *matchState) minExpand(s, p, ep int) int {
	for {
		if r := ms.match(s, ep+1); r != -1 {
			return r
		}
		if singleMatch(ms, s, p, ep) {
			s++
		} else {
			return -1
		}
	}
}

func (ms *matchState) startCapture(s, p, what int) int {
	if ms.level >= maxCaptures {
		ms.fail("too many captures")
	}
	ms.capt[ms.level].init = s
	ms.capt[ms.level].len = what
	ms.level++
	r := ms.match(s, p)
	if r == -1 {
		ms.level--
	}
	return r
}

func (ms *matchState) endCapture(s, p int) int {
	l := -1
	for i := ms.level - 1; i >= 0; i-- {
		if ms.capt[i].len == capUnfinished {
			l = i
			break
		}
	}
	if l < 0 {
		ms.fail("invalid pattern capture")
	}
	ms.capt[l].len = s - ms.capt[l].init
	r := ms.match(s, p)
	if r == -1 {
		ms.capt[l].len = capUnfinished
	}
	return r
}

func (ms *matchState) matchBalance(s, p int) int {
	if p+1 >= len(ms.pat) {
		ms.fail("malformed pattern (missing arguments to '%b')")
	}
	if s >= len(ms.src) || ms.src[s] != ms.pat[p] {
		return -1
	}
	b, e := ms.pat[p], ms.pat[p+1]
	cont := 1
	for i := s + 1; i < len(ms.src); i++ {
		c := ms.src[i]
		if c == e {
			cont--
			if cont == 0 {
				return i + 1
			}
		} else if c == b {
			cont++
		}
	}
	return -1
}

func (ms *matchState) matchCapture(s int, l byte) int {
	idx := int(l - '1')
	if idx < 0 || idx >= ms.level || ms.capt[idx].len == capUnfinished {
		ms.fail("invalid capture index")
	}
	c := ms.src[ms.capt[idx].init : ms.capt[idx].init+ms.capt[idx].len]
	if len(ms.src)-s >= len(c) && ms.src[s:s+len(c)] == c {
		return s + len(c)
	}
	return -1
}

// getCapture returns capture i (or the whole match when there are none).
func (ms *matchState) getCapture(i, s, e int) Value {
	if i >= ms.level {
		if i == 0 {
			return String(ms.src[s:e])
		}
		ms.fail("invalid capture index")
	}
	c := ms.capt[i]
	if c.len == capPosition {
		return Int(int64(c.init + 1))
	}
	if c.len == capUnfinished {
		ms.fail("unfinished capture")
	}
	return String(ms.src[c.init : c.init+c.len])
}

// captures returns all captures of a match (the whole match if none).
func (ms *matchState) captures(s, e int, wholeIfNone bool) []Value {
	n := ms.level
	if n == 0 && wholeIfNone {
		return []Value{String(ms.src[s:e])}
	}
	out := make([]Value, n)
	for i := 0; i < n; i++ {
		out[i] = ms.getCapture(i, s, e)
	}
	return out
}

// tryMatch matches the pattern from pattern offset p at source offset
// src; e is the end of the match or -1. Pattern errors come back as err.
func (ms *matchState) tryMatch(src, p int) (e int, err error) {
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(*patternError)
			if !ok {
				panic(r)
			}
			e, err = -1, pe
		}
	}()
	ms.level = 0
	ms.depth = 0
	return ms.match(src, p), nil
}

// safeCaptures is captures with pattern errors returned.
func (ms *matchState) safeCaptures(s, e int, wholeIfNone bool) (vals []Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(*patternError)
			if !ok {
				panic(r)
			}
			err = pe
		}
	}()
	return ms.captures(s, e, wholeIfNone), nil
}

func newMatcher(src, pat string) *matchState {
	return &matchState{src: src, pat: pat, budget: matchBudget}
}

// patternFind finds the first match at or after init (only at init for a
// ^-anchored pattern).
func patternFind(src, pat string, init int, anchorAllowed bool) (start, end int, ms *matchState, err error) {
	ms = newMatcher(src, pat)
	p := 0
	anchor := anchorAllowed && len(pat) > 0 && pat[0] == '^'
	if anchor {
		p = 1
	}
	for s := init; s <= len(src); s++ {
		e, err := ms.tryMatch(s, p)
		if err != nil {
			return -1, -1, ms, err
		}
		if e != -1 {
			return s, e, ms, nil
		}
		if anchor {
			break
		}
	}
	return -1, -1, ms, nil
}

// hasSpecials reports whether a pattern needs the matcher (plain find
// otherwise).
func hasSpecials(p string) bool { return strings.ContainsAny(p, "^$*+?.([%-") }
