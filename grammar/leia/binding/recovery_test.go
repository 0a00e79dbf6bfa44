package binding

import (
	"math/rand"
	randv2 "math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/diagnostics"
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

// TestStalledRecoveryReportsThePrefix: 21 KB of random printable text
// (taken from the 3 MB hostile-input probe) once kept the parser's error
// recovery looping around one offset for minutes, until the stall guard
// (tsutil.Guard, TestGuardStall) stopped it. The grammar without the
// tagged block's GLR split recovers from it: the parse ends, every error
// reported, within the time limit. When a parse does give up, the lines
// before the offset it reached are parsed on their own and reported, and
// the rest is one Error with a diagnostic at its start (gaveUpAt, here
// at the middle of the same text).
func TestStalledRecoveryReportsThePrefix(t *testing.T) {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 \n\t(){}[]<>=+-*/\"'.,;:!?|&@#$%^~`\\"
	r := randv2.New(randv2.NewPCG(4, 4))
	text := make([]byte, 69621)
	for i := range text {
		text[i] = alphabet[r.IntN(len(alphabet))]
	}
	src := text[len(text)-21203:]
	done := make(chan struct{})
	var diags []diagnostics.Diagnostic
	go func() {
		defer close(done)
		_, diags = Parse("stall.leia", src)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the parse did not end within 60 s")
	}
	if len(diags) < 2 {
		t.Fatalf("want syntax errors on random text, got %+v", diags)
	}
	file, diags := gaveUpAt("stall.leia", src, len(src)/2, Options{})
	if len(diags) < 2 {
		t.Fatalf("want the prefix's diagnostics and the parser's, got %+v", diags)
	}
	last := diags[len(diags)-1]
	if last.Code != SyntaxCode || !strings.Contains(last.Message, "gave up here") || last.Span.Start <= 0 || last.Span.Start > len(src)/2 || src[last.Span.Start-1] != '\n' {
		t.Fatalf("last diagnostic %+v, want the parser giving up at a line start before %d", last, len(src)/2)
	}
	for _, d := range diags[:len(diags)-1] {
		if d.Span.End > last.Span.Start {
			t.Errorf("diagnostic %+v reaches past the cut at %d", d, last.Span.Start)
		}
	}
	rest := file.Errors[len(file.Errors)-1]
	if rest.Span.Start != last.Span.Start || rest.Span.End != len(src) || file.Span.End != len(src) {
		t.Errorf("the unparsed rest is %+v in a file spanning %+v", rest.Span, file.Span)
	}
}
