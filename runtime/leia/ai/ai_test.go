package ai_test

import (
	"github.com/harnlang/harn-check/runtime/execution"

	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/leia/ai"
	"github.com/harnlang/harn-check/runtime/llm"
)

// scripted is a provider that answers turn i with answers[i] (the last
// one again when the script runs out) && keeps every request.
type scripted struct {
	answers []llm.TurnResult
	reqs    []llm.TurnRequest
	stream  []string // tokens streamed on a streamed turn
	err     error
}

func (s *scripted) Turn(ctx context.Context, req llm.TurnRequest, onStream func(llm.StreamEvent)) (llm.TurnResult, error) {
	s.reqs = append(s.reqs, req)
	if s.err != nil {
		return llm.TurnResult{}, s.err
	}
	i := min(len(s.reqs)-1, len(s.answers)-1)
	res := s.answers[i]
	if onStream != nil {
		for _, tok := range s.stream {
			onStream(llm.StreamEvent{Type: "token", Token: tok, Text: tok})
		}
	}
	return res, nil
}

func final(text string) llm.TurnResult {
	return llm.TurnResult{Status: llm.StatusFinalAnswer, Text: text, Usage: llm.TurnUsage{InputTokens: 3, OutputTokens: 2}}
}

func calls(cs ...llm.ToolCall) llm.TurnResult {
	return llm.TurnResult{Status: llm.StatusToolCalls, Calls: cs, Usage: llm.TurnUsage{InputTokens: 5, OutputTokens: 1}}
}

type env struct {
	out   bytes.Buffer
	trace llm.TraceRecorder
	rt    *ai.Runtime
	dir   string
}

