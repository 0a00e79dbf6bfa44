package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
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

// Provider answers chat turns. onDelta, when not nil, asks for a streamed
// response: it is called with each piece of text as it arrives, and the
// returned ChatResponse is the assembled whole. Errors are *Error.
type Provider interface {
	Chat(ctx context.Context, req ChatRequest, onDelta func(Delta)) (*ChatResponse, error)
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
}

func (o Options) getenv(name string) (string, bool) {
	if o.Getenv != nil {
		return o.Getenv(name)
	}
	return os.LookupEnv(name)
}

// New returns the provider for a chat route.
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
