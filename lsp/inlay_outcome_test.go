package lsp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

// TestInlayHintOutcomeKinds: after an evaluation call the server shows
// the outcome kinds the checker typed the call with, at the call's end;
// a plain call gets none.
func TestInlayHintOutcomeKinds(t *testing.T) {
	uri := "file:///w/outcomes.harn"
	text := "const policy: EvaluationPolicy = {backend: \"structured_llm\", provider: \"mock\", model: \"fixture\", threshold: 0.5}\n" +
		"fn dup(llm: HarnessLlm, t: string) -> bool {\n" +
		"  const o: PredicateOutcome = llm.evaluate_predicate(\"gen.p.v1\", \"Is it a duplicate?\", t, policy)\n" +
		"  log(len(t))\n" +
		"  return o.kind == \"verdict\"\n" +
		"}\n"
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	c.Open(uri, "harn", 1, text)
	c.WaitDiagnostics(uri, 1)
	m := c.Call("textDocument/inlayHint", map[string]any{"textDocument": doc(uri), "range": lsptest.Range(0, 0, 6, 0)})
	if m.Error != nil {
		t.Fatal(m.Error)
	}
	var hs []struct {
		Position    struct{ Line, Character int }
		Label       string
		PaddingLeft bool
	}
	if err := json.Unmarshal(m.Result, &hs); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hs {
		got = append(got, fmt.Sprintf("%d:%d %s", h.Position.Line, h.Position.Character, h.Label))
	}
	call := "llm.evaluate_predicate(\"gen.p.v1\", \"Is it a duplicate?\", t, policy)"
	line2 := strings.Split(text, "\n")[2]
	want := fmt.Sprintf("2:%d → verdict | low_confidence | refused | budget_cut | unavailable | replay_mismatch | cancelled | state_too_large | question_invalid | rate_limited | overloaded", strings.Index(line2, call)+len(call))
	if g := strings.Join(got, "; "); g != want {
		t.Errorf("hints = %q, want %q", g, want)
	}
}
