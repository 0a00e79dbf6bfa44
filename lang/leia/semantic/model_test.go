package semantic_test

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/leia/binding"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

// TestModel: the model the resolver exports says what each name denotes,
// as the checker resolves it; here the n-th occurrence of a word (by
// byte search) resolves to the m-th occurrence, or to nothing.
func TestModel(t *testing.T) {
	for _, tc := range []struct {
		name, src, word string
		use, decl       int
		kind            string
	}{
		{"redeclaration reads the earlier", "z := 3\nz := z + 1\nprint(z)\n", "z", 2, 0, "variable"},
		{"later use sees the later", "z := 3\nz := z + 1\nprint(z)\n", "z", 3, 1, "variable"},
		{"parameter", "func f(a) { return a }\n", "a", 1, 0, "parameter"},
		{"import alias", "import j \"json\"\nprint(j.encode(1))\n", "j", 2, 0, "import"},
		{"a function body sees a later top-level name", "func g() { return h() }\nh := func() { return 1 }\n", "h", 0, 1, "variable"},
		{"predeclared", "print(1)\n", "print", 0, -1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, diags := binding.Parse("t.leia", []byte(tc.src))
			if len(diags) > 0 {
				t.Fatalf("syntax errors %v", diags)
			}
			m := semantic.Compute(file).Model()
			at := func(n int) int {
				p := -1
				for i := 0; i <= n; i++ {
					j := strings.Index(tc.src[p+1:], tc.word)
					if j < 0 {
						t.Fatalf("no occurrence %d of %s", n, tc.word)
					}
					p += 1 + j
				}
				return p
			}
			def, _ := m.At(at(tc.use))
			if tc.decl < 0 {
				if def >= 0 {
					t.Fatalf("resolves to %+v, want nothing", m.Def(def))
				}
				return
			}
			if def < 0 {
				t.Fatal("resolves to nothing")
			}
			if d := m.Def(def); d.Span.Start != at(tc.decl) || d.Kind != tc.kind {
				t.Errorf("resolves to %+v, want the %s at %d", d, tc.kind, at(tc.decl))
			}
		})
	}
}
