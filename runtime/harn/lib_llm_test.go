package harn

import (
	"bytes"
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/evaluate"
	"github.com/harnlang/harn-check/runtime/host"
)

// runLLM runs a program (unchecked) with harness.llm on an evaluator of
// the built-in catalog and returns its output and the evaluator.
func runLLM(t *testing.T, src string) (string, error, *evaluate.Evaluator) {
	t.Helper()
	dir := t.TempDir()
	var out bytes.Buffer
	h, err := host.New(host.Config{Root: dir, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	ev := evaluate.New(evaluate.Options{})
	in, err := New(Options{Host: h, Library: testLibrary(t), Evaluator: ev})
	if err != nil {
		t.Fatal(err)
	}
	_, err = in.Run(context.Background(), filepath.Join(dir, "main.harn"), []byte(src))
	return out.String(), err, ev
}

const mockPolicy = `{backend: "structured_llm", provider: "mock", model: "fixture", threshold: 0.5}`

func TestHarnessLLM(t *testing.T) {
	out, err, ev := runLLM(t, `
import {boolean, choice, score, evaluation_windows} from "std/predicate"
fn main(harness: Harness) {
  const qs = {
    a: choice("Pick one", {x: "the x", y: "the y"}),
    b: score("How much?", ["low", "high"]),
    c: boolean("Yes?", {true: "it is", false: "it is not"}),
  }
  const o = harness.llm.evaluate_request("site.request.v1", {n: 1, f: 1.5, s: "text", l: [true, nil]}, qs, `+mockPolicy+`)
  println("${o.kind} ${o.value.a.choice} ${o.value.b.level} ${o.value.b.score} ${o.value.c.verdict} ${o.value.c.probability}")
  println(harness.llm.estimate_state_tokens({s: "abcd"}))
  const w = evaluation_windows(harness.llm, ["aaaa", "bbbb", "cccc", "dddd"], {budget_tokens: 10, overlap_items: 1, anchor: "q"})
  println("windows ${len(w.windows)} ${w.windows[1].first_index} ${w.windows[1].primary_first_index} ${w.windows[1].estimated_tokens} ${w.anchor_tokens}")
  const p = harness.llm.evaluate_predicate("site.pred.v1", "Holds?", {claim: "x"}, `+mockPolicy+`)
  println("${p.kind} ${p.value.verdict} ${p.value.confidence}")
  const r = harness.llm.evaluate("site.refused.v1", "s", {q: boolean("q")}, {backend: "structured_llm", provider: "nobody", model: "x", threshold: 0.5})
  println("${r.kind} ${r.reason}")
}
`)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	est, _ := evaluate.EstimateStateTokens(map[string]any{"s": "abcd"})
	want := []string{
		"answered x low 0.0 true 0.9",
		"\n" + strconv.Itoa(est) + "\n", // the evaluator's own estimate
		"windows 3 1 2 10 1",
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if !strings.Contains(out, "verdict true 0.9") || !strings.Contains(out, "unavailable model_unconfigured") {
		t.Errorf("output:\n%s", out)
	}
	rs, _ := ev.Journal().Snapshot()
	if len(rs) != 3 || rs[2].OutcomeKind != "unavailable" || rs[2].PhysicalAttempts != 0 {
		t.Errorf("journal: %d receipts", len(rs))
	}
	if rs[0].Identity.CanonicalInputType != "record" {
		t.Errorf("identity %+v", rs[0].Identity)
	}
}

func TestHarnessLLMRefusesNonSerializableValues(t *testing.T) {
	for _, state := range []string{`fn() { return 1 }`, `harness`, `{f: fn(x) { return x }}`, `0.0 / 0.0`} {
		_, err, ev := runLLM(t, `
import {boolean} from "std/predicate"
fn main(harness: Harness) {
  const o = harness.llm.evaluate("s.v1", `+state+`, {q: boolean("q")}, `+mockPolicy+`)
  println(o.kind)
}
`)
		if err == nil || !strings.Contains(err.Error(), "not serializable") {
			t.Errorf("%s: %v", state, err)
		}
		if rs, _ := ev.Journal().Snapshot(); len(rs) != 0 {
			t.Errorf("%s: an evaluation ran", state)
		}
	}
	_, err, _ := runLLM(t, `
fn main(harness: Harness) {
  const o = harness.llm.evaluate("s.v1", "state", {q: {kind: "essay", instructions: "x"}}, `+mockPolicy+`)
  println(o.kind)
}
`)
	if err == nil || !strings.Contains(err.Error(), "unknown kind") {
		t.Errorf("malformed question: %v", err)
	}
	_, err, _ = runLLM(t, `
import {evaluation_windows} from "std/predicate"
fn main(harness: Harness) {
  const w = evaluation_windows(harness.llm, ["a", "`+strings.Repeat("x", 400)+`"], {budget_tokens: 20})
  println(w)
}
`)
	if err == nil || !strings.Contains(err.Error(), "item 1 needs") {
		t.Errorf("oversized item: %v", err)
	}
}

// TestEvaluationNotFromLiteralSite: an evaluation method called as a
// value or through a computed property is no literal site: it is refused
// before dispatch (unavailable/admission_refused, admission_reason
// non_literal_site) with a receipt and zero provider attempts, while the
// same evaluation written as harness.llm.evaluate_predicate(...) runs.
func TestEvaluationNotFromLiteralSite(t *testing.T) {
	for _, tc := range []struct{ name, call string }{
		{"computed property", `harness.llm[name]("hidden.v1", "Holds?", {claim: "x"}, ` + mockPolicy + `)`},
		{"literal index", `harness.llm["evaluate_predicate"]("hidden.v1", "Holds?", {claim: "x"}, ` + mockPolicy + `)`},
		{"method value", `f("hidden.v1", "Holds?", {claim: "x"}, ` + mockPolicy + `)`},
		{"held in a dict", `box.m("hidden.v1", "Holds?", {claim: "x"}, ` + mockPolicy + `)`},
		{"evaluate by name", `harness.llm["evaluate"]("hidden.v1", {claim: "x"}, {q: boolean("Holds?")}, ` + mockPolicy + `)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err, ev := runLLM(t, `
import {boolean} from "std/predicate"
fn main(harness: Harness) {
  const name = "evaluate_predicate"
  const f = harness.llm.evaluate_predicate
  const box = {m: harness.llm.evaluate_predicate}
  const o = `+tc.call+`
  println("${o.kind} ${o.reason}")
}
`)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if strings.TrimSpace(out) != "unavailable admission_refused" {
				t.Errorf("output %q, want unavailable admission_refused", out)
			}
			receipts, _ := ev.Journal().Snapshot()
			if len(receipts) != 1 {
				t.Fatalf("%d receipts, want 1", len(receipts))
			}
			rc := receipts[0]
			if rc.PhysicalAttempts != 0 || rc.AdmissionReason == nil || *rc.AdmissionReason != evaluate.AdmissionNonLiteralSite {
				t.Errorf("receipt: attempts %d, admission_reason %v", rc.PhysicalAttempts, rc.AdmissionReason)
			}
		})
	}
	out, err, _ := runLLM(t, `
fn main(harness: Harness) {
  const o = harness.llm.evaluate_predicate("shown.v1", "Holds?", {claim: "x"}, `+mockPolicy+`)
  println(o.kind)
}
`)
	if err != nil || strings.TrimSpace(out) != "verdict" {
		t.Errorf("literal site: %q, %v", out, err)
	}
}
