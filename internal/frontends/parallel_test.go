package frontends

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// writeProject writes a project with shared helpers, import chains, a
// cycle, errors deep in chains, evaluation sites and Leia files.
func writeProject(t testing.TB, dir string, n int) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 11))
	write := func(name, src string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lib/site.harn", `import "std/predicate"

pub fn judge(llm: HarnessLlm, input: {claim: string}) -> PredicateOutcome {
  return llm.evaluate_predicate("lib.judge.v1", "Is the claim supported?", input,
    {backend: "structured_llm", provider: "mock", model: "fixture", threshold: 0.5})
}
`)
	write("lib/broken.harn", "pub fn broken() -> int { return nowhere }\n")
	write("lib/cyc_a.harn", "import {b} from \"./cyc_b\"\n\npub fn a() -> int { return 1 }\n")
	write("lib/cyc_b.harn", "import {a} from \"./cyc_a\"\n\npub fn b() -> int { return a() }\n")
	for i := range n {
		var src string
		switch r.IntN(6) {
		case 0:
			src = fmt.Sprintf("import {judge} from \"../lib/site\"\n\nfn main%d(llm: HarnessLlm) { log(judge(llm, {claim: \"c\"})) }\n", i)
		case 1:
			src = fmt.Sprintf("import {broken} from \"../lib/broken\"\n\nfn main%d() { log(broken()) }\n", i)
		case 2:
			src = fmt.Sprintf("import {b} from \"../lib/cyc_b\"\n\nfn main%d() { log(b() + undefined_%d) }\n", i, i)
		case 3:
			if i > 0 {
				src = fmt.Sprintf("import {f%d} from \"./f%d\"\n\npub fn f%d() -> int { return f%d() }\n", i-1, i-1, i, i-1)
			} else {
				src = "pub fn f0() -> int { return 0 }\n"
			}
		case 4:
			src = fmt.Sprintf("x%d := 1\nprint(x%d)\n", i, i)
			write(fmt.Sprintf("app/f%d.leia", i), src)
			src = fmt.Sprintf("pub fn f%d() -> int { return %d }\n", i, i)
		default:
			src = fmt.Sprintf("pub fn f%d() -> int { return \"not an int\" }\n", i)
		}
		write(fmt.Sprintf("app/f%d.harn", i), src)
	}
}

func renderAll(t testing.TB, r *diagnostics.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := diagnostics.RenderJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if err := diagnostics.RenderText(&b, r, diagnostics.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestParallelChecksAreByteIdentical: checking with one worker, with
// several, and from a warm cache gives the same bytes in every format.
func TestParallelChecksAreByteIdentical(t *testing.T) {
	dir := t.TempDir()
	writeProject(t, dir, 300)
	run := func(workers int, cache *checkcache.Cache) []byte {
		r, err := Languages().CheckPaths([]string{dir}, driver.Options{Workers: workers, Cache: cache, Salt: "test"})
		if err != nil {
			t.Fatal(err)
		}
		return renderAll(t, r)
	}
	want := run(1, nil)
	if !bytes.Contains(want, []byte("HARN-MOD-007")) || !bytes.Contains(want, []byte("lib.judge.v1")) {
		t.Fatalf("the project does not exercise imports and sites:\n%.2000s", want)
	}
	for _, workers := range []int{2, 4, 8} {
		for round := range 3 {
			if got := run(workers, nil); !bytes.Equal(got, want) {
				t.Fatalf("%d workers, round %d: output differs from one worker", workers, round)
			}
		}
	}
	cache, err := checkcache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if cold := run(4, cache); !bytes.Equal(cold, want) {
		t.Fatal("cold cached run differs")
	}
	if warm := run(4, cache); !bytes.Equal(warm, want) {
		t.Fatal("warm cached run differs")
	}
}
