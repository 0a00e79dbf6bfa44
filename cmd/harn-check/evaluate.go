package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/runtime/leia/harness"
	"github.com/harnlang/harn-check/runtime/runner"
)

// runEvaluate is `harn-check evaluate [flags] [PATH...]`, upstream's
// `leia evaluate`: run the evaluate blocks of Leia files and report.
//
// Exit status: 0 when the report is written (whatever the cases did,
// unless --gate); 1 under --gate when a case failed, the report failed
// (syntax, check or replay errors) or the baseline comparison found a
// regression; 2 for usage errors, a missing path or an unreadable
// fixture or baseline.
func runEvaluate(e *env, args []string) int {
	fs := flag.NewFlagSet("evaluate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	jsonOut := fs.Bool("json", false, "print the JSON report (same as --format json)")
	format := fs.String("format", "text", "output format: text, json or html")
	reportPath := fs.String("report", "", "also write the JSON report to this file")
	fs.StringVar(reportPath, "output", "", "alias of --report")
	gate := fs.Bool("gate", false, "exit 1 when a case fails, the report fails, or the baseline comparison regresses")
	baseline := fs.String("baseline", "", "compare with this earlier JSON report")
	threshold := fs.Float64("regression-threshold", 0, "tolerated fall of a pass rate against the baseline (0.05 = 5 points)")
	list := fs.Bool("list", false, "list the cases without running them")
	filter := fs.String("filter", "", "run only cases whose name, case id or path contains this text")
	parallel := fs.Int("parallel", 1, "run up to N cases at once (mock and live modes)")
	replay := fs.String("replay", "", "answer model turns from this .records.json fixture (strict)")
	fs.StringVar(replay, "llm-replay", "", "alias of --replay")
	record := fs.String("record", "", "call the live providers and record the turns to this .records.json fixture")
	fs.StringVar(record, "llm-record", "", "alias of --record")
	golden := fs.String("update-golden", "", "like --record, marked in the report as a deliberate rewrite of the golden fixture")
	mock := fs.Bool("mock", false, "answer model turns with the built-in mock provider")
	fs.BoolVar(mock, "llm-mock", false, "alias of --mock")
	trace := fs.String("llm-trace", "", "write trace events (metadata only) as JSON lines to this file")
	timeout := fs.Duration("timeout", 0, "stop each case after this long (0: no limit)")
	var rf runFlags
	rf.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(e.stdout, "usage: harn-check evaluate [flags] [PATH...]\n\nflags:\n")
			fs.SetOutput(e.stdout)
			fs.PrintDefaults()
			return exitOK
		}
		return fail(e, "evaluate: %v", err)
	}
	if *jsonOut {
		*format = "json"
	}
	switch *format {
	case "text", "json", "html":
	default:
		return fail(e, "evaluate: --format %q: want text, json or html", *format)
	}
	renv, err := rf.env()
	if err != nil {
		return fail(e, "evaluate: %v", err)
	}
	opts := harness.Options{Paths: fs.Args(), Filter: *filter, List: *list, Parallel: *parallel, Grants: renv.Grants,
		Seed: renv.Seed, MaxSteps: renv.MaxSteps, CaseTimeout: *timeout, Stdout: e.stderr}
	// SOURCE_DATE_EPOCH (the reproducible-builds convention) fixes the
	// report's clock: timestamps read that time and durations are 0, so a
	// replayed evaluation gives the same report bytes every time.
	if v := e.getenv("SOURCE_DATE_EPOCH"); v != "" {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fail(e, "evaluate: SOURCE_DATE_EPOCH %q: want seconds since 1970", v)
		}
		at := time.Unix(secs, 0).UTC()
		opts.Now = func() time.Time { return at }
	}
	modes := 0
	for _, set := range []bool{*mock, *replay != "", *record != "", *golden != ""} {
		if set {
			modes++
		}
	}
	if modes > 1 {
		return fail(e, "evaluate: --mock, --replay, --record and --update-golden exclude each other")
	}
	switch {
	case *mock:
		opts.LLM.Mode = runner.LLMMock
	case *replay != "":
		opts.LLM = runner.LLMConfig{Mode: runner.LLMReplay, Fixture: *replay}
	case *record != "":
		opts.LLM = runner.LLMConfig{Mode: runner.LLMRecord, Fixture: *record}
	case *golden != "":
		opts.LLM = runner.LLMConfig{Mode: runner.LLMRecord, Fixture: *golden}
		opts.UpdateGolden = true
	}
	if *trace != "" {
		f, err := os.Create(*trace)
		if err != nil {
			return fail(e, "evaluate: --llm-trace %s: %v", *trace, unwrapPath(err))
		}
		defer f.Close()
		opts.LLM.Trace = f
	}
	if !rf.noCheck {
		opts.Check = checkFindings
	}
	var base *harness.Report
	if *baseline != "" {
		if base, err = harness.ReadReport(*baseline); err != nil {
			return fail(e, "evaluate: --baseline: %v", err)
		}
	}
	rep, err := harness.Run(context.Background(), opts)
	if err != nil {
		return fail(e, "evaluate: %v", err)
	}
	if base != nil {
		rep.Compare(base, *baseline, *threshold)
	}
	if *reportPath != "" {
		b, err := rep.JSON()
		if err == nil {
			err = os.WriteFile(*reportPath, b, 0o644)
		}
		if err != nil {
			return fail(e, "evaluate: --report %s: %v", *reportPath, unwrapPath(err))
		}
	}
	switch *format {
	case "json":
		b, err := rep.JSON()
		if err != nil {
			return fail(e, "evaluate: %v", err)
		}
		e.stdout.Write(b)
	case "html":
		rep.HTML(e.stdout)
	default:
		rep.Text(e.stdout)
	}
	if *gate && (rep.Status != "ok" || rep.Summary.SubcasesFailed > 0 || rep.Comparison != nil && rep.Comparison.Regressed) {
		return exitFail
	}
	return exitOK
}

// checkFindings runs the checker on one file and turns its diagnostics
// into findings (kind check_error for errors, check_warning otherwise).
func checkFindings(path string, src []byte) []harness.Finding {
	res := driver.Check(driver.Request{Path: filepath.ToSlash(path), Source: src})
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
