package ai_test

import (
	"context"
	"io"
	"testing"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/leia/ai"
	"github.com/harnlang/harn-check/runtime/llm"
)

// benchProgram is a tool-using agent: four turns, three tool calls, a
// table-valued tool result, then a final answer.
const benchProgram = `
orders := {["A-1"]: {status: "shipped", items: [1, 2, 3]}, ["A-2"]: {status: "late", items: [4]}}
lookup := tool { name: "lookup", params: ["id"], requires: ["orders.read"], fn: func(id) { return orders[id], nil } }
a := agent { name: "support", model: "m", instructions: "Look orders up first.", tools: [lookup], max_steps: 6 }
r, err := a("Where are A-1 and A-2?")
assert(err == nil && r.status == "done")
`

func benchAnswers() []llm.TurnResult {
	call := func(id, order string) llm.ToolCall {
		return llm.ToolCall{ID: id, Tool: "lookup", Args: map[string]any{"id": order}}
	}
	return []llm.TurnResult{calls(call("c1", "A-1")), calls(call("c2", "A-2")), calls(call("c3", "A-1")), final("A-1 shipped, A-2 is late.")}
}

// sequence answers turn i with answers[i mod n], without looking at the
// request: the reference side, a provider that costs nothing.
type sequence struct {
	answers []llm.TurnResult
	i       int
}

func (s *sequence) Turn(context.Context, llm.TurnRequest, func(llm.StreamEvent)) (llm.TurnResult, error) {
	r := s.answers[s.i%len(s.answers)]
	s.i++
	return r, nil
}

func runBench(b *testing.B, chunkSrc string, p llm.Provider) {
	in := leia.New(leia.Options{Stdout: io.Discard})
	ai.Install(in, ai.Config{Provider: p})
	chunk, err := in.Compile("bench.leia", []byte(chunkSrc))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := in.Run(context.Background(), chunk); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAgentLoop runs the same agent on a provider that returns
// canned answers (reference) and on a strict replay of its recording,
// which normalizes and hashes every request and compares it with the
// record: the difference is the price of replay checking.
func BenchmarkAgentLoop(b *testing.B) {
	rec := &llm.Recorder{Live: &sequence{answers: benchAnswers()}}
	runBench(b, benchProgram, rec)
	records := rec.Records()
	b.Run("canned", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			runBench(b, benchProgram, &sequence{answers: benchAnswers()})
		}
	})
	b.Run("replay", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rp := llm.NewReplay(records)
			runBench(b, benchProgram, rp)
			if err := rp.Finish(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
