package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/catalog"

	"github.com/harnlang/harn-check/runtime/redact"
)

func turnProvider(t *testing.T, api, base string) Provider {
	t.Helper()
	p, err := New(route(api, base), Options{Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// conversation is a request in the middle of a tool-using agent: a tool
// call, its result (a table value), a failed call and its error.
func conversation() TurnRequest {
	return TurnRequest{
		Model: "wire-m",
		Messages: []TurnMessage{
			{Role: RoleSystem, Text: "Use tools."},
			{Role: RoleUser, Text: "Where is checkout?"},
			{Role: RoleAssistant, ToolCall: &ToolCall{ID: "c1", Tool: "lookup", Args: map[string]any{"service": "checkout", "n": int64(2)}}},
			{Role: RoleTool, ToolUseID: "c1", Value: map[string]any{"region": "eu", "zones": []any{int64(1), int64(2)}}},
			{Role: RoleAssistant, ToolCall: &ToolCall{ID: "c2", Tool: "lookup", Args: map[string]any{"service": "x"}}},
			{Role: RoleTool, ToolUseID: "c2", Error: "missing service"},
		},
		Tools:     []TurnTool{{Name: "lookup", Description: "Find a service.", Params: []string{"service"}, Requires: []string{"docs.read"}}},
		ForceTool: "lookup",
		MaxTokens: 64,
	}
}

func TestOpenAITurnWire(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if body["stream"] == true {
			w.Header().Set("Content-Type", "text/event-stream")
			for _, chunk := range []string{
				`{"choices":[{"delta":{"role":"assistant","content":"Look"}}]}`,
				`{"choices":[{"delta":{"content":"ing","tool_calls":[{"index":0,"id":"call_a","function":{"name":"lookup","arguments":"{\"serv"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ice\":\"eu\"}"}},{"index":1,"id":"call_b","function":{"name":"lookup","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
				`{"choices":[],"usage":{"prompt_tokens":30,"completion_tokens":8}}`,
				`[DONE]`,
			} {
				fmt.Fprintf(w, "data: %s\n\n", chunk)
			}
			return
		}
		fmt.Fprint(w, `{"choices":[{"message":{"content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{\"service\":\"eu\",\"n\":3}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":12,"completion_tokens":3}}`)
	})
	p := turnProvider(t, catalog.APIOpenAIChat, f.srv.URL)
	res, err := p.Turn(context.Background(), conversation(), nil)
	if err != nil || res.Status != StatusToolCalls || len(res.Calls) != 1 || res.Calls[0].ID != "call_1" ||
		res.Calls[0].Args["service"] != "eu" || res.Calls[0].Args["n"] != int64(3) || res.Usage.InputTokens != 12 {
		t.Fatalf("turn: %v %+v", err, res)
	}
	c := f.last.Load()
	msgs := c.body["messages"].([]any)
	if len(msgs) != 6 {
		t.Fatalf("messages %v", msgs)
	}
	call := msgs[2].(map[string]any)
	tc := call["tool_calls"].([]any)[0].(map[string]any)
	if call["role"] != "assistant" || tc["id"] != "c1" || tc["function"].(map[string]any)["arguments"] != `{"n":2,"service":"checkout"}` {
		t.Errorf("assistant call %v", call)
	}
	if res := msgs[3].(map[string]any); res["role"] != "tool" || res["tool_call_id"] != "c1" || res["content"] != `{"region":"eu","zones":[1,2]}` {
		t.Errorf("tool result %v", res)
	}
	if e := msgs[5].(map[string]any); e["content"] != "error: missing service" {
		t.Errorf("tool error %v", e)
	}
	tool := c.body["tools"].([]any)[0].(map[string]any)["function"].(map[string]any)
	if tool["name"] != "lookup" || tool["description"] != "Find a service." || fmt.Sprint(tool["parameters"]) != "map[properties:map[service:map[type:string]] required:[service] type:object]" {
		t.Errorf("tool %v", tool)
	}
	if ch := c.body["tool_choice"].(map[string]any); ch["function"].(map[string]any)["name"] != "lookup" {
		t.Errorf("tool_choice %v", ch)
	}
	if c.header.Get("Authorization") != "Bearer "+fakeKey {
		t.Errorf("auth header %q", c.header.Get("Authorization"))
	}

	var events []string
	res, err = p.Turn(context.Background(), TurnRequest{Model: "wire-m", Messages: []TurnMessage{{Role: RoleUser, Text: "q"}}}, func(ev StreamEvent) {
		events = append(events, ev.Type+":"+ev.Token)
	})
	if err != nil || res.Text != "Looking" || strings.Join(events, "|") != "token:Look|token:ing" || len(res.Calls) != 2 ||
		res.Calls[0].ID != "call_a" || res.Calls[0].Args["service"] != "eu" || res.Calls[1].Tool != "lookup" || res.Usage.OutputTokens != 8 {
		t.Fatalf("stream: %v %+v %v", err, res, events)
	}
}

func TestAnthropicTurnWire(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if body["stream"] == true {
			w.Header().Set("Content-Type", "text/event-stream")
			for _, ev := range []string{
				`{"type":"message_start","message":{"usage":{"input_tokens":9,"output_tokens":1}}}`,
				`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"On it. "}}`,
				`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"tu_1","name":"lookup","input":{}}}`,
				`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"service\":"}}`,
				`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"eu\"}"}}`,
				`{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":6}}`,
			} {
				fmt.Fprintf(w, "data: %s\n\n", ev)
			}
			return
		}
		fmt.Fprint(w, `{"content":[{"type":"text","text":"Done."}],"stop_reason":"max_tokens","usage":{"input_tokens":20,"output_tokens":5}}`)
	})
	p := turnProvider(t, catalog.APIAnthropicMessages, f.srv.URL)
	res, err := p.Turn(context.Background(), conversation(), nil)
	if err != nil || res.Status != StatusStop || res.Reason != "max_tokens" || res.Text != "Done." {
		t.Fatalf("turn: %v %+v", err, res)
	}
	c := f.last.Load()
	if c.body["system"] != "Use tools." || c.header.Get("x-api-key") != fakeKey {
		t.Errorf("system %v header %v", c.body["system"], c.header)
	}
	msgs := c.body["messages"].([]any)
	// user, assistant(tool_use), user(tool_result), assistant(tool_use), user(tool_result)
	if len(msgs) != 5 {
		t.Fatalf("messages %v", msgs)
	}
	use := msgs[1].(map[string]any)["content"].([]any)[0].(map[string]any)
	if use["type"] != "tool_use" || use["id"] != "c1" || use["name"] != "lookup" {
		t.Errorf("tool_use %v", use)
	}
	errBlock := msgs[4].(map[string]any)["content"].([]any)[0].(map[string]any)
	if errBlock["type"] != "tool_result" || errBlock["is_error"] != true || errBlock["content"] != "missing service" {
		t.Errorf("tool error %v", errBlock)
	}
	if ch := c.body["tool_choice"].(map[string]any); ch["type"] != "tool" || ch["name"] != "lookup" {
		t.Errorf("tool_choice %v", ch)
	}
	var tokens []string
	res, err = p.Turn(context.Background(), TurnRequest{Messages: []TurnMessage{{Role: RoleUser, Text: "q"}}}, func(ev StreamEvent) { tokens = append(tokens, ev.Token) })
	if err != nil || res.Status != StatusToolCalls || res.Text != "On it. " || len(res.Calls) != 1 || res.Calls[0].ID != "tu_1" ||
		res.Calls[0].Args["service"] != "eu" || res.Usage.OutputTokens != 6 || strings.Join(tokens, "") != "On it. " {
		t.Fatalf("stream: %v %+v", err, res)
	}
}

