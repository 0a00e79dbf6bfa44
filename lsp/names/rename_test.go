package names

import (
	"strings"
	"testing"

	harngrammar "github.com/harnlang/harn-check/grammar/harn"
	"github.com/harnlang/harn-check/grammar/harn/binding"
)

// TestCheckRename renames declarations of a Harn file through the bare
// locals.scm and checks which renames keep every use's meaning.
func TestCheckRename(t *testing.T) {
	r, err := New(binding.Language(), Options{Locals: harngrammar.LocalsQuery(), Hoisted: map[string]bool{"function": true}})
	if err != nil {
		t.Fatal(err)
	}
	src := "fn helper() {}\nlet top = 1\nfn f(p) {\n  let a = p + top\n  let b = a\n  log(a + b)\n}\n"
	tree := binding.ParseTree([]byte(src), nil)
	defer tree.Close()
	ix := r.Index(tree, []byte(src))
	for _, tc := range []struct{ at, to, err string }{
		{"a = p", "total", ""},
		{"b = a", "top", ""}, // shadows top, which is not used after b
		{"a = p", "top", "capture the use of top at 4:15"},
		{"b = a", "a", "already declared at 4:7"},
		{"p) {", "a", "would refer to the var a declared at 4:7"},
		{"top = 1", "helper", "already declared at 1:4"},
		{"helper()", "log", "capture the use of log at 6:3"},
		{"helper()", "renamed", ""},
	} {
		d := ix.ResolveAt(strings.Index(src, tc.at))
		if d == nil {
			t.Fatalf("%q resolves to nothing", tc.at)
		}
		err := ix.CheckRename(d, tc.to, []byte(src))
		if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("rename %s to %s: error %v, want %q", d.Name, tc.to, err, tc.err)
		}
	}
}
