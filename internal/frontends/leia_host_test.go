package frontends

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/harnlang/harn-check/internal/sourcefs"
)

// TestLeiaProjectHost: a harn.toml [leia] table above a Leia file declares
// its embedder's go: bindings and globals: without it a go: import is a
// warning (LEIA4012) and a host global undefined (LEIA4001); with it the
// declared ones pass and an undeclared import is an error (LEIA4006); the
// harn.toml is a dependency of the result.
func TestLeiaProjectHost(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "p.leia")
	src := []byte("import \"go:host/policy\" as policy\nimport \"go:host/other\" as other\nprint(policy, other, billing)\n")
	read := func(p string) ([]byte, error) { return sourcefs.Read(p, 0) }
	codes := func() map[string]int {
		out := map[string]int{}
		for _, d := range leiaCheck(path, src, read, nil, nil).Diagnostics {
			out[d.Code]++
		}
		return out
	}
	if got := codes(); got["LEIA4012"] != 2 || got["LEIA4001"] != 1 || got["LEIA4006"] != 0 {
		t.Errorf("without harn.toml: %v", got)
	}
	toml := filepath.Join(dir, "harn.toml")
	if err := os.WriteFile(toml, []byte("[leia]\ngo_modules = [\"go:host/policy\"]\nhost_modules = [\"billing\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := codes(); got["LEIA4012"] != 0 || got["LEIA4001"] != 0 || got["LEIA4006"] != 1 {
		t.Errorf("with [leia]: %v", got)
	}
	res := leiaCheck(path, src, read, nil, nil)
	found := false
	for _, d := range res.Deps {
		found = found || d.Path == toml && d.SHA256 != ""
	}
	if !found {
		t.Errorf("harn.toml is not a dependency: %+v", res.Deps)
	}
	if err := os.WriteFile(toml, []byte("[leia]\ngo_module = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := codes(); got["HARN-CFG-001"] != 1 {
		t.Errorf("invalid [leia]: %v", got)
	}
}
