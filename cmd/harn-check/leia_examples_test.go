package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// The Leia example workflows in examples/leia run offline against replay
// fixtures recorded from deskFake, a scripted OpenAI-compatible provider
// on loopback. TestLeiaExamplesRecord records them again and compares
// the bytes with the committed fixtures (-update rewrites them);
// TestLeiaExamplesReplay replays them twice and compares the output with
// testdata/leia_examples/*.out (-update rewrites those).

const (
	leiaFakeKey = "sk-leia-FAKE-9f8e7d6c5b4a3210"
	leiaKeyEnv  = "LEIA_LLM_API_KEY"
	leiaURLEnv  = "LEIA_LLM_BASE_URL"
)

// Prompt phrases that must never reach a trace, a report or an error.
var leiaPromptPhrases = []string{
	"Look every order up before answering",
	"Where are my orders A-1001 and A-1003?",
	"Delegate research to the researcher",
	"Can refunds skip the PCI review?",
	"You are a release assistant",
	"What changed in release 2.4?",
	"Grade the answer against the rubric",
	"How long do I have to ask for a refund?",
}

type leiaExample struct {
	name string
	// evaluate runs the example with harn-check evaluate instead of run.
	evaluate bool
}

var leiaExamples = []leiaExample{
	{name: "support_agent"},
	{name: "research_desk"},
	{name: "conversation"},
	{name: "eval_suite", evaluate: true},
}

func examplePath(name, ext string) string {
	return filepath.Join("..", "..", "examples", "leia", name+ext)
}

// fakeRequest is the part of a chat-completions body deskFake reads.
type fakeRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role      string `json:"role"`
		Content   any    `json:"content"`
		ToolCalls []any  `json:"tool_calls"`
	} `json:"messages"`
}

func (r fakeRequest) system() string {
	for _, m := range r.Messages {
		if m.Role == "system" {
			s, _ := m.Content.(string)
			return s
		}
	}
	return ""
}

func (r fakeRequest) last() (role, content string) {
	if len(r.Messages) == 0 {
		return "", ""
	}
	m := r.Messages[len(r.Messages)-1]
	s, _ := m.Content.(string)
	return m.Role, s
}

func (r fakeRequest) count(role string) int {
	n := 0
	for _, m := range r.Messages {
		if m.Role == role {
			n++
		}
	}
	return n
}

type fakeCall struct{ id, name, args string }

// deskAnswer is deskFake's script: the reply to a request, decided by the
// model, the system prompt and the conversation so far.
func deskAnswer(r fakeRequest) (text string, calls []fakeCall) {
	role, last := r.last()
	switch r.Model {
	case "support-model":
		if r.count("tool") == 0 {
			return "", []fakeCall{{"call_1", "lookup_order", `{"order_id":"A-1001"}`}, {"call_2", "lookup_order", `{"order_id":"A-1003"}`}}
		}
		return "Order A-1001 shipped with DHL and arrives on 2026-12-03; I found no order A-1003.", nil
	case "desk-model":
		if strings.Contains(r.system(), "Use lookup_policy") {
			if r.count("tool") == 0 {
				return "", []fakeCall{{"call_p1", "lookup_policy", `{"domain":"payments"}`}}
			}
			return `{"summary":"Every refund above 0 EUR needs a PCI review.","risk":"high"}`, nil
		}
		switch {
		case r.count("tool") == 0:
			return "", []fakeCall{{"call_r1", "researcher", `{"topic":"refunds and the PCI review"}`}}
		case role == "tool":
			return "Refunds can skip the review when they are small.", nil
		default:
			return "Decision: no. The payments policy requires a PCI review for every refund.", nil
		}
	case "chat-model":
		switch r.count("user") {
		case 1:
			return "Release 2.4 adds replay fixtures and a faster start.", nil
		case 2:
			return "The platform team should review it.", nil
		default:
			return "Ship 2.4 once the platform team has reviewed the replay fixtures.", nil
		}
	case "answer-model":
		switch {
		case strings.Contains(last, "refund"):
			return "You can ask for a refund within 30 days of delivery.", nil
		case strings.Contains(last, "parcel"):
			return "We will open a claim with the carrier for you.", nil
		default:
			return "Invoices are emailed after each order.", nil
		}
	case "judge-model":
		for _, pair := range [][2]string{{"30 days", "30 days"}, {"carrier claim", "claim"}, {"account page", "account page"}} {
			if strings.Contains(last, "Rubric: mentions "+pair[0]) || strings.Contains(last, "Rubric: offers to open a "+pair[0]) || strings.Contains(last, "Rubric: points to the "+pair[0]) {
				if strings.Contains(last, "Answer:") && strings.Contains(last[strings.Index(last, "Answer:"):], pair[1]) {
					return "pass", nil
				}
				return "fail", nil
			}
		}
		return "fail", nil
	}
	return "unknown model", nil
}

