package frontends

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
)

// TestImportedModules: the run's lexical import scan finds every relative
// import form (the names may span lines), resolves it as the module graph
// does, and ignores std imports, package names and Leia files.
func TestImportedModules(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(p)
	}
	a := write("a.harn", "import \"./lib/one\"\nimport {\n  x,\n  y,\n} from \"../up/two.harn\"\nimport { boolean } from \"std/predicate\"\nimport \"pkg_name\"\n")
	b := write("sub/b.harn", "pub import { z } from \"./three\"\n// no import here\n")
	l := write("c.leia", "import \"./four\"\n")
	got := importedModules([]string{a, b, l, filepath.ToSlash(filepath.Join(dir, "missing.harn"))}, 1<<20)
	d := filepath.ToSlash(dir)
	want := map[string]bool{
		d + "/lib/one.harn": true,
		filepath.ToSlash(filepath.Join(dir, "..", "up", "two.harn")): true,
		d + "/sub/three.harn": true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("importedModules = %v, want %v", got, want)
	}
}

// TestImportScanShared: workers that share a run's import scan all get
// the set one scan of every file finds, however the chunks fall to them.
func TestImportScanShared(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 3*importScanChunk + 5 {
		p := filepath.Join(dir, fmt.Sprintf("m%03d.harn", i))
		src := "fn f() {}\n"
		if i%7 == 0 {
			src = fmt.Sprintf("import \"./lib/m%03d\"\n", i)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(p))
	}
	want := importedModules(files, 1<<20)
	if len(want) != (3*importScanChunk+5+6)/7 {
		t.Fatalf("importedModules found %d modules", len(want))
	}
	for _, workers := range []int{1, 2, 5} {
		scan := newImportScan(nil, files, 1<<20)
		runs := make([]*harnRun, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				runs[w] = scan.run()
			}()
		}
		wg.Wait()
		for w, r := range runs {
			if r != runs[0] || !reflect.DeepEqual(r.imported, want) {
				t.Errorf("%d workers, worker %d: %d modules imported, want %d", workers, w, len(r.imported), len(want))
			}
		}
	}
}
