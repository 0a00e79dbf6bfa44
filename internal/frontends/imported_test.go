package frontends

import (
	"os"
	"path/filepath"
	"reflect"
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
