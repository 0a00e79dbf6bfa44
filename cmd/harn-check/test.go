package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/runtime/evaluate"
	"github.com/harnlang/harn-check/runtime/redact"
	"github.com/harnlang/harn-check/runtime/runner"
)

func testCommand() *command {
	return &command{
		name: "test", args: "PATH...", summary: "run programs against their .expected output or .error",
		about: `Every program with a sibling .expected must print exactly that; every one with a
.error must fail with an error that each line of it, or a re:REGEX line, matches
(upstream Harn's conformance convention). Paths in error text are relative to
the program's folder, so results do not depend on the working directory. A
.llm-mock.jsonl beside a program replays its model calls.`,
		setup: func(fs *flagSet) action {
			var tf testFlags
			tf.register(fs)
			return func(e *env, paths []string) int { return runTest(e, paths, tf) }
		},
	}
}

// testFlags are the flags of test.
type testFlags struct {
	rf     runFlags
	asJSON bool
	junit  string
	jobs   int
	filter string
	// allowEmpty accepts a folder without programs.
	allowEmpty bool
	shard      shardFlag
}

// testTimeout is test's default time limit per program.
const testTimeout = 30 * time.Second

func (t *testFlags) register(fs *flagSet) {
	t.rf.register(fs, testTimeout)
	fs.BoolVar(&t.asJSON, "json", false, "print the results as a JSON document")
	fs.StringVar(&t.junit, "junit", "", "also write JUnit XML to `FILE`")
	fs.IntVar(&t.jobs, "jobs", 0, "`n` programs run at once (default: the number of CPUs)")
	registerAllowEmpty(fs, &t.allowEmpty)
	fs.StringVar(&t.filter, "filter", "", "run only cases whose path matches `pattern` (substring, a|b, glob, or re:REGEX)")
	registerShard(fs, &t.shard, shardTestHelp)
}

// runTest runs the cases under paths.
func runTest(e *env, paths []string, tf testFlags) int {
	if len(paths) == 0 {
		return fail(e, "no paths given (usage: harn-check test [FLAGS] PATH...)")
	}
	env, err := tf.rf.env()
	if err != nil {
		return fail(e, "%v", err)
	}
	if err := requireFiles(paths, runtimes.Extensions(), tf.allowEmpty); err != nil {
		return driverError(e, err)
	}
	cases, err := runtimes.Discover(paths, tf.filter)
	if err != nil {
		return fail(e, "%v", unwrapPath(err))
	}
	_, fixed, err := fixedClock(e)
	if err != nil {
		return fail(e, "%v", err)
	}
	// The partition is the one check and lint use, over the cases found
	// (after --filter).
	var shard *diagnostics.Shard
	if tf.shard.s != nil {
		cases, shard = diagnostics.Part(tf.shard.s, cases)
	}
	opts := runner.SuiteOptions{Jobs: tf.jobs, Timeout: env.Limits.Time, Env: env}
	// Each program is checked first (unless --no-check) and admits only
	// the evaluation sites its check found, as run does: under
	// --no-check the list is computed at the program's first evaluation.
	opts.Prepare = func(path string, src []byte, env *runner.Env) error {
		sites, report := admitted(path, src, "", tf.rf.noCheck)
		if report != nil {
			return checkFailure(report)
		}
		var ev evaluate.Options
		if env.Evaluation != nil {
			ev = *env.Evaluation
		}
		ev.Sites = sites
		env.Evaluation = &ev
		return nil
	}
	start := time.Now()
	results := runner.Suite(context.Background(), cases, opts)
	elapsed := time.Since(start)
	if fixed {
		// SOURCE_DATE_EPOCH: no durations, so the outputs are repeatable.
		for i := range results {
			results[i].Duration = 0
		}
		elapsed = 0
	}
	passed, failed := 0, 0
	for _, r := range results {
		if r.Passed {
			passed++
		} else {
			failed++
		}
	}
	if tf.junit != "" {
		b, err := newJUnit(junitCases(results), elapsed.Seconds(), shard).render()
		if err == nil {
			err = redact.WriteFile(tf.junit, b, 0o644)
		}
		if err != nil {
			return fail(e, "--junit: %v", err)
		}
	}
	if tf.asJSON {
		b, err := newTestDoc(testCases(results), shard).render()
		if err == nil {
			_, err = e.stdout.Write(b)
		}
		if err != nil {
			return fail(e, "writing output: %v", err)
		}
	} else {
		for _, r := range results {
			status := "PASS"
			if !r.Passed {
				status = "FAIL"
			}
			fmt.Fprintf(e.stdout, "  %s  %s\n", status, r.Rel)
		}
		if failed > 0 {
			fmt.Fprintln(e.stdout)
			for _, r := range results {
				if !r.Passed {
					fmt.Fprintln(e.stdout, strings.TrimRight(r.Message, "\n"))
				}
			}
		}
		part := ""
		if shard != nil {
			part = fmt.Sprintf(" in shard %d/%d of %d", shard.Index, shard.Count, shard.Total)
		}
		fmt.Fprintf(e.stdout, "\n%d passed, %d failed, %d total%s (%.1fs)\n", passed, failed, len(results), part, elapsed.Seconds())
	}
	if failed > 0 {
		return exitFail
	}
	return exitOK
}

// checkFailure is the error a program fails with when the checker
// rejects it: its error diagnostics, one `path:line:col: CODE message`
// per line.
func checkFailure(r *diagnostics.Report) error {
	var lines []string
	for _, f := range r.Files {
		idx := diagnostics.NewLineIndex(f.Source)
		for _, d := range f.Diagnostics {
			if d.Severity != diagnostics.Error {
				continue
			}
			p := idx.RuneColumn(d.Span.Start)
			lines = append(lines, fmt.Sprintf("%s:%d:%d: %s %s", f.Path, p.Line+1, p.Column+1, d.Code, d.Message))
		}
	}
	return errors.New(strings.Join(lines, "\n"))
}
