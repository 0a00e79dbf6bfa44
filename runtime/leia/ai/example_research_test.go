package ai

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
	"github.com/harnlang/harn-check/runtime/runner"
)

// The part-3 acceptance example: examples/leia/research_report.leia, a
// three-stage research workflow (retrieval and evidence, a structured
// brief, section generation with a reviewer handoff, a report artifact
// contract) that asserts its own results. It runs offline through the
// same entry point as `harn-check run --llm-replay`, against the replay
// fixture beside it.
//
// `go test ./runtime/leia/ai -run TestResearchReportExample -update`
// rewrites the fixture by running the program against analystFake (a
// deterministic stand-in for the models, answering from what each
// request asks) through the recorder; replay then has to reproduce every
// request exactly.

var update = flag.Bool("update", false, "rewrite the example replay fixtures")

var researchExample = "../../../examples/leia/research_report.leia"

// analystFake answers the example's requests.
func analystFake(_ context.Context, req llm.TurnRequest, _ func(llm.StreamEvent)) (llm.TurnResult, error) {
	last := req.Messages[len(req.Messages)-1]
	asks := func(text string) bool {
		for _, m := range req.Messages {
			if m.Text == text {
				return true
			}
		}
		return false
	}
	final := func(v any) (llm.TurnResult, error) {
		b, _ := json.Marshal(v)
		return llm.TurnResult{Status: llm.StatusFinalAnswer, Text: string(b), Usage: llm.TurnUsage{InputTokens: 120, OutputTokens: 40}}, nil
	}
	switch {
	case req.Model == "mock-reviewer":
		return final(map[string]any{"verdict": "approve", "concern": "Confirm the feature flag is tested in staging."})
	case len(req.Tools) > 0 && last.Role == "tool":
		return llm.TurnResult{Status: llm.StatusFinalAnswer, Text: "Ship on Tuesday: the reviewer approves; payments on-call owns rollback.",
			Usage: llm.TurnUsage{InputTokens: 200, OutputTokens: 20}}, nil
	case len(req.Tools) > 0:
		return llm.TurnResult{Status: llm.StatusToolCalls, Calls: []llm.ToolCall{{ID: "call_review_1", Tool: "review_brief",
			Args: map[string]any{"brief": "checkout launch ready; rollback by payments on-call"}}}, Usage: llm.TurnUsage{InputTokens: 150, OutputTokens: 15}}, nil
	case asks("Summarize readiness."):
		return final(map[string]any{"title": "Summary", "content": "The checkout launch is ready. Load tests passed at twice the expected peak."})
	case asks("List the risks and the rollback owner."):
		return final(map[string]any{"title": "Risks", "content": "The main risk is the flag flip. Payments on-call owns rollback."})
	case req.ResponseFormat != nil:
		return final(map[string]any{"ready": true, "owner": "payments on-call", "confidence": 0.86,
			"findings": []string{"checklist complete", "rollback is a feature flag"}})
	}
	return llm.TurnResult{}, &llm.Error{Kind: llm.ErrTransport, Detail: "analystFake: unexpected request"}
}

func recordExample(t *testing.T, program, fixture string) {
	src, err := os.ReadFile(program)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	h, err := host.New(host.Config{Root: filepath.Dir(program), Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	in := leia.New(leia.Options{Stdout: &out, Stderr: &out, Host: h})
	rec := &llm.Recorder{}
	Install(in, Config{Provider: rec.Wrap(llm.ProviderFunc(analystFake)), Source: "mock", Host: h, Dir: filepath.Dir(program)})
	chunk, err := in.Compile(program, src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.Run(context.Background(), chunk); err != nil {
		t.Fatalf("recording run failed: %v\n%s", err, out.String())
	}
	if err := llm.SaveRecords(fixture, rec.Records()); err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrote %s (%d turns)", fixture, len(rec.Records()))
}

func TestResearchReportExample(t *testing.T) {
	fixture := strings.TrimSuffix(researchExample, ".leia") + ".records.json"
	if *update {
		recordExample(t, researchExample, fixture)
	}
	src, err := os.ReadFile(researchExample)
	if err != nil {
		t.Fatal(err)
	}
	var out, traceOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = RunProgram(ctx, runner.Program{Path: researchExample, Src: src}, runner.Env{
		Stdout: &out, Stderr: &out, TempDir: t.TempDir(),
		LLM: runner.LLMConfig{Mode: runner.LLMReplay, Fixture: fixture, Trace: &traceOut},
	})
	if err != nil {
		t.Fatalf("replay run failed: %v\n%s", err, out.String())
	}
	want := []string{
		"matches\tchecklist\trollback",
		"brief\tpayments on-call\t0.86",
		"sections\tSummary\tRisks",
		"recommendation\tShip on Tuesday: the reviewer approves; payments on-call owns rollback.",
		"plan\t3\t2",
		"trace\t2\tok",
		"ok",
	}
	if got := strings.Split(strings.TrimSpace(out.String()), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("output:\n%s\nwant:\n%s", out.String(), strings.Join(want, "\n"))
	}
	recs, err := llm.LoadRecords(fixture)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Fatalf("fixture has %d turns, want 6 (brief, two sections, lead, reviewer, lead)", len(recs))
	}
	turns := 0
	for _, line := range strings.Split(strings.TrimSpace(traceOut.String()), "\n") {
		var ev llm.TraceEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("trace line %q: %v", line, err)
		}
		if ev.Type == "turn_end" {
			turns++
			if ev.Source != "replay" {
				t.Errorf("turn_end source = %q, want replay", ev.Source)
			}
		}
	}
	if turns != 6 {
		t.Errorf("trace has %d turn_end events, want 6", turns)
	}
}
