// Package syntaxdiag turns the syntax errors of a Harn file into
// diagnostics with the Harn parser codes (HARN-PAR-001 to 005), a precise
// span and a message that says what was expected, instead of a dump of
// ERROR nodes.
//
// Two sources are combined. A lexical scan of the source finds what the
// parser only notices late or not at all: brackets left open (reported at
// the end of the file, naming where the bracket was opened), mismatched
// closers, unterminated strings and block comments, and characters no token
// can start. Then each outermost ERROR or MISSING node of the tree that the
// scan has not already explained becomes one diagnostic at its first token.
// A tree error is explained when it holds a bracket the scan reports, lies
// between a bracket and the wrong closer met instead of its own, or sits at
// the end of a file whose bracket, comment or string runs to the end. Of
// several brackets left open at the end only the innermost is reported (it
// took the outer ones' closers), at the closer the parser found missing when
// there is one; the others are its related locations. A closer that nothing
// takes while the next bracket closes the innermost open one is reported as
// one too many; a string that starts inside an interpolation and runs to the
// end of the line is reported as the interpolation's missing `}`. Which
// reading of a wrong closer or a cut string holds is decided by which leaves
// the rest of the file balanced. A closer with nothing open hands its report
// to the parser's first error in the same top-level item (usually where the
// opener was lost), and the parser's other errors there are dropped.
// At most one diagnostic is reported per line, so one mistake yields one
// diagnostic rather than a cascade.
//
// Invariants: the package reads the tree through lower.Node and does no IO;
// the result is sorted and deterministic; no input makes it panic.
package syntaxdiag

import (
	"fmt"
	"sort"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/lower"
)

// Expecter is implemented by trees whose ERROR nodes know what the parser
// would have accepted where they start (from the parse table's lookahead
// set): anonymous tokens in backquotes, named symbols by kind.
type Expecter interface {
	Expected() []string
}

// Diagnose returns the syntax diagnostics of src, whose tree is root.
func Diagnose(path string, src []byte, root lower.Node) []diagnostics.Diagnostic {
	d := &diagnoser{path: path, src: src, root: root, eofOpen: -1}
	problems, toEOF := scan(src)
	d.unclosed = toEOF
	// Brackets left open at the end come innermost first. Only the
	// innermost is reported: an inner bracket left open takes the closers
	// meant for the outer ones, so `log({a: 1` followed by the function's
	// `}` is one mistake, not two. The outer ones are named as related
	// locations of that one diagnostic.
	innermost := -1
	var innerOpen *opener
	for _, p := range problems {
		if p.open != nil && p.found == 0 && innermost >= 0 {
			d.alsoOpen(innermost, p)
			continue
		}
		if p.open != nil && p.found == 0 {
			innermost, innerOpen = len(d.lex), p.open
		}
		d.addLexical(p)
	}
	d.walk(root, nil)
	if innermost >= 0 {
		d.eofOpen = innermost
		d.placeAtMissingCloser(innermost, innerOpen)
	}
	out := d.dedupe()
	diagnostics.Sort(out)
	return out
}

// treeDiag is a diagnostic for an ERROR or MISSING node, with the node's
// extent.
type treeDiag struct {
	diagnostics.Diagnostic
	start, end int
	// missing is the kind of a MISSING node ("" for an ERROR node).
	missing string
}

type diagnoser struct {
	path string
	src  []byte
	root lower.Node
	// lines indexes src, made at its first use (lineIndex).
	lines *diagnostics.LineIndex
	lex   []diagnostics.Diagnostic
	tree  []treeDiag
	// orphans parallels lex: for a closer met with nothing open, its
	// stretch (at < 0 for every other diagnostic).
	orphans []orphan
	// opens are the brackets the scan found left open at the end,
	// innermost first; eofOpen is the index in lex of the diagnostic of
	// the innermost one, or -1.
	opens   []int
	eofOpen int
	// explained are the stretches of source a lexical diagnostic accounts
	// for: from a bracket left open to the mismatched closer met instead.
	// The parser's errors inside such a stretch are that bracket's echo.
	explained []diagnostics.Span
	// unclosed is set when the scan found a bracket, comment or multi-line
	// string left open at the end of the file; the parser's complaints at
	// the end are then the same error.
	unclosed bool
}

