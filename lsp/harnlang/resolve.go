package harnlang

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/lsp/features"
)

// Definition kinds: those of locals.scm's @local.definition.KIND captures
// and, for declarations locals.scm does not name, the declaration's
// keyword.
const (
	kindFunction  = "function"
	kindParameter = "parameter"
	kindVar       = "var"
	kindImport    = "import"
	kindType      = "type"
)

// hoisted are the kinds visible in their whole scope, before their
// declaration too; variables and parameters are visible after it.
var hoisted = map[string]bool{kindFunction: true, kindImport: true, kindType: true,
	"pipeline": true, "tool": true, "skill": true, "eval_pack": true}

// declQuery names the declarations locals.scm leaves out: types (found by
// type_identifier uses) and the top-level forms with a name.
const declQuery = `
(struct_declaration name: (identifier) @type)
(enum_declaration name: (identifier) @type)
(interface_declaration name: (identifier) @type)
(type_alias_declaration name: (identifier) @type)
(type_parameter name: (identifier) @type)
(pipeline_declaration name: (identifier) @pipeline)
(tool_declaration name: (identifier) @tool)
(skill_declaration name: (identifier) @skill)
(eval_pack_declaration name: (identifier) @eval_pack)
(type_identifier) @type.reference
`

// def is one declared name.
type def struct {
	name   string
	kind   string
	span   diagnostics.Span // the name
	decl   diagnostics.Span // what hover shows: the declaration up to its body
	doc    string           // the doc comment above the declaration
	scope  int
	module string // for imports: the module path as written
}

// ref is one use of a name.
type ref struct {
	name string
	span diagnostics.Span
	typ  bool // a type_identifier: resolves to type declarations only
}

// index is the names of one tree: scopes, declarations and uses.
type index struct {
	scopes []diagnostics.Span // scopes[0] is the file
	parent []int
	defs   []*def
	byName map[string][]*def
	byDef  map[diagnostics.Span]*def
	refs   []ref
	byRef  map[diagnostics.Span]ref
}

// indexCacheSize is how many name indexes Features keeps: the documents
// being worked on, each at its current version.
const indexCacheSize = 8

type cachedIndex struct {
	tree *sitter.Tree
	src  []byte
	ix   *index
}

// index returns the name index of tree over src, built once per tree: a
// hover, a definition and a completion on the same version share it. The
// text is compared too, so a tree address reused after a close cannot
// return another text's index.
func (f *Features) index(tree *sitter.Tree, src []byte) *index {
	f.mu.Lock()
	for _, c := range f.indexes {
		if c.tree == tree && bytes.Equal(c.src, src) {
			f.mu.Unlock()
			return c.ix
		}
	}
	f.mu.Unlock()
	ix := f.buildIndex(tree, src)
	f.mu.Lock()
	f.indexes = append(f.indexes, cachedIndex{tree, src, ix})
	if len(f.indexes) > indexCacheSize {
		f.indexes = f.indexes[1:]
	}
	f.mu.Unlock()
	return ix
}

// buildIndex builds the name index of tree.
func (f *Features) buildIndex(tree *sitter.Tree, src []byte) *index {
	ix := &index{byName: map[string][]*def{}, byDef: map[diagnostics.Span]*def{}, byRef: map[diagnostics.Span]ref{}}
	root := tree.RootNode()
	ix.scopes = append(ix.scopes, diagnostics.Span{Start: 0, End: max(len(src), int(root.EndByte()))})
	ix.parent = append(ix.parent, -1)
	type pending struct {
		kind string
		node sitter.Node
	}
	var defs []pending
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	names := f.locals.CaptureNames()
	matches := qc.Matches(f.locals, root, src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		for _, c := range m.Captures {
			name := names[c.Index]
			sp := nodeSpan(&c.Node)
			switch {
			case name == "local.scope":
				if sp.Start != 0 || sp.End != ix.scopes[0].End {
					ix.scopes = append(ix.scopes, sp)
				}
			case strings.HasPrefix(name, "local.definition."):
				defs = append(defs, pending{strings.TrimPrefix(name, "local.definition."), c.Node})
			case name == "local.reference":
				if !memberName(&c.Node) {
					ix.addRef(ref{name: c.Node.Utf8Text(src), span: sp})
				}
			}
		}
	}
	dq := f.decls
	dnames := dq.CaptureNames()
	matches = qc.Matches(dq, root, src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		for _, c := range m.Captures {
			if name := dnames[c.Index]; name == "type.reference" {
				ix.addRef(ref{name: c.Node.Utf8Text(src), span: nodeSpan(&c.Node), typ: true})
			} else {
				defs = append(defs, pending{name, c.Node})
			}
		}
	}
	// Scopes nest: sort outer first and find each one's parent.
	outer := ix.scopes[1:]
	slices.SortFunc(outer, func(a, b diagnostics.Span) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return b.End - a.End
	})
	outer = slices.Compact(outer)
	ix.scopes = append(ix.scopes[:1], outer...)
	for i := 1; i < len(ix.scopes); i++ {
		ix.parent = append(ix.parent, ix.innermost(ix.scopes[i], i))
	}
	for _, p := range defs {
		n := p.node
		d := &def{name: n.Utf8Text(src), kind: p.kind, span: nodeSpan(&n)}
		if _, dup := ix.byDef[d.span]; dup {
			continue
		}
		declNode := declarationOf(&n, p.kind)
		d.decl = headerSpan(declNode, src)
		d.doc = docComment(declNode, src)
		d.scope = ix.innermost(d.span, len(ix.scopes))
		if hoisted[p.kind] && p.kind != kindImport && ix.scopes[d.scope] == nodeSpan(declNode) {
			// A named function, pipeline or tool is a scope of its own;
			// its name belongs to the enclosing one.
			d.scope = ix.parent[d.scope]
		}
		if p.kind == kindImport {
			if imp := ancestor(&n, "import_declaration"); imp != nil {
				if s := imp.ChildByFieldName("source"); s != nil {
					d.module = unquote(s.Utf8Text(src))
				}
			}
		}
		ix.defs = append(ix.defs, d)
		ix.byName[d.name] = append(ix.byName[d.name], d)
		ix.byDef[d.span] = d
	}
	return ix
}

