package leia

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/harnlang/harn-check/format/doc"
)

// layout lays the tokens out: the source's line breaks (blank-line runs
// collapsed to one), the bracket indentation of indentLevel at each line
// start, and the spacing of spacing between tokens on a line.
func layout(src []byte, toks []token) *doc.Doc {
	b := new(doc.Builder)
	parts := make([]*doc.Doc, 0, 2*len(toks)+1)
	// open are the brackets open at this point, each with depth, the
	// number of indenting brackets open once it is: as upstream's leia fmt,
	// every open brace or square bracket is one level, even several opened
	// on one line, and a line starting with the closer goes back one.
	type bracket struct {
		close string
		depth int
		// flat: the lines inside do not go one level in (a call's
		// arguments: upstream's leia fmt does not indent parentheses).
		flat bool
	}
	var open []bracket
	push := func(close string, flat bool) {
		d := 0
		if k := len(open); k > 0 {
			d = open[k-1].depth
		}
		if !flat {
			d++
		}
		open = append(open, bracket{close, d, flat})
	}
	level := 0 // the current line's level
	for i, t := range toks {
		if i > 0 {
			prev := toks[i-1]
			gap := src[prev.n.End:t.n.Start]
			if nl := bytes.Count(gap, []byte{'\n'}); nl > 0 {
				level = 0
				if k := len(open); k > 0 {
					level = open[k-1].depth
					if c := firstCloser(src, toks, i); c != "" && c == open[k-1].close && !open[k-1].flat {
						level--
					}
				}
				if nl > 1 {
					parts = append(parts, doc.HardLine())
				}
				if level > MaxDepth {
					// Past MaxDepth the line keeps its own indentation, so
					// the output stays linear in the input.
					indent := gap[bytes.LastIndexByte(gap, '\n')+1:]
					parts = append(parts, doc.HardLine(), b.Text(string(indent)))
				} else {
					parts = append(parts, b.Nest(level, doc.HardLine()))
				}
			} else if sp := spacing(src, toks, i); sp != "" {
				parts = append(parts, b.Text(sp))
			}
		}
		parts = append(parts, b.Text(tokenText(src, t)))
		if atomic[t.n.Kind] || t.n.Named {
			continue
		}
		text := string(src[t.n.Start:t.n.End])
		switch {
		case strings.HasSuffix(text, "{"):
			push("}", false)
		case text == "(":
			push(")", parentKind(t) == "arguments")
		case text == "[":
			push("]", false)
		case text == "}" || text == ")" || text == "]":
			if k := len(open); k > 0 && open[k-1].close == text {
				open = open[:k-1]
			}
		}
	}
	return b.Concat(parts...)
}

// firstCloser returns the closing bracket that starts the line starting
// with toks[i] (looking past comments on that line), "" for none.
func firstCloser(src []byte, toks []token, i int) string {
	for ; i < len(toks); i++ {
		t := toks[i]
		if t.n.Kind == "comment" || t.n.Kind == "directive" {
			if i+1 < len(toks) && bytes.IndexByte(src[t.n.End:toks[i+1].n.Start], '\n') < 0 {
				continue
			}
			return ""
		}
		if !t.n.Named && (t.n.Kind == "}" || t.n.Kind == ")" || t.n.Kind == "]") {
			return t.n.Kind
		}
		return ""
	}
	return ""
}