func (d *diagnoser) span(start, end int) diagnostics.Span {
	start = min(max(start, 0), len(d.src))
	end = min(max(end, start), len(d.src))
	return diagnostics.Span{Start: start, End: end}
}

// lineIndex returns the index of the source's lines, made at its first
// use: only a file with syntax problems needs it, and making it for every
// file was a fortieth of the bytes a check of many files allocated.
func (d *diagnoser) lineIndex() *diagnostics.LineIndex {
	if d.lines == nil {
		d.lines = diagnostics.NewLineIndex(d.src)
	}
	return d.lines
}

// lineCol renders a byte offset as 1-based line:column, columns counted
// in characters as in the text output.
func (d *diagnoser) lineCol(off int) string {
	p := d.lineIndex().RuneColumn(off)
	return fmt.Sprintf("%d:%d", p.Line+1, p.Column+1)
}

func (d *diagnoser) addLexical(p lexProblem) {
	source := diagnostics.SourceLexer
	if p.code == "HARN-PAR-001" || p.code == "HARN-PAR-002" {
		source = diagnostics.SourceParser
	}
	msg := p.message
	if p.open == nil && p.found != 0 {
		// A closer with nothing for it open, in upstream's words.
		msg = fmt.Sprintf("Unexpected %c at %s: %s", p.found, d.lineCol(p.start), p.message)
		if want := d.wantBefore(p.start); want != "" {
			msg = fmt.Sprintf("Expected %s, got %c at %s: %s", want, p.found, d.lineCol(p.start), p.message)
		}
	}
	if p.upstream != "" {
		msg = p.upstream + " at " + d.lineCol(p.start)
		if p.message != "" {
			msg += ": " + p.message
		}
	}
	diag := diagnostics.New(d.path, source, p.code, d.span(p.start, p.end), msg)
	diag.Help = p.help
	if p.open != nil {
		what := d.describeOpener(p.open)
		closer := "`" + string(closing(p.open.char)) + "`"
		at := d.lineCol(p.open.pos)
		if p.found == 0 {
			d.unclosed = true
			d.opens = append(d.opens, p.open.pos)
			// Upstream's words at the end of the file; placeAtMissingCloser
			// rewords it when it moves the report to a missing closer.
			diag.Message = fmt.Sprintf("Unexpected end of file, expected %c to close the %s opened at %s", closing(p.open.char), what, at)
		} else {
			diag.Message = fmt.Sprintf("unexpected `%c`: expected %s to close the %s opened at %s", p.found, closer, what, at)
			d.explained = append(d.explained, diagnostics.Span{Start: p.open.pos, End: p.start})
		}
		diag.Related = []diagnostics.Related{{
			Span:    d.span(p.open.pos, p.open.pos+p.open.width),
			Message: "the " + what + " opened here",
		}}
	}
	d.lex = append(d.lex, diag)
	o := orphan{at: -1}
	if p.orphan {
		o = orphan{since: p.since, at: p.start}
	}
	d.orphans = append(d.orphans, o)
}

// orphan is the stretch of a closer that met nothing open: from the start
// of its top-level item to the closer.
type orphan struct {
	since, at int
	// adopted is set when a parser error in the stretch reports the
	// mistake instead.
	adopted bool
}

// adoptOrphans handles closers met with nothing open (an opener was lost
// in the top-level item before the closer): the parser's first
// error in that stretch is usually where the opener belongs, so it is
// reported instead of the closer, which becomes its related location, and
// the parser's other errors in the stretch are dropped (the returned set,
// by index in d.tree, which must be sorted).
func (d *diagnoser) adoptOrphans() map[int]bool {
	drop := map[int]bool{}
	for i, o := range d.orphans {
		if o.at < 0 {
			continue
		}
		first := -1
		for k, t := range d.tree {
			if max(t.end, t.start+1) <= o.since || t.Span.Start >= o.at || drop[k] {
				continue
			}
			if first < 0 {
				first = k
				continue
			}
			drop[k] = true
		}
		if first < 0 {
			continue
		}
		d.orphans[i].adopted = true
		d.tree[first].Related = append(d.tree[first].Related, diagnostics.Related{
			Span:    d.span(o.at, o.at+1),
			Message: "this `" + string(d.src[o.at]) + "` then has nothing to close",
		})
	}
	return drop
}

