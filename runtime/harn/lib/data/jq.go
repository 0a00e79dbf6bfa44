package data

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/harnlang/harn-check/runtime/harn"
)

// jq and jq_first: a jq subset over program values. Filters: paths
// (.a, .["k"], .[n], .[a:b], .[]), recursive descent (..), pipes (|),
// commas, comparisons (== != < >), and/or/not, object construction
// ({k: f}), literals and the functions length, keys, values, type,
// map(f) and select(f). jq returns every output, jq_first the first (nil
// when none). A filter that does not parse throws "jq: ...".

// jqFilter maps one input to its outputs.
type jqFilter func(in harn.Value) []harn.Value

func install(lib *harn.Library) {
	run := func(name string, first bool) {
		lib.Builtin(name, func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			if len(args) < 2 {
				return harn.Nil, harn.ThrowValue(harn.Str(fmt.Sprintf("%s requires 2 arguments", name)))
			}
			f, err := parseJQ(harn.Display(args[1]))
			if err != nil {
				return harn.Nil, harn.ThrowValue(harn.Str(err.Error()))
			}
			out := f(args[0])
			if first {
				if len(out) == 0 {
					return harn.Nil, nil
				}
				return out[0], nil
			}
			return harn.NewListValue(out), nil
		})
	}
	run("jq", false)
	run("jq_first", true)
}

type jqParser struct {
	src string
	pos int
}

func parseJQ(src string) (jqFilter, error) {
	p := &jqParser{src: src}
	f, err := p.pipe(true)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.pos < len(p.src) {
		return nil, fmt.Errorf("jq: unexpected input near '%s'", p.rest())
	}
	return f, nil
}

func (p *jqParser) rest() string { return p.src[p.pos:] }

func (p *jqParser) ws() {
	for p.pos < len(p.src) {
		r, n := utf8.DecodeRuneInString(p.src[p.pos:])
		if !strings.ContainsRune(" \t\n\r\f\v", r) {
			return
		}
		p.pos += n
	}
}

// eat skips blanks and consumes s if it comes next.
func (p *jqParser) eat(s string) bool {
	p.ws()
	if strings.HasPrefix(p.rest(), s) {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *jqParser) expect(s string) error {
	if !p.eat(s) {
		return fmt.Errorf("jq: expected '%s' near '%s'", s, p.rest())
	}
	return nil
}

// keyword consumes a word not followed by an identifier character.
func (p *jqParser) keyword(w string) bool {
	p.ws()
	if !strings.HasPrefix(p.rest(), w) {
		return false
	}
	if end := p.pos + len(w); end < len(p.src) && jqIdentByte(p.src[end]) {
		return false
	}
	p.pos += len(w)
	return true
}

func jqIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func (p *jqParser) ident() (string, bool) {
	p.ws()
	if p.pos >= len(p.src) {
		return "", false
	}
	if b := p.src[p.pos]; !(b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z') {
		return "", false
	}
	start := p.pos
	for p.pos < len(p.src) && jqIdentByte(p.src[p.pos]) {
		p.pos++
	}
	return p.src[start:p.pos], true
}

// pipe is a|b|...; inside object values commas end a value.
func (p *jqParser) pipe(allowComma bool) (jqFilter, error) {
	next := p.boolean
	if allowComma {
		next = p.comma
	}
	first, err := next()
	if err != nil {
		return nil, err
	}
	stages := []jqFilter{first}
	for p.eat("|") {
		f, err := next()
		if err != nil {
			return nil, err
		}
		stages = append(stages, f)
	}
	if len(stages) == 1 {
		return first, nil
	}
	return func(in harn.Value) []harn.Value {
		stream := []harn.Value{in}
		for _, s := range stages {
			var out []harn.Value
			for _, v := range stream {
				out = append(out, s(v)...)
			}
			stream = out
		}
		return stream
	}, nil
}

func (p *jqParser) comma() (jqFilter, error) {
	first, err := p.boolean()
	if err != nil {
		return nil, err
	}
	items := []jqFilter{first}
	for p.eat(",") {
		f, err := p.boolean()
		if err != nil {
			return nil, err
		}
		items = append(items, f)
	}
	if len(items) == 1 {
		return first, nil
	}
	return func(in harn.Value) []harn.Value {
		var out []harn.Value
		for _, f := range items {
			out = append(out, f(in)...)
		}
		return out
	}, nil
}

// jqTruth is a filter's first output's truthiness (false when none).
func jqTruth(f jqFilter, in harn.Value) bool {
	out := f(in)
	return len(out) > 0 && out[0].Truthy()
}

func jqFirst(f jqFilter, in harn.Value) harn.Value {
	if out := f(in); len(out) > 0 {
		return out[0]
	}
	return harn.Nil
}

func (p *jqParser) boolean() (jqFilter, error) {
	left, err := p.compare()
	if err != nil {
		return nil, err
	}
	for {
		and := p.keyword("and")
		if !and && !p.keyword("or") {
			return left, nil
		}
		right, err := p.compare()
		if err != nil {
			return nil, err
		}
		l := left
		if and {
			left = func(in harn.Value) []harn.Value { return []harn.Value{harn.Bool(jqTruth(l, in) && jqTruth(right, in))} }
		} else {
			left = func(in harn.Value) []harn.Value { return []harn.Value{harn.Bool(jqTruth(l, in) || jqTruth(right, in))} }
		}
	}
}

func (p *jqParser) compare() (jqFilter, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	var op string
	for _, o := range []string{"==", "!=", "<", ">"} {
		if p.eat(o) {
			op = o
			break
		}
	}
	if op == "" {
		return left, nil
	}
	right, err := p.unary()
	if err != nil {
		return nil, err
	}
	return func(in harn.Value) []harn.Value {
		a, b := jqFirst(left, in), jqFirst(right, in)
		switch op {
		case "==":
			return []harn.Value{harn.Bool(harn.Equal(a, b))}
		case "!=":
			return []harn.Value{harn.Bool(!harn.Equal(a, b))}
		}
		cmp, ok := jqOrder(a, b)
		return []harn.Value{harn.Bool(ok && (op == "<" && cmp < 0 || op == ">" && cmp > 0))}
	}, nil
}

// jqOrder orders numbers with numbers and strings with strings.
func jqOrder(a, b harn.Value) (int, bool) {
	if a.Kind() == harn.KindString && b.Kind() == harn.KindString {
		return strings.Compare(a.AsString(), b.AsString()), true
	}
	if a.Kind() == harn.KindInt && b.Kind() == harn.KindInt {
		x, y := a.AsInt(), b.AsInt()
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	}
	if (a.Kind() == harn.KindInt || a.Kind() == harn.KindFloat) && (b.Kind() == harn.KindInt || b.Kind() == harn.KindFloat) {
		x, _ := a.Number()
		y, _ := b.Number()
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		case x == y:
			return 0, true
		}
	}
	return 0, false
}