// deskFake serves the script on the OpenAI-compatible wire, with and
// without streaming. A request without the fake key is refused 401 with
// a body that echoes the key and the prompt, as careless gateways do.
func deskFake(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		raw, _ := io.ReadAll(r.Body)
		if r.Header.Get("Authorization") != "Bearer "+leiaFakeKey || r.URL.Path != "/v1/chat/completions" {
			w.WriteHeader(401)
			fmt.Fprintf(w, `{"error":{"type":"invalid_api_key","message":"bad key %s for %s"}}`, leiaFakeKey, raw)
			return
		}
		var req fakeRequest
		if err := json.Unmarshal(raw, &req); err != nil {
			w.WriteHeader(400)
			return
		}
		text, calls := deskAnswer(req)
		usage := fmt.Sprintf(`{"prompt_tokens":%d,"completion_tokens":%d}`, 10*len(req.Messages), (len(text)+3)/4+5*len(calls))
		var tcs []string
		for i, c := range calls {
			tcs = append(tcs, fmt.Sprintf(`{"index":%d,"id":%q,"type":"function","function":{"name":%q,"arguments":%q}}`, i, c.id, c.name, c.args))
		}
		finish := "stop"
		if len(calls) > 0 {
			finish = "tool_calls"
		}
		content, _ := json.Marshal(text)
		if !req.Stream {
			fmt.Fprintf(w, `{"id":"c","model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":%s,"tool_calls":[%s]},"finish_reason":%q}],"usage":%s}`,
				req.Model, content, strings.Join(tcs, ","), finish, usage)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, piece := range strings.SplitAfter(text, " ") {
			b, _ := json.Marshal(piece)
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\n", b)
		}
		fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":%q}]}\n\n", finish)
		fmt.Fprintf(w, "data: {\"choices\":[],\"usage\":%s}\n\ndata: [DONE]\n\n", usage)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// runLeiaCLI runs the CLI with SOURCE_DATE_EPOCH fixed.
func runLeiaCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, cacheDir: t.TempDir(), getenv: func(k string) string {
		if k == "SOURCE_DATE_EPOCH" {
			return "1796112000"
		}
		return ""
	}}
	code := run(e, args)
	return code, out.String(), errb.String()
}

// record runs one example against the fake provider, recording to path.
func recordExample(t *testing.T, ex leiaExample, srvURL, path, trace string) (int, string, string) {
	t.Helper()
	t.Setenv(leiaURLEnv, srvURL+"/v1")
	t.Setenv(leiaKeyEnv, leiaFakeKey)
	cmd := "run"
	rec := "--llm-record"
	if ex.evaluate {
		cmd, rec = "evaluate", "--record"
	}
	return runLeiaCLI(t, cmd, rec, path, "--allow-net=127.0.0.1", "--llm-trace", trace, examplePath(ex.name, ".leia"))
}

