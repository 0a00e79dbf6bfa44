package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/grammar/leia/binding"
	"github.com/harnlang/harn-check/internal/english"
	"github.com/harnlang/harn-check/lang/leia/semantic"
	"github.com/harnlang/harn-check/runtime/execution"
	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/leia/ai"
	"github.com/harnlang/harn-check/runtime/llm"
	"github.com/harnlang/harn-check/runtime/runner"
)

// Options configure a run.
type Options struct {
	// Paths are files and folders (walked for .leia files; .git,
	// node_modules and vendor skipped); none means ".".
	Paths []string
	// Filter keeps the cases whose name, case id or source path contains
	// it.
	Filter string
	// List discovers cases without running them (no model turn is made).
	List bool
	// LLM is the model-call mode: mock, replay (Fixture), record
	// (Fixture), or live.
	LLM runner.LLMConfig
	// UpdateGolden marks a recording as a deliberate rewrite of the golden
	// fixture (the report says so).
	UpdateGolden bool
	// Parallel runs up to this many cases at once (mock and live only: a
	// replay or a recording is one ordered conversation).
	Parallel int
	// Grants are the programs' --allow-* grants.
	Grants host.Grants
	// TempDir overrides the programs' temp dir.
	TempDir string
	// Seed makes programs' randomness deterministic.
	Seed *uint64
	// Limits bound each case (steps, wall time, memory, goroutines; the
	// zero value bounds nothing).
	Limits execution.Limits
	// Stdout receives what cases print (default io.Discard): never the
	// report, which stays free of program output.
	Stdout io.Writer
	// Check, when set, checks a file before its cases run; an error
	// finding stops the file's cases.
	Check func(path string, src []byte) []Finding
	// Now is the clock of timestamps and durations (default time.Now; a
	// fixed clock makes reports byte-for-byte repeatable).
	Now func() time.Time
	// Shard, when set, runs only the shard's part of the files found
	// (diagnostics.Shard.Has: the k-th file to part k mod n + 1, the
	// partition check and lint use); the report says which part it
	// holds (Report.Shard) for Merge. A replay or a recording is one
	// ordered conversation over all cases and cannot be split.
	Shard *diagnostics.Shard
}

