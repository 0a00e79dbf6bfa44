package harn

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/harnlang/harn-check/catalog"
)

// The prompt template language of render, render_prompt and
// render_string: {{ expr | filter: arg }}, {{ if }}/{{ elif }}/{{ else }}/
// {{ end }}, {{ for x in xs }} and {{ for k, v in d }} with {{ else }} and
// the loop record, {{ include "path" with {..} }}, {{# comments #}},
// {{ raw }}...{{ endraw }} and {{- -}} trim markers. Errors are thrown as
// "<template> at <line>:<col>: <message>".

// maxIncludeDepth bounds nested includes.
const maxIncludeDepth = 32

type tmplError struct {
	line, col int
	msg       string
}

type tmplToken struct {
	text                string // text, raw content or directive body
	kind                int    // 0 text, 1 raw, 2 directive
	trimLeft, trimRight bool   // text: trim its start / its end
	line, col           int
}

type tmplNode interface{}

type tmplText string

type tmplBare struct{ ident string }

type tmplExpr struct {
	e         tmplExprNode
	line, col int
}

type tmplIf struct {
	conds  []tmplExprNode
	bodies [][]tmplNode
	els    []tmplNode
}

type tmplFor struct {
	key, val  string
	iter      tmplExprNode
	body, els []tmplNode
	line, col int
}

type tmplInclude struct {
	path      tmplExprNode
	with      []tmplWith
	line, col int
}

type tmplWith struct {
	name string
	e    tmplExprNode
}

// Expressions.
type tmplExprNode interface{}

type tmplLit struct{ v Value }
type tmplPath struct {
	root  string
	steps []tmplStep
}
type tmplStep struct {
	name  string
	index tmplExprNode
}
type tmplUnary struct{ x tmplExprNode }
type tmplBin struct {
	op   string
	l, r tmplExprNode
}
type tmplFilter struct {
	x    tmplExprNode
	name string
	args []tmplExprNode
	line int
	col  int
}

// lexTemplate splits a template into text, raw and directive tokens.
func lexTemplate(src string) ([]tmplToken, *tmplError) {
	var toks []tmplToken
	pendingTrimLeft := false
	pos := 0
	lineCol := func(off int) (int, int) {
		line := 1 + strings.Count(src[:off], "\n")
		col := off - strings.LastIndexByte(src[:off], '\n')
		return line, col
	}
	for {
		open := strings.Index(src[pos:], "{{")
		if open < 0 {
			if pos < len(src) || pendingTrimLeft {
				toks = append(toks, tmplToken{text: src[pos:], trimLeft: pendingTrimLeft})
			}
			return toks, nil
		}
		open += pos
		trimRight := open+2 < len(src) && src[open+2] == '-'
		toks = append(toks, tmplToken{text: src[pos:open], trimLeft: pendingTrimLeft, trimRight: trimRight})
		pendingTrimLeft = false
		line, col := lineCol(open)
		if strings.HasPrefix(src[open:], "{{#") {
			end := strings.Index(src[open+3:], "#}}")
			if end < 0 {
				return nil, &tmplError{line, col, "unterminated comment"}
			}
			pos = open + 3 + end + 3
			continue
		}
		bodyStart := open + 2
		if trimRight {
			bodyStart++
		}
		// {{ raw }} ... {{ endraw }}
		if kw := strings.TrimSpace(src[bodyStart:min(len(src), bodyStart+16)]); strings.HasPrefix(kw, "raw") {
			closeRel := strings.Index(src[bodyStart:], "}}")
			if closeRel >= 0 && strings.Trim(strings.TrimSpace(src[bodyStart:bodyStart+closeRel]), "-") == "raw" {
				after := bodyStart + closeRel + 2
				endRaw := -1
				for i := after; i < len(src); {
					j := strings.Index(src[i:], "{{")
					if j < 0 {
						break
					}
					j += i
					k := strings.Index(src[j:], "}}")
					if k < 0 {
						break
					}
					if strings.Trim(strings.TrimSpace(src[j+2:j+k]), "-") == "endraw" {
						endRaw = j
						toks = append(toks, tmplToken{kind: 1, text: src[after:j]})
						pos = j + k + 2
						break
					}
					i = j + 2
				}
				if endRaw < 0 {
					return nil, &tmplError{line, col, "unterminated `{{ raw }}` block"}
				}
				continue
			}
		}
		closePos, inStr := -1, byte(0)
		for i := bodyStart; i+1 < len(src); i++ {
			c := src[i]
			if inStr != 0 {
				if c == '\\' {
					i++
				} else if c == inStr {
					inStr = 0
				}
				continue
			}
			if c == '"' || c == '\'' {
				inStr = c
				continue
			}
			if c == '}' && src[i+1] == '}' {
				closePos = i
				break
			}
		}
		if closePos < 0 {
			return nil, &tmplError{line, col, "unterminated directive"}
		}
		bodyEnd := closePos
		if closePos > bodyStart && src[closePos-1] == '-' {
			bodyEnd--
			pendingTrimLeft = true
		}
		toks = append(toks, tmplToken{kind: 2, text: strings.TrimSpace(src[bodyStart:bodyEnd]), line: line, col: col})
		pos = closePos + 2
	}
}

