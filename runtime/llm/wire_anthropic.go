package llm

import (
	"context"
	"encoding/json"

	"github.com/harnlang/harn-check/catalog"
)

// AnthropicMessages speaks the Anthropic-compatible messages wire
// (POST {base_url}/messages, x-api-key, anthropic-version 2023-06-01).
type AnthropicMessages struct {
	route catalog.Route
	http  *Transport
}

// AnthropicVersion is the anthropic-version header sent.
const AnthropicVersion = "2023-06-01"

// DefaultAnthropicMaxTokens is sent when a request sets no MaxTokens
// (the wire requires one).
const DefaultAnthropicMaxTokens = 4096

// anthropicBody is the one request encoder of the wire. System messages
// (wherever they stand) join the top-level system prompt; assistant tool
// calls become tool_use blocks and tool results tool_result blocks in a
// user message; consecutive messages of one role merge into one message,
// since the wire wants roles to alternate; an Output becomes a forced
// tool or the structured-outputs output_format by its strategy.
func anthropicBody(req TurnRequest, stream bool) ([]byte, map[string]string, error) {
	if req.Effort != "" && req.Effort != "none" {
		return nil, nil, &Error{Kind: ErrUnsupported, Detail: "the anthropic_messages wire takes no effort option"}
	}
	if req.Completion != nil {
		return nil, nil, &Error{Kind: ErrUnsupported, Detail: "the anthropic_messages wire carries no completion (fill-in-the-middle) request"}
	}
	headers := map[string]string{"anthropic-version": AnthropicVersion}
	body := map[string]any{"model": req.Model}
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
	var tools []any
	for _, t := range req.Tools {
		tool := map[string]any{"name": t.Name, "input_schema": ToolInputSchema(t)}
		if t.Description != "" {
			tool["description"] = t.Description
		}
		tools = append(tools, tool)
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
	if o := req.Output; o != nil {
		switch o.Strategy {
		case StrategyToolSchema:
			tools = append(tools, map[string]any{"name": outputName(o), "description": "Record the answer.", "input_schema": o.Schema})
			body["tool_choice"] = map[string]any{"type": "tool", "name": outputName(o)}
		case StrategyNativeSchema:
			body["output_format"] = map[string]any{"type": "json_schema", "schema": o.Schema}
			headers["anthropic-beta"] = "structured-outputs-2025-11-13"
		case StrategyPromptValidation, "":
		default:
			return nil, nil, &Error{Kind: ErrUnsupported, Detail: "the anthropic_messages wire has no " + o.Strategy + " strategy"}
		}
	}
	if len(tools) > 0 {
		body["tools"] = tools
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, nil, &Error{Kind: ErrUnsupported, Detail: "the request cannot be encoded as JSON"}
	}
	return b, headers, nil
}

type anthropicUsage struct {
	InputTokens              *int64 `json:"input_tokens"`
	OutputTokens             *int64 `json:"output_tokens"`
	CacheCreationInputTokens *int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int64 `json:"cache_read_input_tokens"`
}

type anthropicBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Text  string          `json:"text"`
	Input json.RawMessage `json:"input"`
}

type anthropicMessage struct {
	Model      string           `json:"model"`
	Content    []anthropicBlock `json:"content"`
	StopReason string           `json:"stop_reason"`
	Usage      *anthropicUsage  `json:"usage"`
}

