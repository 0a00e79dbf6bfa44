package leia

import (
	"hash/fnv"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/difftest"
)

// samples returns the corpus sources and the Leia example programs, the
// texts the robustness tests start from.
func samples(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, c := range loadCorpus(t) {
		out[c.file+"/"+c.title] = []byte(c.source + "\n")
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "leia", "*.leia"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = data
	}
	return out
}

// sortedNames returns the keys of m in order, so that the random edits and
// mutations each sample receives are the same on every run.
func sortedNames(m map[string][]byte) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// sampleRand is the random source of one sample: seeded from the test's
// seed and the sample's name, so a sample gets the same edits on every
// run however many other samples exist (adding an example must not
// change the edits another sample receives).
func sampleRand(seed int64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewSource(seed ^ int64(h.Sum64())))
}

// TestIncrementalReparse edits every sample at random and requires each
// incremental reparse to equal a fresh parse. The scanner's only state is
// the q raw blocks' brace depths, serialized with each token, so a
// difference would be a scanner that reads past what it reports (wrong
// lookahead bookkeeping), a state not restored on reuse, or a grammar bug.
func TestIncrementalReparse(t *testing.T) {
	h := startParser(t)
	all := samples(t)
	for _, name := range sortedNames(all) {
		src := all[name]
		rng := sampleRand(11, name)
		res, err := h.Edits(src, difftest.RandomEdits(rng, src, 4), false)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Err != "" {
			t.Fatalf("%s: %s", name, res.Err)
		}
		if res.EditMismatch >= 0 {
			t.Errorf("%s: incremental tree differs from a fresh parse after edit %d\nincremental: %s\nfresh:       %s",
				name, res.EditMismatch, res.Incremental, res.Fresh)
		}
	}
}

// TestMutatedInputs parses byte-level mutations of every sample: each must
// come back with a tree, without a crash or a hang.
func TestMutatedInputs(t *testing.T) {
	h := startParser(t)
	all := samples(t)
	for _, name := range sortedNames(all) {
		src := all[name]
		rng := sampleRand(5, name)
		for i := 0; i < 3; i++ {
			mutated := difftest.Mutate(rng, src)
			res, err := h.ParseText(mutated, false)
			if err != nil {
				t.Fatalf("%s mutation %d: %v\ninput: %q", name, i, err, mutated)
			}
			if res.Err != "" {
				t.Fatalf("%s mutation %d: %s\ninput: %q", name, i, res.Err, mutated)
			}
		}
	}
}

// TestUnclosedConstructs feeds inputs that end inside a construct the
// scanner reads (strings, templates, fenced blocks, colons): the parser
// must return a tree with an error, never hang.
func TestUnclosedConstructs(t *testing.T) {
	h := startParser(t)
	for _, text := range []string{
		`x := "abc`, `x := "${`, `x := "a${b`, "x := 'abc", "x := `abc", "x := ```abc",
		"x := tag`abc", "x := tag```abc``", "x := tag`${", "x := {a:", "obj:m(", "for {",
		"x := {[k]", "x := \"\\", "tool find(", "agent a {", "evaluate \"n\" {", "budget {} {",
	} {
		res, err := h.ParseText([]byte(text), true)
		if err != nil || res.Err != "" {
			t.Fatalf("%q: %v %s", text, err, res.Err)
		}
		if !res.HasError {
			t.Errorf("%q parsed without an error: %s", text, res.Sexp)
		}
	}
}

// TestNestedUnterminatedForms parses each contextual form left open inside
// other open constructs. The runtime's error recovery looped forever on
// several of these while the contextual words were keyword tokens; each
// must now come back with a tree that reports an error.
func TestNestedUnterminatedForms(t *testing.T) {
	h := startParser(t)
	outers := []string{"", "func f() { ", "x := [", "x := {", "if a { ", "f := func() { g := func() { "}
	inners := []string{
		"agent a {} flow {", "x := agent {} flow {", "tool a() {", "evaluate \"x\" {",
		"quote {", "x := quote! {", "select { case <-c: ", "select { default:", "for {",
		"budget {} {", "agent defaults {", "import (", "x := agent(a) {", "m := model {",
		"x := \"a${", "x := t`${", "func f() { evaluate \"x\" { y()", "tool a(b) { y()",
	}
	for _, o := range outers {
		for _, in := range inners {
			text := o + in
			res, err := h.ParseText([]byte(text), false)
			if err != nil || res.Err != "" {
				t.Errorf("%q: %v %s", text, err, res.Err)
				continue
			}
			if !res.HasError {
				t.Errorf("%q parsed without an error", text)
			}
		}
	}
}
