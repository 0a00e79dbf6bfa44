package harn

import (
	"github.com/harnlang/harn-check/format/doc"
	"github.com/harnlang/harn-check/format/internal/cst"
)

// isSeparator reports the tokens a statement list or sequence drops and
// writes back itself: `;` and `,`.
func isSeparator(n *cst.Node) bool {
	return !n.Named && (n.Kind == ";" || n.Kind == ",")
}

// blankBetween reports a blank line in the source between offsets a and b
// (the end of one element and the start of the next; only whitespace and
// separators lie between).
func (f *formatter) blankBetween(a, b int) bool {
	return f.line(b)-f.line(a) >= 2
}

// listStyle says how stmtList separates items.
type listStyle int

const (
	// inBlock keeps the source's blank lines between items (a run is one).
	inBlock listStyle = iota
	// topLevel also puts one blank line between top-level items, except
	// between two imports.
	topLevel
)

// stmtList lays out the elements of a statement list: the named children
// among kids, one per line, with the comments among them. Separators are
// dropped. openEnd is the end of the token before the list (the `{`, or 0
// at the top of the file): comments on its line come back as afterOpen, to
// be written behind it. body is nil for a list with no items and no
// comments. item lays out one item.
func (f *formatter) stmtList(kids []*cst.Node, openEnd int, style listStyle, item func(*cst.Node) *doc.Doc) (afterOpen, body *doc.Doc) {
	var elems []*cst.Node
	for _, k := range kids {
		if k.Named || isComment(k) {
			elems = append(elems, k)
		}
	}
	var opens []*doc.Doc
	var parts []*doc.Doc
	prevEnd := openEnd
	var prev *cst.Node // previous element, nil before the first
	for i, e := range elems {
		if isComment(e) && f.line(e.Start) == f.line(prevEnd) && (prev != nil || openEnd > 0 || e.Start > 0) {
			// A comment on the line of what precedes it trails it.
			c := f.d.Concat(f.d.Text(" "), f.comment(e))
			if prev == nil {
				opens = append(opens, c)
			} else {
				parts = append(parts, c)
			}
			prevEnd = e.End
			continue
		}
		if prev != nil && prev.Kind == "block_comment" && f.line(prev.End) == f.line(e.Start) {
			// `/* note */ let x = 1`: the comment stays in front.
			parts = append(parts, f.d.Text(" "))
		} else if prev != nil {
			parts = append(parts, doc.HardLine())
			blank := f.blankBetween(prevEnd, e.Start)
			if style == topLevel && !isComment(prev) && !blank {
				blank = needsTopLevelBlank(prev, elems[i:])
			}
			if blank {
				parts = append(parts, doc.HardLine())
			}
		}
		if isComment(e) {
			parts = append(parts, f.comment(e))
		} else {
			parts = append(parts, item(e))
		}
		prev, prevEnd = e, e.End
	}
	if prev == nil && len(opens) == 0 {
		return nil, nil
	}
	return f.d.ConcatOwned(opens), f.d.ConcatOwned(parts)
}

// needsTopLevelBlank reports whether a blank line follows the top-level
// item prev, given the elements after it: when another item follows,
// unless both are imports.
func needsTopLevelBlank(prev *cst.Node, rest []*cst.Node) bool {
	for _, e := range rest {
		if isComment(e) {
			continue
		}
		return !(prev.Kind == "import_declaration" && e.Kind == "import_declaration")
	}
	return false
}

// block lays out a braced statement list: open, the items indented on
// their own lines, close on its own line. An empty list gives "{\n}" as
// upstream writes it. kids are the children between the braces.
func (f *formatter) block(open *doc.Doc, openEnd int, kids []*cst.Node, item func(*cst.Node) *doc.Doc) *doc.Doc {
	f.ind++
	afterOpen, body := f.stmtList(kids, openEnd, inBlock, item)
	f.ind--
	if body == nil {
		return f.d.Concat(open, afterOpen, doc.HardLine(), f.d.Text("}"))
	}
	return f.d.Concat(open, afterOpen, f.d.Indent(f.d.Concat(doc.HardLine(), body)), doc.HardLine(), f.d.Text("}"))
}

// braced returns the children of n between its first `{` (or the token
// opening) and its last `}`, and the `{` node.
func braced(n *cst.Node) (open *cst.Node, inner []*cst.Node) {
	first, last := -1, -1
	for i, k := range n.Kids {
		if !k.Named && (k.Kind == "{" || k.Kind == "block {") && first < 0 {
			first = i
		}
		if !k.Named && k.Kind == "}" {
			last = i
		}
	}
	if first < 0 || last < first {
		return nil, nil
	}
	return n.Kids[first], n.Kids[first+1 : last]
}