// tokenText is a token's text: exact, except that a comment loses the
// trailing whitespace of each of its lines (as upstream trims every line
// outside raw strings).
func tokenText(src []byte, t token) string {
	s := bytesString(src[t.n.Start:t.n.End])
	if t.n.Kind != "comment" && t.n.Kind != "directive" {
		return s
	}
	if !strings.Contains(s, "\n") {
		return strings.TrimRight(s, " \t\r")
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return strings.Join(lines, "\n")
}

// Spacing rules between two tokens on one line.
const (
	keep       = iota // the author's spacing
	none              // no space
	one               // exactly one space
	atLeastOne        // one space, or the author's run of spaces (alignment)
	binary            // around a binary operator: none when the author wrote none on either side, the author's run of spaces (alignment), else one
)

// keywords are followed by one space when something follows on the line.
var keywords = map[string]bool{
	"if": true, "else": true, "elseif": true, "for": true, "range": true, "return": true,
	"go": true, "defer": true, "goto": true, "const": true, "case": true, "import": true,
	"as": true,
}

// Contextual keywords (agent, tool, evaluate, select, quote, flow) are
// recognised by what follows them, so their spacing is the author's.

// assignments are spaced like binary operators but keep alignment.
var assignments = map[string]bool{":=": true, "=": true, "+=": true, "-=": true, "*=": true, "/=": true}

// spacing decides the text between toks[i-1] and toks[i] on one line.
func spacing(src []byte, toks []token, i int) string {
	prev, next := toks[i-1], toks[i]
	gap := src[prev.n.End:next.n.Start]
	switch rule(prev, next) {
	case none:
		if len(gap) > 0 && glues(src[prev.n.End-1], src[next.n.Start]) {
			return " " // `0 .x`, `- -x`: joined they would lex differently
		}
		if isTok(prev, ".") && i >= 2 && isNumber(toks[i-2]) {
			return bytesString(gap) // `0. x`: `0.x` would be one (bad) number
		}
		return ""
	case one:
		return " "
	case atLeastOne:
		if len(gap) == 0 {
			return " "
		}
	case binary:
		// `n-1` stays compact when both sides were; otherwise one space
		// on each side.
		// The other side of the operator decides with this one, unless a
		// comment or a line break is there.
		other := gap
		switch {
		case prev.n.Field == "operator" && i >= 2 && !isCommentTok(toks[i-2]):
			other = src[toks[i-2].n.End:prev.n.Start]
		case next.n.Field == "operator" && i+1 < len(toks) && !isCommentTok(toks[i+1]):
			other = src[next.n.End:toks[i+1].n.Start]
		}
		if bytes.IndexByte(other, '\n') >= 0 {
			other = gap
		}
		if len(gap) == 0 && len(other) == 0 {
			return ""
		}
		if len(gap) > 1 && bytes.IndexAny(gap, "\t\n") < 0 {
			return bytesString(gap) // a run of spaces aligns operands across lines
		}
		return " "
	}
	return bytesString(gap)
}

// bytesString views b as a string without copying: the source is not
// modified while it is formatted, and the printer copies what it writes.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func isTok(t token, text string) bool { return !t.n.Named && t.n.Kind == text }

func parentKind(t token) string {
	if t.parent == nil {
		return ""
	}
	return t.parent.Kind
}

// rule is the spacing rule between prev and next.
func rule(prev, next token) int {
	pk, nk := parentKind(prev), parentKind(next)
	p, n := prev.n, next.n
	switch {
	case n.Kind == "comment" || n.Kind == "directive":
		return atLeastOne
	case p.Kind == "comment" || p.Kind == "directive":
		return keep
	// Tags touch their `!` and templates; never change that.
	case next.n.Field == "bang" || n.Kind == "template" || n.Kind == "fenced_template":
		return keep
	case isTok(next, ",") || isTok(next, ";"):
		return none
	case isTok(next, ")") || isTok(next, "]"):
		return none
	case isTok(prev, "(") || isTok(prev, "["):
		return none
	case isTok(prev, ","):
		return atLeastOne
	case isTok(prev, ".") || isTok(next, "."):
		return none
	case isTok(next, ":"):
		return none // keys, labels, cases and method calls all touch their `:`
	case isTok(prev, ":") && pk == "method_call_expression":
		return none
	case isTok(prev, ":") && (pk == "pair" || pk == "computed_pair"):
		return atLeastOne
	case isTok(next, "++") || isTok(next, "--"):
		return none
	case isTok(next, "...") && nk == "variadic_parameter":
		return none
	case isTok(next, "(") && (nk == "arguments" || nk == "parameters"):
		return none // callee( and func name(
	case isTok(next, "[") && nk == "index_expression":
		return none
	case pk == "unary_expression" && prev.n.Field == "operator":
		return none
	case (pk == "binary_expression" && prev.n.Field == "operator") || (nk == "binary_expression" && next.n.Field == "operator"):
		return binary
	case !p.Named && assignments[p.Kind] || !n.Named && assignments[n.Kind]:
		return atLeastOne
	case (isTok(prev, "<-") && pk == "send_statement") || (isTok(next, "<-") && nk == "send_statement"):
		return one
	case !p.Named && keywords[p.Kind]:
		return one
	case isTok(next, "{") && nk == "block":
		return one // `) {`, `else {`
	case !n.Named && (n.Kind == "else" || n.Kind == "elseif"):
		return one // `} else`
	case isTok(prev, "func") && isTok(next, "("):
		return none
	case isTok(prev, "func"):
		return one
	}
	return keep
}

func isCommentTok(t token) bool { return t.n.Kind == "comment" || t.n.Kind == "directive" }

// glues reports whether the bytes a and b, written next to each other,
// may lex as one token where a space kept them two: word characters
// (`0 .5` aside, numbers swallow a following `.`), and operator
// characters that combine (`- -`, `/ /`, `< -`, `. .`, `= =`, ...).
func glues(a, b byte) bool {
	word := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	switch {
	case word(a) && word(b):
		return true
	case a >= '0' && a <= '9' && b == '.':
		return true
	case a == '.' && b >= '0' && b <= '9':
		return true
	}
	const ops = "+-*/%<>=!&|^.:#"
	return strings.IndexByte(ops, a) >= 0 && strings.IndexByte(ops, b) >= 0
}

func isNumber(t token) bool { return t.n.Kind == "integer" || t.n.Kind == "float" }
