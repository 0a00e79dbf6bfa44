package llm

import (
	"context"
	"encoding/json"
	"strings"
)

// anthropicTurnBody builds a messages body for a turn with tools. System
// messages (wherever they stand) join the top-level system prompt;
// assistant tool calls become tool_use blocks and tool results
// tool_result blocks in a user message; consecutive messages of one role
// merge into one message, since the wire wants roles to alternate.
func anthropicTurnBody(req TurnRequest, model string, stream bool) ([]byte, error) {
	body := map[string]any{"model": model}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultAnthropicMaxTokens
	}
	body["max_tokens"] = maxTokens
	var system []string
	type msg struct {
		role   string
		blocks []any
	}
	var msgs []msg
	add := func(role string, block any) {
		if n := len(msgs); n > 0 && msgs[n-1].role == role {
			msgs[n-1].blocks = append(msgs[n-1].blocks, block)
			return
		}
		msgs = append(msgs, msg{role: role, blocks: []any{block}})
	}
	for _, m := range req.Messages {
		switch {
		case m.Role == RoleSystem:
			system = append(system, m.Text)
		case m.Role == RoleAssistant && m.ToolCall != nil:
			if m.Text != "" {
				add("assistant", map[string]any{"type": "text", "text": m.Text})
			}
			args := map[string]any{}
			if m.ToolCall.Args != nil {
				args = NormalizeValue(m.ToolCall.Args).(map[string]any)
			}
			add("assistant", map[string]any{"type": "tool_use", "id": m.ToolCall.ID, "name": m.ToolCall.Tool, "input": args})
		case m.Role == RoleTool:
			block := map[string]any{"type": "tool_result", "tool_use_id": m.ToolUseID, "content": ValueText(m.Value)}
			if m.Error != "" {
				block["content"] = m.Error
				block["is_error"] = true
			}
			add("user", block)
		case m.Role == RoleAssistant:
			add("assistant", map[string]any{"type": "text", "text": m.Text})
		default:
			add("user", map[string]any{"type": "text", "text": m.Text})
		}
	}
	if s := joinNonEmpty(system, "\n\n"); s != "" {
		body["system"] = s
	}
	wire := []any{}
	for _, m := range msgs {
		wire = append(wire, map[string]any{"role": m.role, "content": m.blocks})
	}
	body["messages"] = wire
	if len(req.Tools) > 0 {
		var tools []any
		for _, t := range req.Tools {
			tool := map[string]any{"name": t.Name, "input_schema": ToolInputSchema(t)}
			if t.Description != "" {
				tool["description"] = t.Description
			}
			tools = append(tools, tool)
		}
		body["tools"] = tools
	}
	if req.ForceTool != "" {
		body["tool_choice"] = map[string]any{"type": "tool", "name": req.ForceTool}
	}
	if req.Temperature != nil {
		body["temperature"] = *req.Temperature
	}
	if req.TopP != nil {
		body["top_p"] = *req.TopP
	}
	if len(req.Stop) > 0 {
		body["stop_sequences"] = req.Stop
	}
	if stream {
		body["stream"] = true
	}
	return json.Marshal(body)
}

type anthropicTurnBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Text  string          `json:"text"`
	Input json.RawMessage `json:"input"`
}

