package llm

import (
	"context"
	"encoding/json"

	"github.com/harnlang/harn-check/catalog"
)

// OpenAIChat speaks the OpenAI-compatible chat completions wire
// (POST {base_url}/chat/completions), which OpenAI, OpenRouter, Ollama's
// /v1, vLLM and most gateways accept.
type OpenAIChat struct {
	route catalog.Route
	http  *Transport
}

// openAIBody is the one request encoder of the wire. Consecutive
// assistant tool-call messages become one assistant message with several
// tool_calls; a tool result becomes a "tool" message whose content is the
// value (strings as they are, other values as JSON) or "error: " and the
// tool's error; an Output becomes response_format, a forced strict tool
// or a top-level format by its strategy.
func openAIBody(req TurnRequest, stream bool) ([]byte, error) {
	if req.Completion != nil {
		return nil, &Error{Kind: ErrUnsupported, Detail: "the openai_chat wire carries no completion (fill-in-the-middle) request"}
	}
	body := map[string]any{"model": req.Model}
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
			am := map[string]any{"role": "assistant", "tool_calls": calls, "content": nil}
			if text != "" {
				am["content"] = text
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
	var tools []any
	for _, t := range req.Tools {
		tools = append(tools, OpenAITool(t))
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
	if req.Effort != "" && req.Effort != "none" {
		body["reasoning_effort"] = req.Effort
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
	if o := req.Output; o != nil {
		switch o.Strategy {
		case StrategyNativeSchema:
			body["response_format"] = map[string]any{"type": "json_schema",
				"json_schema": map[string]any{"name": outputName(o), "schema": o.Schema, "strict": true}}
		case StrategyToolSchema:
			tools = append(tools, map[string]any{"type": "function", "function": map[string]any{
				"name": outputName(o), "description": "Record the answer.", "parameters": o.Schema, "strict": true}})
			body["tool_choice"] = map[string]any{"type": "function", "function": map[string]any{"name": outputName(o)}}
		case StrategyFormatSchema:
			body["format"] = o.Schema
		case StrategyPromptValidation, "":
		default:
			return nil, &Error{Kind: ErrUnsupported, Detail: "unknown structured output strategy " + o.Strategy}
		}
	}
	if len(tools) > 0 {
		body["tools"] = tools
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, &Error{Kind: ErrUnsupported, Detail: "the request cannot be encoded as JSON"}
	}
	return b, nil
}

type openAIUsage struct {
	PromptTokens        *int64 `json:"prompt_tokens"`
	CompletionTokens    *int64 `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens *int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

type openAICall struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type openAIMessage struct {
	Content   *string      `json:"content"`
	Refusal   *string      `json:"refusal"`
	ToolCalls []openAICall `json:"tool_calls"`
}

// openAIReply is a whole completion and a stream chunk alike.
type openAIReply struct {
	Model   string `json:"model"`
	Choices []struct {
		Message      *openAIMessage `json:"message"`
		Delta        *openAIMessage `json:"delta"`
		FinishReason *string        `json:"finish_reason"`
	} `json:"choices"`
	Usage *openAIUsage `json:"usage"`
	Error *struct {
		Code any    `json:"code"`
		Type string `json:"type"`
	} `json:"error"`
}

func openAIStop(reason string) string {
	switch reason {
	case "stop":
		return StopEnd
	case "length":
		return StopLength
	case "tool_calls", "function_call":
		return StopToolUse
	case "content_filter":
		return StopContentFilter
	}
	return reason
}

// decodeOpenAI is the one decoder of the wire: it folds one reply (a
// whole completion, or one stream chunk) into the assembly. Tool calls
// are keyed by their index (their position in a whole completion).
func decodeOpenAI(a *assembly, data []byte, whole bool) error {
	var r openAIReply
	if err := decodeReply(data, &r); err != nil {
		return err
	}
	if r.Error != nil {
		code, _ := r.Error.Code.(string)
		if code == "" {
			code = r.Error.Type
		}
		return streamError(code)
	}
	if whole && len(r.Choices) == 0 {
		return malformed("the chat completion has no choices")
	}
	if r.Model != "" {
		a.report.ServedModel = r.Model
	}
	if u := r.Usage; u != nil {
		a.report.Usage = Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens}
		if u.PromptTokensDetails != nil {
			a.report.Usage.CacheReadTokens = u.PromptTokensDetails.CachedTokens
		}
	}
	for i, c := range r.Choices {
		if whole && i > 0 {
			break
		}
		m := c.Delta
		if whole {
			m = c.Message
		}
		if m != nil {
			if m.Content != nil {
				if err := a.addText(*m.Content); err != nil {
					return err
				}
			}
			if m.Refusal != nil && *m.Refusal != "" {
				a.refusal = true
			}
			for j, d := range m.ToolCalls {
				key := j
				if d.Index != nil && !whole {
					key = *d.Index
				}
				p, err := a.piece(key)
				if err != nil {
					return err
				}
				p.kind = "tool_use"
				if d.ID != "" {
					p.id = d.ID
				}
				if d.Function.Name != "" {
					p.name = d.Function.Name
				}
				if err := p.addInput(d.Function.Arguments); err != nil {
					return err
				}
			}
		}
		if c.FinishReason != nil {
			a.report.StopReason = openAIStop(*c.FinishReason)
		}
	}
	return nil
}

// Turn implements Provider on the OpenAI-compatible wire.
func (p *OpenAIChat) Turn(ctx context.Context, req TurnRequest, onStream func(StreamEvent)) (TurnResult, error) {
	if req.Model == "" {
		req.Model = p.route.Runtime.WireModel
	}
	body, err := openAIBody(req, onStream != nil)
	if err != nil {
		return TurnResult{}, err
	}
	post := Post{URL: "/chat/completions", Auth: AuthBearer, Body: body}
	a := newAssembly(onStream)
	if onStream == nil {
		reply, err := p.http.Do(ctx, post)
		if err != nil {
			return TurnResult{}, err
		}
		if err := decodeOpenAI(a, reply.Body, true); err != nil {
			return TurnResult{}, err
		}
	} else if _, err := p.http.Stream(ctx, post, func(_, data string) error {
		if data == "[DONE]" {
			return nil
		}
		return decodeOpenAI(a, []byte(data), false)
	}); err != nil {
		return TurnResult{}, err
	}
	return a.result(p.route.Runtime.InputPricePerMTok, p.route.Runtime.OutputPricePerMTok)
}

// OpenAITool is a tool as the OpenAI chat API offers it: {type:
// "function", function: {name, description?, parameters}}.
func OpenAITool(t TurnTool) map[string]any {
	fn := map[string]any{"name": t.Name, "parameters": ToolInputSchema(t)}
	if t.Description != "" {
		fn["description"] = t.Description
	}
	return map[string]any{"type": "function", "function": fn}
}
