package harn_test

import (
	"strings"
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
)

// TestModelResolvesNames: the semantic model a check exports says what
// each name denotes, as the checker resolves it: locals, parameters,
// type names (in annotations and struct literals), type parameters and
// their bounds, the pipeline a pipeline extends, and names inside
// `block { ... }` and the arguments of request_approval.
func TestModelResolvesNames(t *testing.T) {
	const src = `interface Sized { fn size(self) -> int }
struct Box { n: int }
fn biggest<T>(xs: list<T>) -> T where T: Sized { return xs[0] }
pipeline base(task) { log(task) }
pipeline child(task) extends base {
  let b = Box { n: 1 }
  block {
    let inner = b
    log(inner)
  }
  let ok = request_approval("ship ${b}", quorum: 1)
  log(ok)
}
`
	res := harn.Check("m.harn", []byte(src), harn.Options{Model: true})
	m := res.Facts.Model
	if m == nil {
		t.Fatal("no model")
	}
	// occurrence returns the offset of the n-th (0-based) whole-word
	// occurrence of w.
	occurrence := func(w string, n int) int {
		at := 0
		for i := 0; ; {
			j := strings.Index(src[at:], w)
			if j < 0 {
				t.Fatalf("no occurrence %d of %s", n, w)
			}
			p := at + j
			at = p + len(w)
			if (p > 0 && isWord(src[p-1])) || (at < len(src) && isWord(src[at])) {
				continue
			}
			if i == n {
				return p
			}
			i++
		}
	}
	for _, tc := range []struct {
		word    string
		use     int // which occurrence is the use
		decl    int // which occurrence is the declaration; -1: none
		kind    string
		comment string
	}{
		{"T", 1, 0, "type parameter", "in a parameter's type"},
		{"T", 2, 0, "type parameter", "the result type"},
		{"T", 3, 0, "type parameter", "a where clause"},
		{"Sized", 1, 0, "type", "an interface bounding a type parameter"},
		{"Box", 1, 0, "type", "a struct literal"},
		{"base", 1, 0, "function", "the pipeline extended"},
		{"inner", 1, 0, "variable", "a local inside block { }"},
		{"b", 2, 0, "variable", "an interpolation in request_approval's argument"},
		{"size", 0, 0, "method", "an interface's method declares itself"},
		{"log", 0, -1, "", "a builtin is declared nowhere"},
	} {
		t.Run(tc.comment, func(t *testing.T) {
			def, _ := m.At(occurrence(tc.word, tc.use))
			if tc.decl < 0 {
				if def >= 0 {
					t.Fatalf("%s resolves to %+v, want nothing", tc.word, m.Def(def))
				}
				return
			}
			if def < 0 {
				t.Fatalf("occurrence %d of %s resolves to nothing", tc.use, tc.word)
			}
			d := m.Def(def)
			if want := occurrence(tc.word, tc.decl); d.Span.Start != want || d.Kind != tc.kind {
				t.Errorf("%s resolves to %+v, want the %s at %d", tc.word, d, tc.kind, want)
			}
		})
	}
}

func isWord(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
