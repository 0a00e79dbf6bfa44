package rhai

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonParser is a strict JSON reader giving Rhai's value kinds, with the
// quirks of Rhai 1.25's Engine::parse_json(text, true) that a validator can
// observe (read from Rhai's source, not observed):
//   - the top level must be an object; anything else is a catchable
//     "Output type incorrect" error;
//   - malformed text is a syntax error that try/catch cannot catch;
//   - \/, \b, \f and surrogate \u escapes are rejected, while \xHH and
//     \UHHHHHHHH are accepted, as in a Rhai string literal;
//   - a repeated key is an error ("Duplicated property");
//   - integers are i64, falling back to f64 on overflow; a fraction or
//     exponent gives f64; null gives ();
//   - nesting deeper than the expression-depth limit, and data over the
//     size limits, are errors; the parse has an operation budget of its own.
//
// Rhai's leniencies (comments, trailing commas, arithmetic, hex numbers,
// function calls) are deliberately not copied: with format = "json" such
// text never reaches the validator, and running code found in an answer
// is a hazard.
type jsonParser struct {
	it       *interp
	src      string
	pos      int
	ops      int64
	arr, mp  int
	str      int
	maxDepth int
}

type jsonErr struct {
	kind ErrorKind
	msg  string
	at   int
}

func (e *jsonErr) Error() string { return e.msg }

func (it *interp) parseJSON(text string, pos int) (Value, error) {
	p := &jsonParser{it: it, src: text, maxDepth: it.lim.MaxExprDepth}
	v, err := p.value(0)
	if err == nil {
		p.space()
		if p.pos < len(p.src) {
			err = p.fail("unexpected text after the JSON value")
		}
	}
	if err != nil {
		je := err.(*jsonErr)
		if je.kind == ErrJSONSyntax {
			// As in Rhai, the error is a syntax error located in the JSON
			// text, not in the script.
			line, col := lineCol(text, je.at)
			return nil, &EvalError{Kind: ErrJSONSyntax, Message: "Syntax error: " + je.msg + " in the JSON text",
				Pos: -1, Line: line, Column: col, JSONPos: je.at}
		}
		return nil, it.errf(je.kind, pos, "%s", je.msg)
	}
	// The parse has its own budget, as in Rhai; a share of it is also
	// charged to the script so that re-parsing in a loop cannot outlast
	// the script's budget (one operation per 32 JSON values).
	it.ops += p.ops >> 5
	if _, ok := v.(*Map); !ok {
		return nil, it.errf(ErrRuntime, pos, "Output type incorrect: %s (expecting map)", TypeName(v))
	}
	return v, nil
}

func (p *jsonParser) fail(format string, args ...any) error {
	return &jsonErr{kind: ErrJSONSyntax, msg: fmt.Sprintf(format, args...), at: p.pos}
}

func (p *jsonParser) space() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *jsonParser) value(depth int) (Value, error) {
	p.ops++
	if p.ops > p.it.lim.MaxOperations {
		return nil, &jsonErr{kind: ErrTooManyOperations, msg: "Too many operations"}
	}
	if depth >= p.maxDepth {
		return nil, p.fail("Expression exceeds maximum complexity")
	}
	p.space()
	if p.pos >= len(p.src) {
		return nil, p.fail("unexpected end of JSON text")
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		p.pos++
		m := newMap()
		p.space()
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			p.pos++
			return m, nil
		}
		for {
			p.space()
			if p.pos >= len(p.src) || p.src[p.pos] != '"' {
				return nil, p.fail("expecting a string key")
			}
			keyAt := p.pos
			k, err := p.str_()
			if err != nil {
				return nil, err
			}
			if _, dup := m.m[k]; dup {
				p.pos = keyAt
				return nil, p.fail("Duplicated property '%s'", k)
			}
			p.space()
			if p.pos >= len(p.src) || p.src[p.pos] != ':' {
				return nil, p.fail("expecting ':' after the key")
			}
			p.pos++
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			m.m[k] = v
			p.mp++
			if p.mp > p.it.lim.MaxMapSize {
				return nil, &jsonErr{kind: ErrDataTooLarge, msg: "Size of object map too large"}
			}
			p.space()
			if p.pos < len(p.src) && p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.src) && p.src[p.pos] == '}' {
				p.pos++
				return m, nil
			}
			return nil, p.fail("expecting ',' or '}'")
		}
	case c == '[':
		p.pos++
		a := &Array{}
		p.space()
		if p.pos < len(p.src) && p.src[p.pos] == ']' {
			p.pos++
			return a, nil
		}
		for {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			a.Items = append(a.Items, v)
			p.arr++
			if p.arr > p.it.lim.MaxArraySize {
				return nil, &jsonErr{kind: ErrDataTooLarge, msg: "Size of array too large"}
			}
			p.space()
			if p.pos < len(p.src) && p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.src) && p.src[p.pos] == ']' {
				p.pos++
				return a, nil
			}
			return nil, p.fail("expecting ',' or ']'")
		}
	case c == '"':
		return p.str_()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, kw := range []struct {
		text string
		v    Value
	}{{"true", true}, {"false", false}, {"null", Unit{}}} {
		if strings.HasPrefix(p.src[p.pos:], kw.text) {
			p.pos += len(kw.text)
			if p.pos < len(p.src) && isIdentChar(p.src[p.pos]) {
				return nil, p.fail("unexpected name")
			}
			return kw.v, nil
		}
	}
	return nil, p.fail("unexpected character '%c'", firstRune(p.src[p.pos:]))
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

