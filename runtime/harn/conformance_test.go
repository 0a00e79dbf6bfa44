package harn

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/runner"
)

// noHostFolders are the upstream conformance folders whose programs need
// no host capability (files outside the program's folder, processes,
// network, real model providers): the runtime must pass at least 80% of
// the .expected programs in each.
var noHostFolders = []string{"collections", "control_flow", "functions", "language", "strings",
	"errors_tests", "modules", "types", "templates"}

// TestUpstreamConformance measures the runtime against upstream Harn's
// conformance programs (conformance/tests/**/*.harn with .expected
// output) when a checkout is present: $HARN_UPSTREAM, else
// /work/upstream/harn. Without one it skips, saying so. The programs are
// run the way `harn-check test --no-check` runs them (no grants, so
// host-dependent programs fail) and then with the checker first, as
// `harn-check test` does; the test logs the exact-output pass rate per
// folder and holds the floors: 60% of all .expected programs and 80% in
// each no-host folder. The upstream files are read in place, never copied.
func TestUpstreamConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: the upstream conformance measurement runs ~700 programs")
	}
	root := os.Getenv("HARN_UPSTREAM")
	if root == "" {
		root = "/work/upstream/harn"
	}
	dir := filepath.Join(root, "conformance", "tests")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skipf("SKIPPED: no upstream Harn conformance corpus at %s (set HARN_UPSTREAM to a checkout of burin-labs/harn)", dir)
	}
	// Checkpoints and other state go to a temp dir, not into the
	// upstream checkout.
	t.Setenv("HARN_STATE_DIR", t.TempDir())
	cases, err := runner.Languages{testLanguage(t)}.Discover([]string{dir}, "")
	if err != nil {
		t.Fatal(err)
	}
	var expected []runner.Case
	for _, c := range cases {
		if c.Expected != nil {
			expected = append(expected, c)
		}
	}
	if len(expected) < 500 {
		t.Fatalf("found only %d .expected programs under %s", len(expected), dir)
	}
	for _, mode := range []struct {
		name  string
		check func(string, []byte, *runner.Env) error
	}{{"unchecked", nil}, {"checked", checkProgram}} {
		start := time.Now()
		results := runner.Suite(context.Background(), expected, runner.SuiteOptions{Jobs: 2, Timeout: 10 * time.Second, Prepare: mode.check})
		total, passed := tally(results)
		var b strings.Builder
		folders := make([]string, 0, len(total))
		for f := range total {
			folders = append(folders, f)
		}
		sort.Strings(folders)
		all, allPassed, nh, nhPassed := 0, 0, 0, 0
		for _, f := range folders {
			fmt.Fprintf(&b, "  %-14s %3d/%3d %5.1f%%\n", f, passed[f], total[f], pct(passed[f], total[f]))
			all += total[f]
			allPassed += passed[f]
			if isNoHost(f) {
				nh += total[f]
				nhPassed += passed[f]
			}
		}
		t.Logf("upstream conformance, %s (%s, %d programs):\n%s  ALL %d/%d = %.1f%%, no-host folders %d/%d = %.1f%%",
			mode.name, time.Since(start).Round(time.Millisecond), all, b.String(), allPassed, all, pct(allPassed, all), nhPassed, nh, pct(nhPassed, nh))
		if pct(allPassed, all) < 60 {
			t.Errorf("%s: %.1f%% of the .expected programs pass exactly; the floor is 60%%", mode.name, pct(allPassed, all))
		}
		for _, f := range noHostFolders {
			if total[f] > 0 && pct(passed[f], total[f]) < 80 {
				t.Errorf("%s: %s passes %.1f%%; the floor for no-host folders is 80%%", mode.name, f, pct(passed[f], total[f]))
			}
		}
	}
}

func tally(results []runner.CaseResult) (total, passed map[string]int) {
	total, passed = map[string]int{}, map[string]int{}
	for _, r := range results {
		folder, _, _ := strings.Cut(r.Rel, "/")
		total[folder]++
		if r.Passed {
			passed[folder]++
		}
	}
	return total, passed
}

func isNoHost(folder string) bool {
	for _, f := range noHostFolders {
		if f == folder {
			return true
		}
	}
	return false
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}
