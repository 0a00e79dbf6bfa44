package llm

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
)

// openAITurnBody builds a chat-completions body for a turn with tools.
// Consecutive assistant tool-call messages become one assistant message
// with several tool_calls; a tool result becomes a "tool" message whose
// content is the value (strings as they are, other values as JSON) or
// "error: " and the tool's error.
func openAITurnBody(req TurnRequest, model string, stream bool) ([]byte, error) {
	body := map[string]any{"model": model}
	msgs := []any{}
	for i := 0; i < len(req.Messages); i++ {
		m := req.Messages[i]
		switch {
		case m.Role == RoleAssistant && m.ToolCall != nil:
			var calls []any
			text := m.Text
			for ; i < len(req.Messages) && req.Messages[i].Role == RoleAssistant && req.Messages[i].ToolCall != nil; i++ {
				c := req.Messages[i].ToolCall
				calls = append(calls, map[string]any{"id": c.ID, "type": "function",
					"function": map[string]any{"name": c.Tool, "arguments": ToolArgsJSON(c.Args)}})
				if req.Messages[i].Text != "" && text == "" {
					text = req.Messages[i].Text
				}
			}
			i--
			am := map[string]any{"role": "assistant", "tool_calls": calls}
			if text != "" {
				am["content"] = text
			} else {
				am["content"] = nil
			}
			msgs = append(msgs, am)
		case m.Role == RoleTool:
			content := ValueText(m.Value)
			if m.Error != "" {
				content = "error: " + m.Error
			}
			msgs = append(msgs, map[string]any{"role": "tool", "tool_call_id": m.ToolUseID, "content": content})
		default:
			msgs = append(msgs, map[string]any{"role": m.Role, "content": m.Text})
		}
	}
	body["messages"] = msgs
	if len(req.Tools) > 0 {
		var tools []any
		for _, t := range req.Tools {
			fn := map[string]any{"name": t.Name, "parameters": ToolInputSchema(t)}
			if t.Description != "" {
				fn["description"] = t.Description
			}
			tools = append(tools, map[string]any{"type": "function", "function": fn})
		}
		body["tools"] = tools
	}
	if req.ForceTool != "" {
		body["tool_choice"] = map[string]any{"type": "function", "function": map[string]any{"name": req.ForceTool}}
	}
	if req.MaxTokens > 0 {
		body["max_tokens"] = req.MaxTokens
	}
	if req.Temperature != nil {
		body["temperature"] = *req.Temperature
	}
	if req.TopP != nil {
		body["top_p"] = *req.TopP
	}
	if len(req.Stop) > 0 {
		body["stop"] = req.Stop
	}
	if req.ResponseFormat != nil {
		body["response_format"] = NormalizeValue(req.ResponseFormat)
	}
	if stream {
		body["stream"] = true
		body["stream_options"] = map[string]any{"include_usage": true}
	}
	return json.Marshal(body)
}