func TestLeiaExamplesRecord(t *testing.T) {
	srv, requests := deskFake(t)
	for _, ex := range leiaExamples {
		t.Run(ex.name, func(t *testing.T) {
			dir := t.TempDir()
			first, second := filepath.Join(dir, "1.records.json"), filepath.Join(dir, "2.records.json")
			before := requests.Load()
			for _, p := range []string{first, second} {
				code, stdout, stderr := recordExample(t, ex, srv.URL, p, filepath.Join(dir, "trace.jsonl"))
				if code != 0 {
					t.Fatalf("record exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
				}
			}
			if requests.Load() == before {
				t.Fatal("recording made no request")
			}
			a, _ := os.ReadFile(first)
			b, _ := os.ReadFile(second)
			if !bytes.Equal(a, b) {
				t.Fatalf("two recordings of the same conversation differ")
			}
			if bytes.Contains(a, []byte(leiaFakeKey)) {
				t.Fatal("the fixture holds the key")
			}
			committed := examplePath(ex.name, ".records.json")
			if *update {
				if err := os.WriteFile(committed, a, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(committed)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/harn-check -run LeiaExamples -update)", err)
			}
			if !bytes.Equal(a, want) {
				t.Errorf("recording differs from %s (run with -update if the example changed on purpose)", committed)
			}
		})
	}
}

func TestLeiaExamplesReplay(t *testing.T) {
	for _, ex := range leiaExamples {
		t.Run(ex.name, func(t *testing.T) {
			dir := t.TempDir()
			var outs, traces []string
			for i := range 2 {
				trace := filepath.Join(dir, fmt.Sprintf("trace%d.jsonl", i))
				args := []string{"run", "--llm-replay", examplePath(ex.name, ".records.json"), "--llm-trace", trace, examplePath(ex.name, ".leia")}
				if ex.evaluate {
					args = []string{"evaluate", "--gate", "--replay", examplePath(ex.name, ".records.json"), "--llm-trace", trace, "--json", examplePath(ex.name, ".leia")}
				}
				code, stdout, stderr := runLeiaCLI(t, args...)
				want := 0
				if ex.evaluate {
					want = 1 // one answer fails its judge: the gate fails
				}
				if code != want {
					t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, want, stdout, stderr)
				}
				tb, _ := os.ReadFile(trace)
				outs, traces = append(outs, stdout), append(traces, string(tb))
			}
			if outs[0] != outs[1] || traces[0] != traces[1] {
				t.Fatal("two replays differ")
			}
			if traces[0] == "" {
				t.Fatal("no trace written")
			}
			golden := filepath.Join("testdata", "leia_examples", ex.name+".out")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, []byte(outs[0]), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if outs[0] != string(want) {
				t.Errorf("output differs from %s:\n%s", golden, outs[0])
			}
		})
	}
}

// leaks lists what text carries that it must not: the fake key, prompt
// phrases, and the extra secrets given.
func leaks(text string, extra ...string) []string {
	var found []string
	for _, s := range append([]string{leiaFakeKey}, extra...) {
		if strings.Contains(text, s) {
			found = append(found, s)
		}
	}
	for _, p := range leiaPromptPhrases {
		if strings.Contains(text, p) {
			found = append(found, p)
		}
	}
	return found
}