// placeAtMissingCloser moves the diagnostic of the innermost bracket left
// open at the end (d.lex[i]) to where the parser inserted the missing
// closer of that bracket, when it did: `fn f(a: int {` is reported at the
// `{`, where the `)` belongs, not at the end of the file. The MISSING node's
// own diagnostic is then the same mistake and is dropped.
func (d *diagnoser) placeAtMissingCloser(i int, o *opener) {
	want := string(closing(o.char))
	for k, t := range d.tree {
		if t.missing != want || t.start < o.pos+o.width || d.atEOF(t.start) {
			continue
		}
		d.lex[i].Code = "HARN-PAR-001"
		d.lex[i].Message = "Expected " + strings.TrimPrefix(d.lex[i].Message, "Unexpected end of file, expected ")
		d.lex[i].Source = diagnostics.SourceParser
		d.lex[i].Span = d.span(t.start, t.start)
		d.tree = append(d.tree[:k], d.tree[k+1:]...)
		return
	}
}

// alsoOpen records a bracket left open at the end outside the innermost
// one (the diagnostic d.lex[i]) as a related location of that diagnostic.
func (d *diagnoser) alsoOpen(i int, p lexProblem) {
	d.opens = append(d.opens, p.open.pos)
	what := d.describeOpener(p.open)
	d.lex[i].Related = append(d.lex[i].Related, diagnostics.Related{
		Span:    d.span(p.open.pos, p.open.pos+p.open.width),
		Message: "the " + what + " opened here is still open too",
	})
}

// openerNames names the construct a bracket opens, by the tree node that
// starts with it.
var openerNames = map[string]string{
	"block":                    "block",
	"dict":                     "dict",
	"list":                     "list",
	"closure":                  "closure",
	"arguments":                "argument list",
	"parameters":               "parameter list",
	"parenthesized_expression": "parenthesis",
	"struct_body":              "struct body",
	"enum_body":                "enum body",
	"interface_body":           "interface body",
	"impl_body":                "impl body",
	"tool_body":                "tool body",
	"skill_body":               "skill body",
	"eval_pack_body":           "eval pack body",
	"match_body":               "match body",
	"shape_type":               "shape type",
	"import_list":              "import list",
	"field_initializer_list":   "struct literal",
	"dict_pattern":             "dict pattern",
	"list_pattern":             "list pattern",
	"type_arguments":           "type argument list",
	"attribute_arguments":      "attribute argument list",
	"subscript_expression":     "subscript",
}

func (d *diagnoser) describeOpener(o *opener) string {
	if o.interp {
		return "interpolation"
	}
	if name := d.nodeStartingAt(d.root, o.pos); name != "" {
		return name
	}
	// The tree is too broken to say; guess from the character before.
	prev := byte(0)
	for i := o.pos - 1; i >= 0; i-- {
		if c := d.src[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			prev = c
			break
		}
	}
	word := prev == '_' || prev == ')' || prev == ']' || prev == '"' ||
		(prev >= 'a' && prev <= 'z') || (prev >= 'A' && prev <= 'Z') || (prev >= '0' && prev <= '9')
	switch o.char {
	case '(':
		if word {
			return "argument list"
		}
		return "parenthesis"
	case '[':
		if word {
			return "subscript"
		}
		return "list"
	}
	if word {
		return "block"
	}
	return "dict"
}

// nodeStartingAt finds the innermost named construct of openerNames whose
// opening bracket is at pos.
func (d *diagnoser) nodeStartingAt(n lower.Node, pos int) string {
	if n.StartByte() > pos || n.EndByte() < pos {
		return ""
	}
	// Children are in source order: the ones that can hold pos are found
	// by a binary search, not a scan (a garbled file has one lexical
	// problem per few bytes and a root with as many children).
	k := n.ChildCount()
	first := sort.Search(k, func(i int) bool {
		c := n.Child(i)
		return c != nil && c.EndByte() >= pos
	})
	for i := first; i < k; i++ {
		c := n.Child(i)
		if c == nil {
			continue
		}
		if c.StartByte() > pos {
			break
		}
		if name := d.nodeStartingAt(c, pos); name != "" {
			return name
		}
	}
	if !n.IsNamed() || n.IsError() {
		return ""
	}
	name, ok := openerNames[n.Kind()]
	if !ok {
		return ""
	}
	// The bracket must be the node's own first token (for a subscript,
	// the `[` after the object).
	if n.StartByte() == pos || (n.Kind() == "subscript_expression" && pos < len(d.src) && d.src[pos] == '[') {
		return name
	}
	return ""
}

