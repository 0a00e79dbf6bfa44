package layering

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/harnlang/harn-check/"

// TestImportLayers lists the (non-test) dependencies of each layer with
// `go list -deps` and fails on a package of a layer it must not reach.
func TestImportLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH: cannot list dependencies")
	}
	watchSources(t)
	for _, rule := range []struct {
		layer     string   // a package pattern relative to the module
		forbidden []string // module-relative prefixes it must not depend on
	}{
		{"runtime/...", []string{"checker/", "lsp/", "driver", "manifest", "cmd/"}},
		{"checker/...", []string{"runtime/", "lsp/", "cmd/"}},
		{"lang/...", []string{"checker/", "runtime/", "lsp/", "driver", "manifest", "cmd/"}},
		{"catalog/...", []string{"checker/", "runtime/", "lsp/", "driver", "manifest", "cmd/", "lang/"}},
		// The driver and the language server's store and feature
		// boundary know no language: the languages are handed to them.
		{"driver/...", []string{"checker/", "runtime/", "lsp/", "language", "cmd/"}},
		{"lsp/cache/...", []string{"checker/", "runtime/", "language", "cmd/"}},
		{"lsp/features/...", []string{"checker/", "runtime/", "language", "cmd/"}},
	} {
		t.Run(rule.layer, func(t *testing.T) {
			deps := goList(t, "-deps", "-f", "{{.ImportPath}}", module+rule.layer)
			members := goList(t, "-f", "{{.ImportPath}}", module+rule.layer)
			if len(members) == 0 {
				t.Fatalf("no package matches %s", rule.layer)
			}
			for _, d := range deps {
				rel, ok := strings.CutPrefix(d, module)
				if !ok {
					continue
				}
				for _, f := range rule.forbidden {
					if rel == strings.TrimSuffix(f, "/") || strings.HasPrefix(rel, f) {
						t.Errorf("%s depends on %s (%s must not reach %s)", rule.layer, rel, rule.layer, f)
					}
				}
			}
		})
	}
}

// goList runs `go list` with args and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return strings.Fields(string(out))
}

// watchSources stats every Go source of the module. `go list` runs in a
// child process, whose reads the test cache does not see; the stats it
// does see make an edited import invalidate a cached pass.
func watchSources(t *testing.T) {
	t.Helper()
	root := filepath.Dir(strings.TrimSpace(string(goEnv(t, "GOMOD"))))
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			_, err = os.Stat(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func goEnv(t *testing.T, name string) []byte {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return out
}
