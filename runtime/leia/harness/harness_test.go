package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/llm"
	"github.com/harnlang/harn-check/runtime/runner"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func fixedClock() func() time.Time {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	return func() time.Time { return at }
}

const corpus = `// TODO: widen the corpus
func classify(text) {
    if string.find(text, "refund", 1, true) != nil {
        return "refund"
    }
    return "other"
}

evaluate "corpus" {
    rows := eval.load_jsonl("cases.jsonl")
    eval.fail_if(#rows == 0, "empty corpus")
    for _, row := range ipairs(rows) {
        eval.case(row.id, func() {
            if eval.skip_if(row.skip, "wip") {
                return
            }
            got := classify(row.input)
            eval.metric("correct", got == row.expected)
            eval.metric("chars", #row.input)
            eval.metric("label", got)
            assert(got == row.expected, "mislabelled")
        })
    }
}

evaluate "fails on purpose" {
    assert(classify("refund please") == "other", "stale expectation")
}

evaluate "uses the model" {
    r, err := eval.judge({model: "judge", messages: [llm.user("grade this")]})
    assert(err == nil && r.text == "mock reply")
    assert(eval.usage().turns == 1)
    eval.budget({turns: 1})
}
`

const cases = `{"id":"a","input":"refund me","expected":"refund","skip":false}
{"id":"b","input":"where is it","expected":"other","skip":false}

{"id":"c","input":"refund","expected":"other","skip":false}
{"id":"d","input":"x","expected":"y","skip":true}
`

func TestRunReport(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"suite.leia": corpus, "cases.jsonl": cases})
	rep, err := Run(context.Background(), Options{Paths: []string{dir}, LLM: runner.LLMConfig{Mode: runner.LLMMock}, Now: fixedClock()})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Summary
	// eval.case never raises, but a block whose subcase failed is a
	// failed case: a pass rate of 100% over failed subcases hid them.
	if rep.Status != "failed" || s.EvaluateBlocks != 3 || s.CasesPassed != 1 || s.CasesFailed != 2 || s.TODOs != 1 || s.Subcases != 4 ||
		s.SubcasesFailed != 1 || s.SubcasesSkipped != 1 || s.PassRate != 0.3333 {
		t.Fatalf("summary %+v status %s", s, rep.Status)
	}
	c := rep.Cases[0]
	if c.Status != "failed" || len(c.Subcases) != 4 || c.Subcases[2].Status != "failed" || c.Subcases[3].Status != "skipped" ||
		len(c.Diagnostics) != 1 || c.Diagnostics[0].Kind != "subcase_failed" || c.Diagnostics[0].Message != "1 of 3 subcases failed" {
		t.Errorf("corpus case %+v", c)
	}
	// Three subcases count (d is skipped): 2 of 3 correct.
	m := rep.Metrics["correct"]
	if m == nil || m.Count != 3 || *m.Passed != 2 || *m.PassRate != 0.6667 {
		t.Errorf("correct %+v", m)
	}
	if ch := rep.Metrics["chars"]; ch.Count != 3 || *ch.Min != 6 || *ch.Max != 11 {
		t.Errorf("chars %+v", ch)
	}
	if l := rep.Metrics["label"]; l.Categories["refund"] != 2 || l.Categories["other"] != 1 {
		t.Errorf("label %+v", l)
	}
	f := rep.Cases[1]
	if f.Status != "failed" || f.Assertions[0].Status != "failed" || f.Assertions[0].Message != "stale expectation" || !strings.Contains(f.Diagnostics[0].Message, "stale expectation") {
		t.Errorf("failing case %+v", f)
	}
	j := rep.Cases[2]
	if j.Status != "passed" || j.Usage.Turns != 1 || j.Assertions[1].Status != "passed" {
		t.Errorf("judge case %+v", j)
	}
	// The same run twice gives the same bytes.
	b1, _ := rep.JSON()
	rep2, _ := Run(context.Background(), Options{Paths: []string{dir}, LLM: runner.LLMConfig{Mode: runner.LLMMock}, Now: fixedClock()})
	b2, _ := rep2.JSON()
	if string(b1) != string(b2) {
		t.Errorf("report not repeatable")
	}
	// List mode runs nothing.
	lst, _ := Run(context.Background(), Options{Paths: []string{dir}, List: true, Filter: "corpus", Now: fixedClock()})
	if lst.Summary.CasesListed != 1 || lst.Summary.CasesSkipped != 2 || lst.Cases[0].Status != "listed" || lst.Status != "ok" {
		t.Errorf("list %+v", lst.Summary)
	}
}

func TestReplayFindings(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"r.leia": `
evaluate "one turn" {
    r, err := llm.turn({model: "m", messages: [llm.user("hello")]})
    assert(err == nil)
}
`})
	good := []llm.TurnRecord{{Request: llm.TurnRequest{Model: "m", Messages: []llm.TurnMessage{{Role: "user", Text: "hello"}}}, Result: llm.TurnResult{Status: "final_answer", Text: "hi"}}}
	fx := filepath.Join(dir, "r.records.json")
	run := func(recs []llm.TurnRecord) *Report {
		if err := llm.SaveRecords(fx, recs); err != nil {
			t.Fatal(err)
		}
		rep, err := Run(context.Background(), Options{Paths: []string{filepath.Join(dir, "r.leia")}, LLM: runner.LLMConfig{Mode: runner.LLMReplay, Fixture: fx}, Now: fixedClock()})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if rep := run(good); rep.Status != "ok" || rep.LLM.ReplayedTurns != 1 || rep.LLM.LoadedTurns != 1 {
		t.Errorf("good replay: %+v %+v", rep.LLM, rep.Findings)
	}
	rep := run(append(good, good...))
	if rep.Status != "failed" || kinds(rep) != "llm_replay_unconsumed" || rep.LLM.RemainingTurns != 1 {
		t.Errorf("leftover: %s %+v", kinds(rep), rep.LLM)
	}
	other := []llm.TurnRecord{good[0]}
	other[0].Request.Messages = []llm.TurnMessage{{Role: "user", Text: "goodbye"}}
	rep = run(other)
	if rep.Status != "failed" || kinds(rep) != "case_runtime_error llm_replay_mismatch" {
		t.Errorf("mismatch: %s", kinds(rep))
	}
	b, _ := rep.JSON()
	if strings.Contains(string(b), "hello") || strings.Contains(string(b), "goodbye") {
		t.Errorf("the report carries prompt text:\n%s", b)
	}
}

