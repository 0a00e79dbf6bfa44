package harnlang

import (
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
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

// resolverOptions are Harn's name resolution rules for package names.
func resolverOptions(locals string) names.Options {
	return names.Options{
		Locals:      locals,
		Extra:       declQuery,
		TypeKind:    kindType,
		Hoisted:     hoisted,
		NotUse:      memberName,
		Declaration: declarationOf,
		Doc: func(decl *sitter.Node, src []byte) string {
			return names.CommentsAbove(decl, src, []string{"line_comment", "block_comment"}, true)
		},
		Annotate: func(d *names.Def, n *sitter.Node, src []byte) {
			if d.Kind != kindImport {
				return
			}
			if imp := names.Ancestor(n, "import_declaration"); imp != nil {
				if s := imp.ChildByFieldName("source"); s != nil {
					d.Module = unquote(s.Utf8Text(src))
				}
			}
		},
	}
}

// importTarget follows an imported name to its declaration in a relative
// module ("./helpers", the .harn extension added as the checker adds it).
func (f *Features) importTarget(s features.Snapshot, module, name string) (features.Location, bool) {
	if s.Doc.Path == "" || !relative(module) {
		return features.Location{}, false
	}
	path := modulePath(s.Doc.Path, module)
	if path == "" {
		return features.Location{}, false
	}
	src, err := s.Workspace.ReadFile(path)
	if err != nil {
		return features.Location{}, false
	}
	tree := binding.ParseTree(src, nil)
	if tree == nil {
		return features.Location{}, false
	}
	defer tree.Close()
	other := f.names.Index(tree, src)
	for _, od := range other.Named(name) {
		if od.Scope == 0 && od.Kind != kindImport && (hoisted[od.Kind] || od.Kind == kindVar) {
			return features.Location{Path: path, Span: od.Span}, true
		}
	}
	return features.Location{}, false
}

// memberNameField maps the kinds of node whose field names a member
// rather than a variable to that field.
var memberNameField = map[string]string{"member_expression": "property", "dict_entry": "key",
	"field_initializer": "name", "named_argument": "name", "attribute": "name",
	"attribute_argument": "name", "struct_field": "name", "shape_field": "name",
	"enum_variant": "name", "method_signature": "name", "skill_field": "name",
	"eval_pack_field": "name"}

// memberName reports whether an identifier names a field or argument
// rather than a variable: a member's property, a dict key, a field
// initializer or a named argument.
func memberName(n *sitter.Node) bool {
	p := n.Parent()
	if p == nil {
		return false
	}
	field := memberNameField[p.Kind()]
	if field == "" {
		return false
	}
	c := p.ChildByFieldName(field)
	return c != nil && c.StartByte() == n.StartByte() && c.EndByte() == n.EndByte()
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
		if p := names.Ancestor(n, "import_declaration"); p != nil {
			return p
		}
	}
	if p := n.Parent(); p != nil {
		return p
	}
	return n
}

func unquote(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return strings.Trim(s, "\"'`")
}

// nodeSpan is names.NodeSpan.
func nodeSpan(n *sitter.Node) diagnostics.Span { return names.NodeSpan(n) }

// hoverText renders a Harn declaration for hover.
func hoverText(src []byte, d *names.Def) string { return names.HoverText("harn", src, d) }
