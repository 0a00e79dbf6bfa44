package leialang

import (
	"slices"

	"github.com/harnlang/harn-check/grammar/leia/binding"
)

// validName reports whether name may name a variable, parameter or
// function: an identifier the grammar reads as a name where one is
// declared and where it is used, and not the blank `_`. The keywords
// highlights.scm lists are not enough (`break`, `continue` and `chan` are
// statements and expressions of their own), so the grammar, the one owner
// of what a name is, parses the name in both places.
func validName(name string) bool {
	if name == "_" || !identRE.MatchString(name) || slices.Contains(keywords(), name) || slices.Contains(literals, name) {
		return false
	}
	src := []byte(name + " := 1\nprint(" + name + ")\n")
	tree := binding.ParseTree(src, nil)
	if tree == nil {
		return false
	}
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		return false
	}
	use := len(name) + len(" := 1\nprint(")
	for _, at := range []int{0, use} {
		n := root.NamedDescendantForByteRange(uint(at), uint(at+len(name)))
		if n == nil || n.Kind() != "identifier" || int(n.StartByte()) != at || int(n.EndByte()) != at+len(name) {
			return false
		}
	}
	return true
}
