package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"strconv"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/runtime/leia/harness"
)

func mergeCommand() *command {
	return &command{
		name: "merge", args: "FILE...", summary: "join the outputs of --shard runs into the whole run's",
		about: `Each FILE is the output of one shard (--shard i/n) of a run: of check or
lint, the --json envelope or the --format sarif log; of test, the --json
document or the --junit XML; of evaluate, the --json or --report report.
Every shard 1..n must be given once, in any order, all in one format. The
result is the output the run gives without --shard, byte for byte (for test
and evaluate, whose outputs hold times, under a fixed SOURCE_DATE_EPOCH; else
test's total time is the shards' sum), on stdout or in --output FILE.
--baseline compares a merged evaluate report as evaluate --baseline does, and
--format text or html renders it as evaluate --format does.
Exit status: 0 when the merged run passed, 1 when it did not (error
diagnostics, a failed test, an evaluation that fails evaluate --gate), 2 when
the files do not make one run.`,
		setup: func(fs *flagSet) action {
			var output, baseline, format string
			var threshold float64
			fs.StringVar(&output, "output", "", "write the merged document to `file` instead of stdout")
			fs.StringVar(&baseline, "baseline", "", "compare a merged evaluate report with this earlier report `file`")
			fs.Float64Var(&threshold, "regression-threshold", 0, "with --baseline, the tolerated fall of a pass rate (0.05 = 5 points)")
			fs.StringVar(&format, "format", "json", "output `format` of merged evaluate reports: json, text or html (other outputs merge to their own format)")
			return func(e *env, files []string) int {
				if len(files) == 0 {
					return fail(e, "no files given (usage: harn-check merge [--output FILE] FILE...)")
				}
				var docs [][]byte
				var kind mergeKind
				for _, f := range files {
					b, err := sourcefs.Read(f, 0)
					if err != nil {
						return fail(e, "%s: %s", f, sourcefs.Reason(err))
					}
					k := sniffMerge(b)
					if k == "" {
						return fail(e, "%s: not the output of a harn-check check, lint, test or evaluate run that merge joins", f)
					}
					if kind != "" && k != kind {
						return fail(e, "%s is %s but %s is %s: merge outputs of one format", files[0], kind, f, k)
					}
					kind = k
					docs = append(docs, b)
				}
				switch format {
				case "json", "text", "html":
				default:
					return fail(e, "--format %q: want json, text or html", format)
				}
				if baseline != "" && kind != mergeEvaluate {
					return fail(e, "--baseline compares evaluate reports, and these are %s", kind)
				}
				if format != "json" && kind != mergeEvaluate {
					return fail(e, "--format %s renders evaluate reports, and these are %s", format, kind)
				}
				out, ok, err := mergeDocs(kind, docs, files, baseline, threshold, format)
				if err != nil {
					return fail(e, "%v", err)
				}
				if output != "" {
					if err := os.WriteFile(output, out, 0o644); err != nil {
						return fail(e, "--output %s: %v", output, unwrapPath(err))
					}
				} else if _, err := e.stdout.Write(out); err != nil {
					return fail(e, "writing output: %v", err)
				}
				if !ok {
					return exitFail
				}
				return exitOK
			}
		},
	}
}

// mergeKind names a format merge joins.
type mergeKind string

// The formats merge joins.
const (
	mergeJSON     mergeKind = "a check or lint --json envelope"
	mergeSARIF    mergeKind = "a SARIF log"
	mergeTest     mergeKind = "a test --json document"
	mergeJUnit    mergeKind = "JUnit XML"
	mergeEvaluate mergeKind = "an evaluate report"
)

// sniffMerge returns the format of an output; "" for one merge does not
// join.
func sniffMerge(doc []byte) mergeKind {
	if t := bytes.TrimSpace(doc); bytes.HasPrefix(t, []byte("<")) {
		var probe struct {
			XMLName xml.Name
		}
		if xml.Unmarshal(t, &probe) == nil && probe.XMLName.Local == "testsuite" {
			return mergeJUnit
		}
		return ""
	}
	var probe struct {
		SchemaVersion *int `json:"schema_version"`
		Data          struct {
			Cases json.RawMessage `json:"cases"`
		} `json:"data"`
	}
	if json.Unmarshal(doc, &probe) != nil {
		return ""
	}
	switch {
	case probe.SchemaVersion != nil:
		return mergeEvaluate
	case probe.Data.Cases != nil:
		return mergeTest
	}
	switch diagnostics.Sniff(doc) {
	case diagnostics.MergeJSON:
		return mergeJSON
	case diagnostics.MergeSARIF:
		return mergeSARIF
	}
	return ""
}

// mergeDocs joins the shard outputs docs (read from names) of kind and
// says whether the merged run passed.
func mergeDocs(kind mergeKind, docs [][]byte, names []string, baseline string, threshold float64, format string) ([]byte, bool, error) {
	switch kind {
	case mergeJSON, mergeSARIF:
		k := diagnostics.MergeJSON
		if kind == mergeSARIF {
			k = diagnostics.MergeSARIF
		}
		out, err := diagnostics.Merge(k, docs, names)
		return out, err == nil && mergedOK(k, out), err
	case mergeTest:
		return mergeTestDocs(docs, names)
	case mergeJUnit:
		return mergeJUnitDocs(docs, names)
	case mergeEvaluate:
		return mergeReports(docs, names, baseline, threshold, format)
	}
	return nil, false, fmt.Errorf("cannot merge %s", kind)
}

