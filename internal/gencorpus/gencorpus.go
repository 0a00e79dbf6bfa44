// Package gencorpus generates deterministic Harn modules shaped like real
// evaluation programs, for benchmarks that need a large corpus: typed
// helpers owning sites with choice, score and boolean questions, outcome
// matches, loops and string work. Every module checks clean.
package gencorpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Harn returns n generated modules; module i depends only on i.
func Harn(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		var b strings.Builder
		fmt.Fprintf(&b, "// Generated module %d.\nimport {boolean, choice, score} from \"std/predicate\"\n\n", i)
		fmt.Fprintf(&b, "type Ticket%d = {id: int, title: string, tags: list<string>, state: \"open\" | \"closed\"}\n\n", i)
		fmt.Fprintf(&b, "const policy%d: EvaluationPolicy = {backend: \"structured_llm\", provider: \"mock\", model: \"fixture\", threshold: 0.%d}\n\n", i, 1+i%9)
		for j := 0; j < 3+i%3; j++ {
			fmt.Fprintf(&b, `fn triage%[1]d_%[2]d(llm: HarnessLlm, t: Ticket%[1]d) -> string {
  const o = llm.evaluate("gen.m%[1]d.s%[2]d.v1", t, {
    team: choice("Which team owns ticket %[2]d?", {billing: "Payments", technical: "Bugs", legal: "Contracts"}),
    urgency: score("How urgent?", ["low", "medium", "high"]),
    safe: boolean("Can it wait a day?"),
  }, policy%[1]d)
  match o.kind {
    "answered" -> {
      const a = o.value
      if a.urgency.level == "high" && !a.safe.verdict {
        return "page"
      }
      match a.team.choice {
        "billing" -> { return "finance-${t.id}" }
        "technical" -> { return "eng-${t.id}" }
        "legal" -> { return "legal" }
      }
    }
    "low_confidence" -> { return "unsure ${o.threshold}" }
    "rate_limited" -> { return "retry in ${o.retry_after_ms ?? 1000}" }
    _ -> { return "manual: ${o.kind}" }
  }
}

fn check%[1]d_%[2]d(llm: HarnessLlm, t: Ticket%[1]d) -> bool {
  const o = llm.evaluate_predicate("gen.m%[1]d.p%[2]d.v1", "Is ticket %[2]d a duplicate?", t, policy%[1]d)
  if o.kind != "verdict" {
    return false
  }
  return o.value.verdict
}

`, i, j)
		}
		fmt.Fprintf(&b, `fn summary%[1]d(tickets: list<Ticket%[1]d>) -> string {
  var open = 0
  var titles: list<string> = []
  for t in tickets {
    if t.state == "open" {
      open = open + 1
      titles = titles + [t.title]
    }
  }
  const ratio = to_float(open) ?? 0.0
  return "${open} open (${ratio}): ${titles}"
}
`, i)
		out[i] = []byte(b.String())
	}
	return out
}

// Write writes files under dir as benchmarks lay a corpus out: 100
// folders d00..d99, file i as mNNNNN.ext in folder i%100, so that no
// folder holds more than a few hundred files.
func Write(dir, ext string, files [][]byte) error {
	for i, src := range files {
		sub := filepath.Join(dir, fmt.Sprintf("d%02d", i%100))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("m%05d%s", i, ext)), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}