func kinds(r *Report) string {
	var k []string
	for _, f := range r.Findings {
		k = append(k, f.Kind)
	}
	return strings.Join(k, " ")
}

func TestBaselineComparison(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"s.leia": `
evaluate "a" { assert(true) }
evaluate "b" { assert(1 == 2) }
`})
	rep, _ := Run(context.Background(), Options{Paths: []string{dir}, Now: fixedClock()})
	base := *rep
	base.Cases = append([]Case(nil), rep.Cases...)
	base.Cases[1].Status = "passed"
	base.Summary.PassRate = 1
	rep.Compare(&base, "base.json", 0)
	c := rep.Comparison
	if !c.Regressed || len(c.Regressions) != 1 || c.Regressions[0].Name != "b" || len(c.MetricRegression) != 1 {
		t.Errorf("comparison %+v", c)
	}
	rep.Compare(rep, "self.json", 0)
	if rep.Comparison.Regressed {
		t.Errorf("self comparison regressed: %+v", rep.Comparison)
	}
}

// Cases may run in parallel (mock and live); the report keeps discovery
// order and is the same as a sequential run's.
func TestParallelKeepsOrder(t *testing.T) {
	dir := t.TempDir()
	var src strings.Builder
	for i := range 6 {
		fmt.Fprintf(&src, "evaluate \"case %d\" {\n    r, err := llm.turn({model: \"m\", user: \"q%d\"})\n    assert(err == nil && r.text == \"mock reply\")\n    eval.metric(\"n\", %d)\n}\n", i, i, i)
	}
	write(t, dir, map[string]string{"p.leia": src.String()})
	run := func(n int) []byte {
		rep, err := Run(context.Background(), Options{Paths: []string{dir}, Parallel: n, LLM: runner.LLMConfig{Mode: runner.LLMMock}, Now: fixedClock()})
		if err != nil || rep.Summary.CasesPassed != 6 {
			t.Fatalf("parallel %d: %v %+v", n, err, rep.Summary)
		}
		b, _ := rep.JSON()
		return b
	}
	if string(run(1)) != string(run(4)) {
		t.Error("a parallel run reports differently from a sequential one")
	}
	// A replay is one ordered conversation: parallel is refused for it.
	rep, _ := Run(context.Background(), Options{Paths: []string{dir}, Parallel: 4, List: true, LLM: runner.LLMConfig{Mode: runner.LLMRecord, Fixture: filepath.Join(dir, "x.json")}, Now: fixedClock()})
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "--parallel ignored") {
		t.Errorf("notes %v", rep.Notes)
	}
}

func TestRenderings(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"s.leia": "evaluate \"<b>risky</b> name\" {\n    eval.metric(\"ok\", true)\n    assert(false, \"nope\")\n}\n"})
	rep, _ := Run(context.Background(), Options{Paths: []string{dir}, Now: fixedClock()})
	var html, text strings.Builder
	rep.HTML(&html)
	rep.Text(&text)
	if strings.Contains(html.String(), "<b>risky</b>") || !strings.Contains(html.String(), "&lt;b&gt;risky&lt;/b&gt;") || !strings.Contains(html.String(), "class=\"failed\"") {
		t.Errorf("html:\n%s", html.String())
	}
	if !strings.Contains(text.String(), "FAILED") || !strings.Contains(text.String(), "runtime_error:") || !strings.Contains(text.String(), "status: failed") {
		t.Errorf("text:\n%s", text.String())
	}
	b, _ := rep.JSON()
	back := filepath.Join(dir, "r.json")
	os.WriteFile(back, b, 0o644)
	if r2, err := ReadReport(back); err != nil || r2.Summary.CasesFailed != 1 || r2.Metrics["ok"].Count != 1 {
		t.Errorf("read back: %v %+v", err, r2)
	}
}

// The case name is required: `evaluate { ... }` is an error of the
// evaluation (the report fails, so a gate does), never a silent pass
// with zero blocks, and the file's body does not run.
func TestNamelessEvaluateIsAnError(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"nameless.leia": `
ran := {count: 0}
evaluate {
    assert(false, "a nameless block must never run")
}
evaluate "named" {
    assert(true)
}
`})
	var out strings.Builder
	rep, err := Run(context.Background(), Options{Paths: []string{dir}, LLM: runner.LLMConfig{Mode: runner.LLMMock}, Now: fixedClock(), Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != "failed" || rep.Inputs[0].Status != "error" || rep.Summary.CasesPassed+rep.Summary.CasesFailed != 0 {
		t.Fatalf("status %s inputs %+v summary %+v", rep.Status, rep.Inputs, rep.Summary)
	}
	found := false
	for _, f := range rep.Findings {
		if f.Kind == "parse_error" && f.Severity == "error" && f.Line == 3 && strings.Contains(f.Message, "evaluate requires a case name") {
			found = true
		}
	}
	if !found {
		t.Errorf("findings %+v", rep.Findings)
	}
}
