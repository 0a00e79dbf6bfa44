package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/catalog"
)

// NewTurn returns the turn provider of a chat route: the mock, or the
// OpenAI-compatible or Anthropic-compatible wire with tool calling.
func NewTurn(route catalog.Route, opts Options) (TurnProvider, error) {
	p, err := New(route, opts)
	if err != nil {
		return nil, err
	}
	return p.(TurnProvider), nil
}

// Turn implements TurnProvider for the mock: deterministic and offline.
//
//   - A request with ForceTool calls that tool once (arguments generated
//     from its schema, or "mock" for each parameter), unless the last
//     message already is that call's result.
//   - A request that offers tools but has no tool result after its last
//     user message calls the first tool the same way (so an agent loop
//     runs one tool round, then answers).
//   - A request whose ResponseFormat carries a JSON Schema
//     ({type: "json_schema", json_schema: {schema}} or {schema}) gets a
//     JSON answer generated from it (as Chat does for an Output);
//     {type: "json_object"} gets "{}".
//   - Otherwise the answer is the route's mock text ("mock reply").
//
// Streaming splits the answer after each space. Usage is estimated as
// ceil(bytes/4) of the messages and of the answer.
func (m *Mock) Turn(ctx context.Context, req TurnRequest, onStream func(StreamEvent)) (TurnResult, error) {
	if err := ctx.Err(); err != nil {
		return TurnResult{}, (&Transport{}).failure(ctx, err, 0)
	}
	m.requests.Add(1)
	cfg := m.config()
	var out TurnResult
	force := req.ForceTool
	if force != "" && lastIsResultOf(req.Messages, force) {
		force = ""
	} else if force == "" && len(req.Tools) > 0 && !toolResultSinceUser(req.Messages) {
		force = req.Tools[0].Name
	}
	if force != "" {
		var tool *TurnTool
		for i := range req.Tools {
			if req.Tools[i].Name == force {
				tool = &req.Tools[i]
			}
		}
		args := map[string]any{}
		if tool != nil {
			if filled, ok := fillSchema(ToolInputSchema(*tool), "", nil, cfg.Answers, 0).(map[string]any); ok {
				args = filled
			}
		}
		n := 1
		for _, msg := range req.Messages {
			if msg.ToolCall != nil && msg.ToolCall.Tool == force {
				n++
			}
		}
		out.Status = StatusToolCalls
		out.Calls = []ToolCall{{ID: fmt.Sprintf("call_%s_%d", force, n), Tool: force, Args: NormalizeValue(args).(map[string]any)}}
	} else {
		out.Status = StatusFinalAnswer
		out.Text = cfg.Text
		if out.Text == "" {
			out.Text = DefaultMockText
		}
		if rf, ok := NormalizeValue(req.ResponseFormat).(map[string]any); ok {
			if schema := responseSchema(rf); schema != nil {
				b, _ := json.Marshal(fillSchema(schema, "", nil, cfg.Answers, 0))
				out.Text = string(b)
			} else if rf["type"] == "json_object" {
				out.Text = "{}"
			}
		}
	}
	if onStream != nil && out.Text != "" {
		for _, piece := range strings.SplitAfter(out.Text, " ") {
			if piece != "" {
				onStream(StreamEvent{Type: "token", Token: piece, Text: piece})
			}
		}
	}
	var in int
	for _, msg := range req.Messages {
		in += estimateBytes(msg.Text) + estimateBytes(ValueText(msg.Value)) + estimateBytes(msg.Error)
	}
	outTokens := estimateBytes(out.Text)
	for _, c := range out.Calls {
		outTokens += estimateBytes(ToolArgsJSON(c.Args))
	}
	out.Usage = TurnUsage{InputTokens: int64(in), OutputTokens: int64(outTokens)}
	return out, nil
}

func lastIsResultOf(msgs []TurnMessage, tool string) bool {
	if len(msgs) < 2 {
		return false
	}
	last, call := msgs[len(msgs)-1], msgs[len(msgs)-2]
	return last.Role == RoleTool && call.ToolCall != nil && call.ToolCall.Tool == tool && call.ToolCall.ID == last.ToolUseID
}

// toolResultSinceUser reports a tool message after the last user message.
func toolResultSinceUser(msgs []TurnMessage) bool {
	for i := len(msgs) - 1; i >= 0; i-- {
		switch msgs[i].Role {
		case RoleTool:
			return true
		case RoleUser:
			return false
		}
	}
	return false
}

// responseSchema finds the JSON Schema inside a response_format table:
// OpenAI's {type: json_schema, json_schema: {schema}} or a bare {schema}.
func responseSchema(rf map[string]any) any {
	if js, ok := rf["json_schema"].(map[string]any); ok {
		if s, ok := js["schema"].(map[string]any); ok {
			return s
		}
	}
	if s, ok := rf["schema"].(map[string]any); ok {
		return s
	}
	return nil
}
