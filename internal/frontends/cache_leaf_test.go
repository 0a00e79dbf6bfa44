package frontends

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// TestCacheLeafModules: a module that imports nothing gets no closure
// fingerprint and no record of its own, yet a file importing it is checked
// again when it changes, whichever of the two is checked first.
func TestCacheLeafModules(t *testing.T) {
	for _, workers := range []int{1, 2} {
		root := t.TempDir()
		write := func(name, content string) {
			if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// a_main.harn sorts before z_lib.harn, so the importer is
		// checked first with one worker; lib.harn after.
		write("a_main.harn", "import { answer } from \"./z_lib\"\n\npipeline main() {\n  let n: int = answer()\n  log(n)\n}\n")
		write("z_lib.harn", "pub fn answer() -> int {\n  return 42\n}\n")
		write("b_leaf.harn", "pipeline other() {\n  log(1)\n}\n")
		cache, err := checkcache.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		run := func() string {
			r, err := Languages().CheckPaths([]string{root}, driver.Options{Workers: workers, Cache: cache, Salt: "t"})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := diagnostics.RenderJSON(&b, r); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		clean := run()
		if strings.Contains(clean, "HARN-") || run() != clean {
			t.Fatalf("workers %d: the clean folder has diagnostics or a warm run differs:\n%s", workers, clean)
		}
		write("z_lib.harn", "pub fn answer2() -> int {\n  return 42\n}\n")
		edited := run()
		if !strings.Contains(edited, "a_main.harn") || !strings.Contains(edited, "HARN-IMP-002") {
			t.Errorf("workers %d: renaming the leaf's function must fail its importer from the cache too:\n%s", workers, edited)
		}
	}
}