// anthropicEvent is one stream event.
type anthropicEvent struct {
	Type         string            `json:"type"`
	Index        int               `json:"index"`
	Message      *anthropicMessage `json:"message"`
	ContentBlock *anthropicBlock   `json:"content_block"`
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

func anthropicStop(reason string) string {
	switch reason {
	case "end_turn", "stop_sequence", "pause_turn":
		return StopEnd
	case "max_tokens", "model_context_window_exceeded":
		return StopLength
	case "tool_use":
		return StopToolUse
	case "refusal":
		return StopRefusal
	}
	return reason
}

func mergeAnthropicUsage(dst *Usage, u *anthropicUsage) {
	if u == nil {
		return
	}
	if u.InputTokens != nil {
		dst.InputTokens = u.InputTokens
	}
	if u.OutputTokens != nil {
		dst.OutputTokens = u.OutputTokens
	}
	if u.CacheReadInputTokens != nil {
		dst.CacheReadTokens = u.CacheReadInputTokens
	}
	if u.CacheCreationInputTokens != nil {
		dst.CacheWriteTokens = u.CacheCreationInputTokens
	}
}

// startBlock begins content block key; a whole message's block carries
// its complete text or input.
func startBlock(a *assembly, key int, b *anthropicBlock, whole bool) error {
	p, err := a.piece(key)
	if err != nil {
		return err
	}
	p.kind, p.id, p.name = b.Type, b.ID, b.Name
	switch {
	case b.Type == "text":
		return a.addText(b.Text)
	case b.Type == "tool_use" && whole:
		return p.addInput(string(b.Input))
	}
	return nil
}

// decodeAnthropic is the one decoder of the wire: it folds a whole
// message, or one stream event, into the assembly.
func decodeAnthropic(a *assembly, data []byte, whole bool) error {
	if whole {
		var m anthropicMessage
		if err := decodeReply(data, &m); err != nil {
			return err
		}
		if m.Content == nil {
			return malformed("the message has no content")
		}
		return anthropicMessageInto(a, &m, true)
	}
	var ev anthropicEvent
	if err := decodeReply(data, &ev); err != nil {
		return err
	}
	switch ev.Type {
	case "message_start":
		if ev.Message != nil {
			return anthropicMessageInto(a, ev.Message, false)
		}
	case "content_block_start":
		if ev.ContentBlock != nil {
			return startBlock(a, ev.Index, ev.ContentBlock, false)
		}
	case "content_block_delta":
		p := a.pieces[ev.Index]
		if p == nil || ev.Delta == nil {
			return malformed("a delta for a block that was not started")
		}
		switch ev.Delta.Type {
		case "text_delta":
			return a.addText(ev.Delta.Text)
		case "input_json_delta":
			return p.addInput(ev.Delta.PartialJSON)
		}
	case "message_delta":
		if ev.Delta != nil && ev.Delta.StopReason != "" {
			a.report.StopReason = anthropicStop(ev.Delta.StopReason)
		}
		mergeAnthropicUsage(&a.report.Usage, ev.Usage)
	case "error":
		code := ""
		if ev.Error != nil {
			code = ev.Error.Type
		}
		return streamError(code)
	}
	return nil
}

func anthropicMessageInto(a *assembly, m *anthropicMessage, whole bool) error {
	a.report.ServedModel = m.Model
	mergeAnthropicUsage(&a.report.Usage, m.Usage)
	if m.StopReason != "" {
		a.report.StopReason = anthropicStop(m.StopReason)
	}
	if !whole {
		return nil
	}
	for i := range m.Content {
		if err := startBlock(a, i, &m.Content[i], true); err != nil {
			return err
		}
	}
	return nil
}

// Turn implements Provider on the Anthropic-compatible wire.
func (p *AnthropicMessages) Turn(ctx context.Context, req TurnRequest, onStream func(StreamEvent)) (TurnResult, error) {
	if req.Model == "" {
		req.Model = p.route.Runtime.WireModel
	}
	body, headers, err := anthropicBody(req, onStream != nil)
	if err != nil {
		return TurnResult{}, err
	}
	post := Post{URL: "/messages", Auth: AuthAPIKeyHdr, Headers: headers, Body: body}
	a := newAssembly(onStream)
	if onStream == nil {
		reply, err := p.http.Do(ctx, post)
		if err != nil {
			return TurnResult{}, err
		}
		if err := decodeAnthropic(a, reply.Body, true); err != nil {
			return TurnResult{}, err
		}
	} else if _, err := p.http.Stream(ctx, post, func(_, data string) error {
		return decodeAnthropic(a, []byte(data), false)
	}); err != nil {
		return TurnResult{}, err
	}
	return a.result(p.route.Runtime.InputPricePerMTok, p.route.Runtime.OutputPricePerMTok)
}