// Turn implements TurnProvider on the Anthropic-compatible wire.
func (p *AnthropicMessages) Turn(ctx context.Context, req TurnRequest, onStream func(StreamEvent)) (TurnResult, error) {
	model := req.Model
	if model == "" {
		model = p.route.Runtime.WireModel
	}
	body, err := anthropicTurnBody(req, model, onStream != nil)
	if err != nil {
		return TurnResult{}, &Error{Kind: ErrUnsupported, Detail: "the request cannot be encoded as JSON"}
	}
	post := Post{URL: "/messages", Auth: AuthAPIKeyHdr, Headers: map[string]string{"anthropic-version": AnthropicVersion}, Body: body}
	var text strings.Builder
	var usage Usage
	var stop string
	type block struct {
		kind, id, name string
		input          strings.Builder
	}
	var blocks []*block
	if onStream == nil {
		reply, err := p.http.Do(ctx, post)
		if err != nil {
			return TurnResult{}, err
		}
		var m struct {
			Content    []anthropicTurnBlock `json:"content"`
			StopReason string               `json:"stop_reason"`
			Usage      *anthropicUsage      `json:"usage"`
		}
		if json.Unmarshal(reply.Body, &m) != nil || m.Content == nil {
			return TurnResult{}, &Error{Kind: ErrMalformed, Status: reply.Status, Attempts: 1, Detail: "the message has no content"}
		}
		for _, b := range m.Content {
			switch b.Type {
			case "text":
				text.WriteString(b.Text)
			case "tool_use":
				nb := &block{kind: b.Type, id: b.ID, name: b.Name}
				nb.input.Write(b.Input)
				blocks = append(blocks, nb)
			}
		}
		stop = m.StopReason
		mergeAnthropicUsage(&usage, m.Usage)
	} else {
		byIndex := map[int]*block{}
		_, err := p.http.Stream(ctx, post, func(event, data string) error {
			var ev struct {
				Type  string `json:"type"`
				Index int    `json:"index"`
				Msg   *struct {
					Usage *anthropicUsage `json:"usage"`
				} `json:"message"`
				ContentBlock *anthropicTurnBlock `json:"content_block"`
				Delta        *struct {
					Type        string `json:"type"`
					Text        string `json:"text"`
					PartialJSON string `json:"partial_json"`
					StopReason  string `json:"stop_reason"`
				} `json:"delta"`
				Usage *anthropicUsage `json:"usage"`
				Error *struct {
					Type string `json:"type"`
				} `json:"error"`
			}
			if json.Unmarshal([]byte(data), &ev) != nil {
				return &Error{Kind: ErrMalformed, Status: 200, Attempts: 1, Detail: "a stream event is not JSON"}
			}
			switch ev.Type {
			case "message_start":
				if ev.Msg != nil {
					mergeAnthropicUsage(&usage, ev.Msg.Usage)
				}
			case "content_block_start":
				if ev.ContentBlock == nil {
					return nil
				}
				if len(byIndex) >= maxToolCalls {
					return &Error{Kind: ErrMalformed, Status: 200, Attempts: 1, Detail: "too many content blocks in one turn"}
				}
				b := &block{kind: ev.ContentBlock.Type, id: ev.ContentBlock.ID, name: ev.ContentBlock.Name}
				byIndex[ev.Index] = b
				blocks = append(blocks, b)
				if b.kind == "text" && ev.ContentBlock.Text != "" {
					text.WriteString(ev.ContentBlock.Text)
					onStream(StreamEvent{Type: "token", Token: ev.ContentBlock.Text, Text: ev.ContentBlock.Text})
				}
			case "content_block_delta":
				b := byIndex[ev.Index]
				if b == nil || ev.Delta == nil {
					return &Error{Kind: ErrMalformed, Status: 200, Attempts: 1, Detail: "a delta for a block that was not started"}
				}
				switch ev.Delta.Type {
				case "text_delta":
					text.WriteString(ev.Delta.Text)
					onStream(StreamEvent{Type: "token", Token: ev.Delta.Text, Text: ev.Delta.Text})
				case "input_json_delta":
					b.input.WriteString(ev.Delta.PartialJSON)
					if b.input.Len() > MaxSSELine {
						return &Error{Kind: ErrMalformed, Status: 200, Attempts: 1, Detail: "tool input exceeds the size bound"}
					}
				}
			case "message_delta":
				if ev.Delta != nil && ev.Delta.StopReason != "" {
					stop = ev.Delta.StopReason
				}
				mergeAnthropicUsage(&usage, ev.Usage)
			case "error":
				code := ""
				if ev.Error != nil {
					code = ev.Error.Type
				}
				return streamError(code)
			}
			return nil
		})
		if err != nil {
			return TurnResult{}, err
		}
	}
	out := TurnResult{Text: text.String(), Usage: routeUsage(p.route.Runtime.InputPricePerMTok, p.route.Runtime.OutputPricePerMTok, usage)}
	for _, b := range blocks {
		if b.kind != "tool_use" {
			continue
		}
		args, err := parseToolArgs(b.input.String())
		if err != nil {
			return TurnResult{}, &Error{Kind: ErrMalformed, Status: 200, Attempts: 1, Detail: "tool input for " + safeCode(b.name) + " is not a JSON object"}
		}
		out.Calls = append(out.Calls, ToolCall{ID: b.id, Tool: b.name, Args: args})
	}
	out.Status, out.Reason = turnStatus(len(out.Calls) > 0, anthropicStop(stop), false)
	return out, nil
}
