package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/evaluate"
	"github.com/harnlang/harn-check/runtime/llm"
)

func llmCommand() *command {
	return &command{
		name: "llm", summary: "llm evaluate: run or verify one decision evaluation",
		subcommands: []*command{llmEvaluateCommand()},
	}
}

func llmEvaluateCommand() *command {
	return &command{
		name: "evaluate", summary: "run one decision evaluation, or verify a saved receipt offline",
		about: `Three forms, as upstream's harn llm evaluate:
  --model ROUTE --state-file F --questions Q.json [--policy P.json]   prints {outcome, receipt}
  --request R.json                                                    prints {outcome, receipt}
  --request R.json --verify-receipt RECEIPT.json                      verifies offline
Every outcome, refusals included, exits 0; a refused verification exits 1.`,
		setup: func(fs *flagSet) action {
			var f llmEvaluateFlags
			f.register(fs)
			return func(e *env, rest []string) int {
				if len(rest) > 0 {
					return fail(e, "takes no positional arguments (got %q)", rest[0])
				}
				return runLLMEvaluate(e, f)
			}
		},
	}
}

// llmEvaluateFlags are the flags of llm evaluate.
type llmEvaluateFlags struct {
	model, stateFile, questionsFile, policyFile, requestFile string
	siteID, verifyFile, catalogFile, tapeFile, cacheDir      string
	asJSON                                                   bool
}

func (f *llmEvaluateFlags) register(fs *flagSet) {
	fs.StringVar(&f.model, "model", "", "`route` as provider/model (e.g. mock/fixture)")
	fs.StringVar(&f.stateFile, "state-file", "", "the state `file`: a .json file is a JSON value, any other file is its text as a string")
	fs.StringVar(&f.questionsFile, "questions", "", "JSON `file` mapping question ids to std/predicate questions")
	fs.StringVar(&f.policyFile, "policy", "", "JSON `file` with a complete EvaluationPolicy (default: threshold 0.5, $0.01 ceilings)")
	fs.StringVar(&f.requestFile, "request", "", "JSON `file` with exactly {site_id, state, questions, policy}")
	fs.StringVar(&f.siteID, "site", "cli.evaluate", "site `id` for --model evaluations")
	fs.StringVar(&f.verifyFile, "verify-receipt", "", "verify this saved receipt `file` against --request (offline)")
	fs.StringVar(&f.catalogFile, "catalog", "", "route catalog `file` (a harn.toml; default: the nearest harn.toml above the working directory)")
	fs.StringVar(&f.tapeFile, "tape", "", "evaluation tape `file`: replayed when the file exists, recorded to it otherwise")
	registerEvaluationCache(fs, &f.cacheDir)
	fs.BoolVar(&f.asJSON, "json", false, "print JSON")
}

// DefaultThreshold and DefaultCeilingUSD make the default policy of
// `llm evaluate --model`: threshold 0.5 and $0.01 per-evaluation and run
// ceilings.
const (
	defaultThreshold  = 0.5
	defaultCeilingUSD = 0.01
)

// runLLMEvaluate is upstream's `harn llm evaluate` in its three forms:
//
//	--model ROUTE --state-file F --questions Q.json [--policy P.json]  {outcome, receipt}
//	--request R.json                                                   {outcome, receipt}
//	--request R.json --verify-receipt RECEIPT.json                     verification report
//
// Exit status: every outcome, refusals included, is 0; a verification is
// 0 when verified and 1 when refused; a tape that failed to replay
// (mismatch, unconsumed records) is 1; unreadable or malformed input is 2.
func runLLMEvaluate(e *env, f llmEvaluateFlags) int {
	cat, _, err := loadCatalog(f.catalogFile, ".")
	if err != nil {
		return fail(e, "%s", catalogError(err))
	}

	if f.verifyFile != "" {
		if f.requestFile == "" {
			return fail(e, "--verify-receipt needs --request")
		}
		if f.model != "" || f.stateFile != "" || f.questionsFile != "" || f.policyFile != "" || f.tapeFile != "" || f.cacheDir != "" {
			return fail(e, "--verify-receipt takes only --request (and --catalog)")
		}
		return verifyReceipt(e, cat, f.requestFile, f.verifyFile, f.asJSON)
	}

	var req evaluate.Request
	switch {
	case f.requestFile != "":
		if f.model != "" || f.stateFile != "" || f.questionsFile != "" || f.policyFile != "" {
			return fail(e, "--request already holds the state, questions and policy (drop --model, --state-file, --questions, --policy)")
		}
		data, err := os.ReadFile(f.requestFile)
		if err != nil {
			return fail(e, "%v", err)
		}
		if req, err = evaluate.DecodeRequest(data); err != nil {
			return fail(e, "%s: %v", f.requestFile, err)
		}
	case f.stateFile != "" && f.questionsFile != "":
		if req, err = modelRequest(cat, f.siteID, f.model, f.stateFile, f.questionsFile, f.policyFile); err != nil {
			return fail(e, "%v", err)
		}
	default:
		return fail(e, "give --model ROUTE --state-file F --questions Q.json, or --request R.json")
	}

	var tape *llm.Tape
	if f.tapeFile != "" {
		if tape, err = llm.OpenTape(f.tapeFile); err != nil {
			return fail(e, "tape: %v", err)
		}
	}
	cache, err := openEvaluationCache(f.cacheDir, cat)
	if err != nil {
		return fail(e, "%v", err)
	}
	ev := evaluate.New(evaluate.Options{Catalog: cat, Tape: tape, Cache: cache, LLM: llm.Options{Getenv: e.lookupEnv}})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := ev.Evaluate(ctx, req)
	if err != nil {
		return fail(e, "%v", err)
	}
	if w := cacheWarning(cache); w != "" {
		msgf(e, "%s", w)
	}
	if f.asJSON {
		if err := writeJSON(e.stdout, res.Value()); err != nil {
			return fail(e, "writing output: %v", err)
		}
	} else {
		printOutcome(e.stdout, res)
	}
	if tape != nil {
		if tape.Replaying() {
			if err := tape.Finish(); err != nil {
				msgf(e, "%s: %v", f.tapeFile, err)
				return exitFail
			}
		} else if err := tape.Save(); err != nil {
			return fail(e, "tape: %v", err)
		}
	}
	return exitOK
}

