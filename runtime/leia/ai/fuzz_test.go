package ai_test

import (
	"github.com/harnlang/harn-check/runtime/execution"

	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/leia/ai"
)

// FuzzAIProgram runs arbitrary programs with the AI layer on the mock
// provider, under a step budget, a depth bound and a deadline: whatever
// the input, Run returns, no Go panic escapes and no internal error is
// reported. Seeded with the examples and the AI forms.
func FuzzAIProgram(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "examples", "leia", "*.leia"))
	for _, p := range files {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	for _, s := range []string{
		`a := agent { name: "a", model: "m", tools: [tool { name: "t", params: ["x"], fn: func(x) { return x, nil } }] }; a("q")`,
		`r, e := turn { user: "q", on_stream: func(ev) { print(ev.token) } }`,
		`llm.run_agent({user: "q", output: {a: "b"}, max_steps: 3})`,
		`loop.react({user: "q", approve_when: func(c) { return true }, tools: [llm.tool("t", func() { return 1 })]})`,
		`llm.with_budget({turns: 1}, func() { llm.turn({user: "a"}); llm.turn({user: "b"}) })`,
		`llm.trace_assert(llm.trace_envelope([llm.trace_event({event_type: "x"})]), {required_event_types: ["y"]})`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		in := leia.New(leia.Options{Stdout: io.Discard, Stderr: io.Discard, Limits: execution.Limits{Steps: 200_000, Depth: 2_000}, MaxStringBytes: 1 << 20})
		ai.Install(in, ai.Config{Provider: ai.MockProvider(), Dir: t.TempDir()})
		chunk, err := in.Compile("fuzz.leia", src)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if _, err := in.Run(ctx, chunk); err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("internal error: %v", err)
		}
	})
}
