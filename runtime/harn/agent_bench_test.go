package harn

import (
	"context"
	"io"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/leia/ai"
	"github.com/harnlang/harn-check/runtime/llm"
)

// The agent-loop benchmark of issue 28: a 100-turn agent loop with one
// tool call per turn, Harn's agent_loop against the model mock (its
// default answer in a native-tool stage is a call of the first tool),
// and the same loop written as a Leia agent on our Leia runtime, whose
// provider answers every turn with the same tool call.

const agentBenchTurns = 100

const agentBenchHarn = `
fn tools() {
  var reg = tool_registry()
  reg = tool_define(reg, "lookup", "Look an order up", {
    handler: { args -> "order ok" },
    parameters: {id: {type: "string"}},
  })
  return reg
}

pipeline main() {
  llm_mock_clear()
  let r = agent_loop("Look the orders up", nil,
    {provider: "mock", tools: tools(), tool_format: "native", max_iterations: 100})
  return r.llm.iterations + len(r.tools.successful)
}
`

const agentBenchLeia = `
lookup := tool { name: "lookup", params: ["id"], fn: func(id) { return "order ok", nil } }
a := agent { name: "orders", model: "m", instructions: "Look the orders up.", tools: [lookup], max_steps: 100 }
r, err := a("Look the orders up")
assert(r.status == "stopped" && r.reason == "max_steps")
`

// oneCall answers every turn with a call of lookup.
type oneCall struct{ n int }

func (p *oneCall) Turn(context.Context, llm.TurnRequest, func(llm.StreamEvent)) (llm.TurnResult, error) {
	p.n++
	return llm.TurnResult{Status: "tool_calls", Calls: []llm.ToolCall{{ID: "c", Tool: "lookup", Args: map[string]any{"id": "A-1"}}}}, nil
}

func runLeiaAgentBench(tb testing.TB) {
	in := leia.New(leia.Options{Stdout: io.Discard})
	p := &oneCall{}
	ai.Install(in, ai.Config{Provider: p})
	chunk, err := in.Compile("agent_bench.leia", []byte(agentBenchLeia))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := in.Run(context.Background(), chunk); err != nil {
		tb.Fatal(err)
	}
	if p.n != agentBenchTurns {
		tb.Fatalf("leia agent took %d turns, want %d", p.n, agentBenchTurns)
	}
}

// TestAgentLoopBenchPrograms keeps both sides of the benchmark honest:
// each takes 100 turns with a successful tool call.
func TestAgentLoopBenchPrograms(t *testing.T) {
	if got := loadHarn(t, "agent_bench", agentBenchHarn).run(t); got != agentBenchTurns+1 {
		t.Errorf("harn agent loop: iterations + successful tools = %d, want %d", got, agentBenchTurns+1)
	}
	runLeiaAgentBench(t)
}

// BenchmarkAgentLoop100 runs both sides (go test -bench AgentLoop100).
func BenchmarkAgentLoop100(b *testing.B) {
	b.Run("harn", func(b *testing.B) {
		p := loadHarn(b, "agent_bench", agentBenchHarn)
		b.ReportAllocs()
		for b.Loop() {
			p.run(b)
		}
	})
	b.Run("leia", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			runLeiaAgentBench(b)
		}
	})
}

// TestAgentLoopBenchRatio prints the Harn/Leia time ratio of the
// 100-turn loop, alternating which side goes first (the BENCHMARKS.md
// row); it runs only with HARN_BENCH_COMPARE=1 and asserts nothing
// about speed.
func TestAgentLoopBenchRatio(t *testing.T) {
	if os.Getenv("HARN_BENCH_COMPARE") != "1" {
		t.Skip("set HARN_BENCH_COMPARE=1 to measure")
	}
	p := loadHarn(t, "agent_bench", agentBenchHarn)
	const rounds, reps = 9, 20
	var hs, ls, ratios []float64
	for r := 0; r < rounds; r++ {
		var h, l time.Duration
		sides := []func(){
			func() {
				s := time.Now()
				for i := 0; i < reps; i++ {
					p.run(t)
				}
				h = time.Since(s)
			},
			func() {
				s := time.Now()
				for i := 0; i < reps; i++ {
					runLeiaAgentBench(t)
				}
				l = time.Since(s)
			},
		}
		if r%2 == 1 {
			sides[0], sides[1] = sides[1], sides[0]
		}
		sides[0]()
		sides[1]()
		hs = append(hs, float64(h.Microseconds())/reps)
		ls = append(ls, float64(l.Microseconds())/reps)
		ratios = append(ratios, float64(h)/float64(l))
	}
	med := func(xs []float64) float64 {
		ys := append([]float64(nil), xs...)
		sort.Float64s(ys)
		return ys[len(ys)/2]
	}
	best := func(xs []float64) float64 {
		ys := append([]float64(nil), xs...)
		sort.Float64s(ys)
		return ys[0]
	}
	t.Logf("100-turn agent loop: harn median %.0f us (best %.0f), leia median %.0f us (best %.0f); ratio harn/leia median %.2f, best/best %.2f",
		med(hs), best(hs), med(ls), best(ls), med(ratios), best(hs)/best(ls))
}
