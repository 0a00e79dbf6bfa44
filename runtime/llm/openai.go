package llm

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/harnlang/harn-check/catalog"
)

// OpenAIChat speaks the OpenAI-compatible chat completions wire
// (POST {base_url}/chat/completions), which OpenAI, OpenRouter, Ollama's
// /v1, vLLM and most gateways accept.
type OpenAIChat struct {
	route catalog.Route
	http  *Transport
}

// PromptSchemaInstruction introduces the schema appended to the system
// prompt under the prompt_validation strategy.
const PromptSchemaInstruction = "Respond with only one JSON value that conforms to this JSON Schema, with no other text:"

func outputName(o *Output) string {
	if o.Name != "" {
		return o.Name
	}
	return "response"
}

// systemWithSchema is the system prompt, extended by the schema under
// prompt_validation.
func systemWithSchema(req ChatRequest) string {
	if req.Output == nil || req.Output.Strategy != StrategyPromptValidation {
		return req.System
	}
	s := req.System
	if s != "" {
		s += "\n\n"
	}
	return s + PromptSchemaInstruction + "\n" + string(req.Output.Schema)
}

// openAIBody builds the request body.
func openAIBody(req ChatRequest, stream bool) ([]byte, error) {
	body := map[string]any{"model": req.Model}
	var msgs []any
	if sys := systemWithSchema(req); sys != "" {
		msgs = append(msgs, map[string]any{"role": "system", "content": sys})
	}
	for _, m := range req.Messages {
		msgs = append(msgs, map[string]any{"role": m.Role, "content": m.Content})
	}
	body["messages"] = msgs
	if req.MaxTokens > 0 {
		body["max_tokens"] = req.MaxTokens
	}
	if req.Temperature != nil {
		body["temperature"] = *req.Temperature
	}
	if req.Effort != "" && req.Effort != "none" {
		body["reasoning_effort"] = req.Effort
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
			body["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{
				"name": outputName(o), "description": "Record the answer.", "parameters": o.Schema, "strict": true}}}
			body["tool_choice"] = map[string]any{"type": "function", "function": map[string]any{"name": outputName(o)}}
		case StrategyFormatSchema:
			body["format"] = o.Schema
		case StrategyPromptValidation, "":
		default:
			return nil, &Error{Kind: ErrUnsupported, Detail: "unknown structured output strategy " + o.Strategy}
		}
	}
	return json.Marshal(body)
}

type openAIUsage struct {
	PromptTokens        *int64 `json:"prompt_tokens"`
	CompletionTokens    *int64 `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens *int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

func (u *openAIUsage) usage() Usage {
	if u == nil {
		return Usage{}
	}
	out := Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens}
	if u.PromptTokensDetails != nil {
		out.CacheReadTokens = u.PromptTokensDetails.CachedTokens
	}
	return out
}

type openAIToolCall struct {
	Index    int `json:"index"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type openAIResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content   *string          `json:"content"`
			Refusal   *string          `json:"refusal"`
			ToolCalls []openAIToolCall `json:"tool_calls"`
		} `json:"message"`
		Delta struct {
			Content   string           `json:"content"`
			Refusal   string           `json:"refusal"`
			ToolCalls []openAIToolCall `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
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

// Chat implements Provider.
func (p *OpenAIChat) Chat(ctx context.Context, req ChatRequest, onDelta func(Delta)) (*ChatResponse, error) {
	if req.Model == "" {
		req.Model = p.route.Runtime.WireModel
	}
	body, err := openAIBody(req, onDelta != nil)
	if err != nil {
		return nil, err
	}
	post := Post{URL: "/chat/completions", Auth: AuthBearer, Body: body}
	out := &ChatResponse{Attempts: 1}
	var text, refusal, args strings.Builder
	if onDelta == nil {
		reply, err := p.http.Do(ctx, post)
		if err != nil {
			return nil, err
		}
		var r openAIResponse
		if json.Unmarshal(reply.Body, &r) != nil || len(r.Choices) == 0 {
			return nil, &Error{Kind: ErrMalformed, Status: reply.Status, Attempts: 1, Detail: "the chat completion has no choices"}
		}
		c := r.Choices[0]
		out.ServedModel = r.Model
		if c.Message.Content != nil {
			text.WriteString(*c.Message.Content)
		}
		if c.Message.Refusal != nil {
			refusal.WriteString(*c.Message.Refusal)
		}
		for _, tc := range c.Message.ToolCalls {
			if tc.Index == 0 {
				args.WriteString(tc.Function.Arguments)
			}
		}
		if c.FinishReason != nil {
			out.StopReason = openAIStop(*c.FinishReason)
		}
		out.Usage = r.Usage.usage()
	} else {
		_, err := p.http.Stream(ctx, post, func(_, data string) error {
			if data == "[DONE]" {
				return nil
			}
			var r openAIResponse
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
			if r.Model != "" {
				out.ServedModel = r.Model
			}
			if r.Usage != nil {
				out.Usage = r.Usage.usage()
			}
			for _, c := range r.Choices {
				if c.Delta.Content != "" {
					text.WriteString(c.Delta.Content)
					onDelta(Delta{Text: c.Delta.Content})
				}
				refusal.WriteString(c.Delta.Refusal)
				for _, tc := range c.Delta.ToolCalls {
					if tc.Index == 0 {
						args.WriteString(tc.Function.Arguments)
					}
				}
				if c.FinishReason != nil {
					out.StopReason = openAIStop(*c.FinishReason)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out.Text = text.String()
	if refusal.Len() > 0 {
		out.StopReason = StopRefusal
	}
	if req.Output != nil {
		if req.Output.Strategy == StrategyToolSchema {
			out.Data = jsonOrNil(args.String())
		} else {
			out.Data = ExtractJSON(out.Text)
		}
	}
	return out, nil
}

// streamError types an error event inside a 200 stream.
func streamError(code string) *Error {
	e := &Error{Status: 200, Attempts: 1, Code: safeCode(code)}
	switch {
	case strings.Contains(code, "overloaded"):
		e.Kind, e.Detail = ErrOverloaded, "the provider is overloaded"
	case strings.Contains(code, "rate_limit"):
		e.Kind, e.Detail = ErrRateLimited, "the provider rate-limited the request"
	default:
		e.Kind, e.Detail = ErrStatus, "the provider reported an error inside the stream"
	}
	return e
}

func jsonOrNil(s string) json.RawMessage {
	s = strings.TrimSpace(s)
	if s == "" || !json.Valid([]byte(s)) {
		return nil
	}
	return json.RawMessage(s)
}

// ExtractJSON reads a completed text as one JSON value: the whole text,
// or the body of a single ``` fenced block; nil when neither parses.
func ExtractJSON(text string) json.RawMessage {
	t := strings.TrimSpace(text)
	if v := jsonOrNil(t); v != nil {
		return v
	}
	if strings.HasPrefix(t, "```") && strings.HasSuffix(t, "```") && len(t) >= 6 {
		inner := strings.TrimSuffix(strings.TrimPrefix(t, "```"), "```")
		if nl := strings.IndexByte(inner, '\n'); nl >= 0 && !strings.ContainsAny(inner[:nl], "{[\"") {
			inner = inner[nl+1:] // drop a language tag such as "json"
		}
		return jsonOrNil(inner)
	}
	return nil
}