func trimLeadingLine(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	switch {
	case i < len(s) && s[i] == '\n':
		return s[i+1:]
	case i+1 < len(s) && s[i] == '\r' && s[i+1] == '\n':
		return s[i+2:]
	case i < len(s) && s[i] == '\r':
		return s[i+1:]
	}
	return s[i:]
}

func trimTrailingLine(s string) string {
	i := len(s)
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
		i--
	}
	if i > 0 && s[i-1] == '\n' {
		end := i - 1
		if end > 0 && s[end-1] == '\r' {
			end--
		}
		return s[:end]
	}
	return s[:i]
}

type tmplParser struct {
	toks []tmplToken
	pos  int
}

func firstWord(s string) string {
	for i, r := range s {
		if unicode.IsSpace(r) {
			return s[:i]
		}
	}
	return s
}

// block parses nodes until a directive whose first word is in stops; it
// returns that word ("" at the end of input).
func (p *tmplParser) block(stops ...string) ([]tmplNode, string, *tmplToken, *tmplError) {
	var out []tmplNode
	for p.pos < len(p.toks) {
		t := &p.toks[p.pos]
		switch t.kind {
		case 0:
			s := t.text
			if t.trimLeft {
				s = trimLeadingLine(s)
			}
			if t.trimRight {
				s = trimTrailingLine(s)
			}
			if s != "" {
				out = append(out, tmplText(s))
			}
			p.pos++
			continue
		case 1:
			if t.text != "" {
				out = append(out, tmplText(t.text))
			}
			p.pos++
			continue
		}
		w := firstWord(t.text)
		for _, s := range stops {
			if w == s {
				p.pos++
				return out, w, t, nil
			}
		}
		p.pos++
		switch {
		case w == "if":
			n, err := p.ifNode(t)
			if err != nil {
				return nil, "", nil, err
			}
			out = append(out, n)
		case w == "for":
			n, err := p.forNode(t)
			if err != nil {
				return nil, "", nil, err
			}
			out = append(out, n)
		case w == "include":
			n, err := parseInclude(strings.TrimSpace(t.text[7:]), t.line, t.col)
			if err != nil {
				return nil, "", nil, err
			}
			out = append(out, n)
		case w == "end" || w == "else" || w == "elif" || w == "endraw":
			return nil, "", nil, &tmplError{t.line, t.col, "unexpected `{{ " + w + " }}`"}
		case isBareIdent(t.text):
			out = append(out, tmplBare{t.text})
		default:
			e, err := parseTmplExpr(t.text, t.line, t.col)
			if err != nil {
				return nil, "", nil, err
			}
			out = append(out, tmplExpr{e: e, line: t.line, col: t.col})
		}
	}
	if len(stops) > 0 {
		return out, "", nil, nil
	}
	return out, "", nil, nil
}

func (p *tmplParser) ifNode(start *tmplToken) (tmplNode, *tmplError) {
	n := &tmplIf{}
	cond, err := parseTmplExpr(strings.TrimSpace(start.text[2:]), start.line, start.col)
	if err != nil {
		return nil, err
	}
	for {
		body, stop, tok, err := p.block("elif", "else", "end")
		if err != nil {
			return nil, err
		}
		switch stop {
		case "":
			return nil, &tmplError{start.line, start.col, "`{{ if }}` missing matching `{{ end }}`"}
		case "end":
			n.conds = append(n.conds, cond)
			n.bodies = append(n.bodies, body)
			return n, nil
		case "elif":
			n.conds = append(n.conds, cond)
			n.bodies = append(n.bodies, body)
			cond, err = parseTmplExpr(strings.TrimSpace(tok.text[4:]), tok.line, tok.col)
			if err != nil {
				return nil, err
			}
		case "else":
			n.conds = append(n.conds, cond)
			n.bodies = append(n.bodies, body)
			els, stop, _, err := p.block("end")
			if err != nil {
				return nil, err
			}
			if stop == "" {
				return nil, &tmplError{tok.line, tok.col, "`{{ else }}` missing matching `{{ end }}`"}
			}
			n.els = els
			return n, nil
		}
	}
}

