package harnlang

import (
	"slices"

	"github.com/harnlang/harn-check/grammar/harn/binding"
)

// validName reports whether name may name a variable, parameter or
// declaration: an identifier the grammar reads as a name where a binding
// is declared and where it is used. The keywords highlights.scm lists are
// not enough: `_` is a pattern that binds nothing, `break` and `continue`
// are statements of their own, and contextual words are names in some
// places only. The grammar is the one owner of what a name is, so the
// name is parsed where it is declared, used in an expression, and used as
// a statement.
func validName(name string) bool {
	if !identRE.MatchString(name) || slices.Contains(keywords(), name) {
		return false
	}
	src := []byte("fn f() {\n  let " + name + " = 1\n  log(" + name + ")\n  " + name + "\n}\n")
	tree := binding.ParseTree(src, nil)
	if tree == nil {
		return false
	}
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		return false
	}
	decl := len("fn f() {\n  let ")
	use := decl + len(name) + len(" = 1\n  log(")
	stmt := use + len(name) + len(")\n  ")
	for _, at := range []int{decl, use, stmt} {
		n := root.NamedDescendantForByteRange(uint(at), uint(at+len(name)))
		if n == nil || n.Kind() != "identifier" || int(n.StartByte()) != at || int(n.EndByte()) != at+len(name) {
			return false
		}
	}
	return true
}
