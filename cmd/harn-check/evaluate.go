package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/runtime/execution"
	"github.com/harnlang/harn-check/runtime/leia/harness"
	"github.com/harnlang/harn-check/runtime/redact"
	"github.com/harnlang/harn-check/runtime/runner"
)

func evaluateCommand() *command {
	return &command{
		name: "evaluate", args: "PATH...", summary: "run the evaluate blocks of Leia files and report",
		about: `Upstream's leia evaluate: each evaluate block runs as ordinary Leia code in a
fresh interpreter; model turns go to the mock (--mock), a replayed fixture
(--replay F), the live providers recorded to a fixture (--record F), or without
a mode flag the providers the program configures. Exit status: 0 when the report
is written; with --gate, 1 when a case or subcase failed, the report failed or
the baseline comparison regressed; 2 for usage errors and unreadable inputs.`,
		setup: func(fs *flagSet) action {
			var f evaluateFlags
			f.register(fs)
			return func(e *env, paths []string) int { return runEvaluate(e, paths, &f) }
		},
	}
}

// evaluateFlags are the flags of evaluate.
type evaluateFlags struct {
	jsonOut, gate, list, mock    bool
	allowEmpty                   bool
	format, reportPath, baseline string
	filter, replay, record       string
	golden, trace                string
	threshold                    float64
	parallel                     int
	rf                           runFlags
	shard                        shardFlag
}

func (f *evaluateFlags) register(fs *flagSet) {
	fs.BoolVar(&f.jsonOut, "json", false, "print the JSON report (same as --format json)")
	fs.StringVar(&f.format, "format", "text", "output `format`: text, json or html")
	fs.StringVar(&f.reportPath, "report", "", "also write the JSON report to this `file`")
	fs.StringVar(&f.reportPath, "output", "", "alias of --report")
	fs.BoolVar(&f.gate, "gate", false, "exit 1 when a case fails, the report fails, or the baseline comparison regresses")
	fs.StringVar(&f.baseline, "baseline", "", "compare with this earlier JSON report `file`")
	fs.Float64Var(&f.threshold, "regression-threshold", 0, "tolerated fall of a pass rate against the baseline (0.05 = 5 points)")
	registerAllowEmpty(fs, &f.allowEmpty)
	fs.BoolVar(&f.list, "list", false, "list the cases without running them")
	fs.StringVar(&f.filter, "filter", "", "run only cases whose name, case id or path contains this `text`")
	fs.IntVar(&f.parallel, "parallel", 1, "run up to `n` cases at once (mock and live modes)")
	fs.StringVar(&f.replay, "replay", "", "answer model turns from this .records.json `fixture` (strict)")
	fs.StringVar(&f.replay, "llm-replay", "", "alias of --replay")
	fs.StringVar(&f.record, "record", "", "call the live providers and record the turns to this .records.json `fixture`")
	fs.StringVar(&f.record, "llm-record", "", "alias of --record")
	fs.StringVar(&f.golden, "update-golden", "", "like --record, marked in the report as a deliberate rewrite of the golden `fixture`")
	fs.BoolVar(&f.mock, "mock", false, "answer model turns with the built-in mock provider")
	fs.BoolVar(&f.mock, "llm-mock", false, "alias of --mock")
	fs.StringVar(&f.trace, "llm-trace", "", "write trace events (metadata only) as JSON lines to this `file`")
	f.rf.register(fs, execution.LimitOf(execution.Time).DefaultDuration())
	registerShard(fs, &f.shard, shardEvaluateHelp)
}