// Run discovers and runs evaluate blocks and returns the report. The
// error is for setup failures only (a missing path, an unreadable
// fixture); everything about programs and cases is in the report.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	files, err := collectFiles(opts.Paths)
	if err != nil {
		return nil, err
	}
	var shard *ReportShard
	if opts.Shard != nil {
		if opts.LLM.Mode == runner.LLMReplay || opts.LLM.Mode == runner.LLMRecord {
			return nil, fmt.Errorf("--shard: a replay or a recording is one ordered conversation over all cases and cannot be split; shard with --mock or the live providers")
		}
		var part *diagnostics.Shard
		files, part = diagnostics.Part(opts.Shard, files)
		shard = &ReportShard{Shard: *part}
		shard.FileFindings = make([]int, len(files))
		shard.Cases = make([]int, len(files))
		shard.CaseFindings = make([]int, len(files))
	}
	start := opts.Now()
	rep := &Report{SchemaVersion: SchemaVersion, Phase: Phase, Status: "ok", StartedAt: stamp(start), Runtime: runtimeInfo(),
		Inputs: []Input{}, Cases: []Case{}, Metrics: MetricSummary{}, Findings: []Finding{}, BrokenScripts: []string{},
		Notes: []string{"each evaluate block runs as ordinary Leia code: the file's top-level statements (other evaluate blocks left out), then the block, in a fresh interpreter"}}
	filter := strings.TrimSpace(opts.Filter)
	if filter != "" {
		rep.Notes = append(rep.Notes, "filter: "+filter)
	}
	if opts.List {
		rep.Notes = append(rep.Notes, "list mode: evaluate cases are discovered but not executed")
	}
	mp, err := newModelPlan(opts)
	if err != nil {
		return nil, err
	}
	rep.LLM = mp.run
	parallel := max(opts.Parallel, 1)
	if parallel > 1 && (opts.LLM.Mode == runner.LLMReplay || opts.LLM.Mode == runner.LLMRecord) {
		rep.Notes = append(rep.Notes, "--parallel ignored: a replay or a recording is one ordered conversation")
		parallel = 1
	}

	var jobs []*job
	// fileStart[i] is where file i's findings begin in rep.Findings.
	fileStart := make([]int, 0, len(files)+1)
	for _, path := range files {
		fileStart = append(fileStart, len(rep.Findings))
		in := Input{Path: path, Status: "ok"}
		rep.Summary.Files++
		src, err := os.ReadFile(path)
		if err != nil {
			in.Status = "error"
			rep.Findings = append(rep.Findings, Finding{Kind: "io_error", Severity: "error", Message: unwrap(err).Error(), Path: path})
			rep.Inputs = append(rep.Inputs, in)
			continue
		}
		rep.Findings = append(rep.Findings, todoFindings(path, src)...)
		file, diags := binding.Parse(path, src)
		if len(diags) > 0 {
			in.Status = "error"
			for _, d := range diags {
				line, col := position(src, d.Span.Start)
				rep.Findings = append(rep.Findings, Finding{Kind: "parse_error", Severity: "error", Message: d.Message, Path: path, Line: line, Column: col})
			}
			rep.Inputs = append(rep.Inputs, in)
			continue
		}
		if fs := namelessEvaluates(path, src, file); len(fs) > 0 {
			// The case name is required: a nameless block is a malformed
			// case, and running the file's top level would run its body.
			in.Status = "error"
			rep.Findings = append(rep.Findings, fs...)
			rep.Inputs = append(rep.Inputs, in)
			continue
		}
		rep.Summary.ParsedFiles++
		countDecls(file, &rep.Summary)
		cases := discover(path, src, file)
		rep.Summary.EvaluateBlocks += len(cases)
		if opts.Check != nil {
			if fs := opts.Check(path, src); hasError(fs) {
				in.Status = "error"
				rep.Findings = append(rep.Findings, fs...)
				rep.Inputs = append(rep.Inputs, in)
				continue
			} else {
				rep.Findings = append(rep.Findings, fs...)
			}
		}
		idx := len(rep.Inputs)
		rep.Inputs = append(rep.Inputs, in)
		for _, pc := range cases {
			if filter != "" && !strings.Contains(pc.c.Name, filter) && !strings.Contains(pc.c.CaseID, filter) && !strings.Contains(pc.c.SourcePath, filter) {
				rep.Summary.CasesSkipped++
				continue
			}
			rep.Summary.CasesSelected++
			if opts.List {
				pc.c.Status = "listed"
				rep.Summary.CasesListed++
				rep.Cases = append(rep.Cases, pc.c)
				if shard != nil {
					shard.Cases[idx]++
				}
				continue
			}
			jobs = append(jobs, &job{pc: pc, path: path, src: src, file: file, input: idx})
		}
	}

	fileStart = append(fileStart, len(rep.Findings))
	if shard != nil {
		for i := range shard.FileFindings {
			shard.FileFindings[i] = fileStart[i+1] - fileStart[i]
		}
		for _, j := range jobs {
			shard.Cases[j.input]++
		}
	}

	runJobs(ctx, opts, mp, jobs, parallel)
	broken := map[string]bool{}
	for _, j := range jobs {
		c := j.pc.c
		rep.Cases = append(rep.Cases, c)
		rep.Summary.Assertions += len(c.Assertions)
		rep.Summary.Subcases += len(c.Subcases)
		for _, sc := range c.Subcases {
			switch sc.Status {
			case "failed":
				rep.Summary.SubcasesFailed++
			case "skipped":
				rep.Summary.SubcasesSkipped++
			}
		}
		rep.Summary.DurationMS += c.DurationMS
		for _, b := range c.BrokenScripts {
			broken[b] = true
		}
		foldMetrics(rep.Metrics, c)
		if c.Status == "passed" {
			rep.Summary.CasesPassed++
			continue
		}
		rep.Summary.CasesFailed++
		rep.Status = "failed"
		rep.Inputs[j.input].Status = "error"
		kind, msg := "case_runtime_error", "case failed"
		if len(c.Diagnostics) > 0 {
			msg = c.Diagnostics[0].Message
			if k := c.Diagnostics[0].Kind; caseFindingKinds[k] {
				kind = k
			}
		}
		rep.Findings = append(rep.Findings, Finding{Kind: kind, Severity: "error", Message: msg, Path: j.path, Line: c.Range.StartLine, Column: c.Range.StartColumn})
		if shard != nil {
			shard.CaseFindings[j.input]++
		}
	}
	rep.Metrics.finish()
	for b := range broken {
		rep.BrokenScripts = append(rep.BrokenScripts, b)
	}
	sort.Strings(rep.BrokenScripts)
	if n := rep.Summary.CasesPassed + rep.Summary.CasesFailed; n > 0 {
		rep.Summary.PassRate = round4(float64(rep.Summary.CasesPassed) / float64(n))
	}
	for _, in := range rep.Inputs {
		if in.Status != "ok" {
			rep.Status = "failed"
		}
	}
	for _, f := range rep.Findings {
		if f.Kind == "todo" {
			rep.Summary.TODOs++
		}
	}
	rep.Shard = shard
	if err := mp.finish(rep, opts.List); err != nil {
		return rep, err
	}
	return rep, nil
}

