package llm

import (
	"context"
	"encoding/json"
	"strings"

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

func anthropicBody(req ChatRequest, stream bool) ([]byte, map[string]string, error) {
	if req.Effort != "" && req.Effort != "none" {
		return nil, nil, &Error{Kind: ErrUnsupported, Detail: "the anthropic_messages wire takes no effort option"}
	}
	headers := map[string]string{"anthropic-version": AnthropicVersion}
	body := map[string]any{"model": req.Model}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultAnthropicMaxTokens
	}
	body["max_tokens"] = maxTokens
	if sys := systemWithSchema(req); sys != "" {
		body["system"] = sys
	}
	msgs := []any{}
	for _, m := range req.Messages {
		msgs = append(msgs, map[string]any{"role": m.Role, "content": m.Content})
	}
	body["messages"] = msgs
	if req.Temperature != nil {
		body["temperature"] = *req.Temperature
	}
	if stream {
		body["stream"] = true
	}
	if o := req.Output; o != nil {
		switch o.Strategy {
		case StrategyToolSchema:
			body["tools"] = []any{map[string]any{"name": outputName(o), "description": "Record the answer.", "input_schema": o.Schema}}
			body["tool_choice"] = map[string]any{"type": "tool", "name": outputName(o)}
		case StrategyNativeSchema:
			body["output_format"] = map[string]any{"type": "json_schema", "schema": o.Schema}
			headers["anthropic-beta"] = "structured-outputs-2025-11-13"
		case StrategyPromptValidation, "":
		default:
			return nil, nil, &Error{Kind: ErrUnsupported, Detail: "the anthropic_messages wire has no " + o.Strategy + " strategy"}
		}
	}
	b, err := json.Marshal(body)
	return b, headers, err
}

type anthropicUsage struct {
	InputTokens              *int64 `json:"input_tokens"`
	OutputTokens             *int64 `json:"output_tokens"`
	CacheCreationInputTokens *int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int64 `json:"cache_read_input_tokens"`
}

type anthropicBlock struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`
	Input json.RawMessage `json:"input"`
}

type anthropicMessage struct {
	Model      string           `json:"model"`
	Content    []anthropicBlock `json:"content"`
	StopReason string           `json:"stop_reason"`
	Usage      *anthropicUsage  `json:"usage"`
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

// Chat implements Provider.
func (p *AnthropicMessages) Chat(ctx context.Context, req ChatRequest, onDelta func(Delta)) (*ChatResponse, error) {
	if req.Model == "" {
		req.Model = p.route.Runtime.WireModel
	}
	body, headers, err := anthropicBody(req, onDelta != nil)
	if err != nil {
		return nil, err
	}
	post := Post{URL: "/messages", Auth: AuthAPIKeyHdr, Headers: headers, Body: body}
	out := &ChatResponse{Attempts: 1}
	var text strings.Builder
	var toolInput json.RawMessage
	if onDelta == nil {
		reply, err := p.http.Do(ctx, post)
		if err != nil {
			return nil, err
		}
		var m anthropicMessage
		if json.Unmarshal(reply.Body, &m) != nil || m.Content == nil {
			return nil, &Error{Kind: ErrMalformed, Status: reply.Status, Attempts: 1, Detail: "the message has no content"}
		}
		out.ServedModel = m.Model
		for _, b := range m.Content {
			switch b.Type {
			case "text":
				text.WriteString(b.Text)
			case "tool_use":
				if toolInput == nil {
					toolInput = b.Input
				}
			}
		}
		out.StopReason = anthropicStop(m.StopReason)
		mergeAnthropicUsage(&out.Usage, m.Usage)
	} else {
		blocks := map[int]*strings.Builder{}
		kinds := map[int]string{}
		_, err := p.http.Stream(ctx, post, func(event, data string) error {
			var ev struct {
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
			if json.Unmarshal([]byte(data), &ev) != nil {
				return &Error{Kind: ErrMalformed, Status: 200, Attempts: 1, Detail: "a stream event is not JSON"}
			}
			switch ev.Type {
			case "message_start":
				if ev.Message != nil {
					out.ServedModel = ev.Message.Model
					mergeAnthropicUsage(&out.Usage, ev.Message.Usage)
				}
			case "content_block_start":
				if ev.ContentBlock != nil {
					kinds[ev.Index] = ev.ContentBlock.Type
					blocks[ev.Index] = &strings.Builder{}
					if ev.ContentBlock.Type == "text" && ev.ContentBlock.Text != "" {
						blocks[ev.Index].WriteString(ev.ContentBlock.Text)
					}
				}
			case "content_block_delta":
				b := blocks[ev.Index]
				if b == nil || ev.Delta == nil {
					return &Error{Kind: ErrMalformed, Status: 200, Attempts: 1, Detail: "a delta for a block that was not started"}
				}
				switch ev.Delta.Type {
				case "text_delta":
					b.WriteString(ev.Delta.Text)
					text.WriteString(ev.Delta.Text)
					onDelta(Delta{Text: ev.Delta.Text})
				case "input_json_delta":
					b.WriteString(ev.Delta.PartialJSON)
				}
			case "message_delta":
				if ev.Delta != nil && ev.Delta.StopReason != "" {
					out.StopReason = anthropicStop(ev.Delta.StopReason)
				}
				mergeAnthropicUsage(&out.Usage, ev.Usage)
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
			return nil, err
		}
		for i := 0; i < len(blocks)+1; i++ {
			if kinds[i] == "tool_use" && blocks[i] != nil {
				toolInput = jsonOrNil(blocks[i].String())
				break
			}
		}
	}
	out.Text = text.String()
	if req.Output != nil {
		if req.Output.Strategy == StrategyToolSchema {
			out.Data = jsonOrNil(string(toolInput))
		} else {
			out.Data = ExtractJSON(out.Text)
		}
	}
	return out, nil
}