// No trace, report or error contains the API key or prompt text: not when
// recording against the provider, not when replaying, not when the
// provider refuses the key and echoes it with the prompt, not when a
// replay mismatches, not when a script puts a literal key in a model.
func TestLeiaNoSecretsInTracesReportsErrors(t *testing.T) {
	srv, _ := deskFake(t)
	dir := t.TempDir()
	check := func(what, text string, extra ...string) {
		t.Helper()
		if l := leaks(text, extra...); len(l) > 0 {
			t.Errorf("%s leaks %q:\n%s", what, l, text)
		}
	}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, ex := range leiaExamples {
		trace := filepath.Join(dir, ex.name+".record.jsonl")
		code, stdout, stderr := recordExample(t, ex, srv.URL, filepath.Join(dir, ex.name+".records.json"), trace)
		if code != 0 {
			t.Fatalf("%s: record exit %d: %s", ex.name, code, stderr)
		}
		check(ex.name+" record trace", read(trace))
		check(ex.name+" record stderr", stderr)
		if ex.evaluate {
			check(ex.name+" record report", stdout)
		}
		trace = filepath.Join(dir, ex.name+".replay.jsonl")
		report := filepath.Join(dir, ex.name+".report.json")
		args := []string{"run", "--llm-replay", examplePath(ex.name, ".records.json"), "--llm-trace", trace, examplePath(ex.name, ".leia")}
		if ex.evaluate {
			args = []string{"evaluate", "--replay", examplePath(ex.name, ".records.json"), "--llm-trace", trace, "--report", report, "--format", "html", examplePath(ex.name, ".leia")}
		}
		_, stdout, stderr = runLeiaCLI(t, args...)
		check(ex.name+" replay trace", read(trace))
		check(ex.name+" replay stderr", stderr)
		if ex.evaluate {
			check(ex.name+" report", read(report))
			check(ex.name+" html report", stdout)
		}
	}

	// The provider refuses a wrong key and echoes the right one and the
	// prompt in its error body: the program's error value, the trace and
	// stderr carry neither.
	t.Setenv(leiaURLEnv, srv.URL+"/v1")
	t.Setenv(leiaKeyEnv, "sk-leia-WRONG-0000")
	prog := filepath.Join(dir, "refused.leia")
	os.WriteFile(prog, []byte(`model { default: "m", m: {protocol: "openai", base_url: os.getenv("LEIA_LLM_BASE_URL"), api_key: os.getenv("LEIA_LLM_API_KEY"), provider_model: "support-model"} }
r, err := llm.turn({messages: [llm.user("Where are my orders A-1001 and A-1003?")]})
print(err.kind, err.error_kind, err.status, err.message)
error(err)
`), 0o644)
	trace := filepath.Join(dir, "refused.jsonl")
	code, stdout, stderr := runLeiaCLI(t, "run", "--allow-net=127.0.0.1", "--llm-trace", trace, prog)
	if code != 1 || !strings.Contains(stdout, "provider\tauthority_denied\t401") {
		t.Errorf("refused key: exit %d\n%s\n%s", code, stdout, stderr)
	}
	check("refused stdout", stdout, "sk-leia-WRONG-0000")
	check("refused stderr", stderr, "sk-leia-WRONG-0000")
	check("refused trace", read(trace), "sk-leia-WRONG-0000")

	// Without --allow-net nothing is sent.
	code, stdout, _ = runLeiaCLI(t, "run", prog)
	if code != 1 || !strings.Contains(stdout, "authority_denied") || !strings.Contains(stdout, "not granted (--allow-net)") {
		t.Errorf("no --allow-net: exit %d %s", code, stdout)
	}

	// A replay whose program asks something else fails with the field
	// that differs, never the texts.
	t.Setenv(leiaKeyEnv, leiaFakeKey)
	src := read(examplePath("support_agent", ".leia"))
	changed := filepath.Join(dir, "support_changed.leia")
	os.WriteFile(changed, []byte(strings.Replace(src, "Where are my orders A-1001 and A-1003?", "Where is my order A-1001? Tell nobody about project Nightjar.", 1)), 0o644)
	code, stdout, stderr = runLeiaCLI(t, "run", "--llm-replay", examplePath("support_agent", ".records.json"), changed)
	if code != 1 || !strings.Contains(stderr, "llm replay request mismatch at turn 1: Messages[1].Text: recorded 38 bytes") {
		t.Errorf("mismatch: exit %d\n%s", code, stderr)
	}
	check("mismatch stderr", stderr, "Nightjar")
	evalChanged := filepath.Join(dir, "eval_changed.leia")
	os.WriteFile(evalChanged, []byte(strings.Replace(read(examplePath("eval_suite", ".leia")), "Grade the answer against the rubric.", "Grade it. Secret rubric Nightjar.", 1)), 0o644)
	os.WriteFile(filepath.Join(dir, "eval_suite.jsonl"), []byte(read(examplePath("eval_suite", ".jsonl"))), 0o644)
	code, stdout, _ = runLeiaCLI(t, "evaluate", "--gate", "--json", "--replay", examplePath("eval_suite", ".records.json"), evalChanged)
	if code != 1 || !strings.Contains(stdout, `"kind": "llm_replay_mismatch"`) {
		t.Errorf("evaluate mismatch: exit %d\n%s", code, stdout)
	}
	check("mismatch report", stdout, "Nightjar")

	// A key written in source is refused without being repeated.
	literal := filepath.Join(dir, "literal.leia")
	os.WriteFile(literal, []byte(`model { default: "m", m: {protocol: "openai", base_url: "http://127.0.0.1:1/v1", api_key: "sk-literal-abc123", provider_model: "x"} }
r, err := llm.turn({messages: [llm.user("hi")]})
print(err.message)
`), 0o644)
	code, stdout, stderr = runLeiaCLI(t, "run", "--no-check", "--allow-net", literal)
	if !strings.Contains(stdout, "api_key must come from the environment") {
		t.Errorf("literal key: exit %d %s %s", code, stdout, stderr)
	}
	check("literal key", stdout+stderr, "sk-literal-abc123")
}