// blockOf lays out a node whose children are `{` statements `}` (block,
// and the bodies of declarations), items laid out with f.node.
func (f *formatter) blockOf(n *cst.Node) *doc.Doc {
	open, inner := braced(n)
	if open == nil {
		return f.generic(n)
	}
	return f.block(f.d.Text("{"), open.End, inner, f.node)
}

// seqOptions are the knobs of seq.
type seqOptions struct {
	// prefix is what upstream counts in front of the items when it decides
	// whether they fit: the sequence breaks when prefix + the flat items +
	// 1 exceed the width.
	prefix int
	// pad puts a space inside the brackets when flat (`{ a, b }`).
	pad bool
	// item lays out one item (default f.node).
	item func(*cst.Node) *doc.Doc
	// neverBreak keeps the sequence on one line (upstream never wraps
	// closure parameters, patterns, type arguments, attributes).
	neverBreak bool
}

// seq lays out a bracketed, comma-separated sequence: kids are the
// children between the brackets, openEnd the end of the opening one. Flat, it is "open a, b close"; broken,
// each item is on its own line, indented, with a trailing comma. Comments
// among the items break it and stay where they were: a comment on an
// item's line trails the item's comma, others are lines of their own.
// Blank lines between items are kept when the sequence breaks.
func (f *formatter) seq(open string, openEnd int, kids []*cst.Node, close string, o seqOptions) *doc.Doc {
	if o.item == nil {
		o.item = f.node
	}
	var items []*cst.Node
	comments := false
	for _, k := range kids {
		switch {
		case isComment(k):
			comments = true
		case k.Named:
			items = append(items, k)
		}
	}
	if len(items) == 0 && !comments {
		return f.d.Text(open + close)
	}
	f.ind++
	defer func() { f.ind-- }()
	if comments {
		return f.seqWithComments(open, openEnd, kids, close, o)
	}
	parts := make([]*doc.Doc, 0, 4*len(items))
	var prev *cst.Node
	for _, it := range items {
		if prev != nil {
			parts = append(parts, f.d.Text(","))
			if f.blankBetween(prev.End, it.Start) {
				parts = append(parts, f.d.IfBreak(doc.HardLine(), nil))
			}
			parts = append(parts, doc.Line())
		}
		parts = append(parts, o.item(it))
		prev = it
	}
	if o.neverBreak {
		if o.pad {
			return f.d.Concat(f.d.Text(open+" "), f.d.Flat(f.d.Concat(parts...)), f.d.Text(" "+close))
		}
		return f.d.Concat(f.d.Text(open), f.d.Flat(f.d.Concat(parts...)), f.d.Text(close))
	}
	edge := doc.SoftLine()
	budget := f.width - 1 - o.prefix
	if o.pad {
		edge = doc.Line()
		budget += 2
	}
	inner := f.d.Concat(
		f.d.Indent(f.d.Concat(edge, f.d.ConcatOwned(parts), f.d.IfBreak(f.d.Text(","), nil))),
		edge,
	)
	return f.d.Concat(f.d.Text(open), f.d.GroupWithin(budget, inner), f.d.Text(close))
}

// seqWithComments is seq's always-broken layout for a sequence with
// comments among its items. openEnd is the end of the opening bracket.
func (f *formatter) seqWithComments(open string, openEnd int, kids []*cst.Node, close string, o seqOptions) *doc.Doc {
	var lines []*doc.Doc
	var opens []*doc.Doc
	prevEnd := openEnd
	first := true
	for _, k := range kids {
		if !k.Named && !isComment(k) {
			continue
		}
		if isComment(k) && f.line(k.Start) == f.line(prevEnd) {
			c := f.d.Concat(f.d.Text(" "), f.comment(k))
			if first {
				opens = append(opens, c)
			} else {
				lines[len(lines)-1] = f.d.Concat(lines[len(lines)-1], c)
			}
			prevEnd = k.End
			continue
		}
		var d *doc.Doc
		if isComment(k) {
			d = f.comment(k)
		} else {
			d = f.d.Concat(o.item(k), f.d.Text(","))
		}
		if !first && f.blankBetween(prevEnd, k.Start) {
			d = f.d.Concat(doc.HardLine(), d)
		}
		lines = append(lines, d)
		first = false
		prevEnd = k.End
	}
	body := make([]*doc.Doc, 0, 2*len(lines))
	for _, l := range lines {
		body = append(body, doc.HardLine(), l)
	}
	return f.d.Concat(f.d.Text(open), f.d.Concat(opens...), f.d.Indent(f.d.Concat(body...)), doc.HardLine(), f.d.Text(close))
}
