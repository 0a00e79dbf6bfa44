package harn_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
)

// TestConcurrentChecks: checks share only read-only tables, so a language
// server may run them in parallel (run with -race).
func TestConcurrentChecks(t *testing.T) {
	files, _ := filepath.Glob("testdata/acceptance/*.harn")
	var wg sync.WaitGroup
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := len(harn.Check(f, src, harn.Options{}).Diagnostics)
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if got := len(harn.Check(f, src, harn.Options{Loader: harn.OSLoader{}}).Diagnostics); got != want {
					t.Errorf("%s: %d diagnostics in parallel, %d alone", f, got, want)
				}
			}()
		}
	}
	wg.Wait()
}