func (p *tmplParser) forNode(start *tmplToken) (tmplNode, *tmplError) {
	spec := strings.TrimSpace(start.text[3:])
	i := strings.Index(spec, " in ")
	if i < 0 {
		return nil, &tmplError{start.line, start.col, "expected `for x in xs`"}
	}
	vars := strings.Split(spec[:i], ",")
	n := &tmplFor{line: start.line, col: start.col}
	n.val = strings.TrimSpace(vars[0])
	if len(vars) == 2 {
		n.key, n.val = strings.TrimSpace(vars[0]), strings.TrimSpace(vars[1])
	}
	if len(vars) > 2 || !isBareIdent(n.val) || n.key != "" && !isBareIdent(n.key) {
		return nil, &tmplError{start.line, start.col, "bad loop variables in `for " + spec + "`"}
	}
	it, err := parseTmplExpr(strings.TrimSpace(spec[i+4:]), start.line, start.col)
	if err != nil {
		return nil, err
	}
	n.iter = it
	body, stop, tok, err := p.block("else", "end")
	if err != nil {
		return nil, err
	}
	n.body = body
	switch stop {
	case "":
		return nil, &tmplError{start.line, start.col, "`{{ for }}` missing matching `{{ end }}`"}
	case "else":
		els, stop, _, err := p.block("end")
		if err != nil {
			return nil, err
		}
		if stop == "" {
			return nil, &tmplError{tok.line, tok.col, "`{{ else }}` missing matching `{{ end }}`"}
		}
		n.els = els
	}
	return n, nil
}

func parseInclude(spec string, line, col int) (tmplNode, *tmplError) {
	n := &tmplInclude{line: line, col: col}
	pathSrc := spec
	if i := strings.Index(spec, " with "); i >= 0 {
		pathSrc = strings.TrimSpace(spec[:i])
		w := strings.TrimSpace(spec[i+6:])
		if !strings.HasPrefix(w, "{") || !strings.HasSuffix(w, "}") {
			return nil, &tmplError{line, col, "`include ... with` needs a `{ key: value }` record"}
		}
		for _, part := range splitTopLevel(w[1:len(w)-1], ',') {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			k, v, ok := strings.Cut(part, ":")
			if !ok {
				return nil, &tmplError{line, col, "`include ... with` entries are `key: value`"}
			}
			e, err := parseTmplExpr(strings.TrimSpace(v), line, col)
			if err != nil {
				return nil, err
			}
			n.with = append(n.with, tmplWith{name: strings.Trim(strings.TrimSpace(k), `"'`), e: e})
		}
	}
	e, err := parseTmplExpr(pathSrc, line, col)
	if err != nil {
		return nil, err
	}
	n.path = e
	return n, nil
}

func splitTopLevel(s string, delim byte) []string {
	var out []string
	depth, start := 0, 0
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == '\\' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == delim && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func isBareIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	switch s {
	case "true", "false", "nil", "not", "and", "or":
		return false
	}
	return true
}

// Expression parsing: a small recursive-descent parser over the directive
// text. Filters bind loosest: `a or b | upper` filters the whole.

type tmplLexer struct {
	s         string
	i         int
	line, col int
	depth     int
}

func parseTmplExpr(s string, line, col int) (tmplExprNode, *tmplError) {
	l := &tmplLexer{s: s, line: line, col: col}
	e, err := l.filters()
	if err != nil {
		return nil, err
	}
	l.skip()
	if l.i < len(l.s) {
		return nil, l.errf("unexpected %q in expression", l.s[l.i:])
	}
	return e, nil
}

func (l *tmplLexer) errf(format string, a ...any) *tmplError {
	return &tmplError{l.line, l.col, fmt.Sprintf(format, a...)}
}

func (l *tmplLexer) skip() {
	for l.i < len(l.s) && (l.s[l.i] == ' ' || l.s[l.i] == '\t' || l.s[l.i] == '\n' || l.s[l.i] == '\r') {
		l.i++
	}
}

func (l *tmplLexer) peek(tok string) bool {
	l.skip()
	if !strings.HasPrefix(l.s[l.i:], tok) {
		return false
	}
	if isWordTok(tok) {
		end := l.i + len(tok)
		if end < len(l.s) && isIdentByte(l.s[end]) {
			return false
		}
	}
	return true
}

func (l *tmplLexer) eat(tok string) bool {
	if l.peek(tok) {
		l.i += len(tok)
		return true
	}
	return false
}

