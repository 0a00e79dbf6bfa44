package harn

import (
	"strings"

	"github.com/harnlang/harn-check/format/doc"
	"github.com/harnlang/harn-check/format/internal/cst"
)

func registerDecls(plain, aware func(string, func(*formatter, *cst.Node) *doc.Doc)) {
	for _, k := range []string{"function_declaration", "pipeline_declaration", "override_declaration",
		"tool_declaration", "method_signature"} {
		plain(k, (*formatter).headed)
	}
	for _, k := range []string{"block", "struct_body", "enum_body", "interface_body", "impl_body",
		"tool_body", "skill_body", "eval_pack_body"} {
		aware(k, (*formatter).blockOf)
	}
	plain("enum_variant", (*formatter).enumVariant)
	aware("attributed_declaration", (*formatter).attributed)
	aware("attribute_arguments", func(f *formatter, n *cst.Node) *doc.Doc {
		return f.bracketSeq(n, "(", ")", seqOptions{neverBreak: true})
	})
	plain("import_declaration", (*formatter).importDecl)
}

// sourceFile lays out the file: the shebang, then the top-level items with
// one blank line between them (none between imports).
func (f *formatter) sourceFile(root *cst.Node) *doc.Doc {
	kids := root.Kids
	var head *doc.Doc
	start := 0
	if len(kids) > 0 && kids[0].Kind == "shebang" {
		head = f.d.Text(strings.TrimRight(f.text(kids[0]), " \t\r"))
		start = kids[0].End
		kids = kids[1:]
	}
	afterOpen, body := f.stmtList(kids, start, topLevel, f.node)
	switch {
	case head == nil:
		return f.d.Concat(afterOpen, body)
	case body == nil:
		return f.d.Concat(head, afterOpen)
	}
	return f.d.Concat(head, afterOpen, doc.HardLine(), body)
}

// enumVariant lays out `Name` or `Name(fields)`; the fields wrap as
// upstream's parameters do.
func (f *formatter) enumVariant(n *cst.Node) *doc.Doc {
	name := n.Child("name")
	open, inner, ok := delimited(n, "(", ")")
	if name == nil || !ok {
		return f.generic(n)
	}
	_ = open
	nm := f.node(name)
	return f.d.Concat(nm, f.seq("(", open.End, inner, ")", seqOptions{prefix: f.ind*IndentWidth + nm.Width() + 1}))
}

// attributed lays out attributes one per line above their declaration.
func (f *formatter) attributed(n *cst.Node) *doc.Doc {
	var parts []*doc.Doc
	var prev *cst.Node
	for _, k := range n.Kids {
		if prev != nil {
			if isComment(k) && f.line(prev.End) == f.line(k.Start) {
				parts = append(parts, f.d.Text(" "), f.comment(k))
				prev = k
				continue
			}
			parts = append(parts, doc.HardLine())
		}
		parts = append(parts, f.node(k))
		prev = k
	}
	return f.d.Concat(parts...)
}

// importDecl lays out `import "path"` and `import { a, b } from "path"`;
// the name list has spaces inside its braces and wraps as upstream's
// (counting `import { `, ` } from `, the path and its quotes).
func (f *formatter) importDecl(n *cst.Node) *doc.Doc {
	names, source := n.Child("names"), n.Child("source")
	if names == nil || source == nil || hasCommentKid(names) {
		return f.generic(n)
	}
	path := strings.Trim(f.text(source), `"`)
	return f.genericKids(n, n.Kids, func(k *cst.Node, _ int) *doc.Doc {
		if k != names {
			return nil
		}
		return f.bracketSeq(k, "{", "}", seqOptions{pad: true, prefix: 18 + f.ind*IndentWidth + len(path)})
	})
}
