package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/manifest"
	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/evaluate"
	"github.com/harnlang/harn-check/runtime/llm"
	"github.com/harnlang/harn-check/runtime/redact"
)

// RunRecordSchema names the run record `run --run-record` writes.
const RunRecordSchema = "harn-check.run_record.v1"

// evaluationFlags are run's decision-evaluation flags.
type evaluationFlags struct {
	tape, runRecord, catalog, cache string
	runCostLimit                    float64
}

func (f *evaluationFlags) register(fs *flagSet) {
	fs.StringVar(&f.tape, "evaluation-tape", "", "replay harness.llm.evaluate* from this tape `file` when it exists, record to it otherwise")
	fs.StringVar(&f.runRecord, "run-record", "", "write the run record (evidence.evaluation_receipts) to this JSON `file`")
	fs.StringVar(&f.catalog, "catalog", "", "route catalog `file` (a harn.toml; default: the nearest harn.toml above the program)")
	registerEvaluationCache(fs, &f.cache)
	fs.Float64Var(&f.runCostLimit, "run-cost-limit", -1, "the run's spending ceiling in `USD` for evaluations (conservative budget authority; default: none)")
}

// evaluationRun is one run's evaluation state.
type evaluationRun struct {
	// warn reports a problem that does not fail the run.
	warn    func(string)
	flags   evaluationFlags
	opts    *evaluate.Options
	tape    *llm.Tape
	journal *evaluate.Journal
}

// setup prepares the evaluator options of a program run.
func (f *evaluationFlags) setup(program string) (*evaluationRun, error) {
	r := &evaluationRun{flags: *f, journal: &evaluate.Journal{}}
	var err error
	opts := &evaluate.Options{Journal: r.journal}
	if f.runCostLimit >= 0 {
		c := f.runCostLimit
		opts.Ledger = evaluate.NewLedger(&c)
	} else if f.runCostLimit != -1 {
		return nil, fmt.Errorf("--run-cost-limit must not be negative")
	}
	if opts.Catalog, _, err = loadCatalog(f.catalog, filepath.Dir(program)); err != nil {
		return nil, err // a *catalog.Invalid: runRun renders its diagnostic
	}
	if opts.Cache, err = openEvaluationCache(f.cache, opts.Catalog); err != nil {
		return nil, err
	}
	if f.tape != "" {
		if r.tape, err = llm.OpenTape(f.tape); err != nil {
			return nil, fmt.Errorf("--evaluation-tape: %v", err)
		}
		opts.Tape = r.tape
	}
	r.opts = opts
	return r, nil
}

// registerEvaluationCache adds --evaluation-cache (run, llm evaluate).
func registerEvaluationCache(fs *flagSet, dir *string) {
	fs.StringVar(dir, "evaluation-cache", "", "reuse answered evaluations from this cache `folder` and store new ones (default: harn.toml's [evaluation] cache; none without either)")
}

// openEvaluationCache opens the evaluation cache the flag names, or the
// one the project's harn.toml grants; nil when neither does (nothing is
// then read or written).
func openEvaluationCache(flagDir string, cat *catalog.Catalog) (*evaluate.Cache, error) {
	dir := flagDir
	if dir == "" {
		dir = cat.EvaluationCache()
	}
	if dir == "" {
		return nil, nil
	}
	c, err := evaluate.OpenCache(dir)
	if err != nil {
		return nil, fmt.Errorf("evaluation cache: %v", err)
	}
	return c, nil
}

// cacheWarning is the note of answers the evaluation cache could not
// store ("" when none): the evaluations themselves are unaffected.
func cacheWarning(c *evaluate.Cache) string {
	if c == nil {
		return ""
	}
	n, err := c.StoreErrors()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("evaluation cache %s: %d answer(s) not stored: %v", c.Dir(), n, err)
}

// loadCatalog is the route catalog of a run or an evaluation: the named
// file (--catalog), or the nearest harn.toml at or above dir, as the
// checker finds it. The error is a *catalog.Invalid.
func loadCatalog(file, dir string) (*catalog.Catalog, catalog.Project, error) {
	if file != "" {
		return catalog.Load(catalog.OS, file)
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return catalog.Find(catalog.OS, dir)
}

// catalogError is the one diagnostic of an unusable catalog as one line:
// "error[HARN-CFG-001]: file: message".
func catalogError(err error) string {
	var inv *catalog.Invalid
	if errors.As(err, &inv) {
		return fmt.Sprintf("error[%s]: %s", catalog.InvalidCode, inv.Error())
	}
	return "catalog: " + err.Error()
}

// finish settles the tape and writes the run record; a tape that failed
// to replay fails the run even when the program caught the mismatch.
func (r *evaluationRun) finish(program string, runErr error) error {
	if w := cacheWarning(r.opts.Cache); w != "" && r.warn != nil {
		r.warn(w)
	}
	var tapeErr error
	if r.tape != nil {
		if r.tape.Replaying() {
			tapeErr = r.tape.Finish()
		} else if err := r.tape.Save(); err != nil {
			tapeErr = fmt.Errorf("--evaluation-tape: %v", err)
		}
	}
	if r.flags.runRecord != "" {
		receipts, dropped := r.journal.Snapshot()
		list := make([]any, len(receipts))
		for i, rc := range receipts {
			list[i] = rc.Value()
		}
		gaps := []any{}
		if dropped > 0 {
			g := canonjson.NewObject()
			g.Set("kind", "evaluation_receipts")
			g.Set("dropped", int64(dropped))
			g.Set("reason", fmt.Sprintf("the run record keeps at most %d receipts", evaluate.MaxJournal))
			gaps = append(gaps, g)
		}
		evidence := canonjson.NewObject()
		evidence.Set("evaluation_receipts", list)
		evidence.Set("gaps", gaps)
		rec := canonjson.NewObject()
		rec.Set("schema", RunRecordSchema)
		rec.Set("program", filepath.ToSlash(program))
		status, msg := "ok", any(nil)
		if err := firstError(runErr, tapeErr); err != nil {
			status, msg = "failed", err.Error()
		}
		rec.Set("status", status)
		rec.Set("error", msg)
		rec.Set("evidence", evidence)
		data, err := canonjson.MarshalIndent(rec)
		if err == nil {
			err = redact.WriteFile(r.flags.runRecord, data, 0o644)
		}
		if err != nil {
			return fmt.Errorf("--run-record: %v", err)
		}
	}
	return tapeErr
}

// admittedSites reads the checker's literal sites (the driver's
// Result.Admitted); nothing readable admits nothing.
func admittedSites(doc []byte) []evaluate.Site {
	var sites []manifest.LiteralSite
	if len(doc) == 0 || json.Unmarshal(doc, &sites) != nil {
		return nil
	}
	out := make([]evaluate.Site, len(sites))
	for i, s := range sites {
		out[i] = evaluate.Site{Location: evaluate.Location{Source: s.Source, Line: s.Line, Column: s.Column}, ID: s.ID}
	}
	return out
}

func firstError(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
