package ast

import "strings"

// fakeNode is a hand-built tree node for tests, standing in for a
// tree-sitter node until the generated parser exists. Trees are written
// with the helpers below and laid out into source text by build, which
// fixes every span.
type fakeNode struct {
	kind           string
	named          bool
	isErr, missing bool
	text           string // leaves only
	start, end     int
	kids           []*fakeNode
	fields         []string
}

func (n *fakeNode) Kind() string    { return n.kind }
func (n *fakeNode) StartByte() int  { return n.start }
func (n *fakeNode) EndByte() int    { return n.end }
func (n *fakeNode) IsNamed() bool   { return n.named }
func (n *fakeNode) IsError() bool   { return n.isErr }
func (n *fakeNode) IsMissing() bool { return n.missing }
func (n *fakeNode) IsExtra() bool   { return false }
func (n *fakeNode) ChildCount() int { return len(n.kids) }
func (n *fakeNode) Child(i int) TreeNode {
	if i < 0 || i >= len(n.kids) {
		return nil
	}
	return n.kids[i]
}
func (n *fakeNode) FieldNameForChild(i int) string {
	if i < 0 || i >= len(n.fields) {
		return ""
	}
	return n.fields[i]
}

// fielded is a child with a field name.
type fielded struct {
	field string
	node  *fakeNode
}

// N builds a named node from children: *fakeNode, fielded (F) or string
// (an anonymous token).
func N(kind string, items ...any) *fakeNode {
	n := &fakeNode{kind: kind, named: true}
	for _, it := range items {
		switch x := it.(type) {
		case *fakeNode:
			n.kids = append(n.kids, x)
			n.fields = append(n.fields, "")
		case fielded:
			n.kids = append(n.kids, x.node)
			n.fields = append(n.fields, x.field)
		case string:
			n.kids = append(n.kids, T(x))
			n.fields = append(n.fields, "")
		}
	}
	return n
}

// F gives a child a field name; a string child is an anonymous token.
func F(field string, child any) fielded {
	if s, ok := child.(string); ok {
		return fielded{field, T(s)}
	}
	return fielded{field, child.(*fakeNode)}
}

// L is a named leaf with its source text.
func L(kind, text string) *fakeNode { return &fakeNode{kind: kind, named: true, text: text} }

// T is an anonymous token.
func T(text string) *fakeNode { return &fakeNode{kind: text, text: text} }

// I is an identifier leaf.
func I(name string) *fakeNode { return L("identifier", name) }

// Str is a double-quoted string with one content part.
func Str(s string) *fakeNode {
	if s == "" {
		return N("string", `"`, `"`)
	}
	return N("string", `"`, L("string_content", s), `"`)
}

// Err is an ERROR node holding the given children.
func Err(items ...any) *fakeNode {
	n := N("ERROR", items...)
	n.isErr = true
	return n
}

// Missing is a zero-width node the parser inserted.
func Missing(kind string) *fakeNode {
	return &fakeNode{kind: kind, missing: true, named: !strings.ContainsAny(kind, "{}()[];:=")}
}

// build lays the tree out as source text: leaves in order, one space
// between siblings, a newline after comments and between statements of
// the root, and sets every span.
func build(root *fakeNode) []byte {
	var b strings.Builder
	var lay func(n *fakeNode, sep string)
	lay = func(n *fakeNode, sep string) {
		n.start = b.Len()
		if len(n.kids) == 0 {
			if !n.missing {
				b.WriteString(n.text)
			}
			n.end = b.Len()
			return
		}
		childSep := " "
		if n.kind == "source_file" || n.kind == "block" {
			childSep = "\n"
		}
		for i, k := range n.kids {
			if i > 0 {
				b.WriteString(childSep)
			}
			lay(k, childSep)
			if (k.kind == "comment" || k.kind == "directive") && childSep != "\n" {
				b.WriteString("\n")
			}
		}
		n.end = b.Len()
		_ = sep
	}
	lay(root, "\n")
	return []byte(b.String())
}

// decl is `name := value`.
func decl(name string, value *fakeNode) *fakeNode {
	return N("short_var_declaration",
		F("left", N("expression_list", I(name))), ":=",
		F("right", N("expression_list", value)))
}

// pair is `key: value` with an identifier key.
func pair(key string, value *fakeNode) *fakeNode {
	return N("pair", F("key", I(key)), ":", F("value", value))
}

// table is `{ fields }`.
func table(fields ...*fakeNode) *fakeNode {
	items := []any{"{"}
	for _, f := range fields {
		items = append(items, f)
	}
	return N("table", append(items, "}")...)
}

// call is `fn(args)`.
func call(fn *fakeNode, args ...*fakeNode) *fakeNode {
	items := []any{"("}
	for i, a := range args {
		if i > 0 {
			items = append(items, ",")
		}
		items = append(items, a)
	}
	items = append(items, ")")
	return N("call_expression", F("function", fn), F("arguments", N("arguments", items...)))
}

// stmts wraps statements into a source_file.
func stmts(s ...*fakeNode) *fakeNode {
	items := make([]any, len(s))
	for i, x := range s {
		items[i] = x
	}
	return N("source_file", items...)
}