func isWordTok(t string) bool { return t != "" && isIdentByte(t[0]) }

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func (l *tmplLexer) filters() (tmplExprNode, *tmplError) {
	x, err := l.or()
	if err != nil {
		return nil, err
	}
	for {
		l.skip()
		if l.i >= len(l.s) || l.s[l.i] != '|' || l.i+1 < len(l.s) && l.s[l.i+1] == '|' {
			return x, nil
		}
		l.i++
		l.skip()
		name := l.ident()
		if name == "" {
			return nil, l.errf("expected a filter name after `|`")
		}
		f := &tmplFilter{x: x, name: name, line: l.line, col: l.col}
		if l.eat(":") {
			for {
				a, err := l.or()
				if err != nil {
					return nil, err
				}
				f.args = append(f.args, a)
				if !l.eat(",") {
					break
				}
			}
		}
		x = f
	}
}

func (l *tmplLexer) or() (tmplExprNode, *tmplError) {
	x, err := l.and()
	if err != nil {
		return nil, err
	}
	for l.eat("or") || l.eat("||") {
		y, err := l.and()
		if err != nil {
			return nil, err
		}
		x = &tmplBin{op: "or", l: x, r: y}
	}
	return x, nil
}

func (l *tmplLexer) and() (tmplExprNode, *tmplError) {
	x, err := l.not()
	if err != nil {
		return nil, err
	}
	for l.eat("and") || l.eat("&&") {
		y, err := l.not()
		if err != nil {
			return nil, err
		}
		x = &tmplBin{op: "and", l: x, r: y}
	}
	return x, nil
}

func (l *tmplLexer) not() (tmplExprNode, *tmplError) {
	l.depth++
	defer func() { l.depth-- }()
	if l.depth > 64 {
		return nil, l.errf("expression nests too deeply")
	}
	if l.eat("not") || l.peek("!") && !l.peek("!=") && l.eat("!") {
		x, err := l.not()
		if err != nil {
			return nil, err
		}
		return &tmplUnary{x}, nil
	}
	return l.cmp()
}

func (l *tmplLexer) cmp() (tmplExprNode, *tmplError) {
	x, err := l.primary()
	if err != nil {
		return nil, err
	}
	for _, op := range []string{"==", "!=", "<=", ">=", "<", ">"} {
		if l.eat(op) {
			y, err := l.primary()
			if err != nil {
				return nil, err
			}
			return &tmplBin{op: op, l: x, r: y}, nil
		}
	}
	return x, nil
}

func (l *tmplLexer) ident() string {
	l.skip()
	start := l.i
	for l.i < len(l.s) && isIdentByte(l.s[l.i]) {
		l.i++
	}
	return l.s[start:l.i]
}

func (l *tmplLexer) primary() (tmplExprNode, *tmplError) {
	l.skip()
	if l.i >= len(l.s) {
		return nil, l.errf("expected an expression")
	}
	c := l.s[l.i]
	switch {
	case c == '(':
		l.i++
		x, err := l.filters()
		if err != nil {
			return nil, err
		}
		if !l.eat(")") {
			return nil, l.errf("expected `)`")
		}
		return x, nil
	case c == '"' || c == '\'':
		s, err := l.str()
		if err != nil {
			return nil, err
		}
		return &tmplLit{Str(s)}, nil
	case c >= '0' && c <= '9' || c == '-' && l.i+1 < len(l.s) && l.s[l.i+1] >= '0' && l.s[l.i+1] <= '9':
		start := l.i
		l.i++
		for l.i < len(l.s) && (l.s[l.i] >= '0' && l.s[l.i] <= '9' || l.s[l.i] == '.') {
			l.i++
		}
		txt := l.s[start:l.i]
		if strings.Contains(txt, ".") {
			f, err := strconv.ParseFloat(txt, 64)
			if err != nil {
				return nil, l.errf("bad number %q", txt)
			}
			return &tmplLit{Float(f)}, nil
		}
		n, err := strconv.ParseInt(txt, 10, 64)
		if err != nil {
			return nil, l.errf("bad number %q", txt)
		}
		return &tmplLit{Int(n)}, nil
	}
	name := l.ident()
	switch name {
	case "":
		return nil, l.errf("unexpected %q in expression", string(c))
	case "true":
		return &tmplLit{True}, nil
	case "false":
		return &tmplLit{False}, nil
	case "nil", "null", "none":
		return &tmplLit{Nil}, nil
	}
	p := &tmplPath{root: name}
	for {
		if l.i < len(l.s) && l.s[l.i] == '.' {
			l.i++
			seg := l.ident()
			if seg == "" {
				return nil, l.errf("expected a name after `.`")
			}
			p.steps = append(p.steps, tmplStep{name: seg})
			continue
		}
		if l.i < len(l.s) && l.s[l.i] == '[' {
			l.i++
			idx, err := l.filters()
			if err != nil {
				return nil, err
			}
			if !l.eat("]") {
				return nil, l.errf("expected `]`")
			}
			p.steps = append(p.steps, tmplStep{index: idx})
			continue
		}
		return p, nil
	}
}