// caseFindingKinds are the kinds of a failed case's finding besides
// case_runtime_error: the case's first diagnostic names them.
var caseFindingKinds = map[string]bool{"subcase_failed": true, "provider_unconfigured": true}

func hasError(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == "error" {
			return true
		}
	}
	return false
}

// foldMetrics adds a case's metrics, and its subcases' unless skipped,
// to a summary; the case's own summary too.
func foldMetrics(total MetricSummary, c Case) {
	for _, m := range c.Metrics {
		total.add(m)
	}
	for _, s := range c.Subcases {
		if s.Status == "skipped" {
			continue
		}
		for _, m := range s.Metrics {
			total.add(m)
		}
	}
}

type parsedCase struct {
	c    Case
	body *ast.Block
	stmt *ast.EvaluateStmt
}

type job struct {
	pc    *parsedCase
	path  string
	src   []byte
	file  *ast.File
	input int
}

// discover lists a file's evaluate blocks (top level and nested in
// declarations, as upstream counts them) with their assertions.
func discover(path string, src []byte, file *ast.File) []*parsedCase {
	var out []*parsedCase
	for _, st := range file.Stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			ev, ok := n.(*ast.EvaluateStmt)
			if !ok {
				return true
			}
			line, col := position(src, ev.Start)
			name := ""
			if ev.Name != nil {
				name, _ = ev.Name.Value()
			}
			pc := &parsedCase{body: ev.Body, stmt: ev, c: Case{
				CaseID: fmt.Sprintf("%s:%d:%d", path, line, col), Name: name, SourcePath: path,
				Range: Range{StartLine: line, StartColumn: col}, Status: "pending",
				Assertions: assertions(path, src, ev.Body), Diagnostics: []Diagnostic{}, Subcases: []Subcase{},
				Metrics: []Metric{}, MetricSummaries: MetricSummary{}, BrokenScripts: []string{},
			}}
			out = append(out, pc)
			return true
		})
	}
	return out
}

// namelessEvaluates reports each `evaluate { ... }` of a file: without
// its required string-literal name it parses as a tagged block, not a
// case.
func namelessEvaluates(path string, src []byte, file *ast.File) []Finding {
	var out []Finding
	for _, st := range file.Stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			if tb, ok := n.(*ast.TaggedBlock); ok && tb.Tag != nil && tb.Tag.Name == "evaluate" {
				line, col := position(src, tb.Start)
				out = append(out, Finding{Kind: "parse_error", Severity: "error", Path: path, Line: line, Column: col,
					Message: `evaluate requires a case name: a string literal, as in evaluate "name" { ... }`})
			}
			return true
		})
	}
	return out
}

// assertions lists the assert(...) calls of a case body.
func assertions(path string, src []byte, body *ast.Block) []Assertion {
	out := []Assertion{}
	if body == nil {
		return out
	}
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "assert" {
			return true
		}
		line, col := position(src, call.Start)
		a := Assertion{ID: fmt.Sprintf("%s:%d:%d", path, line, col), Status: "pending", Range: Range{StartLine: line, StartColumn: col}}
		if len(call.Args) > 1 {
			if s, ok := call.Args[1].(*ast.StringLit); ok {
				a.Message, _ = s.Value()
			}
		}
		out = append(out, a)
		return true
	})
	return out
}

