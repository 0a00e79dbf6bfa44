package harn

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/frontends"
	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/runner"
)

// TestRunPrograms runs testdata/run the way `harn-check test` does:
// each program is checked first, then run, and must print its .expected
// output or fail with its .error.
func TestRunPrograms(t *testing.T) {
	state := t.TempDir()
	t.Setenv("HARN_STATE_DIR", state) // checkpoints stay out of the tree
	cases, err := runner.Languages{testLanguage(t)}.Discover([]string{"../../testdata/run"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 20 {
		t.Fatalf("found %d cases under testdata/run", len(cases))
	}
	// The state dir lies outside the programs' folder (and a run's temp
	// dir is its own): granted as a user would.
	opts := runner.SuiteOptions{Jobs: 2, Prepare: checkProgram, Env: runner.Env{Grants: host.Grants{FS: []string{state}}}}
	for _, r := range runner.Suite(context.Background(), cases, opts) {
		if !r.Passed {
			t.Errorf("%s", r.Message)
		}
	}
}

// checkProgram runs the checker through the driver, as `harn-check test`
// does before running a program: its errors fail the program.
func checkProgram(path string, src []byte, _ *runner.Env) error {
	res := driver.Languages{frontends.Harn()}.Check(driver.Request{Path: path, Source: src})
	var msgs []string
	for _, d := range res.Diagnostics {
		if d.Severity == diagnostics.Error {
			msgs = append(msgs, d.Code+" "+d.Message)
		}
	}
	if len(msgs) > 0 {
		return errors.New(strings.Join(msgs, "\n"))
	}
	return nil
}