// mergeTestDocs joins test --json documents.
func mergeTestDocs(docs [][]byte, names []string) ([]byte, bool, error) {
	parts := make([]testDoc, len(docs))
	shards := make([]*diagnostics.Shard, len(docs))
	for i, d := range docs {
		if err := json.Unmarshal(d, &parts[i]); err != nil {
			return nil, false, fmt.Errorf("%s: not a test --json document: %v", names[i], err)
		}
		shards[i] = parts[i].Shard
	}
	order, err := diagnostics.Order(shards, names)
	if err != nil {
		return nil, false, err
	}
	cases := make([]testCase, len(order))
	for p, at := range order {
		part := parts[at[0]].Data.Cases
		if at[1] >= len(part) {
			return nil, false, fmt.Errorf("%s: holds no case for item %d", names[at[0]], p+1)
		}
		cases[p] = part[at[1]]
	}
	doc := newTestDoc(cases, nil)
	b, err := doc.render()
	return b, doc.OK, err
}

// mergeJUnitDocs joins test --junit documents; the suite's time is the
// shards' sum.
func mergeJUnitDocs(docs [][]byte, names []string) ([]byte, bool, error) {
	parts := make([]junitSuite, len(docs))
	shards := make([]*diagnostics.Shard, len(docs))
	seconds := 0.0
	for i, d := range docs {
		if err := xml.Unmarshal(d, &parts[i]); err != nil {
			return nil, false, fmt.Errorf("%s: not JUnit XML: %v", names[i], err)
		}
		s, err := parts[i].shard()
		if err != nil {
			return nil, false, fmt.Errorf("%s: %v", names[i], err)
		}
		shards[i] = s
		t, err := strconv.ParseFloat(parts[i].Time, 64)
		if err != nil {
			return nil, false, fmt.Errorf("%s: testsuite time %q: %v", names[i], parts[i].Time, err)
		}
		seconds += t
	}
	order, err := diagnostics.Order(shards, names)
	if err != nil {
		return nil, false, err
	}
	cases := make([]junitCase, len(order))
	for p, at := range order {
		part := parts[at[0]].Cases
		if at[1] >= len(part) {
			return nil, false, fmt.Errorf("%s: holds no testcase for item %d", names[at[0]], p+1)
		}
		cases[p] = part[at[1]]
	}
	suite := newJUnit(cases, seconds, nil)
	b, err := suite.render()
	return b, suite.Failures == 0, err
}

// mergeReports joins evaluate reports, compares the result with baseline
// when one is given and renders it in format (json, text or html). The
// merged run passes as evaluate --gate would have it.
func mergeReports(docs [][]byte, names []string, baseline string, threshold float64, format string) ([]byte, bool, error) {
	reps := make([]*harness.Report, len(docs))
	for i, d := range docs {
		r, err := harness.DecodeReport(d)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %v", names[i], err)
		}
		reps[i] = r
	}
	rep, err := harness.Merge(reps, names)
	if err != nil {
		return nil, false, err
	}
	if baseline != "" {
		base, err := harness.ReadReport(baseline)
		if err != nil {
			return nil, false, fmt.Errorf("--baseline: %v", err)
		}
		rep.Compare(base, baseline, threshold)
	}
	var b []byte
	switch format {
	case "text", "html":
		var buf bytes.Buffer
		if format == "text" {
			err = rep.Text(&buf)
		} else {
			err = rep.HTML(&buf)
		}
		b = buf.Bytes()
	default:
		b, err = rep.JSON()
	}
	ok := rep.Status == "ok" && rep.Summary.SubcasesFailed == 0 && (rep.Comparison == nil || !rep.Comparison.Regressed)
	return b, ok, err
}

// mergedOK reports whether a merged check or lint document has no error
// diagnostic (and no tool error).
func mergedOK(kind diagnostics.MergeKind, doc []byte) bool {
	switch kind {
	case diagnostics.MergeJSON:
		var env struct {
			OK bool `json:"ok"`
		}
		return json.Unmarshal(doc, &env) == nil && env.OK
	case diagnostics.MergeSARIF:
		var log struct {
			Runs []struct {
				Invocations []struct {
					ExecutionSuccessful bool `json:"executionSuccessful"`
				} `json:"invocations"`
				Results []struct {
					Level string `json:"level"`
				} `json:"results"`
			} `json:"runs"`
		}
		if json.Unmarshal(doc, &log) != nil {
			return false
		}
		for _, r := range log.Runs {
			for _, inv := range r.Invocations {
				if !inv.ExecutionSuccessful {
					return false
				}
			}
			for _, res := range r.Results {
				if res.Level == "error" {
					return false
				}
			}
		}
	}
	return true
}