func (ix *index) addRef(r ref) {
	if _, ok := ix.byRef[r.span]; ok {
		return
	}
	ix.refs = append(ix.refs, r)
	ix.byRef[r.span] = r
}

// innermost returns the innermost scope among scopes[:limit] holding sp
// (0, the file, when none does). Scopes are sorted by start, outer first.
func (ix *index) innermost(sp diagnostics.Span, limit int) int {
	best := 0
	for i := 1; i < limit && i < len(ix.scopes); i++ {
		s := ix.scopes[i]
		if s.Start > sp.Start {
			break
		}
		if s.Start <= sp.Start && sp.End <= s.End && s != sp {
			best = i
		}
	}
	return best
}

// nameAt returns the span of the identifier or type identifier at offset,
// or just before it (an editor's cursor after the last letter).
func (ix *index) nameAt(offset int) (diagnostics.Span, bool) {
	for _, off := range []int{offset, offset - 1} {
		for sp := range ix.byRef {
			if sp.Start <= off && off < sp.End {
				return sp, true
			}
		}
		for sp := range ix.byDef {
			if sp.Start <= off && off < sp.End {
				return sp, true
			}
		}
	}
	return diagnostics.Span{}, false
}

// resolveAt returns the declaration the name at offset denotes, or nil.
func (ix *index) resolveAt(offset int) *def {
	sp, ok := ix.nameAt(offset)
	if !ok {
		return nil
	}
	if d := ix.byDef[sp]; d != nil {
		return d
	}
	return ix.resolve(ix.byRef[sp])
}

// defAtName returns the declaration whose name is at sp.
func (ix *index) defAtName(sp diagnostics.Span) *def { return ix.byDef[sp] }

// resolve finds the declaration a use refers to: the nearest enclosing
// scope declaring the name, and in it the last declaration before the use
// (any declaration for the hoisted kinds).
func (ix *index) resolve(r ref) *def {
	if r.name == "" {
		return nil
	}
	if d := ix.byDef[r.span]; d != nil {
		return d
	}
	cands := ix.byName[r.name]
	if len(cands) == 0 {
		return nil
	}
	for sc := ix.innermost(r.span, len(ix.scopes)); sc >= 0; sc = ix.parent[sc] {
		var best *def
		for _, d := range cands {
			if d.scope != sc || r.typ != (d.kind == kindType) {
				continue
			}
			if d.span.Start <= r.span.Start || hoisted[d.kind] {
				if best == nil || (d.span.Start <= r.span.Start && d.span.Start > best.span.Start) {
					best = d
				}
			}
		}
		if best != nil {
			return best
		}
	}
	return nil
}

// uses returns the declaration's name and every use resolving to it, in
// source order.
func (ix *index) uses(d *def) []diagnostics.Span {
	out := []diagnostics.Span{d.span}
	for _, r := range ix.refs {
		if r.name == d.name && r.span != d.span && ix.resolve(r) == d {
			out = append(out, r.span)
		}
	}
	slices.SortFunc(out, func(a, b diagnostics.Span) int { return a.Start - b.Start })
	return out
}

