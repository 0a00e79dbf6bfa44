package harn

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/execution"
	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/runner"
)

// runOpts tune runSource.
type runOpts struct {
	grants   host.Grants
	maxSteps int64
	// limits, when set, replace maxSteps and timeout.
	limits   *execution.Limits
	maxDepth int
	timeout  time.Duration
	tempDir  string
	files    map[string]string // extra files in the program's folder
}

// runSource runs src as main.harn in a fresh folder and returns its
// standard output and error.
func runSource(t testing.TB, src string, o runOpts) (string, error) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "main.harn")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, content := range o.files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	h, err := host.New(host.Config{Root: dir, TempDir: o.tempDir, Grants: o.grants, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	timeout := o.timeout
	if timeout == 0 {
		timeout = 20 * time.Second
	}
	limits := execution.Limits{Steps: o.maxSteps, Time: timeout}
	if o.maxDepth != 0 {
		limits.Depth = int64(o.maxDepth)
	}
	if o.limits != nil {
		limits = *o.limits
	}
	in, err := New(Options{Host: h, Library: testLibrary(t), Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	_, err = in.Run(context.Background(), path, []byte(src))
	return out.String(), err
}

// AllFamilies lists every family of the runtime (lib.Families), set by
// the external test file families_test.go.
var AllFamilies func() []Family

// everyFamily is the library of every family, built once for the tests.
var everyFamily = sync.OnceValues(func() (*Library, error) { return NewLibrary(AllFamilies()) })

// testLibrary is the library of every family of the runtime.
func testLibrary(t testing.TB) *Library {
	t.Helper()
	lib, err := everyFamily()
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

// testLanguage is Harn's run facet with testLibrary, for the runner's
// discovery of test programs.
func testLanguage(t testing.TB) runner.Language {
	return runner.Language{Name: "Harn", Extension: ".harn", Run: testLibrary(t).RunProgram}
}