// runEvaluate runs the evaluate blocks of the Leia files under paths.
//
// Exit status: 0 when the report is written (whatever the cases did,
// unless --gate); 1 under --gate when a case failed, the report failed
// (syntax, check or replay errors) or the baseline comparison found a
// regression; 2 for usage errors, a missing path or an unreadable
// fixture or baseline.
func runEvaluate(e *env, paths []string, f *evaluateFlags) int {
	if f.jsonOut {
		f.format = "json"
	}
	switch f.format {
	case "text", "json", "html":
	default:
		return fail(e, "--format %q: want text, json or html", f.format)
	}
	renv, err := f.rf.env()
	if err != nil {
		return fail(e, "%v", err)
	}
	if err := requireFiles(paths, []string{".leia"}, f.allowEmpty); err != nil {
		return driverError(e, err)
	}
	opts := harness.Options{Paths: paths, Filter: f.filter, List: f.list, Parallel: f.parallel, Grants: renv.Grants,
		Seed: renv.Seed, Limits: renv.Limits, Stdout: e.stderr}
	// SOURCE_DATE_EPOCH (the reproducible-builds convention) fixes the
	// report's clock: timestamps read that time and durations are 0, so a
	// replayed evaluation gives the same report bytes every time.
	if at, ok, err := fixedClock(e); err != nil {
		return fail(e, "%v", err)
	} else if ok {
		opts.Now = func() time.Time { return at }
	}
	modes := 0
	for _, set := range []bool{f.mock, f.replay != "", f.record != "", f.golden != ""} {
		if set {
			modes++
		}
	}
	if modes > 1 {
		return fail(e, "--mock, --replay, --record and --update-golden exclude each other")
	}
	if opts.Shard = f.shard.s; opts.Shard != nil {
		switch {
		case f.replay != "" || f.record != "" || f.golden != "":
			return fail(e, "--shard with --replay, --record or --update-golden: the fixture is one ordered conversation over all cases and cannot be split; shard with --mock or the live providers")
		case f.baseline != "":
			return fail(e, "--shard with --baseline: compare the merged report (harn-check merge --baseline FILE)")
		}
	}
	switch {
	case f.mock:
		opts.LLM.Mode = runner.LLMMock
	case f.replay != "":
		opts.LLM = runner.LLMConfig{Mode: runner.LLMReplay, Fixture: f.replay}
	case f.record != "":
		opts.LLM = runner.LLMConfig{Mode: runner.LLMRecord, Fixture: f.record}
	case f.golden != "":
		opts.LLM = runner.LLMConfig{Mode: runner.LLMRecord, Fixture: f.golden}
		opts.UpdateGolden = true
	}
	if f.trace != "" {
		tf, err := os.Create(f.trace)
		if err != nil {
			return fail(e, "--llm-trace %s: %v", f.trace, unwrapPath(err))
		}
		defer tf.Close()
		opts.LLM.Trace = redact.Writer(tf)
	}
	if !f.rf.noCheck {
		opts.Check = checkFindings
	}
	var base *harness.Report
	if f.baseline != "" {
		if base, err = harness.ReadReport(f.baseline); err != nil {
			return fail(e, "--baseline: %v", err)
		}
	}
	rep, err := harness.Run(context.Background(), opts)
	if err != nil {
		return fail(e, "%v", err)
	}
	if base != nil {
		rep.Compare(base, f.baseline, f.threshold)
	}
	if f.reportPath != "" {
		b, err := rep.JSON()
		if err == nil {
			err = redact.WriteFile(f.reportPath, b, 0o644)
		}
		if err != nil {
			return fail(e, "--report %s: %v", f.reportPath, unwrapPath(err))
		}
	}
	switch f.format {
	case "json":
		b, err := rep.JSON()
		if err != nil {
			return fail(e, "%v", err)
		}
		e.stdout.Write(b)
	case "html":
		rep.HTML(e.stdout)
	default:
		rep.Text(e.stdout)
	}
	if f.gate && (rep.Status != "ok" || rep.Summary.SubcasesFailed > 0 || rep.Comparison != nil && rep.Comparison.Regressed) {
		return exitFail
	}
	return exitOK
}

// checkFindings runs the checker on one file and turns its diagnostics
// into findings (kind check_error for errors, check_warning otherwise).
func checkFindings(path string, src []byte) []harness.Finding {
	res := checks.Check(driver.Request{Path: filepath.ToSlash(path), Source: src})
	var out []harness.Finding
	for _, d := range res.Diagnostics {
		kind, sev := "check_warning", "warning"
		if d.Severity == diagnostics.Error {
			kind, sev = "check_error", "error"
		}
		if d.Severity != diagnostics.Error && d.Severity != diagnostics.Warning {
			continue
		}
		line, col := lineCol(src, d.Span.Start)
		out = append(out, harness.Finding{Kind: kind, Severity: sev, Message: d.Code + ": " + d.Message, Path: path, Line: line, Column: col})
	}
	return out
}

func lineCol(src []byte, off int) (int, int) {
	if off > len(src) {
		off = len(src)
	}
	line := 1 + strings.Count(string(src[:off]), "\n")
	col := off - strings.LastIndexByte(string(src[:off]), '\n')
	return line, col
}