// importTarget follows an imported name to its declaration in a relative
// module ("./helpers", the .harn extension added as the checker adds it).
func (f *Features) importTarget(s features.Snapshot, ix *index, d *def) (features.Location, bool) {
	if s.Doc.Path == "" || !relative(d.module) {
		return features.Location{}, false
	}
	path := modulePath(s.Doc.Path, d.module)
	src, err := s.Workspace.ReadFile(path)
	if err != nil {
		return features.Location{}, false
	}
	tree := binding.ParseTree(src, nil)
	if tree == nil {
		return features.Location{}, false
	}
	defer tree.Close()
	other := f.index(tree, src)
	for _, od := range other.byName[d.name] {
		if od.scope == 0 && od.kind != kindImport && (hoisted[od.kind] || od.kind == kindVar) {
			return features.Location{Path: path, Span: od.span}, true
		}
	}
	return features.Location{}, false
}

// memberName reports whether an identifier names a field or argument
// rather than a variable: a member's property, a dict key, a field
// initializer or a named argument.
func memberName(n *sitter.Node) bool {
	p := n.Parent()
	if p == nil {
		return false
	}
	field := map[string]string{"member_expression": "property", "dict_entry": "key",
		"field_initializer": "name", "named_argument": "name", "attribute": "name",
		"attribute_argument": "name", "struct_field": "name", "shape_field": "name",
		"enum_variant": "name", "method_signature": "name", "skill_field": "name",
		"eval_pack_field": "name"}[p.Kind()]
	if field == "" {
		return false
	}
	c := p.ChildByFieldName(field)
	return c != nil && c.StartByte() == n.StartByte() && c.EndByte() == n.EndByte()
}

func nodeSpan(n *sitter.Node) diagnostics.Span {
	return diagnostics.Span{Start: int(n.StartByte()), End: int(n.EndByte())}
}

func ancestor(n *sitter.Node, kind string) *sitter.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == kind {
			return p
		}
	}
	return nil
}

// declarationOf returns the node hover shows for a declared name.
func declarationOf(n *sitter.Node, kind string) *sitter.Node {
	switch kind {
	case kindVar:
		for p := n.Parent(); p != nil; p = p.Parent() {
			switch p.Kind() {
			case "variable_declaration", "for_statement", "match_arm", "catch_clause", "select_case":
				return p
			}
		}
	case kindImport:
		if p := ancestor(n, "import_declaration"); p != nil {
			return p
		}
	}
	if p := n.Parent(); p != nil {
		return p
	}
	return n
}

// headerSpan is a declaration up to its body: the signature of a
// function, the first line of anything else.
func headerSpan(n *sitter.Node, src []byte) diagnostics.Span {
	sp := nodeSpan(n)
	if body := n.ChildByFieldName("body"); body != nil {
		sp.End = int(body.StartByte())
	} else if i := strings.IndexByte(string(src[sp.Start:sp.End]), '\n'); i >= 0 && n.Kind() != "import_declaration" {
		sp.End = sp.Start + i
	}
	return sp
}

// docComment returns the doc comment (/// lines or one /** */ block)
// directly above a declaration, without its markers.
func docComment(n *sitter.Node, src []byte) string {
	var lines []string
	next := n
	for c := n.PrevSibling(); c != nil; c = c.PrevSibling() {
		if k := c.Kind(); k != "line_comment" && k != "block_comment" {
			break
		}
		if int(next.StartPosition().Row)-int(c.EndPosition().Row) > 1 {
			break // a blank line separates it
		}
		text := c.Utf8Text(src)
		switch {
		case strings.HasPrefix(text, "///"):
			lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(text, "///"), " "))
		case strings.HasPrefix(text, "/**") && text != "/**/":
			body := strings.TrimSuffix(strings.TrimPrefix(text, "/**"), "*/")
			var bl []string
			for _, l := range strings.Split(body, "\n") {
				l = strings.TrimSpace(l)
				l = strings.TrimSpace(strings.TrimPrefix(l, "*"))
				bl = append(bl, l)
			}
			for i := len(bl) - 1; i >= 0; i-- {
				lines = append(lines, bl[i])
			}
		default:
			return reverseJoin(lines)
		}
		next = c
	}
	return reverseJoin(lines)
}

func reverseJoin(lines []string) string {
	slices.Reverse(lines)
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func unquote(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return strings.Trim(s, "\"'`")
}

// hoverText renders a declaration for hover: its header as Harn code, what
// kind of name it is, and its doc comment.
func hoverText(src []byte, d *def) string {
	header := strings.TrimSpace(string(src[d.decl.Start:d.decl.End]))
	if lines := strings.Split(header, "\n"); len(lines) > 12 {
		header = strings.Join(lines[:12], "\n") + "\n…"
	}
	var b strings.Builder
	b.WriteString("```harn\n" + header + "\n```\n")
	b.WriteString("*" + strings.ReplaceAll(d.kind, "_", " ") + "* `" + d.name + "`")
	if d.doc != "" {
		b.WriteString("\n\n" + d.doc)
	}
	return b.String()
}