func TestTurnWireFailures(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if body["model"] == "bad-args" {
			fmt.Fprint(w, `{"choices":[{"message":{"tool_calls":[{"id":"x","function":{"name":"t","arguments":"[1,2"}}]}}]}`)
			return
		}
		w.WriteHeader(429)
		fmt.Fprint(w, `{"error":{"type":"rate_limit_error","message":"slow down sk-fake-SECRET-0123456789"}}`)
	})
	p := turnProvider(t, catalog.APIOpenAIChat, f.srv.URL)
	_, err := p.Turn(context.Background(), TurnRequest{Model: "m", Messages: []TurnMessage{{Role: RoleUser, Text: "secret prompt"}}}, nil)
	if !isKind(err, ErrRateLimited, 1) || strings.Contains(err.Error(), fakeKey) || strings.Contains(err.Error(), "secret prompt") {
		t.Errorf("429: %v", err)
	}
	_, err = p.Turn(context.Background(), TurnRequest{Model: "bad-args", Messages: []TurnMessage{{Role: RoleUser, Text: "q"}}}, nil)
	if !isKind(err, ErrMalformed, 1) {
		t.Errorf("bad arguments: %v", err)
	}
}

func TestMockTurn(t *testing.T) {
	m := NewMock(route(catalog.APIMock, ""))
	req := conversation()
	req.Messages = req.Messages[:2]
	res, err := m.Turn(context.Background(), req, nil)
	if err != nil || res.Status != StatusToolCalls || res.Calls[0].ID != "call_lookup_1" || res.Calls[0].Args["service"] != "mock" {
		t.Fatalf("forced tool: %v %+v", err, res)
	}
	req.Messages = append(req.Messages, TurnMessage{Role: RoleAssistant, ToolCall: &res.Calls[0]}, TurnMessage{Role: RoleTool, ToolUseID: "call_lookup_1", Value: "found"})
	var pieces []string
	res, err = m.Turn(context.Background(), req, func(ev StreamEvent) { pieces = append(pieces, ev.Token) })
	if err != nil || res.Status != StatusFinalAnswer || res.Text != DefaultMockText || strings.Join(pieces, "|") != "mock| |reply" || res.Usage.InputTokens == 0 {
		t.Fatalf("after result: %v %+v %v", err, res, pieces)
	}
	res, _ = m.Turn(context.Background(), TurnRequest{ResponseFormat: map[string]any{"type": "json_schema", "json_schema": map[string]any{
		"name": "x", "schema": map[string]any{"type": "object", "required": []any{"ok", "n"}, "properties": map[string]any{"ok": map[string]any{"type": "boolean"}, "n": map[string]any{"type": "integer"}}}}}}, nil)
	if res.Text != `{"n":0,"ok":true}` {
		t.Errorf("schema answer %q", res.Text)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Turn(ctx, req, nil); !isKind(err, ErrCancelled, 0) {
		t.Errorf("cancelled: %v", err)
	}
}

// upstreamFixture is a record array in the spelling of upstream's older
// encoder: every field present, nulls and zeros included, an integral
// number inside a tool value.
const upstreamFixture = `[
  {
    "Request": {
      "Model": "mock-coder",
      "Messages": [
        {"Role": "user", "Text": "fix it", "ToolCall": null, "ToolUseID": "", "Value": null, "Error": ""},
        {"Role": "assistant", "Text": "", "ToolCall": {"ID": "call_read_1", "Tool": "read", "Args": {"path": "a.leia"}}, "ToolUseID": "", "Value": null, "Error": ""},
        {"Role": "tool", "Text": "", "ToolCall": null, "ToolUseID": "call_read_1", "Value": {"lines": 3, "files": ["a.leia"]}, "Error": ""}
      ],
      "Tools": [{"Name": "read", "Description": "Read.", "Params": ["path"], "Requires": [], "Schema": null}],
      "ForceTool": "", "MaxTokens": 240, "Temperature": null, "TopP": null, "ResponseFormat": null,
      "Stream": false, "Stop": null, "Metadata": null
    },
    "Result": {"Status": "final_answer", "Text": "done", "Calls": null, "Reason": "", "Usage": {"InputTokens": 4, "OutputTokens": 3, "Cost": 0.004, "LatencyMS": 0}},
    "Error": ""
  }
]`

func TestRecordsReadUpstreamSpelling(t *testing.T) {
	recs, err := ParseRecords([]byte(upstreamFixture), "f.records.json")
	if err != nil || len(recs) != 1 {
		t.Fatal(err)
	}
	// The same request as the program builds it (an int64 in the value,
	// nil Requires) replays against the record.
	req := TurnRequest{Model: "mock-coder", MaxTokens: 240, Messages: []TurnMessage{
		{Role: "user", Text: "fix it"},
		{Role: "assistant", ToolCall: &ToolCall{ID: "call_read_1", Tool: "read", Args: map[string]any{"path": "a.leia"}}},
		{Role: "tool", ToolUseID: "call_read_1", Value: map[string]any{"lines": 3.0, "files": []any{"a.leia"}}},
	}, Tools: []TurnTool{{Name: "read", Description: "Read.", Params: []string{"path"}}}}
	rp := NewReplay(recs)
	res, err := rp.Turn(context.Background(), req, nil)
	if err != nil || res.Text != "done" || res.Usage.Cost != 0.004 || rp.Finish() != nil {
		t.Fatalf("replay: %v %+v %v", err, res, rp.Finish())
	}
	// Written back, the record omits empty fields; read again, it is the
	// same record, and writing it again gives the same bytes.
	b1, _ := MarshalRecords(recs)
	again, err := ParseRecords(b1, "again")
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := MarshalRecords(again)
	if string(b1) != string(b2) || strings.Contains(string(b1), "null") || !strings.HasSuffix(string(b1), "}\n]\n") {
		t.Errorf("round trip:\n%s\n%s", b1, b2)
	}
}

func TestRecordsParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"Request": {}}`, "line 1, column"},
		{"[\n  {\"Request\": {\"Model\": 3}}\n]", "line 2, column"},
		{`[] []`, "trailing data"},
		{`[{"Request": {"Model": "m", "Messages": []}, "RequestHash": "md5:x"}]`, "not a blake3 hash"},
	} {
		_, err := ParseRecords([]byte(tc.in), "f.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "f.json: ") {
			t.Errorf("ParseRecords(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestRecordAndReplay(t *testing.T) {
	live := ProviderFunc(func(ctx context.Context, req TurnRequest, onStream func(StreamEvent)) (TurnResult, error) {
		if req.Model == "down" {
			return TurnResult{}, &Error{Kind: ErrOverloaded, Status: 529, Attempts: 1, Detail: "the provider is overloaded"}
		}
		if onStream != nil {
			onStream(StreamEvent{Type: "token", Token: "a ", Text: "a "})
			onStream(StreamEvent{Type: "token", Token: "b", Text: "b"})
		}
		return TurnResult{Status: StatusFinalAnswer, Text: "a b", Usage: TurnUsage{InputTokens: 2, OutputTokens: 2}}, nil
	})
	rec := &Recorder{Live: live}
	req := TurnRequest{Model: "m", Messages: []TurnMessage{{Role: RoleUser, Text: "the prompt text"}}, Stream: true}
	if _, err := rec.Turn(context.Background(), req, func(StreamEvent) {}); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Turn(context.Background(), TurnRequest{Model: "down"}, nil); err == nil {
		t.Fatal("want the live failure")
	}
	path := filepath.Join(t.TempDir(), "r.records.json")
	if err := SaveRecords(path, rec.Records()); err != nil {
		t.Fatal(err)
	}
	recs, err := LoadRecords(path)
	if err != nil || len(recs) != 2 || len(recs[0].StreamEvents) != 2 || recs[1].ErrorKind != "overloaded" || recs[0].RequestHash != req.Hash() {
		t.Fatalf("%v %+v", err, recs)
	}

	// Replay: stream events come back, the failure replays typed.
	rp := NewReplay(recs)
	var got []string
	res, err := rp.Turn(context.Background(), req, func(ev StreamEvent) { got = append(got, ev.Token) })
	if err != nil || res.Text != "a b" || strings.Join(got, "|") != "a |b" {
		t.Fatalf("replay: %v %+v %v", err, res, got)
	}
	_, err = rp.Turn(context.Background(), TurnRequest{Model: "down"}, nil)
	var re *ReplayedError
	if !errors.As(err, &re) || re.Kind != "overloaded" || ErrorKindOf(err) != "overloaded" {
		t.Fatalf("replayed failure: %v", err)
	}
	if rp.Finish() != nil || rp.Consumed() != 2 || rp.Remaining() != 0 {
		t.Errorf("finish: %v", rp.Finish())
	}

	// A different prompt is a mismatch that names the field, not the text.
	rp = NewReplay(recs)
	other := req
	other.Messages = []TurnMessage{{Role: RoleUser, Text: "another prompt"}}
	_, err = rp.Turn(context.Background(), other, nil)
	var me *ReplayError
	if !errors.As(err, &me) || me.Turn != 1 || me.Exhausted || !strings.Contains(err.Error(), "Messages[0].Text: recorded 15 bytes (blake3:") ||
		strings.Contains(err.Error(), "prompt") {
		t.Fatalf("mismatch: %v", err)
	}
	// The mismatched record is consumed; the next lines up; Finish keeps
	// the first failure.
	if _, err := rp.Turn(context.Background(), TurnRequest{Model: "down"}, nil); !errors.As(err, &re) {
		t.Errorf("after mismatch: %v", err)
	}
	if err := rp.Finish(); !errors.As(err, &me) || me.Turn != 1 {
		t.Errorf("finish after mismatch: %v", err)
	}

	// One more request than recorded is exhausted; fewer is unconsumed.
	rp = NewReplay(recs[:1])
	rp.Turn(context.Background(), req, nil)
	if _, err := rp.Turn(context.Background(), req, nil); !errors.As(err, &me) || !me.Exhausted || !strings.Contains(err.Error(), "exhausted at turn 2") {
		t.Errorf("exhausted: %v", err)
	}
	rp = NewReplay(recs)
	rp.Turn(context.Background(), req, nil)
	var ue *UnconsumedError
	if err := rp.Finish(); !errors.As(err, &ue) || ue.Left != 1 || !strings.Contains(err.Error(), "left 1 unconsumed turn(s); the next is turn 2") {
		t.Errorf("unconsumed: %v", err)
	}
}

func TestDiffRequestsNamesFieldsWithoutContent(t *testing.T) {
	base := conversation()
	for _, tc := range []struct {
		edit func(*TurnRequest)
		want string
	}{
		{func(r *TurnRequest) { r.Model = "other" }, `Model: recorded "wire-m", actual "other"`},
		{func(r *TurnRequest) { r.Messages = r.Messages[:5] }, "len(Messages): recorded 6, actual 5"},
		{func(r *TurnRequest) { r.Messages[3].Value = map[string]any{"region": "us"} }, "Messages[3].Value: recorded a "},
		{func(r *TurnRequest) { r.Messages[2].ToolCall = &ToolCall{ID: "c9", Tool: "lookup"} }, `Messages[2].ToolCall.ID: recorded "c1", actual "c9"`},
		{func(r *TurnRequest) { r.Tools = nil }, "len(Tools): recorded 1, actual 0"},
		{func(r *TurnRequest) { r.MaxTokens = 5 }, "MaxTokens: recorded 64, actual 5"},
		{func(r *TurnRequest) { r.Stream = true }, "Stream: recorded false, actual true"},
		{func(r *TurnRequest) { x := 0.5; r.Temperature = &x }, "Temperature: recorded unset, actual 0.5"},
	} {
		got := conversation()
		tc.edit(&got)
		d := DiffRequests(base, got)
		if !strings.Contains(d, tc.want) || strings.Contains(d, "checkout") || strings.Contains(d, "Where is") {
			t.Errorf("diff = %q, want %q", d, tc.want)
		}
		if base.Hash() == got.Hash() {
			t.Errorf("%q: hashes equal", tc.want)
		}
	}
	// Numbers compare by value: 2 and 2.0 are the same request.
	a, b := conversation(), conversation()
	b.Messages[2].ToolCall.Args["n"] = 2.0
	if a.Hash() != b.Hash() {
		t.Error("2 and 2.0 hash differently")
	}
}

func TestLoadRecordsMissingFile(t *testing.T) {
	_, err := LoadRecords(filepath.Join(t.TempDir(), "none.records.json"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// FuzzParseRecords: any bytes parse to records or an error naming the
// file, never a panic; parsed records write and read back to the same
// bytes.
func FuzzParseRecords(f *testing.F) {
	f.Add([]byte(upstreamFixture))
	f.Add([]byte(`[{"Request": {"Model": "m", "Messages": [{"Role": "tool", "Value": [1, 2.5, {"a": null}]}]}}]`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ParseRecords(data, "f.records.json")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.records.json") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		b1, err := MarshalRecords(recs)
		if err != nil {
			return // a value JSON cannot hold (NaN) is refused, not corrupted
		}
		again, err := ParseRecords(b1, "again")
		if err != nil {
			t.Fatalf("written records do not read back: %v\n%s", err, b1)
		}
		b2, _ := MarshalRecords(again)
		if string(b1) != string(b2) {
			t.Fatalf("round trip changed the bytes:\n%s\n%s", b1, b2)
		}
		for _, r := range again {
			_ = r.Request.Hash()
			_ = DiffRequests(r.Request, TurnRequest{})
		}
	})
}

// A fixture is input: a replayed failure whose prose holds a key-shaped
// token or the credential in use does not pass it through (issue #25).
func TestReplayedErrorProseRedacted(t *testing.T) {
	const key = "sk-abcdefghijklmnopqrstuvwx0123"
	req := TurnRequest{Model: "m", Messages: []TurnMessage{{Role: RoleUser, Text: "hi"}}}
	rp := NewReplay([]TurnRecord{{Request: req, RequestHash: req.Hash(), Error: "rejected key " + key + " for Bearer abcdefghij01", ErrorKind: "auth"}})
	_, err := rp.Turn(context.Background(), req, nil)
	if err == nil || strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "abcdefghij") || !strings.Contains(err.Error(), "[redacted]") {
		t.Fatalf("replayed prose: %v", err)
	}
}

// A fixture written by --llm-record keeps no credential the run used, even
// when the provider echoed it into the answer (issue #25).
func TestSavedRecordsRedacted(t *testing.T) {
	const key = "records-credential-2f9a-value"
	redact.Credential(key)
	req := TurnRequest{Model: "m", Messages: []TurnMessage{{Role: RoleUser, Text: "hi"}}}
	path := filepath.Join(t.TempDir(), "r.records.json")
	if err := SaveRecords(path, []TurnRecord{{Request: req, RequestHash: req.Hash(), Result: TurnResult{Text: "echo " + key}}}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || strings.Contains(string(data), key) || !strings.Contains(string(data), "[redacted]") {
		t.Fatalf("fixture: %v\n%s", err, data)
	}
	if _, err := LoadRecords(path); err != nil {
		t.Errorf("the redacted fixture does not load: %v", err)
	}
}