// modelRequest builds the request of the --model form.
func modelRequest(cat *catalog.Catalog, site, model, stateFile, questionsFile, policyFile string) (evaluate.Request, error) {
	req := evaluate.Request{SiteID: site}
	data, err := os.ReadFile(stateFile)
	if err != nil {
		return req, err
	}
	if strings.EqualFold(filepath.Ext(stateFile), ".json") {
		if req.State, err = canonjson.Decode(data); err != nil {
			return req, fmt.Errorf("%s: %v", stateFile, err)
		}
	} else {
		if !utf8Valid(data) {
			return req, fmt.Errorf("%s: the state file is not UTF-8 text", stateFile)
		}
		req.State = string(data)
	}
	if req.Questions, err = readJSONFile(questionsFile); err != nil {
		return req, err
	}
	if policyFile != "" {
		if req.Policy, err = readJSONFile(policyFile); err != nil {
			return req, err
		}
		if model != "" {
			p, err := evaluate.DecodePolicy(req.Policy)
			if err != nil {
				return req, fmt.Errorf("%s: %v", policyFile, err)
			}
			if p.Provider+"/"+p.Model != model {
				return req, fmt.Errorf("--model %s differs from the policy's route %s/%s", model, p.Provider, p.Model)
			}
		}
		return req, nil
	}
	if model == "" {
		return req, errors.New("give --model ROUTE or --policy P.json")
	}
	provider, name, ok := strings.Cut(model, "/")
	if !ok || provider == "" || name == "" {
		return req, fmt.Errorf("--model %q is not provider/model", model)
	}
	backend := evaluate.BackendStructured
	if r, ok := cat.Lookup(provider, name); ok && r.IsNative() {
		backend = evaluate.BackendNative
	}
	p := canonjson.NewObject()
	p.Set("backend", backend)
	p.Set("provider", provider)
	p.Set("model", name)
	p.Set("threshold", defaultThreshold)
	p.Set("evaluation_cost_limit", defaultCeilingUSD)
	p.Set("run_cost_limit", defaultCeilingUSD)
	req.Policy = p
	return req, nil
}

func utf8Valid(b []byte) bool { return strings.ToValidUTF8(string(b), "\uFFFD") == string(b) }

func readJSONFile(path string) (any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	v, err := canonjson.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return v, nil
}

// verifyReceipt is the offline verification form. The receipt file holds
// the receipt object, or a whole {outcome, receipt} result.
func verifyReceipt(e *env, cat *catalog.Catalog, requestFile, receiptFile string, asJSON bool) int {
	reqData, err := os.ReadFile(requestFile)
	if err != nil {
		return fail(e, "%v", err)
	}
	rcData, err := os.ReadFile(receiptFile)
	if err != nil {
		return fail(e, "%v", err)
	}
	if v, err := canonjson.Decode(rcData); err == nil {
		if o, ok := v.(*canonjson.Object); ok {
			if inner, ok := o.Values["receipt"].(*canonjson.Object); ok && o.Values["outcome"] != nil {
				rcData = canonjson.MustEncode(inner)
			}
		}
	}
	report, err := evaluate.Verify(cat, reqData, rcData)
	if err != nil {
		return fail(e, "%v", err)
	}
	if asJSON {
		if err := writeJSON(e.stdout, report.Value()); err != nil {
			return fail(e, "writing output: %v", err)
		}
	} else if report.Verified {
		fmt.Fprintf(e.stdout, "verified: %s\n", *report.StableRequestID)
	} else {
		fmt.Fprintln(e.stdout, "refused:")
		for _, r := range report.Refusals {
			fmt.Fprintf(e.stdout, "  %s (%s)\n", r.Code, r.Field)
		}
	}
	if !report.Verified {
		return exitFail
	}
	return exitOK
}

func writeJSON(w io.Writer, v any) error {
	b, err := canonjson.MarshalIndent(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// printOutcome is the text form: the outcome kind, its fields, the
// receipt's key facts.
func printOutcome(w io.Writer, res *evaluate.Result) {
	o := res.Outcome.Value()
	fmt.Fprintf(w, "%s\n", res.Outcome.Kind)
	for _, k := range canonjson.SortedKeys(o) {
		if k == "kind" || k == "receipt" {
			continue
		}
		b, _ := canonjson.Encode(o[k])
		fmt.Fprintf(w, "  %s: %s\n", k, b)
	}
	rc := res.Receipt
	fmt.Fprintf(w, "receipt %s\n  evaluation_id %s\n  source %s, %d physical attempt(s), accounting %s\n",
		rc.InvocationID, rc.EvaluationID, rc.Source, rc.PhysicalAttempts, rc.AccountingStatus)
}

// lookupEnv reads a credential variable through the env (tests inject it).
func (e *env) lookupEnv(name string) (string, bool) {
	if e.getenv == nil {
		return os.LookupEnv(name)
	}
	v := e.getenv(name)
	return v, v != ""
}