// countDecls adds a file's agents, tools, models and budgets.
func countDecls(file *ast.File, s *Summary) {
	facts := semantic.Compute(file)
	s.Agents += len(facts.Agents)
	s.Tools += len(facts.Tools)
	s.Models += len(facts.Models)
	for _, st := range file.Stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BudgetStmt:
				s.Budgets++
			case *ast.CallExpr:
				if sel, ok := x.Fun.(*ast.FieldExpr); ok && sel.Field != nil && sel.Field.Name == "with_budget" {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "llm" {
						s.Budgets++
					}
				}
			}
			return true
		})
	}
}

// caseFile is the program a case runs: the file's top-level statements
// except evaluate blocks, then the case body.
func caseFile(file *ast.File, body *ast.Block) *ast.File {
	f := *file
	f.Stmts = nil
	for _, st := range file.Stmts {
		if _, ok := st.(*ast.EvaluateStmt); ok {
			continue
		}
		f.Stmts = append(f.Stmts, st)
	}
	if body != nil {
		f.Stmts = append(f.Stmts, body.Stmts...)
	}
	return &f
}

// modelPlan is the run's model-call setup, shared by all cases: a
// replay is one conversation across the cases in order.
type modelPlan struct {
	mode     string
	provider llm.Provider
	replay   *llm.Replay
	recorder *llm.Recorder
	fixture  string
	trace    llm.TraceSink
	run      *LLMRun
}

func newModelPlan(opts Options) (*modelPlan, error) {
	mp := &modelPlan{mode: opts.LLM.Mode, fixture: opts.LLM.Fixture}
	if opts.LLM.Trace != nil {
		mp.trace = llm.NewJSONLTrace(opts.LLM.Trace)
	}
	switch opts.LLM.Mode {
	case runner.LLMMock:
		mp.provider = ai.MockProvider()
		mp.run = &LLMRun{Mode: "mock"}
	case runner.LLMReplay:
		recs, err := llm.LoadRecords(opts.LLM.Fixture)
		if err != nil {
			return nil, fmt.Errorf("--replay: %w", err)
		}
		mp.replay = llm.NewReplay(recs)
		mp.provider = mp.replay
		mp.run = &LLMRun{Mode: "replay", ReplayPath: opts.LLM.Fixture, LoadedTurns: len(recs)}
	case runner.LLMRecord:
		mp.recorder = &llm.Recorder{}
		mp.run = &LLMRun{Mode: "record", RecordPath: opts.LLM.Fixture}
		if opts.UpdateGolden {
			mp.run.Mode, mp.run.GoldenUpdated = "update_golden", true
		}
	case runner.LLMLive:
	default:
		return nil, fmt.Errorf("unknown llm mode %q", opts.LLM.Mode)
	}
	return mp, nil
}

// config is one case's AI configuration.
func (mp *modelPlan) config(h *host.Host, path string) ai.Config {
	cfg := ai.Config{Dir: filepath.Dir(path), Host: h, Trace: mp.trace, Source: "live"}
	switch {
	case mp.provider != nil:
		cfg.Provider = mp.provider
		cfg.Source = mp.mode
	case mp.recorder != nil:
		live := ai.LiveFactory(h)
		cfg.Factory = func(pc ai.ProviderConfig) (llm.Provider, error) {
			p, err := live(pc)
			if err != nil {
				return nil, err
			}
			return mp.recorder.Wrap(p), nil
		}
	default:
		cfg.Factory = ai.LiveFactory(h)
	}
	return cfg
}

// finish reports the replay's state and writes a recording.
func (mp *modelPlan) finish(rep *Report, listed bool) error {
	if mp.replay != nil {
		rep.LLM.ReplayedTurns = mp.replay.Consumed()
		rep.LLM.RemainingTurns = mp.replay.Remaining()
		if listed {
			rep.Notes = append(rep.Notes, "llm replay loaded from "+mp.fixture+" (not consumed in list mode)")
			return nil
		}
		rep.Notes = append(rep.Notes, "llm replay loaded from "+mp.fixture)
		if err := mp.replay.Finish(); err != nil {
			rep.Status = "failed"
			rep.Findings = append(rep.Findings, replayFinding(err, mp.fixture))
		}
	}
	if mp.recorder != nil {
		recs := mp.recorder.Records()
		rep.LLM.RecordedTurns = len(recs)
		rep.Notes = append(rep.Notes, "llm turns recorded to "+mp.fixture)
		if !listed {
			if err := llm.SaveRecords(mp.fixture, recs); err != nil {
				return fmt.Errorf("--record %s: %w", mp.fixture, err)
			}
		}
	}
	return nil
}