// runLeia runs src with the AI layer on provider p && returns its output
// && error.
func runLeia(t *testing.T, src string, p llm.Provider, files map[string]string) (*env, error) {
	t.Helper()
	e := &env{dir: t.TempDir()}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(e.dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	clock := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	h, err := host.New(host.Config{Root: e.dir, Stdout: &e.out, Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	in := leia.New(leia.Options{Stdout: &e.out, Host: h, Limits: execution.Limits{Steps: 10_000_000}})
	cfg := ai.Config{Provider: p, Trace: &e.trace, Dir: e.dir, Host: h, Source: "mock"}
	e.rt = ai.Install(in, cfg)
	path := filepath.Join(e.dir, "main.leia")
	chunk, err := in.Compile(path, []byte(src))
	if err != nil {
		return e, err
	}
	_, err = in.Run(context.Background(), chunk)
	return e, err
}

func mustRun(t *testing.T, src string, p llm.Provider) *env {
	t.Helper()
	e, err := runLeia(t, src, p, nil)
	if err != nil {
		t.Fatalf("%v\noutput:\n%s", err, e.out.String())
	}
	return e
}

func TestMessagesHistoryChat(t *testing.T) {
	mustRun(t, `
		h := [llm.system("be brief"), msg.user("hi")]
		assert(h[1].role == "system" && h[1].text == "be brief")
		call := {id: "c1", tool: "lookup", args: {q: "x"}}
		history.append(h, msg.assistant_call(call), llm.tool_result("c1", {n: 1}))
		append(h, msg.assistant_call({id: "c2", tool: "other", args: {}}))
		append(h, llm.toolError("c2", {kind: "internal", message: "boom"}))
		m, i := history.find(h, {role: "tool"})
		assert(i == 4 && m.value.n == 1)
		m, i = history.last(h, {role: "tool"})
		assert(i == 6 && m.error == "boom")
		m, i = history.find(h, {tool: "other"})
		assert(i == 5)
		m, i = history.find(h, {id: "c2", has_error: true})
		assert(i == 6)
		m, i = history.find(h, {role: "nobody"})
		assert(m == nil && i == -1)
		assert(#history.find_all(h, {role: "assistant"}) == 2)
		all := chat.merge(h, [llm.assistant("done")])
		assert(#all == 7 && #h == 6)
		w := chat.window(all, 6)
		assert(w[1].role == "system" && w[#w].text == "done" && #w < #all)
		p := prompt { role: "system", text: "from a prompt" }
		assert(p.role == "system" && p.text == "from a prompt" && p.body.role == "system")
		q := prompt`+"`Summarize ${1 + 1} items.`"+`
		assert(q.text == "Summarize 2 items." && q.body == q.text && q.role == nil)
	`, &scripted{answers: []llm.TurnResult{final("x")}})
}

func TestTurnLowersEveryFormTheSame(t *testing.T) {
	p := &scripted{answers: []llm.TurnResult{final("ok")}}
	mustRun(t, `
		model { default: "fast", fast: "alias-2", ["alias-2"]: {provider_model: "wire-model"} }
		r1, e1 := llm.turn({messages: [llm.system("sys"), llm.user("q")], max_tokens: 32, temperature: 0, stop: "END", metadata: {run: "t1"}})
		assert(e1 == nil && r1.status == "final_answer" && r1.text == "ok" && r1.usage.input_tokens == 3 && #r1.calls == 0)
		r2, e2 := turn { system: "sys", user: "q", max_tokens: 32, temperature: 0, stop: "END", metadata: {run: "t1"} }
		assert(e2 == nil && r2.text == "ok")
	`, p)
	if len(p.reqs) != 2 {
		t.Fatalf("requests %d", len(p.reqs))
	}
	if p.reqs[0].Hash() != p.reqs[1].Hash() {
		t.Errorf("llm.turn && turn {} lowered differently:\n%+v\n%+v", p.reqs[0], p.reqs[1])
	}
	r := p.reqs[0]
	if r.Model != "wire-model" || r.MaxTokens != 32 || *r.Temperature != 0 || r.Stop[0] != "END" || r.Metadata["run"] != "t1" || len(r.Messages) != 2 || r.Messages[0].Role != "system" {
		t.Errorf("request %+v", r)
	}
}

func TestTurnErrorsAreValues(t *testing.T) {
	e := mustRun(t, `
		r, err := llm.turn({user: "q"})
		assert(r == nil && err.kind == "provider" && err.message == "llm provider not configured")
		print(err.message)
	`, nil)
	if !strings.Contains(e.out.String(), "llm provider not configured") {
		t.Errorf("output %q", e.out.String())
	}
	mustRun(t, `
		r, err := llm.turn({model: "m"})
		assert(err.kind == "validation" && err.message == "loop requires messages or user")
		r, err = llm.turn({user: "q", on_stream: 3})
		assert(err.kind == "validation" && err.message == "llm.turn on_stream must be a function")
		ok, raised := pcall(func() { return turn! { model: "m" } })
		assert(!ok && raised.kind == "validation")
	`, &scripted{answers: []llm.TurnResult{final("x")}})
	_, err := runLeia(t, `model { a: "b", b: "a" }`, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "llm model alias cycle: a -> b -> a") {
		t.Errorf("alias cycle: %v", err)
	}
	p := &scripted{err: &llm.Error{Kind: llm.ErrRateLimited, Status: 429, Attempts: 1, Detail: "the provider rate-limited the request"}}
	mustRun(t, `
		r, err := llm.turn({user: "q"})
		assert(err.kind == "provider" && err.error_kind == "rate_limited" && err.status == 429)
	`, p)
}

func TestStreaming(t *testing.T) {
	p := &scripted{answers: []llm.TurnResult{final("hello stream")}, stream: []string{"hello", " ", "stream"}}
	e := mustRun(t, `
		text := ""
		n := 0
		r, err := llm.turn({user: "q", on_stream: func(ev) { text = text .. ev.token; n = n + 1; assert(ev.type == "token") }})
		assert(err == nil && r.text == "hello stream" && text == "hello stream" && n == 3)
		ok, msg := pcall(func() { return llm.turn({user: "q", on_stream: func(ev) { error("stop streaming") }}) })
		assert(!ok && string.find(msg, "stop streaming", 1, true))
	`, p)
	if !p.reqs[0].Stream {
		t.Error("on_stream did not ask for a stream")
	}
	if u := e.rt.Usage(); u.StreamEvents != 6 || u.Turns != 1 {
		t.Errorf("usage %+v", u)
	}
}

func TestToolsAndDispatch(t *testing.T) {
	mustRun(t, `
		runs := 0
		a := tool { name: "a", params: ["x", "y"], requires: ["docs.read"], description: "A.", fn: func(x, y) { runs = runs + 1; return x .. y, nil } }
		b := llm.tool("b", func(x, y) { return x .. y, nil }, {params: ["x", "y"], requires: ["docs.read", "net.fetch"], description: "B."})
		assert(a.__llm_tool && a.name == "a" && a.description == "A." && a.params[2] == "y")
		caps := llm.tool_caps([a, b])
		assert(#caps == 2 && caps[1] == "docs.read" && caps[2] == "net.fetch")
		ok, err := llm.check_tools([a, b], ["docs.read"])
		assert(ok == nil && err.kind == "capability" && err.capability == "net.fetch" && err.tool == "b")
		ok, err = llm.check_tools([a, b], ["all"])
		assert(ok == true && err == nil)
		v, e := llm.dispatch({id: "1", tool: "a", args: {y: "2", x: "1"}}, [a, b])
		assert(v == "12" && e == nil && runs == 1)
		v, e = llm.dispatch({id: "1", args: {}}, [a])
		assert(e.kind == "validation" && e.message == "tool call missing tool name")
		v, e = llm.dispatch({id: "1", tool: "zzz"}, [a])
		assert(e.kind == "capability" && e.message == "tool not in scope: zzz")
		bad := llm.tool("bad", func() { error({kind: "x", message: "exploded"}) })
		v, e = llm.dispatch({id: "1", tool: "bad"}, [bad])
		assert(e.kind == "internal" && e.message == "exploded")
		own := llm.tool("own", func() { return nil, {kind: "user", message: "no"} })
		v, e = llm.dispatch({id: "1", tool: "own"}, [own])
		assert(e.kind == "user")
		list := llm.tool("list", func(p, q) { return p + q, nil })
		v, e = llm.dispatch({tool: "list", args: [2, 3]}, [list])
		assert(v == 5)
	`, nil)
}

// A tool whose requires the agent's (or the host's) grant lacks is
// refused, not run, and the refusal is the agent's error (kind
// capability): a host/runtime error, never hidden as a provider answer.
func TestCapabilityRefusal(t *testing.T) {
	for _, tc := range []struct{ name, grant string }{
		{"agent grant", `capabilities: ["docs.read"]`},
		{"caps alias", `caps: ["docs.read"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &scripted{answers: []llm.TurnResult{
				calls(llm.ToolCall{ID: "c1", Tool: "fetch", Args: map[string]any{"url": "x"}}),
				final("could not fetch"),
			}}
			e := mustRun(t, `
				ran := false
				fetch := tool { name: "fetch", params: ["url"], requires: ["net.fetch"], fn: func(url) { ran = true; return "page", nil } }
				a := agent { name: "reader", model: "m", tools: [fetch], `+tc.grant+` }
				r, err := a("read x")
				assert(r == nil && !ran)
				assert(err.kind == "capability" && err.message == "missing capability: net.fetch")
				assert(err.capability == "net.fetch" && err.tool == "fetch" && err.call_id == "c1")
			`, p)
			denied := false
			for _, ev := range e.trace.Events() {
				if ev.Type == "tool_denied" && ev.Tool == "fetch" && ev.ErrorKind == "capability" {
					denied = true
				}
			}
			if !denied {
				t.Error("no tool_denied event")
			}
			if len(p.reqs) != 1 {
				t.Errorf("%d provider requests: the refusal went back to the model", len(p.reqs))
			}
		})
	}
	// A tool's own capability error (or a call of a tool not in scope)
	// is the model's to handle: it goes back as a tool error.
	p := &scripted{answers: []llm.TurnResult{
		calls(llm.ToolCall{ID: "c1", Tool: "nowhere", Args: map[string]any{}}),
		final("sorry"),
	}}
	mustRun(t, `
		a := agent { name: "reader", model: "m", tools: [], capabilities: ["docs.read"] }
		r, err := a("read x")
		assert(err == nil && r.status == "done")
	`, p)
	if got := p.reqs[1].Messages[2]; got.Role != "tool" || got.Error != "tool not in scope: nowhere" {
		t.Errorf("tool not in scope sent back as %+v", got)
	}
}

func TestAgentLoop(t *testing.T) {
	p := &scripted{answers: []llm.TurnResult{
		calls(llm.ToolCall{ID: "c1", Tool: "lookup", Args: map[string]any{"q": "a"}}, llm.ToolCall{ID: "c2", Tool: "flaky", Args: map[string]any{}}),
		final("answer"),
	}}
	e := mustRun(t, `
		tries := 0
		lookup := tool { name: "lookup", params: ["q"], fn: func(q) { return {found: q}, nil } }
		flaky := tool { name: "flaky", fn: func() { tries = tries + 1; return nil, {kind: "network", message: "down"} } }
		r, err := llm.run_agent({model: "m", system: "s", user: "u", tools: [lookup, flaky], max_tool_retries: 2})
		assert(err == nil && r.status == "done" && r.text == "answer" && r.reason == "")
		assert(#r.history == 6 && r.history[3].tool_call.tool == "lookup" && r.history[4].value.found == "a")
		assert(r.history[6].error == "down" && tries == 3)
		assert(r.result.status == "final_answer")
	`, p)
	if len(p.reqs) != 2 || len(p.reqs[1].Messages) != 6 || p.reqs[1].Messages[3].Value.(map[string]any)["found"] != "a" {
		t.Errorf("second request %+v", p.reqs[1])
	}
	var types []string
	for _, ev := range e.trace.Events() {
		types = append(types, ev.Type)
	}
	want := "turn_start turn_end tool_call_requested tool_call_requested tool_call tool_result tool_call tool_retry tool_retry tool_error turn_start turn_end react_done"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("trace\n got %s\nwant %s", got, want)
	}
}

func TestAgentLoopStops(t *testing.T) {
	loopForever := &scripted{answers: []llm.TurnResult{calls(llm.ToolCall{ID: "c", Tool: "t"})}}
	mustRun(t, `
		t := tool { name: "t", fn: func() { return "again", nil } }
		r, err := llm.run_agent({model: "m", user: "u", tools: [t], max_steps: 3})
		assert(err == nil && r.status == "stopped" && r.reason == "max_steps" && #r.history == 7)
	`, loopForever)
	if len(loopForever.reqs) != 3 {
		t.Errorf("turns %d, want 3", len(loopForever.reqs))
	}
	mustRun(t, `
		r, err := llm.run_agent({model: "m", user: "u"})
		assert(err == nil && r.status == "stopped" && r.reason == "max_tokens")
	`, &scripted{answers: []llm.TurnResult{{Status: llm.StatusStop, Reason: "max_tokens"}}})
	mustRun(t, `
		t := tool { name: "t", fn: func() { return nil, {kind: "not_found", message: "gone"} } }
		r, err := llm.run_agent({model: "m", user: "u", tools: [t]})
		assert(r == nil && err.kind == "not_found")
	`, &scripted{answers: []llm.TurnResult{calls(llm.ToolCall{ID: "c", Tool: "t"})}})
}

func TestAgentForms(t *testing.T) {
	p := &scripted{answers: []llm.TurnResult{final("fine")}}
	mustRun(t, `
		model { default: "fast", fast: "wire-fast" }
		agent_defaults := llm.agent_defaults({max_tokens: 64})
		decl := agent { name: "decl", params: ["q"], instructions: prompt { role: "system", text: "Be short." }, temperature: 0 }
		cfg := agent { name: "cfg", config: func(q) { return {system: "Be short.", user: q, temperature: 0}, nil } }
		direct := llm.agent("direct", func(q) { return {messages: [llm.system("Be short."), llm.user(q)], temperature: 0} })
		for _, a := range [decl, cfg, direct] {
			r, err := a("hello")
			assert(err == nil && r.status == "done" && r.text == "fine")
		}
		bad := agent { name: "bad", config: func(q) { return nil, {kind: "validation", message: "no"} } }
		r, err := bad("x")
		assert(r == nil && err.message == "no")
		notable := llm.agent("nt", func() { return 42 })
		r, err = notable()
		assert(err.message == "agent config function must return a table")
	`, p)
	if len(p.reqs) != 3 {
		t.Fatalf("requests %d", len(p.reqs))
	}
	for i, r := range p.reqs {
		if r.Hash() != p.reqs[0].Hash() || r.Model != "wire-fast" || r.MaxTokens != 64 || r.Messages[0].Text != "Be short." || r.Messages[1].Text != "hello" {
			t.Errorf("request %d: %+v", i, r)
		}
	}
}

func TestLegacyForms(t *testing.T) {
	p := &scripted{answers: []llm.TurnResult{final("legacy ok")}}
	e := mustRun(t, `
models {
    default: "fast"
    fast: {provider_model: "legacy-model"}
}

//leia:requires docs.read
//leia:param query words to look for
tool find(query) {
    return "doc:" .. query, nil
}

agent defaults { model: "fast"  tools: [find] }

agent review(topic) { system: "Be short."  user: topic  tools: [find] } flow {
    h := messages { system: system  user: user }
    r, e := turn { messages: h, tools: tools }
    return r, e
}

budget { turns: 1 } {
    r, e := review("release notes")
    print(r.text, e)
    r2, e2 := review("again")
    print(r2, e2.kind, e2.dimension)
}
	`, p)
	if got := e.out.String(); got != "legacy ok\tnil\nnil\tbudget\tturns\n" {
		t.Errorf("output %q", got)
	}
	r := p.reqs[0]
	if r.Model != "legacy-model" || len(r.Tools) != 1 || r.Tools[0].Requires[0] != "docs.read" || r.Tools[0].ParamDocs["query"] != "words to look for" || len(r.Messages) != 2 {
		t.Errorf("request %+v", r)
	}
}

// A flow's turns send exactly the request they are given (the agent's
// config adds no field); the config's budget still counts them.
func TestFlowBudgetWithoutHiddenFields(t *testing.T) {
	p := &scripted{answers: []llm.TurnResult{final("one"), final("two")}}
	mustRun(t, `
		a := llm.agent("flowy", func(q) { return {model: "m", output: {x: "y"}, max_tokens: 99, budget: {turns: 1}} }, func(q) {
			r, err := llm.turn({messages: [llm.user(q)]})
			assert(err == nil)
			r2, err2 := llm.turn({messages: [llm.user(q)]})
			return r2, err2
		})
		r, err := a("q")
		assert(r == nil && err.kind == "budget" && err.dimension == "turns")
		ok, e := llm.turn({model: "m", user: "outside"})
		assert(e == nil)
	`, p)
	if len(p.reqs) != 2 {
		t.Fatalf("requests %d, want 2 (the budget stops the flow's second turn)", len(p.reqs))
	}
	if r := p.reqs[0]; r.Model != "" || r.ResponseFormat != nil || r.MaxTokens != 0 {
		t.Errorf("the flow's turn carries config fields it was not given: %+v", r)
	}
}

func TestAgentAsTool(t *testing.T) {
	p := &scripted{answers: []llm.TurnResult{
		calls(llm.ToolCall{ID: "s1", Tool: "research", Args: map[string]any{"topic": "refunds"}}),
		final(`{"summary":"needs review","risk":"high"}`),
		final("Decision: review"),
	}}
	mustRun(t, `
		research := llm.agent("research", func(topic) { return {model: "m", user: "Research " .. topic, output: {summary: "s", risk: "r"}} }, nil, {description: "Research a topic."})
		boss := agent { name: "boss", model: "m", tools: [research] }
		r, err := boss("Can refunds skip review?")
		assert(err == nil && r.text == "Decision: review")
		m, _ := history.find(r.history, {role: "tool"})
		assert(m.value.summary == "needs review" && m.value.trace.type == "agent_tool" && m.value.trace.name == "research")
		t := llm.toolof(research, {name: "investigate"})
		assert(t.name == "investigate" && t.trace_contract == "agent_tool.v1" && t.params[1] == "topic" && t.description == "Research a topic.")
		assert(llm.handoff(research).name == "research" && llm.delegate(research).__llm_agent_tool)
	`, p)
	top := p.reqs[0]
	if len(top.Tools) != 1 || top.Tools[0].Name != "research" || top.Tools[0].Params[0] != "topic" || top.Tools[0].Schema != nil {
		t.Errorf("agent tool as sent: %+v", top.Tools)
	}
	if sub := p.reqs[1]; sub.Messages[0].Text != "Research refunds" || sub.ResponseFormat == nil {
		t.Errorf("nested request %+v", sub)
	}
	// The trace node is the script's: the model gets the value alone.
	v, ok := p.reqs[2].Messages[2].Value.(map[string]any)
	if _, traced := v["trace"]; !ok || traced || v["summary"] != "needs review" {
		t.Errorf("tool value sent to the model: %#v", p.reqs[2].Messages[2].Value)
	}
}

func TestApprovalPauseAndResume(t *testing.T) {
	p := &scripted{answers: []llm.TurnResult{calls(llm.ToolCall{ID: "p1", Tool: "pay", Args: map[string]any{"amount": int64(5)}})}}
	mustRun(t, `
		paid := 0
		pay := tool { name: "pay", params: ["amount"], fn: func(amount) { paid = paid + amount; return "paid", nil } }
		r, err := loop.react({model: "m", user: "pay 5", tools: [pay], approve_when: func(call) { return call.tool == "pay" }})
		assert(err == nil && r.status == "pending" && r.pending.tool == "pay" && paid == 0 && #r.token == 32)
		denied, _ := loop.resume(r.token, {ok: false, reason: "too much"})
		assert(denied.status == "denied" && denied.history[#denied.history].error == "too much")
		again, _ := loop.react({model: "m", user: "pay 5", tools: [pay], approve_when: func(call) { return true }})
		done, _ := loop.resume(again.token, {ok: true}, [pay])
		assert(done.status == "dispatched" && done.value == "paid" && paid == 5)
		gone, e := loop.resume(again.token, {ok: true})
		assert(gone == nil && e.message == "snapshot not found")
	`, p)
}

func TestBudgets(t *testing.T) {
	p := &scripted{answers: []llm.TurnResult{calls(llm.ToolCall{ID: "c", Tool: "t"}), calls(llm.ToolCall{ID: "d", Tool: "t"}), final("x")}}
	mustRun(t, `
		t := tool { name: "t", fn: func() { return 1, nil } }
		r, err := llm.run_agent({model: "m", user: "u", tools: [t], budget: {calls: 1}})
		assert(r == nil && err.kind == "budget" && err.dimension == "calls" && err.limit == 1 && err.used == 1)
	`, p)
	mustRun(t, `
		r, err := llm.run_agent({model: "m", user: "u", budget_tokens: 4})
		assert(err == nil)
		out := llm.with_budget({turns: 1}, func() {
			a, e1 := llm.turn({model: "m", user: "1"})
			b, e2 := llm.turn({model: "m", user: "2"})
			return e2
		})
		assert(out.kind == "budget" && out.dimension == "turns")
		c, e3 := llm.turn({model: "m", user: "3", budget: {cost: 0}})
		assert(e3.kind == "budget" && e3.dimension == "cost")
		d, e4 := llm.turn({model: "m", user: "4", budget: {money: 0}})
		assert(e4.dimension == "money")
		f, e5 := llm.turn({model: "m", user: "5", budget: {time: 0.5}})
		assert(e5.kind == "deadline")
	`, &scripted{answers: []llm.TurnResult{final("x")}})
}

func TestCancellation(t *testing.T) {
	mustRun(t, `
		ctx, cancel := context.withCancel()
		cancel()
		r, err := llm.turn({model: "m", user: "u", ctx: ctx})
		assert(r == nil && err.kind == "cancelled")
		live, stop := context.withCancel()
		r, err = llm.turn({model: "m", user: "u", ctx: live})
		assert(err == nil)
	`, &scripted{answers: []llm.TurnResult{final("x")}})
}

func TestNoPanicEscapes(t *testing.T) {
	for _, src := range []string{
		`llm.turn()`, `llm.tool()`, `llm.agent(1)`, `llm.dispatch()`, `history.find()`, `chat.merge(1)`, `llm.with_budget()`,
		`t := {}; t.t = t; llm.turn({model: "m", messages: [{role: "user", text: "x", value: t}]})`,
		`a := {}; for i := 1; i <= 300; i++ { a = {a} }; llm.turn({model: "m", messages: [{role: "tool", value: a}]})`,
		`llm.run_agent({model: "m", user: "u", max_steps: 1e18})`,
		`loop.resume("x", {ok: true})`, `tool { name: 3 }`, `agent { config: 1 }`, `model { x: {protocol: "carrier-pigeon"} }`,
	} {
		_, err := runLeia(t, src, &scripted{answers: []llm.TurnResult{final("x")}}, nil)
		var le *leia.Error
		if err != nil && !errors.As(err, &le) {
			t.Errorf("%s: %v", src, err)
		}
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// Recursion through agents and stream callbacks goes through Go frames
// the interpreter does not count; it is bounded, and reported as an error
// value, not a crashed process.
func TestNestingIsBounded(t *testing.T) {
	mustRun(t, `
		a := nil
		a = llm.agent("selfish", func(q) { return {model: "m", user: q, tools: [a]} })
		r, err := a("go")
		assert(r == nil && err.kind == "budget" && err.dimension == "nesting")
		func deep(ev) {
			r, e := llm.turn({model: "m", user: "again", on_stream: deep})
			if e != nil { error(e) }
		}
		ok, e := pcall(func() { return llm.turn({model: "m", user: "q", on_stream: deep}) })
		assert(!ok && string.find(e.message, "nested deeper than 64", 1, true) != nil)
	`, ai.MockProvider())
}