func (p *jsonParser) number() (Value, error) {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
			p.pos++
			n++
		}
		return n
	}
	intStart := p.pos
	if digits() == 0 {
		return nil, p.fail("invalid number")
	}
	if p.src[intStart] == '0' && p.pos-intStart > 1 {
		p.pos = intStart
		return nil, p.fail("invalid number: leading zero")
	}
	isFloat := false
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		isFloat = true
		if digits() == 0 {
			return nil, p.fail("invalid number: digits expected after '.'")
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		isFloat = true
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.fail("invalid number: digits expected in the exponent")
		}
	}
	text := p.src[start:p.pos]
	if !isFloat {
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			return i, nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return nil, p.fail("invalid number")
	}
	return f, nil
}

func (p *jsonParser) str_() (string, error) {
	start := p.pos
	p.pos++
	// Fast path: no escapes, so the value is a slice of the input.
	for i := p.pos; i < len(p.src); i++ {
		c := p.src[i]
		if c == '"' {
			p.pos = i + 1
			p.str += i - start - 1
			if p.str > p.it.lim.MaxStringSize {
				return "", &jsonErr{kind: ErrDataTooLarge, msg: "Length of string too large"}
			}
			return p.src[start+1 : i], nil
		}
		if c == '\\' || c == '\n' {
			break
		}
	}
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			p.pos = start
			return "", p.fail("unterminated string")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			p.str += b.Len()
			if p.str > p.it.lim.MaxStringSize {
				return "", &jsonErr{kind: ErrDataTooLarge, msg: "Length of string too large"}
			}
			return b.String(), nil
		case c == '\n':
			p.pos = start
			return "", p.fail("unterminated string")
		case c == '\\':
			esc := p.pos
			p.pos++
			if p.pos >= len(p.src) {
				return "", p.fail("unterminated string")
			}
			e := p.src[p.pos]
			p.pos++
			switch e {
			case '\\', '"':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if p.pos+n > len(p.src) {
					p.pos = esc
					return "", p.fail("invalid escape sequence")
				}
				v, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
				if err != nil || !utf8.ValidRune(rune(v)) {
					p.pos = esc
					return "", p.fail("invalid escape sequence '%s'", p.src[esc:min(esc+2+n, len(p.src))])
				}
				p.pos += n
				b.WriteRune(rune(v))
			default:
				p.pos = esc
				return "", p.fail("invalid escape sequence '\\%c'", e)
			}
		default:
			r, size := utf8.DecodeRuneInString(p.src[p.pos:])
			b.WriteRune(r)
			p.pos += size
		}
	}
}

// writeJSON renders v as compact JSON (maps with sorted keys).
func (it *interp) writeJSON(b *strings.Builder, v Value, depth int, pos int) error {
	if depth > maxValueDepth {
		return it.errf(ErrDataTooLarge, pos, "Size of object map too large")
	}
	if b.Len() > it.lim.MaxStringSize {
		return it.errf(ErrDataTooLarge, pos, "Length of string too large")
	}
	switch t := v.(type) {
	case Unit, nil:
		b.WriteString("null")
	case bool, int64:
		b.WriteString(ToString(t))
	case float64:
		out, err := json.Marshal(t)
		if err != nil {
			b.WriteString("null")
		} else {
			b.Write(out)
		}
	case string:
		out, _ := json.Marshal(t)
		b.Write(out)
	case *Array:
		b.WriteByte('[')
		for i, x := range t.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := it.writeJSON(b, x, depth+1, pos); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case *Map:
		b.WriteByte('{')
		for i, k := range t.Keys() {
			if i > 0 {
				b.WriteByte(',')
			}
			out, _ := json.Marshal(k)
			b.Write(out)
			b.WriteByte(':')
			if err := it.writeJSON(b, t.m[k], depth+1, pos); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		out, _ := json.Marshal(ToString(t))
		b.Write(out)
	}
	return nil
}