func replayFinding(err error, path string) Finding {
	var re *llm.ReplayError
	var ue *llm.UnconsumedError
	switch {
	case errors.As(err, &re) && re.Exhausted:
		return Finding{Kind: "llm_replay_exhausted", Severity: "error", Message: err.Error(), Path: path, Details: map[string]any{"turn": re.Turn, "actual": re.Actual}}
	case errors.As(err, &re):
		return Finding{Kind: "llm_replay_mismatch", Severity: "error", Message: err.Error(), Path: path, Details: map[string]any{"turn": re.Turn, "expected": re.Expected, "actual": re.Actual, "diff": re.Diff}}
	case errors.As(err, &ue):
		return Finding{Kind: "llm_replay_unconsumed", Severity: "error", Message: err.Error(), Path: path, Details: map[string]any{"remaining": ue.Left, "next_turn": ue.Next, "next": ue.Summary}}
	}
	return Finding{Kind: "llm_replay_error", Severity: "error", Message: err.Error(), Path: path}
}

// runJobs runs the cases, up to parallel at once, each in its own
// interpreter; results land in each job's case.
func runJobs(ctx context.Context, opts Options, mp *modelPlan, jobs []*job, parallel int) {
	if parallel <= 1 {
		for _, j := range jobs {
			runCase(ctx, opts, mp, j)
		}
		return
	}
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func(j *job) {
			defer wg.Done()
			defer func() { <-sem }()
			runCase(ctx, opts, mp, j)
		}(j)
	}
	wg.Wait()
}

// runCase runs one case; no panic escapes.
func runCase(ctx context.Context, opts Options, mp *modelPlan, j *job) {
	c := &j.pc.c
	start := opts.Now()
	c.StartedAt = stamp(start)
	defer func() {
		if r := recover(); r != nil {
			c.Status = "failed"
			c.Diagnostics = append(c.Diagnostics, Diagnostic{Kind: "internal_error", Severity: "error", Message: fmt.Sprintf("internal error: %v\n%s", r, debug.Stack())})
		}
		c.DurationMS = opts.Now().Sub(start).Milliseconds()
	}()
	dir := filepath.Dir(j.path)
	h, err := host.New(host.Config{Root: dir, TempDir: opts.TempDir, Grants: opts.Grants, Seed: opts.Seed, Stdout: opts.Stdout, Stderr: opts.Stdout, Stdin: strings.NewReader("")})
	if err != nil {
		c.fail("setup_error", err.Error())
		return
	}
	defer h.Close() // removes the run's private temp dir
	in := leia.New(leia.Options{Stdout: opts.Stdout, Stderr: opts.Stdout, Stdin: strings.NewReader(""), ScriptName: j.path,
		Limits: opts.Limits, Host: h, Modules: leia.HostModules(h)})
	cfg := mp.config(h, j.path)
	// A provider that cannot be made (no base_url, a key in no variable)
	// fails every model call of the case; its error is the case's first
	// diagnostic, since the failures it causes (a subcase's bare assert)
	// do not say it.
	var (
		provMu  sync.Mutex
		provErr error
	)
	if live := cfg.Factory; live != nil {
		cfg.Factory = func(pc ai.ProviderConfig) (llm.Provider, error) {
			p, err := live(pc)
			if err != nil {
				provMu.Lock()
				if provErr == nil {
					provErr = err
				}
				provMu.Unlock()
			}
			return p, err
		}
	}
	defer func() {
		provMu.Lock()
		defer provMu.Unlock()
		if provErr != nil {
			d := Diagnostic{Kind: "provider_unconfigured", Severity: "error", Message: fmt.Sprintf(
				"no usable model provider, so every model call failed: %v; configure the provider, or run without one: --mock answers the calls, --replay FIXTURE replays a recording", provErr)}
			c.Status = "failed"
			c.Diagnostics = append([]Diagnostic{d}, c.Diagnostics...)
		}
	}()
	rt := ai.Install(in, cfg)
	col := newCollector(rt, h, dir, opts.Now)
	in.RegisterModule("eval", col.module())
	chunk, err := in.CompileAST(j.path, j.src, caseFile(j.file, j.pc.body))
	if err == nil {
		_, err = in.Run(ctx, chunk)
	}
	c.Subcases = col.subs
	for i := range c.Subcases {
		if c.Subcases[i].Status == "running" {
			c.Subcases[i].Status = "failed"
		}
	}
	c.Metrics = append(c.Metrics, col.metrics...)
	foldMetrics(c.MetricSummaries, *c)
	c.MetricSummaries.finish()
	u := usageOf(rt.Usage())
	c.Usage = &u
	c.BrokenScripts = append(c.BrokenScripts, rt.BrokenScripts()...)
	if err != nil && !isExitZero(err) {
		c.Status = "failed"
		msg := err.Error()
		var le *leia.Error
		var r *Range
		if errors.As(err, &le) && le.Line > 0 {
			r = &Range{StartLine: le.Line, StartColumn: le.Col}
		}
		c.Diagnostics = append(c.Diagnostics, Diagnostic{Kind: "runtime_error", Severity: "error", Message: msg, Range: r})
		markAssertions(c, r, msg)
		return
	}
	c.Status = "passed"
	for i := range c.Assertions {
		c.Assertions[i].Status = "passed"
	}
	// eval.case never raises, but a block whose subcases failed did not
	// pass: a pass rate of 100% over failed subcases would hide them.
	failed, counted := 0, 0
	for _, s := range c.Subcases {
		switch s.Status {
		case "failed":
			failed++
			counted++
		case "passed":
			counted++
		}
	}
	if failed > 0 {
		c.fail("subcase_failed", fmt.Sprintf("%d of %s failed", failed, english.Count(counted, "subcase", "subcases")))
	}
}