type openAITurnCall struct {
	Index    int    `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type openAITurnChoice struct {
	Message struct {
		Content   *string          `json:"content"`
		Refusal   *string          `json:"refusal"`
		ToolCalls []openAITurnCall `json:"tool_calls"`
	} `json:"message"`
	Delta struct {
		Content   string           `json:"content"`
		Refusal   string           `json:"refusal"`
		ToolCalls []openAITurnCall `json:"tool_calls"`
	} `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

type openAITurnResponse struct {
	Choices []openAITurnChoice `json:"choices"`
	Usage   *openAIUsage       `json:"usage"`
	Error   *struct {
		Code any    `json:"code"`
		Type string `json:"type"`
	} `json:"error"`
}

// Turn implements TurnProvider on the OpenAI-compatible wire.
func (p *OpenAIChat) Turn(ctx context.Context, req TurnRequest, onStream func(StreamEvent)) (TurnResult, error) {
	model := req.Model
	if p.route.Runtime.WireModel != "" && model == "" {
		model = p.route.Runtime.WireModel
	}
	body, err := openAITurnBody(req, model, onStream != nil)
	if err != nil {
		return TurnResult{}, &Error{Kind: ErrUnsupported, Detail: "the request cannot be encoded as JSON"}
	}
	post := Post{URL: "/chat/completions", Auth: AuthBearer, Body: body}
	var text, refusal strings.Builder
	calls := map[int]*openAITurnCall{}
	var finish string
	var usage Usage
	if onStream == nil {
		reply, err := p.http.Do(ctx, post)
		if err != nil {
			return TurnResult{}, err
		}
		var r openAITurnResponse
		if json.Unmarshal(reply.Body, &r) != nil || len(r.Choices) == 0 {
			return TurnResult{}, &Error{Kind: ErrMalformed, Status: reply.Status, Attempts: 1, Detail: "the chat completion has no choices"}
		}
		c := r.Choices[0]
		if c.Message.Content != nil {
			text.WriteString(*c.Message.Content)
		}
		if c.Message.Refusal != nil {
			refusal.WriteString(*c.Message.Refusal)
		}
		for i := range c.Message.ToolCalls {
			tc := c.Message.ToolCalls[i]
			calls[i] = &tc
		}
		if c.FinishReason != nil {
			finish = *c.FinishReason
		}
		usage = r.Usage.usage()
	} else {
		_, err := p.http.Stream(ctx, post, func(_, data string) error {
			if data == "[DONE]" {
				return nil
			}
			var r openAITurnResponse
			if json.Unmarshal([]byte(data), &r) != nil {
				return &Error{Kind: ErrMalformed, Status: 200, Attempts: 1, Detail: "a stream chunk is not JSON"}
			}
			if r.Error != nil {
				code, _ := r.Error.Code.(string)
				if code == "" {
					code = r.Error.Type
				}
				return streamError(code)
			}
			if r.Usage != nil {
				usage = r.Usage.usage()
			}
			for _, c := range r.Choices {
				if c.Delta.Content != "" {
					text.WriteString(c.Delta.Content)
					onStream(StreamEvent{Type: "token", Token: c.Delta.Content, Text: c.Delta.Content})
				}
				refusal.WriteString(c.Delta.Refusal)
				for _, d := range c.Delta.ToolCalls {
					tc := calls[d.Index]
					if tc == nil {
						if len(calls) >= maxToolCalls {
							return &Error{Kind: ErrMalformed, Status: 200, Attempts: 1, Detail: "too many tool calls in one turn"}
						}
						tc = &openAITurnCall{Index: d.Index}
						calls[d.Index] = tc
					}
					if d.ID != "" {
						tc.ID = d.ID
					}
					if d.Function.Name != "" {
						tc.Function.Name = d.Function.Name
					}
					tc.Function.Arguments += d.Function.Arguments
					if len(tc.Function.Arguments) > MaxSSELine {
						return &Error{Kind: ErrMalformed, Status: 200, Attempts: 1, Detail: "tool call arguments exceed the size bound"}
					}
				}
				if c.FinishReason != nil {
					finish = *c.FinishReason
				}
			}
			return nil
		})
		if err != nil {
			return TurnResult{}, err
		}
	}
	out := TurnResult{Text: text.String(), Usage: p.turnUsage(usage)}
	idx := make([]int, 0, len(calls))
	for i := range calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		tc := calls[i]
		args, err := parseToolArgs(tc.Function.Arguments)
		if err != nil {
			return TurnResult{}, &Error{Kind: ErrMalformed, Status: 200, Attempts: 1, Detail: "tool call arguments for " + safeCode(tc.Function.Name) + " are not a JSON object"}
		}
		out.Calls = append(out.Calls, ToolCall{ID: tc.ID, Tool: tc.Function.Name, Args: args})
	}
	out.Status, out.Reason = turnStatus(len(out.Calls) > 0, openAIStop(finish), refusal.Len() > 0)
	return out, nil
}

// maxToolCalls bounds the tool calls one turn may carry.
const maxToolCalls = 128

// parseToolArgs reads a tool call's JSON arguments ("" is no arguments).
func parseToolArgs(s string) (map[string]any, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var args map[string]any
	if err := dec.Decode(&args); err != nil {
		return nil, err
	}
	if args == nil {
		args = map[string]any{}
	}
	return NormalizeValue(args).(map[string]any), nil
}

// turnStatus maps a normalized stop reason to a turn status and reason:
// tool calls win; a truncated, filtered or refused answer stops with that
// reason; anything else is a final answer.
func turnStatus(hasCalls bool, stop string, refused bool) (status, reason string) {
	switch {
	case hasCalls:
		return StatusToolCalls, ""
	case refused || stop == StopRefusal:
		return StatusStop, StopRefusal
	case stop == StopLength:
		return StatusStop, "max_tokens"
	case stop == StopContentFilter:
		return StatusStop, StopContentFilter
	}
	return StatusFinalAnswer, ""
}

// turnUsage converts the wire usage and prices it with the route's prices
// (USD per million tokens) when the catalog has them.
func (p *OpenAIChat) turnUsage(u Usage) TurnUsage {
	return routeUsage(p.route.Runtime.InputPricePerMTok, p.route.Runtime.OutputPricePerMTok, u)
}

func routeUsage(inPrice, outPrice *float64, u Usage) TurnUsage {
	var out TurnUsage
	if u.InputTokens != nil {
		out.InputTokens = *u.InputTokens
	}
	if u.OutputTokens != nil {
		out.OutputTokens = *u.OutputTokens
	}
	if inPrice != nil && outPrice != nil {
		out.Cost = float64(out.InputTokens)**inPrice/1e6 + float64(out.OutputTokens)**outPrice/1e6
	}
	return out
}
