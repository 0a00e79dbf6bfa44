package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/harnlang/harn-check/catalog"
)

// Message roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one turn of a conversation. The system prompt travels in
// ChatRequest.System, not as a message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Structured output strategies (catalog.Transports without "unsupported").
const (
	StrategyNativeSchema     = "native_schema"
	StrategyToolSchema       = "tool_schema"
	StrategyFormatSchema     = "format_schema"
	StrategyPromptValidation = "prompt_validation"
)

// Output asks for a JSON answer conforming to a JSON Schema.
type Output struct {
	// Name names the schema (the tool name for tool_schema); default
	// "response".
	Name string `json:"name,omitempty"`
	// Schema is the JSON Schema document.
	Schema json.RawMessage `json:"schema"`
	// Strategy is how the schema reaches the model: native_schema
	// (response_format json_schema, strict), tool_schema (one forced tool
	// whose input is the answer), format_schema (a top-level "format"
	// field, as Ollama-style servers take it) or prompt_validation (the
	// schema in the system prompt; the completed text is parsed and the
	// caller validates it).
	Strategy string `json:"strategy"`
}

// ChatRequest is one chat turn.
type ChatRequest struct {
	// Model is the model id sent on the wire (the route's wire_model).
	Model       string    `json:"model"`
	System      string    `json:"system,omitempty"`
	Messages    []Message `json:"messages"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	Temperature *float64  `json:"temperature,omitempty"`
	// Effort is a reasoning-effort hint ("low", "medium", "high"); "" and
	// "none" send nothing.
	Effort string  `json:"effort,omitempty"`
	Output *Output `json:"output,omitempty"`
}

// Usage is what the provider reported; nil fields were not reported.
type Usage struct {
	InputTokens      *int64 `json:"input_tokens"`
	OutputTokens     *int64 `json:"output_tokens"`
	CacheReadTokens  *int64 `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens *int64 `json:"cache_write_tokens,omitempty"`
}

// Known reports whether both input and output token counts were reported.
func (u Usage) Known() bool { return u.InputTokens != nil && u.OutputTokens != nil }

// Stop reasons, normalised across wires.
const (
	StopEnd           = "stop"
	StopLength        = "length"
	StopToolUse       = "tool_use"
	StopContentFilter = "content_filter"
	StopRefusal       = "refusal"
)

// ChatResponse is a completed chat turn.
type ChatResponse struct {
	// Text is the assistant's text content.
	Text string `json:"text"`
	// Data is the structured answer when the request had an Output: the
	// forced tool's input (tool_schema) or the text parsed as JSON (the
	// other strategies); nil when none could be read.
	Data json.RawMessage `json:"data,omitempty"`
	// ServedModel is the model the provider says served the request,
	// verbatim.
	ServedModel string `json:"served_model,omitempty"`
	StopReason  string `json:"stop_reason,omitempty"`
	Usage       Usage  `json:"usage"`
	// Attempts is the number of physical requests made (1 for a live
	// call, 0 for a replayed one).
	Attempts int `json:"attempts"`
}

// Delta is one streamed piece of assistant text.
type Delta struct {
	Text string
}

// Chat is a chat completion over any provider: the request becomes a
// turn (the system prompt, extended by the schema under
// prompt_validation, as a system message; the Output to the wire
// encoder), and the turn's text, report and structured answer come back
// as a ChatResponse. onDelta, when not nil, asks for a streamed response.
// Errors are *Error.
func Chat(ctx context.Context, p Provider, req ChatRequest, onDelta func(Delta)) (*ChatResponse, error) {
	turn := TurnRequest{Model: req.Model, MaxTokens: int64(req.MaxTokens), Temperature: req.Temperature, Effort: req.Effort, Output: req.Output}
	if sys := systemWithSchema(req); sys != "" {
		turn.Messages = append(turn.Messages, TurnMessage{Role: RoleSystem, Text: sys})
	}
	for _, m := range req.Messages {
		turn.Messages = append(turn.Messages, TurnMessage{Role: m.Role, Text: m.Content})
	}
	var onStream func(StreamEvent)
	if onDelta != nil {
		onStream = func(ev StreamEvent) { onDelta(Delta{Text: ev.Token}) }
	}
	res, err := p.Turn(ctx, turn, onStream)
	if err != nil {
		return nil, err
	}
	out := &ChatResponse{Text: res.Text}
	if w := res.Wire; w != nil {
		out.ServedModel, out.StopReason, out.Usage, out.Attempts = w.ServedModel, w.StopReason, w.Usage, w.Attempts
	}
	if req.Output != nil {
		if req.Output.Strategy != StrategyToolSchema {
			out.Data = ExtractJSON(out.Text)
		} else if len(res.Calls) > 0 {
			out.Data, _ = json.Marshal(res.Calls[0].Args)
		}
	}
	return out, nil
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

// Options configure the providers New builds.
type Options struct {
	// Getenv reads credential variables (default os.LookupEnv).
	Getenv func(string) (string, bool)
	// Client is the HTTP client (default NewHTTPClient()); tests pass
	// httptest clients.
	Client *http.Client
	// Timeout overrides the route's timeout_ms when positive.
	Timeout time.Duration
	// CheckNet, when set, approves each request's "host:port" before it
	// is sent; a refusal is ErrAuthorityDenied with no request made (a
	// program's --allow-net grant).
	CheckNet func(address string) error
	// NoLiveCalls refuses to build any provider but the mock, as
	// CallsDisabledEnv does (see CheckLive).
	NoLiveCalls bool
}

func (o Options) getenv(name string) (string, bool) {
	if o.Getenv != nil {
		return o.Getenv(name)
	}
	return os.LookupEnv(name)
}

// New returns the provider of a chat route: the mock, or the
// OpenAI-compatible or Anthropic-compatible wire.
func New(route catalog.Route, opts Options) (Provider, error) {
	if route.IsNative() {
		return nil, fmt.Errorf("route %s speaks the native decision protocol %s, not chat", route.Name(), route.Protocol)
	}
	switch route.Runtime.API {
	case catalog.APIMock:
		return NewMock(route), nil
	case catalog.APIOpenAIChat:
		return &OpenAIChat{route: route, http: NewTransport(route, opts)}, nil
	case catalog.APIAnthropicMessages:
		return &AnthropicMessages{route: route, http: NewTransport(route, opts)}, nil
	}
	return nil, fmt.Errorf("route %s has no chat wire (api %q)", route.Name(), route.Runtime.API)
}