// Paths are relative to the working directory, validators and datasets
// relative to the program: run from the repository root, as the README
// shows.
func TestLeiaExamplesFromRepositoryRoot(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	code, stdout, stderr := runLeiaCLI(t, "run", "--llm-replay", "examples/leia/research_desk.records.json", "examples/leia/research_desk.leia")
	if code != 0 || !strings.HasPrefix(stdout, "answer:\tDecision: no.") {
		t.Errorf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runLeiaCLI(t, "evaluate", "--replay", "examples/leia/eval_suite.records.json", "examples/leia/eval_suite.leia")
	if code != 0 || !strings.Contains(stdout, "subcases: 2 passed, 1 failed, 0 skipped") || !strings.Contains(stdout, "judge_pass 2/3") {
		t.Errorf("evaluate: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// The evaluate output the README shows is what the command prints.
func TestReadmeShowsLeiaEvaluate(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "$ SOURCE_DATE_EPOCH=1 harn-check evaluate --replay examples/leia/eval_suite.records.json examples/leia/eval_suite.leia\n"
	i := bytes.Index(readme, []byte(cmd))
	if i < 0 {
		t.Fatal("README lost the evaluate example")
	}
	block := string(readme[i+len(cmd):])
	block = block[:strings.Index(block, "```")]
	t.Chdir(filepath.Join("..", ".."))
	code, stdout, stderr := runLeiaCLI(t, "evaluate", "--replay", "examples/leia/eval_suite.records.json", "examples/leia/eval_suite.leia")
	if code != 0 || stdout != block {
		t.Errorf("exit %d (stderr %s); output:\n%s\nREADME shows:\n%s", code, stderr, stdout, block)
	}
}

func TestLeiaLLMFlagErrors(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.leia")
	os.WriteFile(prog, []byte("evaluate \"a\" { assert(true) }\nevaluate \"b\" { assert(1 == 1) }\n"), 0o644)
	fx := examplePath("support_agent", ".records.json")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", "--llm-mock", "--llm-replay", fx, prog}, 2, "exclude each other"},
		{[]string{"run", "--llm-replay", filepath.Join(dir, "none.records.json"), prog}, 2, "--llm-replay"},
		{[]string{"evaluate", "--format", "xml", prog}, 2, "want text, json or html"},
		{[]string{"evaluate", "--mock", "--replay", fx, prog}, 2, "exclude each other"},
		{[]string{"evaluate", "--replay", filepath.Join(dir, "none.json"), prog}, 2, "--replay"},
		{[]string{"evaluate", filepath.Join(dir, "missing")}, 2, "no such file"},
		{[]string{"evaluate", "--baseline", filepath.Join(dir, "none.json"), prog}, 2, "--baseline"},
		{[]string{"evaluate", "--gate", prog}, 0, "status: ok"},
	} {
		code, stdout, stderr := runLeiaCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("%v: exit %d, want %d with %q\n%s%s", tc.args, code, tc.code, tc.want, stdout, stderr)
		}
	}
	// A baseline in which b passed, against a run in which b fails: the
	// gate fails on the regression.
	report := filepath.Join(dir, "base.json")
	if code, _, stderr := runLeiaCLI(t, "evaluate", "--report", report, prog); code != 0 {
		t.Fatalf("baseline run: %s", stderr)
	}
	os.WriteFile(prog, []byte("evaluate \"a\" { assert(true) }\nevaluate \"b\" { assert(1 == 2) }\n"), 0o644)
	code, stdout, _ := runLeiaCLI(t, "evaluate", "--gate", "--baseline", report, prog)
	if code != 1 || !strings.Contains(stdout, "1 regressions") || !strings.Contains(stdout, "regression "+prog+":2:1 (b): passed -> failed") {
		t.Errorf("regression gate: exit %d\n%s", code, stdout)
	}
}
