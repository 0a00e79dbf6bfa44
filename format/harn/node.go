package harn

import (
	"strings"

	"github.com/harnlang/harn-check/format/doc"
	"github.com/harnlang/harn-check/format/internal/cst"
)

// builder lays out one kind of node. commentAware builders place the
// comments among their node's children themselves; a node with comments
// among its children whose builder is not comment-aware is laid out by
// generic, which keeps every comment where it is.
type builder struct {
	build        func(f *formatter, n *cst.Node) *doc.Doc
	commentAware bool
}

var builders map[string]builder

func init() {
	builders = map[string]builder{}
	plain := func(kind string, b func(f *formatter, n *cst.Node) *doc.Doc) {
		builders[kind] = builder{build: b}
	}
	aware := func(kind string, b func(f *formatter, n *cst.Node) *doc.Doc) {
		builders[kind] = builder{build: b, commentAware: true}
	}
	registerDecls(plain, aware)
	registerStmts(plain, aware)
	registerExprs(plain, aware)
	registerTypes(plain, aware)
}

// node lays out n.
func (f *formatter) node(n *cst.Node) *doc.Doc {
	if n == nil {
		return nil
	}
	if f.depth >= MaxDepth {
		return f.verbatim(n)
	}
	if isComment(n) {
		return f.comment(n)
	}
	if !n.Named || len(n.Kids) == 0 {
		return f.verbatim(n)
	}
	f.depth++
	var d *doc.Doc
	if b, ok := builders[n.Kind]; ok && (b.commentAware || !hasCommentKid(n)) {
		d = b.build(f, n)
	} else {
		d = f.generic(n)
	}
	f.depth--
	return d
}

func isComment(n *cst.Node) bool {
	return n.Kind == "line_comment" || n.Kind == "block_comment"
}

func hasCommentKid(n *cst.Node) bool {
	for _, k := range n.Kids {
		if isComment(k) {
			return true
		}
	}
	return false
}

// comment is a comment's text without trailing whitespace (a block
// comment left open at the end of the file runs into the file's last
// newline).
func (f *formatter) comment(n *cst.Node) *doc.Doc {
	return f.d.Text(strings.TrimRight(f.text(n), " \t\r\n"))
}

// generic lays out n's children one after the other with the spacing of
// spaceBetween. Comments stay in place: a comment that started a line
// starts one, and a line comment ends its line. Lines after the first are
// indented one level.
func (f *formatter) generic(n *cst.Node) *doc.Doc { return f.genericKids(n, n.Kids, nil) }

// genericUpTo lays out n's children before stop as generic does.
func (f *formatter) genericUpTo(n, stop *cst.Node) *doc.Doc {
	for i, k := range n.Kids {
		if k == stop {
			return f.genericKids(n, n.Kids[:i], nil)
		}
	}
	return f.genericKids(n, n.Kids, nil)
}

// headed lays out a declaration as generic does, except that its
// parameter list wraps as upstream's: it breaks when the declaration's
// head (everything before the `(`, from the start of the line) and the
// flat parameters are wider than the width.
func (f *formatter) headed(n *cst.Node) *doc.Doc {
	return f.genericKids(n, n.Kids, func(k *cst.Node, before int) *doc.Doc {
		if k.Kind != "parameters" || hasCommentKid(k) {
			return nil
		}
		return f.bracketSeq(k, "(", ")", seqOptions{prefix: f.ind*IndentWidth + before + 1})
	})
}

// genericKids is generic over kids; hook, when it returns a document,
// lays out a child instead of f.node (before is the width of the
// children before it).
func (f *formatter) genericKids(n *cst.Node, kids []*cst.Node, hook func(k *cst.Node, before int) *doc.Doc) *doc.Doc {
	parts := make([]*doc.Doc, 0, 2*len(kids))
	var prev *cst.Node
	broke := false
	width := 0
	for _, k := range kids {
		if prev != nil {
			switch {
			case isComment(k) && f.line(prev.End) != f.line(k.Start):
				parts = append(parts, doc.HardLine())
				broke = true
			case prev.Kind == "line_comment":
				parts = append(parts, doc.HardLine())
				broke = true
			case isComment(k) || isComment(prev) || spaceBetween(n, prev, k):
				parts = append(parts, f.d.Text(" "))
				width++
			}
		}
		var d *doc.Doc
		if hook != nil {
			d = hook(k, width)
		}
		if d == nil {
			d = f.node(k)
		}
		width += d.Width()
		parts = append(parts, d)
		prev = k
	}
	if prev != nil && prev.Kind == "line_comment" {
		parts = append(parts, doc.HardLine())
		broke = true
	}
	if !broke || len(parts) < 2 {
		return f.d.ConcatOwned(parts)
	}
	return f.d.Concat(parts[0], f.d.Indent(f.d.Concat(parts[1:]...)))
}

// noSpaceAfter are tokens never followed by a space.
var noSpaceAfter = map[string]bool{
	"(": true, "[": true, ".": true, "?.": true, "?.[": true, "?[": true,
	"...": true, "@": true, "!": true, "${": true, "::": true,
}

// noSpaceBefore are tokens never preceded by a space.
var noSpaceBefore = map[string]bool{
	")": true, "]": true, ",": true, ";": true, ".": true, "?.": true,
	"?.[": true, "?[": true, "::": true,
}

// spaceBetween decides the space between two adjacent children of parent
// in generic layout.
func spaceBetween(parent, prev, next *cst.Node) bool {
	if !prev.Named && noSpaceAfter[prev.Kind] {
		return false
	}
	if !next.Named && noSpaceBefore[next.Kind] {
		return false
	}
	switch parent.Kind {
	case "unary_expression", "negative_literal", "propagation_expression", "optional_type",
		"call_expression", "generic_type", "variant_pattern", "attribute",
		"subscript_expression", "slice_expression":
		return false
	case "shape_type", "dict_pattern":
		if (!prev.Named && prev.Kind == "{") || (!next.Named && next.Kind == "}") {
			return false
		}
	case "function_type":
		if !prev.Named && prev.Kind == "fn" {
			return false
		}
	}
	if !next.Named {
		switch next.Kind {
		case ":", "?":
			return parent.Kind == "conditional_expression"
		case "<", ">":
			return parent.Kind == "binary_expression"
		}
	}
	if !prev.Named && (prev.Kind == "<") {
		return parent.Kind == "binary_expression"
	}
	switch next.Kind {
	case "arguments", "parameters", "type_arguments", "type_parameters", "pattern_arguments",
		"attribute_arguments", "approval_arguments":
		return false
	}
	return true
}