// walk reports outermost ERROR and MISSING nodes. parent is the nearest
// named ancestor, used to say where the error is.
func (d *diagnoser) walk(n lower.Node, parent lower.Node) {
	switch {
	case n.IsMissing():
		d.missing(n, parent)
		return
	case n.IsError():
		d.errorNode(n, parent)
		return
	}
	if n.IsNamed() {
		parent = n
	}
	for i := 0; i < n.ChildCount(); i++ {
		if c := n.Child(i); c != nil {
			d.walk(c, parent)
		}
	}
}

// wantBefore says what must follow the token before off when only an
// expression can: "expression" after `=`, an operator or `return`, else "".
func (d *diagnoser) wantBefore(off int) string {
	i := min(off, len(d.src)) - 1
	for i >= 0 && (d.src[i] == ' ' || d.src[i] == '\t') {
		i--
	}
	if i < 0 {
		return ""
	}
	switch d.src[i] {
	case '=', '+', '-', '*', '/', '%', '<', '>', '!', '&', '|':
		if d.src[i] == '>' && i > 0 && d.src[i-1] == '-' {
			return "" // `->` leads a type or a block
		}
		return "expression"
	}
	if i >= 5 && string(d.src[i-5:i+1]) == "return" && (i < 6 || !isWordByte(d.src[i-6])) {
		return "expression"
	}
	return ""
}

// emptyStatement reports whether the `;` at off is one of two in a row
// or opens a block: a statement was due and there is none.
func (d *diagnoser) emptyStatement(off int) bool {
	blank := func(c byte) bool { return c == ' ' || c == '\t' || isNL(c) }
	i := min(off, len(d.src)) - 1
	for i >= 0 && blank(d.src[i]) {
		i--
	}
	j := off + 1
	for j < len(d.src) && blank(d.src[j]) {
		j++
	}
	return (i >= 0 && (d.src[i] == ';' || d.src[i] == '{')) || (j < len(d.src) && d.src[j] == ';')
}

