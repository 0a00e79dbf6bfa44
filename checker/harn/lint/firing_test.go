package lint_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/lint"
	"github.com/harnlang/harn-check/diagnostics"
)

// TestUpstreamFiring runs every lint rule over upstream's valid
// conformance programs (tests/**/X.harn with an X.expected; HARN_UPSTREAM
// names the checkout) and over the repository's examples/ (the .harn
// files outside examples/broken, which are wrong on purpose), and logs,
// per rule, how many findings and programs it has in each: the
// measurement a rule that fires on many valid programs is compared
// against upstream with before it stays on by default. It fails when a
// lint rule reports an error on a valid program: an error says the
// program cannot work, which upstream's own suite disproves.
func TestUpstreamFiring(t *testing.T) {
	root := os.Getenv("HARN_UPSTREAM")
	if root == "" {
		root = "/work/upstream/harn"
	}
	tests := filepath.Join(root, "conformance", "tests")
	if _, err := os.Stat(tests); err != nil {
		t.Skipf("upstream conformance suite not found at %s (set HARN_UPSTREAM): %v", tests, err)
	}
	if testing.Short() {
		t.Skip("measurement over upstream's suite")
	}
	var valid []string
	err := filepath.WalkDir(tests, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if h := strings.TrimSuffix(p, ".expected") + ".harn"; strings.HasSuffix(p, ".expected") {
			if _, err := os.Stat(h); err == nil {
				valid = append(valid, h)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	examples := filepath.Join("..", "..", "..", "examples")
	var ours []string
	err = filepath.WalkDir(examples, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "broken" {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, ".harn") {
			ours = append(ours, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	up := measure(t, tests, valid)
	ex := measure(t, examples, ours)
	t.Logf("%d valid upstream programs, %d example programs", len(valid), len(ours))
	t.Logf("%-12s %-30s %-6s %s", "code", "rule", "default", "upstream findings/programs, examples findings/programs")
	for _, r := range lint.Rules {
		for _, c := range r.Codes {
			def := "on"
			if r.OptIn {
				def = "opt-in"
			}
			t.Logf("%s %-30s %-6s %4d/%-4d %4d/%-4d", c, r.Name, def, up.findings[c], up.programs[c], ex.findings[c], ex.programs[c])
		}
	}
}

// firing counts, per code, the findings and the programs with one.
type firing struct{ findings, programs map[string]int }

// measure runs every lint rule over paths (valid programs below root).
func measure(t *testing.T, root string, paths []string) firing {
	sort.Strings(paths)
	f := firing{findings: map[string]int{}, programs: map[string]int{}}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		res := harn.Check(path, src, harn.Options{Loader: harn.OSLoader{}, Rules: lint.Rules})
		seen := map[string]bool{}
		for _, d := range res.Diagnostics {
			if !strings.HasPrefix(d.Code, "HARN-LNT-") {
				continue
			}
			f.findings[d.Code]++
			if !seen[d.Code] {
				seen[d.Code] = true
				f.programs[d.Code]++
			}
			if d.Severity == diagnostics.Error {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s: lint error on a valid program: %s %s", rel, d.Code, d.Message)
			}
		}
	}
	return f
}
