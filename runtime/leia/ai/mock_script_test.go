package ai

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/runner"
)

// runWithMockScript runs a program in mock mode with a .llm-mock.jsonl
// script (as `run --llm-mock FILE` does).
func runWithMockScript(t *testing.T, path string, src []byte, script string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	var env runner.Env
	if script != "" {
		env.LLMMockReplay = filepath.Join(dir, "answers.llm-mock.jsonl")
		if err := os.WriteFile(env.LLMMockReplay, []byte(script), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	env.Stdout, env.Stderr, env.TempDir = &out, &out, dir
	env.LLM = runner.LLMConfig{Mode: runner.LLMMock}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := RunProgram(ctx, runner.Program{Path: path, Src: src}, env)
	return out.String(), err
}

// TestGenericMock: the one mock answers a Leia run offline: scripted
// answers first, streamed word by word ("hello", " ", "stream"), tool
// calls when tools are offered, answers shaped by the agent's output,
// and the default text otherwise (issue 27 item 7).
func TestGenericMock(t *testing.T) {
	cases := []struct {
		name, script, src string
	}{
		{"scripted streamed turn", `{"text":"hello stream"}`, `
			got, n, last := "", 0, ""
			r, err := llm.turn({model: "mock-stream", messages: [llm.user("greet")], stream: true,
				on_stream: func(ev) { got = got .. ev.token; n = n + 1; last = ev.type }})
			assert(err == nil && r.status == "final_answer" && r.text == "hello stream")
			assert(got == "hello stream" && n == 3 && last == "token")`},
		{"scripted by pattern, then the default", `{"match":"*second*","text":"by pattern"}
{"text":"first in order"}`, `
			a, _ := llm.turn({model: "m", messages: [llm.user("first")]})
			b, _ := llm.turn({model: "m", messages: [llm.user("the second one")]})
			c, _ := llm.turn({model: "m", messages: [llm.user("third")]})
			assert(a.text == "first in order" && b.text == "by pattern" && c.text == "mock reply")`},
		{"scripted agent", `{"text":"Scripted agent answer."}`, `
			model { default: "mock-fast" }
			responder := agent {
				name: "responder"
				config: func(issue) { return {model: "mock-fast", system: "Be brief.", user: issue}, nil }
				params: ["issue"]
			}
			r, err := responder("checkout is slow")
			assert(err == nil && r.status == "done" && r.text == "Scripted agent answer.")`},
		{"tools offered, then an output-shaped answer", "", `
			lookup := llm.tool("lookup", func(domain) { return "policy:" .. domain, nil }, {params: ["domain"]})
			specialist := llm.agent("specialist", func(domain) {
				return {model: "m", messages: [llm.user("Research " .. domain)], tools: [lookup],
					output: {summary: "short finding", confidence: 1, risk: "low|high"}}
			}, nil, {params: ["domain"], output: {summary: "short finding", confidence: 1, risk: "low|high"}})
			r, err := specialist("pci")
			assert(err == nil)
			tool_msg, _ := history.find(r.history, {role: "tool"})
			assert(tool_msg.value == "policy:mock")
			assert(r.text == "{\"confidence\":1,\"risk\":\"low\",\"summary\":\"short finding\"}")`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := runWithMockScript(t, filepath.Join(t.TempDir(), "p.leia"), []byte(c.src), c.script)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
		})
	}
}

// TestUpstreamExamplesWithGenericMock runs upstream Leia's offline AI
// examples (read at run time from LEIA_UPSTREAM, default
// /work/upstream/gscript; skipped when absent, never copied here) with
// the generic mock and the scripted answers their asserts expect: each
// must pass its own asserts.
func TestUpstreamExamplesWithGenericMock(t *testing.T) {
	root := os.Getenv("LEIA_UPSTREAM")
	if root == "" {
		root = "/work/upstream/gscript"
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		t.Skipf("upstream Leia programs not available at %s (set LEIA_UPSTREAM)", root)
	}
	fast := `{"text":"Direct llm.turn keeps examples simple."}`
	stream := `{"text":"hello stream"}`
	for path, c := range map[string]struct{ script, last string }{
		"examples/llm/direct_turn.leia":                {fast, "direct answer:"},
		"examples/llm/streaming_turn.leia":             {stream, "stream text:"},
		"examples/llm/agent_as_tool.leia":              {"", "delegated\tshort finding"},
		"examples/ai/tagged_agent_workflow.leia":       {fast, "ok"},
		"examples/ai/record_replay_trace_project.leia": {stream, "ok"},
	} {
		t.Run(path, func(t *testing.T) {
			full := filepath.Join(root, filepath.FromSlash(path))
			src, err := os.ReadFile(full)
			if err != nil {
				t.Skipf("%v", err)
			}
			out, err := runWithMockScript(t, full, src, c.script)
			if err != nil || !strings.Contains(out, c.last) {
				t.Fatalf("%v\n%s", err, out)
			}
		})
	}
}