func isWordByte(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// atEOF reports whether offset off is at the end of the file, trailing
// whitespace and comments aside.
func (d *diagnoser) atEOF(off int) bool {
	return strings.TrimSpace(string(d.src[min(max(off, 0), len(d.src)):])) == ""
}

func (d *diagnoser) missing(n lower.Node, parent lower.Node) {
	what := describeSymbol(n.Kind(), n.IsNamed())
	if n.Kind() == "identifier" && d.wantBefore(n.StartByte()) != "" {
		// The parser stands a missing name in for any missing operand.
		what = d.wantBefore(n.StartByte())
	}
	code := "HARN-PAR-001"
	msg := "Expected " + what + context(parent)
	if d.atEOF(n.StartByte()) {
		code = "HARN-PAR-002"
		msg = "Unexpected end of file, expected " + what
	}
	d.tree = append(d.tree, treeDiag{diagnostics.New(d.path, diagnostics.SourceParser, code, d.span(n.StartByte(), n.StartByte()), msg), n.StartByte(), n.EndByte(), n.Kind()})
}

func (d *diagnoser) errorNode(n lower.Node, parent lower.Node) {
	tok := firstToken(n)
	if tok != nil {
		// Quote a short complete construct (a string, a call) rather than
		// its first character.
		if c := firstChild(n); c != nil && c.IsNamed() && !c.IsError() && c.EndByte()-c.StartByte() <= 40 && c.StartByte() == tok.StartByte() {
			tok = c
		}
	}
	if tok == nil || d.atEOF(n.StartByte()) {
		d.tree = append(d.tree, treeDiag{diagnostics.New(d.path, diagnostics.SourceParser, "HARN-PAR-002",
			d.span(len(d.src), len(d.src)), "Unexpected end of file"+context(parent)), n.StartByte(), n.EndByte(), ""})
		return
	}
	text := string(d.src[min(tok.StartByte(), len(d.src)):min(max(tok.EndByte(), tok.StartByte()), len(d.src))])
	if len(text) > 40 {
		text = text[:40] + "…"
	}
	// Upstream's "Expected X, got Y at LINE:COL", then where.
	at := d.lineCol(tok.StartByte())
	msg := fmt.Sprintf("Unexpected %s at %s%s", text, at, context(parent))
	if e, ok := n.(Expecter); ok {
		tokKind := tok.Kind()
		if !tok.IsNamed() {
			tokKind = "`" + tokKind + "`"
		}
		if want := summarize(e.Expected(), tokKind); want != "" {
			msg = fmt.Sprintf("Expected %s, got %s at %s%s", want, text, at, context(parent))
		}
	}
	if text == ";" && d.emptyStatement(tok.StartByte()) {
		msg = fmt.Sprintf("Expected statement, got ; at %s%s (an empty statement)", at, context(parent))
	}
	d.tree = append(d.tree, treeDiag{diagnostics.New(d.path, diagnostics.SourceParser, "HARN-PAR-001",
		d.span(tok.StartByte(), tok.EndByte()), msg), n.StartByte(), n.EndByte(), ""})
}

// firstToken returns the first non-extra leaf of n.
func firstToken(n lower.Node) lower.Node {
	if n.ChildCount() == 0 {
		if n.IsExtra() || n.EndByte() <= n.StartByte() {
			return nil
		}
		return n
	}
	for i := 0; i < n.ChildCount(); i++ {
		c := n.Child(i)
		if c == nil || (c.IsExtra() && !c.IsError()) {
			continue
		}
		if t := firstToken(c); t != nil {
			return t
		}
	}
	return nil
}

// firstChild returns the first non-extra child of n.
func firstChild(n lower.Node) lower.Node {
	for i := 0; i < n.ChildCount(); i++ {
		if c := n.Child(i); c != nil && !c.IsExtra() {
			return c
		}
	}
	return nil
}

// symbolNames describes named grammar symbols in messages.
var symbolNames = map[string]string{
	"identifier":      "name",
	"_expression":     "expression",
	"_type":           "type",
	"_pattern":        "pattern",
	"block":           "block `{ ... }`",
	"string":          "string",
	"integer":         "integer",
	"parameters":      "parameter list",
	"arguments":       "argument list",
	"type_identifier": "type name",
}

func describeSymbol(kind string, named bool) string {
	if !named {
		return "`" + kind + "`"
	}
	if s, ok := symbolNames[kind]; ok {
		return s
	}
	return strings.TrimPrefix(strings.ReplaceAll(kind, "_", " "), " ")
}

// contextNames says where an error sits, by the enclosing node.
var contextNames = map[string]string{
	"parameters":           "parameter list",
	"arguments":            "argument list",
	"list":                 "list",
	"dict":                 "dict",
	"block":                "block",
	"match_body":           "match",
	"match_arm":            "match arm",
	"import_declaration":   "import",
	"function_declaration": "function declaration",
	"variable_declaration": "binding",
	"shape_type":           "shape type",
	"struct_body":          "struct",
	"enum_body":            "enum",
	"type_arguments":       "type arguments",
	"if_expression":        "if",
	"for_statement":        "for loop",
	"while_statement":      "while loop",
	"closure":              "closure",
	"string":               "string",
	"interpolation":        "interpolation",
}

func context(parent lower.Node) string {
	if parent == nil {
		return ""
	}
	if name, ok := contextNames[parent.Kind()]; ok {
		return " in " + name
	}
	return ""
}

// dedupe keeps every lexical diagnostic and the tree diagnostics they do not
// explain, at most one per line; an unclosed bracket also explains whatever
// the parser reports at the end of the file.
func (d *diagnoser) dedupe() []diagnostics.Diagnostic {
	lineOf := func(off int) int { return d.lineIndex().Line(min(max(off, 0), len(d.src))) }
	used := map[int]bool{}
	// A line whose string is cut at its end has its other lexical
	// complaints (a `$` of an interpolation the string was meant to hold)
	// explained, and so is the next line's parser error (the parser
	// resumes there inside the wrong construct).
	stringCut := map[int]bool{}
	for _, l := range d.lex {
		if l.Code == "HARN-PAR-004" || strings.Contains(l.Message, "the interpolation opened") {
			stringCut[lineOf(l.Span.Start)] = true
		}
	}
	sort.SliceStable(d.tree, func(i, j int) bool { return d.tree[i].Span.Start < d.tree[j].Span.Start })
	dropTree := d.adoptOrphans()
	var out []diagnostics.Diagnostic
	for i, l := range d.lex {
		line := lineOf(l.Span.Start)
		if l.Code == "HARN-PAR-003" && stringCut[line] {
			continue
		}
		if d.orphans[i].adopted {
			continue
		}
		used[line] = true
		out = append(out, l)
	}
	stumbled := false
	for k, t := range d.tree {
		if dropTree[k] {
			continue
		}
		if d.unclosed && (t.Code == "HARN-PAR-002" || d.atEOF(t.Span.Start) || d.atEOF(t.end)) {
			continue
		}
		if d.containsOpen(t.start, t.end) || d.inExplained(t.start, t.end) {
			continue
		}
		if d.eofOpen >= 0 && t.start > d.opens[0] {
			// After the innermost bracket left open at the end, the parser
			// is inside the wrong construct: its complaints are that
			// bracket's. The first one is where it noticed.
			if !stumbled {
				stumbled = true
				d.lex[d.eofOpen].Related = append(d.lex[d.eofOpen].Related, diagnostics.Related{
					Span:    t.Span,
					Message: "the parser first stumbled here",
				})
				for i := range out {
					if out[i].Span == d.lex[d.eofOpen].Span && out[i].Message == d.lex[d.eofOpen].Message {
						out[i].Related = d.lex[d.eofOpen].Related
					}
				}
			}
			continue
		}
		line := lineOf(t.Span.Start)
		if used[line] || stringCut[line-1] {
			continue
		}
		// With brackets balanced, an unexpected closer right after another
		// error is that error's echo (the parser lost the construct the
		// closer belongs to).
		if d.isCloser(t.Span) && (used[line-1] || used[line-2]) {
			continue
		}
		used[line] = true
		out = append(out, t.Diagnostic)
	}
	return out
}

func (d *diagnoser) isCloser(sp diagnostics.Span) bool {
	if sp.End-sp.Start != 1 {
		return false
	}
	switch d.src[sp.Start] {
	case '}', ')', ']':
		return true
	}
	return false
}

// inExplained reports whether a tree error's extent [start, end) meets a
// stretch that a lexical diagnostic already explains (an ERROR node that
// swallowed the unclosed bracket, or a MISSING closer the parser invented
// inside it). An empty extent (a MISSING node) counts as its position.
func (d *diagnoser) inExplained(start, end int) bool {
	end = max(end, start+1)
	for _, r := range d.explained {
		if start <= r.End && end > r.Start {
			return true
		}
	}
	return false
}

// containsOpen reports whether an error region holds a bracket the scan
// found left open: the parser's error is then that bracket's.
func (d *diagnoser) containsOpen(start, end int) bool {
	for _, p := range d.opens {
		if p >= start && p < end {
			return true
		}
	}
	return false
}

// punctuation worth naming in an "expected" list, in the order named.
var punctuation = []string{"`,`", "`)`", "`]`", "`}`", "`:`", "`->`", "`=`", "`...`", "`;`"}

// summarize condenses a lookahead set into a short phrase ("expression
// or `)`", upstream's nouns), or "" when the set is too broad to help or contains the
// unexpected token itself (the parser gave up earlier than the token).
func summarize(expected []string, tokKind string) string {
	if len(expected) == 0 {
		return ""
	}
	set := map[string]bool{}
	for _, e := range expected {
		set[e] = true
	}
	if set[tokKind] {
		return ""
	}
	var parts []string
	switch {
	case set["variable_declaration"]:
		return "statement" // a statement may start here
	case set["binary_expression"] || set["call_expression"]:
		parts = append(parts, "expression")
	case set["or_pattern"]:
		parts = append(parts, "pattern")
	case set["union_type"]:
		parts = append(parts, "type")
	case set["identifier"]:
		parts = append(parts, "name")
	}
	for _, p := range punctuation {
		if set[p] {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 || len(parts) > 5 {
		return ""
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}
