package binding

import (
	"math/rand"
	"sort"
	"testing"
	"time"

	"github.com/harnlang/harn-check/grammar/generate/difftest"
)

// parseWithin parses src in a goroutine and fails the test if no tree comes
// back within the limit or the parse ran out of its budget: the runtime's
// error recovery can loop forever (it did at the end of the file, see
// grammar/leia/README.md); the budget turns that into a nil tree, and the
// timeout guards against a loop the budget does not see.
func parseWithin(t *testing.T, label string, src []byte, limit time.Duration) bool {
	t.Helper()
	done := make(chan bool, 1)
	go func() {
		tree := ParseTree(src, nil)
		if tree != nil {
			tree.Close()
		}
		done <- tree != nil
	}()
	select {
	case ok := <-done:
		if !ok {
			t.Errorf("%s: the parser gave up (budget exhausted) on %q", label, src)
		}
		return ok
	case <-time.After(limit):
		t.Fatalf("%s: no tree after %v, the parser is looping on %q", label, limit, src)
		return false
	}
}

// TestRecoveryAtEndOfFileTerminates pins the inputs that made error
// recovery loop forever while nested states could reduce on end-of-input,
// and every prefix of every example: a prefix leaves constructs open at
// the end of the file, the situation that looped.
func TestRecoveryAtEndOfFileTerminates(t *testing.T) {
	for _, src := range []string{
		"func f() { budget {} { y()",
		"func f() { b {a: 1} { y()",
		"func f() { agent a {} flow { return",
		"x := [func() { budget {} { y()",
		"if a { b {a: 1} { agent a {} flow {",
	} {
		parseWithin(t, "known input", []byte(src), 10*time.Second)
	}
	prefixes := 0
	for name, src := range examples(t) {
		for i := 0; i < len(src); i++ {
			// Cut where a token can end: before a space, a bracket or a quote.
			switch src[i] {
			case ' ', '\n', '{', '(', '[', '"', '`', ':', ',':
				parseWithin(t, name, src[:i], 10*time.Second)
				prefixes++
			}
		}
	}
	if prefixes < 1000 {
		t.Fatalf("only %d prefixes tried; the examples are missing", prefixes)
	}
}

// TestMutationsTerminate parses random byte-level mutations and prefixes of
// mutations of every example under the same time limit.
func TestMutationsTerminate(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	srcs := examples(t)
	n := 0
	for _, name := range sortedKeys(srcs) {
		src := srcs[name]
		for i := 0; i < 40; i++ {
			m := difftest.Mutate(rng, src)
			parseWithin(t, name, m, 10*time.Second)
			parseWithin(t, name, m[:rng.Intn(len(m)+1)], 10*time.Second)
			n += 2
		}
	}
	if n == 0 {
		t.Fatal("no mutations parsed")
	}
}

// sortedKeys returns the keys of m in order, so each run mutates the same
// sources the same way.
func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