func (p *jqParser) unary() (jqFilter, error) {
	if p.keyword("not") {
		f, err := p.unary()
		if err != nil {
			return nil, err
		}
		return func(in harn.Value) []harn.Value { return []harn.Value{harn.Bool(!jqTruth(f, in))} }, nil
	}
	return p.primary()
}

func (p *jqParser) primary() (jqFilter, error) {
	p.ws()
	lit := func(v harn.Value) jqFilter { return func(harn.Value) []harn.Value { return []harn.Value{v} } }
	switch {
	case p.eat("("):
		f, err := p.pipe(true)
		if err != nil {
			return nil, err
		}
		return f, p.expect(")")
	case strings.HasPrefix(p.rest(), ".."):
		p.pos += 2
		return func(in harn.Value) []harn.Value {
			var out []harn.Value
			jqDescend(in, &out, 0)
			return out
		}, nil
	case strings.HasPrefix(p.rest(), "."):
		return p.path()
	case strings.HasPrefix(p.rest(), "{"):
		return p.object()
	case strings.HasPrefix(p.rest(), `"`):
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return lit(harn.Str(s)), nil
	case p.pos < len(p.src) && (p.src[p.pos] == '-' || p.src[p.pos] >= '0' && p.src[p.pos] <= '9'):
		v, err := p.number()
		if err != nil {
			return nil, err
		}
		return lit(v), nil
	}
	id, ok := p.ident()
	if !ok {
		return nil, fmt.Errorf("jq: expected expression near '%s'", p.rest())
	}
	switch id {
	case "true":
		return lit(harn.Bool(true)), nil
	case "false":
		return lit(harn.Bool(false)), nil
	case "null", "nil":
		return lit(harn.Nil), nil
	case "length", "keys", "values", "type":
		return func(in harn.Value) []harn.Value { return []harn.Value{jqBuiltin(id, in)} }, nil
	case "map", "select":
		if err := p.expect("("); err != nil {
			return nil, err
		}
		f, err := p.pipe(true)
		if err != nil {
			return nil, err
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		if id == "select" {
			return func(in harn.Value) []harn.Value {
				if jqTruth(f, in) {
					return []harn.Value{in}
				}
				return nil
			}, nil
		}
		return func(in harn.Value) []harn.Value {
			var out []harn.Value
			if in.Kind() == harn.KindList {
				for _, x := range in.AsList().Items() {
					out = append(out, f(x)...)
				}
			}
			return []harn.Value{harn.NewListValue(out)}
		}, nil
	}
	return nil, fmt.Errorf("jq: unknown identifier '%s'", id)
}

// jqItems are the elements a value iterates: a list's or set's items, a
// dict's values in key order.
func jqItems(v harn.Value) ([]harn.Value, bool) {
	switch v.Kind() {
	case harn.KindList:
		return v.AsList().Items(), true
	case harn.KindSet:
		return v.AsSet().Items(), true
	case harn.KindDict:
		d := v.AsDict()
		out := make([]harn.Value, 0, d.Len())
		for _, k := range d.Keys() {
			x, _ := d.Get(k)
			out = append(out, x)
		}
		return out, true
	}
	return nil, false
}

func jqDescend(v harn.Value, out *[]harn.Value, depth int) {
	*out = append(*out, v)
	if depth > 512 {
		return
	}
	if v.Kind() == harn.KindStruct {
		s := v.AsStruct()
		for _, f := range s.Fields {
			jqDescend(f, out, depth+1)
		}
		return
	}
	items, _ := jqItems(v)
	for _, x := range items {
		jqDescend(x, out, depth+1)
	}
}

func jqBuiltin(name string, in harn.Value) harn.Value {
	switch name {
	case "length":
		switch in.Kind() {
		case harn.KindString:
			return harn.Int(int64(utf8.RuneCountInString(in.AsString())))
		case harn.KindBytes:
			return harn.Int(int64(len(in.AsBytes())))
		case harn.KindNil:
			return harn.Int(0)
		}
		if items, ok := jqItems(in); ok {
			return harn.Int(int64(len(items)))
		}
		return harn.Int(1)
	case "keys":
		switch in.Kind() {
		case harn.KindDict:
			keys := in.AsDict().Keys()
			out := make([]harn.Value, len(keys))
			for i, k := range keys {
				out[i] = harn.Str(k)
			}
			return harn.NewListValue(out)
		case harn.KindList:
			out := make([]harn.Value, len(in.AsList().Items()))
			for i := range out {
				out[i] = harn.Int(int64(i))
			}
			return harn.NewListValue(out)
		}
		return harn.NewListValue(nil)
	case "values":
		items, _ := jqItems(in)
		return harn.NewListValue(append([]harn.Value(nil), items...))
	}
	switch in.Kind() {
	case harn.KindNil:
		return harn.Str("null")
	case harn.KindBool:
		return harn.Str("boolean")
	case harn.KindInt, harn.KindFloat:
		return harn.Str("number")
	case harn.KindString:
		return harn.Str("string")
	case harn.KindList, harn.KindSet:
		return harn.Str("array")
	case harn.KindDict, harn.KindStruct:
		return harn.Str("object")
	}
	return harn.Str(in.TypeName())
}

// jqStep is one path step applied to one value.
type jqStep func(v harn.Value, out []harn.Value) []harn.Value

func (p *jqParser) path() (jqFilter, error) {
	if err := p.expect("."); err != nil {
		return nil, err
	}
	var steps []jqStep
	for {
		p.ws()
		if strings.HasPrefix(p.rest(), "[") {
			s, err := p.bracket()
			if err != nil {
				return nil, err
			}
			steps = append(steps, s)
			continue
		}
		if p.eat(".") {
			p.ws()
			if strings.HasPrefix(p.rest(), "[") {
				s, err := p.bracket()
				if err != nil {
					return nil, err
				}
				steps = append(steps, s)
				continue
			}
			name, ok := p.ident()
			if !ok {
				return nil, fmt.Errorf("jq: expected field name near '%s'", p.rest())
			}
			steps = append(steps, jqField(name))
			continue
		}
		// ".name": the first field follows the dot directly (any word
		// after a path step reads as a field, as upstream's parser does).
		if name, ok := p.ident(); ok {
			steps = append(steps, jqField(name))
			continue
		}
		break
	}
	return func(in harn.Value) []harn.Value {
		stream := []harn.Value{in}
		for _, s := range steps {
			var out []harn.Value
			for _, v := range stream {
				out = s(v, out)
			}
			stream = out
		}
		return stream
	}, nil
}

func jqField(name string) jqStep {
	return func(v harn.Value, out []harn.Value) []harn.Value {
		switch v.Kind() {
		case harn.KindDict:
			x, ok := v.AsDict().Get(name)
			if !ok {
				x = harn.Nil
			}
			return append(out, x)
		case harn.KindStruct:
			s := v.AsStruct()
			for i, n := range s.FieldNames() {
				if n == name {
					return append(out, s.Fields[i])
				}
			}
		}
		return append(out, harn.Nil)
	}
}

func (p *jqParser) bracket() (jqStep, error) {
	if err := p.expect("["); err != nil {
		return nil, err
	}
	if p.eat("]") {
		return func(v harn.Value, out []harn.Value) []harn.Value {
			items, _ := jqItems(v)
			return append(out, items...)
		}, nil
	}
	p.ws()
	if strings.HasPrefix(p.rest(), `"`) {
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		return jqField(key), p.expect("]")
	}
	lo, hasLo, err := p.signedInt()
	if err != nil {
		return nil, err
	}
	if p.eat(":") {
		hi, hasHi, err := p.signedInt()
		if err != nil {
			return nil, err
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		return func(v harn.Value, out []harn.Value) []harn.Value {
			if v.Kind() != harn.KindList {
				return append(out, harn.NewListValue(nil))
			}
			items := v.AsList().Items()
			n := int64(len(items))
			bound := func(x int64, has bool, def int64) int64 {
				if !has {
					x = def
				}
				if x < 0 {
					x += n
				}
				return max(0, min(x, n))
			}
			a, b := bound(lo, hasLo, 0), bound(hi, hasHi, n)
			if b <= a {
				return append(out, harn.NewListValue(nil))
			}
			return append(out, harn.NewListValue(append([]harn.Value(nil), items[a:b]...)))
		}, nil
	}
	if err := p.expect("]"); err != nil {
		return nil, err
	}
	if !hasLo {
		return nil, fmt.Errorf("jq: expected array index or slice bound")
	}
	return func(v harn.Value, out []harn.Value) []harn.Value {
		if v.Kind() == harn.KindList {
			items := v.AsList().Items()
			i := lo
			if i < 0 {
				i += int64(len(items))
			}
			if i >= 0 && i < int64(len(items)) {
				return append(out, items[i])
			}
		}
		return append(out, harn.Nil)
	}, nil
}

func (p *jqParser) signedInt() (int64, bool, error) {
	p.ws()
	start := p.pos
	if p.pos < len(p.src) && p.src[p.pos] == '-' {
		p.pos++
	}
	digits := p.pos
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	if p.pos == digits {
		p.pos = start
		return 0, false, nil
	}
	n, err := strconv.ParseInt(p.src[start:p.pos], 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("jq: invalid integer: %v", err)
	}
	return n, true, nil
}

func (p *jqParser) object() (jqFilter, error) {
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	type field struct {
		key string
		f   jqFilter
	}
	var fields []field
	for !p.eat("}") {
		p.ws()
		var key string
		if strings.HasPrefix(p.rest(), `"`) {
			s, err := p.str()
			if err != nil {
				return nil, err
			}
			key = s
		} else {
			id, ok := p.ident()
			if !ok {
				return nil, fmt.Errorf("jq: expected object key near '%s'", p.rest())
			}
			key = id
		}
		if err := p.expect(":"); err != nil {
			return nil, err
		}
		f, err := p.pipe(false)
		if err != nil {
			return nil, err
		}
		fields = append(fields, field{key, f})
		if p.eat("}") {
			break
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
	}
	return func(in harn.Value) []harn.Value {
		d := harn.NewDict(len(fields))
		for _, f := range fields {
			d.Set(f.key, jqFirst(f.f, in))
		}
		return []harn.Value{harn.DictValue(d)}
	}, nil
}

func (p *jqParser) number() (harn.Value, error) {
	start := p.pos
	isDigit := func() bool { return p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' }
	if p.src[p.pos] == '-' {
		p.pos++
	}
	for isDigit() {
		p.pos++
	}
	float := false
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		float = true
		p.pos++
		for isDigit() {
			p.pos++
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		float = true
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		for isDigit() {
			p.pos++
		}
	}
	raw := p.src[start:p.pos]
	if raw == "-" {
		return harn.Nil, fmt.Errorf("jq: invalid number near '%s'", p.rest())
	}
	if float {
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return harn.Nil, fmt.Errorf("jq: invalid float '%s': %v", raw, err)
		}
		return harn.Float(f), nil
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return harn.Nil, fmt.Errorf("jq: invalid integer '%s': %v", raw, err)
	}
	return harn.Int(n), nil
}

// str reads a JSON string literal.
func (p *jqParser) str() (string, error) {
	p.ws()
	start := p.pos
	p.pos++
	escaped := false
	for p.pos < len(p.src) {
		b := p.src[p.pos]
		p.pos++
		switch {
		case escaped:
			escaped = false
		case b == '\\':
			escaped = true
		case b == '"':
			var s string
			if err := json.Unmarshal([]byte(p.src[start:p.pos]), &s); err != nil {
				return "", fmt.Errorf("jq: invalid string literal: %v", err)
			}
			return s, nil
		}
	}
	return "", fmt.Errorf("jq: unterminated string literal")
}