func (l *tmplLexer) str() (string, *tmplError) {
	q := l.s[l.i]
	l.i++
	var b strings.Builder
	for l.i < len(l.s) {
		c := l.s[l.i]
		l.i++
		if c == q {
			return b.String(), nil
		}
		if c == '\\' && l.i < len(l.s) {
			e := l.s[l.i]
			l.i++
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(e)
			}
			continue
		}
		b.WriteByte(c)
	}
	return "", l.errf("unterminated string literal")
}

// Rendering.

type tmplScope struct {
	vars   map[string]Value
	parent *tmplScope
}

func (s *tmplScope) lookup(name string) (Value, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.vars[name]; ok {
			return v, true
		}
	}
	return Nil, false
}

type tmplRenderer struct {
	c     *Call
	chain []string // include chain, for cycle detection
	name  string   // current template's display name
}

func (r *tmplRenderer) fail(line, col int, msg string) error {
	return throwValue(Str(fmt.Sprintf("%s at %d:%d: %s", r.name, line, col, msg)))
}

func (r *tmplRenderer) render(b *strings.Builder, nodes []tmplNode, sc *tmplScope, depth int) error {
	for _, n := range nodes {
		switch n := n.(type) {
		case tmplText:
			b.WriteString(string(n))
		case tmplBare:
			if v, ok := sc.lookup(n.ident); ok {
				b.WriteString(tmplDisplay(v))
			} else {
				b.WriteString("{{" + n.ident + "}}")
			}
		case tmplExpr:
			v, err := r.eval(n.e, sc)
			if err != nil {
				return err
			}
			b.WriteString(tmplDisplay(v))
		case *tmplIf:
			done := false
			for i, cond := range n.conds {
				v, err := r.eval(cond, sc)
				if err != nil {
					return err
				}
				if tmplTruthy(v) {
					if err := r.render(b, n.bodies[i], sc, depth); err != nil {
						return err
					}
					done = true
					break
				}
			}
			if !done && n.els != nil {
				if err := r.render(b, n.els, sc, depth); err != nil {
					return err
				}
			}
		case *tmplFor:
			if err := r.renderFor(b, n, sc, depth); err != nil {
				return err
			}
		case *tmplInclude:
			if err := r.renderInclude(b, n, sc, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *tmplRenderer) renderFor(b *strings.Builder, n *tmplFor, sc *tmplScope, depth int) error {
	v, err := r.eval(n.iter, sc)
	if err != nil {
		return err
	}
	type pair struct{ k, v Value }
	var items []pair
	switch v.k {
	case KindDict:
		d := v.r.(*Dict)
		for _, k := range d.Keys() {
			items = append(items, pair{Str(k), d.m[k]})
		}
	case KindNil:
	default:
		xs, err := r.c.th.collect(v)
		if err != nil {
			return r.fail(n.line, n.col, "cannot iterate over "+v.TypeName())
		}
		for i, x := range xs {
			items = append(items, pair{Int(int64(i)), x})
		}
	}
	if len(items) == 0 {
		return r.render(b, n.els, sc, depth)
	}
	for i, it := range items {
		if err := r.c.th.tick(); err != nil {
			return err
		}
		loop := NewDict(5)
		loop.Set("index", Int(int64(i+1)))
		loop.Set("index0", Int(int64(i)))
		loop.Set("first", Bool(i == 0))
		loop.Set("last", Bool(i == len(items)-1))
		loop.Set("length", Int(int64(len(items))))
		vars := map[string]Value{"loop": DictValue(loop), n.val: it.v}
		if n.key != "" {
			vars[n.key] = it.k
		}
		if err := r.render(b, n.body, &tmplScope{vars: vars, parent: sc}, depth); err != nil {
			return err
		}
	}
	return nil
}

func (r *tmplRenderer) renderInclude(b *strings.Builder, n *tmplInclude, sc *tmplScope, depth int) error {
	pv, err := r.eval(n.path, sc)
	if err != nil {
		return err
	}
	if pv.k != KindString {
		return r.fail(n.line, n.col, "include path must be a string")
	}
	if depth >= maxIncludeDepth {
		return r.fail(n.line, n.col, fmt.Sprintf("include depth exceeds %d", maxIncludeDepth))
	}
	base := filepath.Dir(r.chain[len(r.chain)-1])
	target, err := assetPath(r.c, base, pv.r.(string))
	if err != nil {
		return r.fail(n.line, n.col, asError(err).Value.AsString())
	}
	for _, p := range r.chain {
		if p == target {
			names := make([]string, 0, len(r.chain)+1)
			for _, q := range append(append([]string(nil), r.chain...), target) {
				names = append(names, filepath.Base(q))
			}
			return r.fail(n.line, n.col, "circular include detected: "+strings.Join(names, " → "))
		}
	}
	src, err := r.c.th.in.host.ReadFile(target)
	if err != nil {
		return r.fail(n.line, n.col, "failed to read included template "+pv.r.(string)+": "+asError(ioError("read", err)).Value.AsString())
	}
	inner := sc
	if len(n.with) > 0 {
		vars := map[string]Value{}
		for _, w := range n.with {
			v, err := r.eval(w.e, sc)
			if err != nil {
				return err
			}
			vars[w.name] = v
		}
		inner = &tmplScope{vars: vars, parent: sc}
	}
	sub := &tmplRenderer{c: r.c, chain: append(append([]string(nil), r.chain...), target), name: pv.r.(string)}
	nodes, terr := parseTemplate(string(src))
	if terr != nil {
		return sub.fail(terr.line, terr.col, terr.msg)
	}
	return sub.render(b, nodes, inner, depth+1)
}

func parseTemplate(src string) ([]tmplNode, *tmplError) {
	toks, err := lexTemplate(src)
	if err != nil {
		return nil, err
	}
	p := &tmplParser{toks: toks}
	nodes, _, _, perr := p.block()
	return nodes, perr
}

func tmplDisplay(v Value) string {
	if v.k == KindNil {
		return ""
	}
	return Display(v)
}

func tmplTruthy(v Value) bool {
	if v.k == KindString {
		return strings.TrimSpace(v.r.(string)) != ""
	}
	return v.Truthy()
}

func (r *tmplRenderer) eval(e tmplExprNode, sc *tmplScope) (Value, error) {
	switch e := e.(type) {
	case *tmplLit:
		return e.v, nil
	case *tmplPath:
		v, ok := sc.lookup(e.root)
		if !ok {
			return Nil, nil
		}
		for _, st := range e.steps {
			if st.index != nil {
				i, err := r.eval(st.index, sc)
				if err != nil {
					return Nil, err
				}
				x, err := indexValue(v, i)
				if err != nil {
					return Nil, nil
				}
				v = x
				continue
			}
			x, err := getProperty(v, st.name, true)
			if err != nil {
				return Nil, nil
			}
			v = x
		}
		return v, nil
	case *tmplUnary:
		v, err := r.eval(e.x, sc)
		if err != nil {
			return Nil, err
		}
		return Bool(!tmplTruthy(v)), nil
	case *tmplBin:
		a, err := r.eval(e.l, sc)
		if err != nil {
			return Nil, err
		}
		switch e.op {
		case "and":
			if !tmplTruthy(a) {
				return False, nil
			}
			b, err := r.eval(e.r, sc)
			return Bool(tmplTruthy(b)), err
		case "or":
			if tmplTruthy(a) {
				return True, nil
			}
			b, err := r.eval(e.r, sc)
			return Bool(tmplTruthy(b)), err
		}
		b, err := r.eval(e.r, sc)
		if err != nil {
			return Nil, err
		}
		switch e.op {
		case "==":
			return Bool(Equal(a, b)), nil
		case "!=":
			return Bool(!Equal(a, b)), nil
		}
		c, ok := Compare(a, b)
		if !ok {
			return False, nil
		}
		switch e.op {
		case "<":
			return Bool(c < 0), nil
		case "<=":
			return Bool(c <= 0), nil
		case ">":
			return Bool(c > 0), nil
		}
		return Bool(c >= 0), nil
	case *tmplFilter:
		v, err := r.eval(e.x, sc)
		if err != nil {
			return Nil, err
		}
		args := make([]Value, len(e.args))
		for i, a := range e.args {
			if args[i], err = r.eval(a, sc); err != nil {
				return Nil, err
			}
		}
		out, msg := applyTmplFilter(e.name, v, args)
		if msg != "" {
			return Nil, r.fail(e.line, e.col, msg)
		}
		return out, nil
	}
	return Nil, nil
}

func applyTmplFilter(name string, v Value, args []Value) (Value, string) {
	arity := func(n ...int) string {
		for _, k := range n {
			if len(args) == k {
				return ""
			}
		}
		return "filter `" + name + "` got wrong number of arguments"
	}
	s := tmplDisplay(v)
	switch name {
	case "upper":
		return Str(strings.ToUpper(s)), arity(0)
	case "lower":
		return Str(strings.ToLower(s)), arity(0)
	case "trim":
		return Str(strings.TrimSpace(s)), arity(0)
	case "capitalize":
		if s == "" {
			return Str(""), arity(0)
		}
		r, n := utf8.DecodeRuneInString(s)
		return Str(string(unicode.ToUpper(r)) + strings.ToLower(s[n:])), arity(0)
	case "title":
		var b strings.Builder
		start := true
		for _, r := range s {
			switch {
			case unicode.IsSpace(r):
				start = true
				b.WriteRune(r)
			case start:
				b.WriteRune(unicode.ToUpper(r))
				start = false
			default:
				b.WriteRune(unicode.ToLower(r))
			}
		}
		return Str(b.String()), arity(0)
	case "length":
		switch v.k {
		case KindString:
			return Int(int64(utf8.RuneCountInString(s))), arity(0)
		case KindList:
			return Int(int64(v.r.(*List).Len())), arity(0)
		case KindSet:
			return Int(int64(v.r.(*Set).Len())), arity(0)
		case KindDict:
			return Int(int64(v.r.(*Dict).Len())), arity(0)
		case KindRange:
			return Int(v.r.(*Range).Len()), arity(0)
		case KindNil:
			return Int(0), arity(0)
		}
		return Nil, "filter `length` does not apply to " + v.TypeName()
	case "first", "last":
		var items []Value
		switch v.k {
		case KindList:
			items = v.r.(*List).items
		case KindSet:
			items = v.r.(*Set).items
		case KindString:
			rs := []rune(s)
			if len(rs) == 0 {
				return Nil, arity(0)
			}
			if name == "first" {
				return Str(string(rs[0])), arity(0)
			}
			return Str(string(rs[len(rs)-1])), arity(0)
		}
		if len(items) == 0 {
			return Nil, arity(0)
		}
		if name == "first" {
			return items[0], arity(0)
		}
		return items[len(items)-1], arity(0)
	case "reverse":
		if v.k == KindList {
			items := v.r.(*List).items
			out := make([]Value, len(items))
			for i, x := range items {
				out[len(items)-1-i] = x
			}
			return NewListValue(out), arity(0)
		}
		rs := []rune(s)
		for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
			rs[i], rs[j] = rs[j], rs[i]
		}
		return Str(string(rs)), arity(0)
	case "join":
		sep := ""
		if len(args) > 0 {
			sep = tmplDisplay(args[0])
		}
		var parts []string
		if v.k == KindList {
			for _, x := range v.r.(*List).items {
				parts = append(parts, tmplDisplay(x))
			}
		} else if v.k == KindSet {
			for _, x := range v.r.(*Set).items {
				parts = append(parts, tmplDisplay(x))
			}
		} else {
			return Str(s), arity(0, 1)
		}
		return Str(strings.Join(parts, sep)), arity(0, 1)
	case "default":
		if msg := arity(1); msg != "" {
			return Nil, msg
		}
		if tmplTruthy(v) {
			return v, ""
		}
		return args[0], ""
	case "json":
		if msg := arity(0, 1); msg != "" {
			return Nil, msg
		}
		if len(args) == 1 && tmplTruthy(args[0]) {
			return Str(prettyJSON(v)), ""
		}
		var b strings.Builder
		writeJSON(&b, v, 0)
		return Str(b.String()), ""
	case "indent":
		if msg := arity(1, 2); msg != "" {
			return Nil, msg
		}
		if args[0].k != KindInt {
			return Nil, "`indent` requires an integer width"
		}
		pad := strings.Repeat(" ", int(clampInt(int64(args[0].n), 0, 1000)))
		first := len(args) > 1 && tmplTruthy(args[1])
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			if (i > 0 || first) && l != "" {
				lines[i] = pad + l
			}
		}
		return Str(strings.Join(lines, "\n")), ""
	case "lines":
		out := []Value{}
		for _, l := range strings.Split(s, "\n") {
			out = append(out, Str(l))
		}
		return NewListValue(out), arity(0)
	case "escape_md":
		var b strings.Builder
		for _, r := range s {
			if strings.ContainsRune("\\`*_{}[]()#+-.!|<>", r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		return Str(b.String()), arity(0)
	case "replace":
		if msg := arity(2); msg != "" {
			return Nil, msg
		}
		return Str(strings.ReplaceAll(s, tmplDisplay(args[0]), tmplDisplay(args[1]))), ""
	}
	return Nil, "unknown filter `" + name + "`"
}

// prettyJSON renders v as two-space indented JSON with sorted keys.
func prettyJSON(v Value) string {
	var b strings.Builder
	var write func(v Value, indent string, depth int)
	write = func(v Value, indent string, depth int) {
		switch v.k {
		case KindList, KindSet:
			var items []Value
			if v.k == KindList {
				items = v.r.(*List).items
			} else {
				items = v.r.(*Set).items
			}
			if len(items) == 0 || depth > maxValueDepth {
				b.WriteString("[]")
				return
			}
			b.WriteString("[\n")
			for i, x := range items {
				b.WriteString(indent + "  ")
				write(x, indent+"  ", depth+1)
				if i < len(items)-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			b.WriteString(indent + "]")
		case KindDict:
			d := v.r.(*Dict)
			if d.Len() == 0 || depth > maxValueDepth {
				b.WriteString("{}")
				return
			}
			b.WriteString("{\n")
			for i, k := range d.Keys() {
				b.WriteString(indent + "  ")
				writeJSONString(&b, k)
				b.WriteString(": ")
				write(d.m[k], indent+"  ", depth+1)
				if i < d.Len()-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			b.WriteString(indent + "}")
		default:
			writeJSON(&b, v, depth)
		}
	}
	write(v, "", 0)
	return b.String()
}

// renderTemplate renders src (named name, read from path for includes).
func renderTemplate(c *Call, name, path, src string, bindings Value) (Value, error) {
	r := &tmplRenderer{c: c, chain: []string{path}, name: name}
	nodes, terr := parseTemplate(src)
	if terr != nil {
		return Nil, r.fail(terr.line, terr.col, terr.msg)
	}
	vars := map[string]Value{}
	if bindings.k == KindDict {
		for k, v := range bindings.r.(*Dict).m {
			vars[k] = v
		}
	}
	var b strings.Builder
	if err := r.render(&b, nodes, &tmplScope{vars: vars}, 0); err != nil {
		return Nil, err
	}
	return Str(b.String()), nil
}

func installTemplate(lib *Library) {
	fromFile := func(c *Call, args []Value) (Value, error) {
		p := Display(Arg(args, 0))
		abs, err := assetPath(c, callerDir(c), p)
		if err != nil {
			return Nil, err
		}
		b, err := c.th.in.host.ReadFile(abs)
		if err != nil {
			return Nil, ioError("Failed to read template "+abs, err)
		}
		if len(args) < 2 {
			return Str(string(b)), nil
		}
		return renderTemplate(c, p, abs, string(b), Arg(args, 1))
	}
	lib.Builtin("render", fromFile)
	lib.Builtin("render_prompt", fromFile)
	lib.Builtin("render_string", func(c *Call, args []Value) (Value, error) {
		return renderTemplate(c, "<inline>", filepath.Join(callerDir(c), "<inline>"), Display(Arg(args, 0)), Arg(args, 1))
	})
}

// callerDir is the folder of the module that calls a template builtin
// (the program's folder when unknown).
func callerDir(c *Call) string {
	if c.mod != nil {
		if dir, err := filepath.Abs(filepath.Dir(c.mod.path)); err == nil {
			return dir
		}
	}
	return c.th.in.host.Root()
}

// assetPath resolves a template path from dir: "@/rest" is rest under the
// project root (the nearest folder above dir holding harn.toml),
// "@alias/rest" is rest under the folder [asset_roots] maps alias to in
// that harn.toml, anything else is relative to dir.
func assetPath(c *Call, dir, p string) (string, error) {
	if filepath.IsAbs(p) {
		return p, nil
	}
	if !strings.HasPrefix(p, "@") {
		return filepath.Join(dir, p), nil
	}
	alias, rest, ok := strings.Cut(p[1:], "/")
	if !ok {
		return "", throwValue(Str("asset path " + p + " needs a path after the root"))
	}
	root, manifest := projectRoot(c, dir)
	if root == "" {
		return "", throwValue(Str("asset path " + p + ": no harn.toml found above " + dir))
	}
	if alias == "" {
		return filepath.Join(root, rest), nil
	}
	var m struct {
		AssetRoots map[string]string `toml:"asset_roots"`
	}
	if err := toml.Unmarshal(manifest, &m); err != nil {
		return "", throwValue(Str("asset path " + p + ": " + filepath.Join(root, catalog.File) + ": " + err.Error()))
	}
	sub, ok := m.AssetRoots[alias]
	if !ok {
		return "", throwValue(Str("asset path " + p + ": no asset root named " + alias + " in " + filepath.Join(root, catalog.File)))
	}
	return filepath.Join(root, sub, rest), nil
}

// projectRoot is the nearest folder at or above dir holding a harn.toml
// the host lets the program read, with that file's content (package
// catalog finds it, as it does for the route catalog).
func projectRoot(c *Call, dir string) (string, []byte) {
	p := catalog.FindProject(catalog.LoaderFunc(c.th.in.host.ReadFile), dir)
	return p.Dir(), p.Data
}
