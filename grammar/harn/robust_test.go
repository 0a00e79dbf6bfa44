package harn

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/difftest"
)

// sampleSources returns the corpus inputs and the example programs, the
// texts the robustness tests start from.
func sampleSources(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, c := range loadCorpus(t) {
		out[c.file+"/"+c.title] = []byte(c.input)
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*", "*.harn"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = data
	}
	return out
}

// TestIncrementalReparse applies random edits to every sample and requires
// each incremental reparse to equal a fresh parse. The scanner keeps no
// state, so any difference would be a grammar or scanner bug.
func TestIncrementalReparse(t *testing.T) {
	h := startParser(t)
	rng := rand.New(rand.NewSource(4))
	for name, src := range sampleSources(t) {
		edits := difftest.RandomEdits(rng, src, 4)
		res, err := h.Edits(src, edits, false)
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

// TestMutatedInputs feeds byte-level mutations of the samples through the
// parser: each must come back with a tree (no crash, no hang), and the
// unmutated samples must not be reported as erroneous by mistake.
func TestMutatedInputs(t *testing.T) {
	h := startParser(t)
	rng := rand.New(rand.NewSource(7))
	for name, src := range sampleSources(t) {
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
	// Unclosed constructs at the end of the input must not hang the scanner.
	for _, text := range []string{`"abc`, `"""abc`, `r#"abc`, `/* abc`, `"${`, "x\\", "x\n\n\n|", "\"\\"} {
		res, err := h.ParseText([]byte(text), true)
		if err != nil || res.Err != "" {
			t.Fatalf("%q: %v %s", text, err, res.Err)
		}
		if !res.HasError && !strings.HasPrefix(text, "/*") && text != "x\\" {
			t.Errorf("%q parsed without an error: %s", text, res.Sexp)
		}
	}
}