func (c *Case) fail(kind, msg string) {
	c.Status = "failed"
	c.Diagnostics = append(c.Diagnostics, Diagnostic{Kind: kind, Severity: "error", Message: msg})
}

// isExitZero is os.exit(0) inside a case: a normal end.
func isExitZero(err error) bool {
	var le *leia.Error
	return errors.As(err, &le) && le.Kind == leia.KindExit && le.Code == 0
}

// markAssertions marks the assertion at the failure's position failed,
// the others unknown.
func markAssertions(c *Case, at *Range, msg string) {
	for i := range c.Assertions {
		c.Assertions[i].Status = "unknown"
		if at != nil && c.Assertions[i].Range == *at {
			c.Assertions[i].Status = "failed"
		}
	}
}

func collectFiles(paths []string) ([]string, error) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, unwrap(err)
		}
		if !st.IsDir() {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				switch d.Name() {
				case ".git", "node_modules", "vendor":
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(path, ".leia") && !seen[path] {
				seen[path] = true
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

// todoFindings reports TODO markers in comment lines.
func todoFindings(path string, src []byte) []Finding {
	var out []Finding
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		trim := strings.TrimSpace(text)
		if !strings.HasPrefix(trim, "//") && !strings.HasPrefix(trim, "/*") && !strings.HasPrefix(trim, "*") {
			continue
		}
		idx := -1
		for _, m := range []string{"TODO:", "TODO "} {
			if i := strings.Index(text, m); i >= 0 {
				idx = i
				break
			}
		}
		if idx < 0 && strings.HasSuffix(trim, "TODO") {
			idx = strings.LastIndex(text, "TODO")
		}
		if idx < 0 {
			continue
		}
		out = append(out, Finding{Kind: "todo", Severity: "info", Message: strings.TrimSpace(text[idx:]), Path: path, Line: line, Column: idx + 1})
	}
	return out
}

// position is the 1-based line and column (in bytes) of an offset.
func position(src []byte, off int) (int, int) {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(src[:off], '\n')
	return line, col
}

func runtimeInfo() RuntimeInfo {
	ri := RuntimeInfo{LeiaVersion: "harn-check", GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				ri.Revision = s.Value
			}
		}
	}
	return ri
}
