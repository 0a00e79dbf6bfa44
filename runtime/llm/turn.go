package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// The turn layer is the tool-capable side of the package, the one Leia's
// AI dialect lowers to: a TurnRequest carries an ordered conversation of
// TurnMessages (system, user, assistant, assistant tool calls and tool
// results paired by call id) and the tools the model may call; a
// TurnResult is the model's text and tool calls. Field names are those of
// upstream Leia's provider protocol, so a .records.json fixture written
// by either tool reads in the other (records.go).

// Turn statuses a provider reports.
const (
	StatusFinalAnswer = "final_answer"
	StatusToolCalls   = "tool_calls"
	StatusStop        = "stop"
)

// Message roles of the turn layer (RoleUser and RoleAssistant are shared
// with the chat layer).
const (
	RoleSystem = "system"
	RoleTool   = "tool"
)

// TurnMessage is one normalized message. A tool call is an assistant
// message with ToolCall set; a tool result is a tool message with
// ToolUseID and Value (or Error).
type TurnMessage struct {
	Role      string    `json:"Role"`
	Text      string    `json:"Text,omitempty"`
	ToolCall  *ToolCall `json:"ToolCall,omitempty"`
	ToolUseID string    `json:"ToolUseID,omitempty"`
	// Value is a tool result: nil, bool, int64, float64, string, []any or
	// map[string]any.
	Value any    `json:"Value,omitempty"`
	Error string `json:"Error,omitempty"`
}

// TurnTool describes one tool the model may call. Schema, when set, is
// the JSON Schema of its arguments; otherwise the arguments are the
// named Params (strings).
type TurnTool struct {
	Name        string   `json:"Name"`
	Description string   `json:"Description,omitempty"`
	Params      []string `json:"Params,omitempty"`
	Requires    []string `json:"Requires,omitempty"`
	Schema      any      `json:"Schema,omitempty"`
	// ParamDocs describes parameters on the wire (property descriptions
	// of the generated schema); like upstream, it is not part of the
	// recorded request or its hash.
	ParamDocs map[string]string `json:"-"`
}

// ToolCall is a call the model asked for.
type ToolCall struct {
	ID   string         `json:"ID"`
	Tool string         `json:"Tool"`
	Args map[string]any `json:"Args,omitempty"`
}

// TurnRequest is one provider request after dialect lowering.
type TurnRequest struct {
	Model          string            `json:"Model"`
	Messages       []TurnMessage     `json:"Messages"`
	Tools          []TurnTool        `json:"Tools,omitempty"`
	ForceTool      string            `json:"ForceTool,omitempty"`
	MaxTokens      int64             `json:"MaxTokens,omitempty"`
	Temperature    *float64          `json:"Temperature,omitempty"`
	TopP           *float64          `json:"TopP,omitempty"`
	ResponseFormat any               `json:"ResponseFormat,omitempty"`
	Stream         bool              `json:"Stream,omitempty"`
	Stop           []string          `json:"Stop,omitempty"`
	Metadata       map[string]string `json:"Metadata,omitempty"`
	// Effort is a reasoning-effort hint ("low", "medium", "high"); "" and
	// "none" send nothing.
	Effort string `json:"Effort,omitempty"`
	// Output asks for a structured answer by a strategy (Chat's).
	Output *Output `json:"Output,omitempty"`
	// Completion, when set, asks for the text between a prefix and an
	// optional suffix (fill-in-the-middle) instead of a chat answer; the
	// chat wires refuse it.
	Completion *Completion `json:"Completion,omitempty"`
	// Shape is an example of the answer's shape (Leia's output: every
	// key with a value of its kind; "a|b" strings name alternatives). It
	// is not sent and not part of a record or its hash; the mock answers
	// with an instance of it.
	Shape any `json:"-"`
	// Prompt, when set, is the mock's reading of the request in place of
	// the messages' texts (Harn's: every string its message values hold).
	// It is not sent and not part of a record or its hash.
	Prompt *MockPrompt `json:"-"`
}

// Completion is a fill-in-the-middle request: the text before the gap and
// the text after it ("" for none).
type Completion struct {
	Prefix string `json:"Prefix"`
	Suffix string `json:"Suffix,omitempty"`
}

// MockPrompt is what the mock reads from a request: Match, the text a
// scripted answer's glob is matched against, and Last, the last prompt,
// which the echo answer repeats.
type MockPrompt struct {
	Match, Last string
}

// TurnUsage is what a turn cost.
type TurnUsage struct {
	InputTokens  int64   `json:"InputTokens,omitempty"`
	OutputTokens int64   `json:"OutputTokens,omitempty"`
	Cost         float64 `json:"Cost,omitempty"`
	LatencyMS    int64   `json:"LatencyMS,omitempty"`
}

// TurnResult is a completed turn.
type TurnResult struct {
	// Status is final_answer, tool_calls or stop ("" is read as
	// tool_calls when Calls is not empty, else final_answer).
	Status string     `json:"Status,omitempty"`
	Text   string     `json:"Text,omitempty"`
	Calls  []ToolCall `json:"Calls,omitempty"`
	// Reason says why a turn stopped (max_tokens, refusal, ...).
	Reason string    `json:"Reason,omitempty"`
	Usage  TurnUsage `json:"Usage,omitzero"`
	// Wire is what a live provider reported beyond the turn; nil for a
	// replayed turn. It is not part of a record.
	Wire *WireReport `json:"-"`
}

// NormalizedStatus is Status with the empty status resolved.
func (r TurnResult) NormalizedStatus() string {
	if r.Status != "" {
		return r.Status
	}
	if len(r.Calls) > 0 {
		return StatusToolCalls
	}
	return StatusFinalAnswer
}

// StreamEvent is one streamed piece of a turn: Type "token" with the
// piece in Token (Text repeats it, as upstream's fixtures do).
type StreamEvent struct {
	Type  string `json:"Type"`
	Token string `json:"Token,omitempty"`
	Text  string `json:"Text,omitempty"`
}

// Provider is the one model-call interface: it answers a turn.
// onStream, when not nil, asks for a streamed response and receives each
// piece; the returned result is still the whole turn. The wires, the
// mock, replay and recording implement it; a chat completion (Chat) is a
// function over it. Errors from the wires are *Error.
type Provider interface {
	Turn(ctx context.Context, req TurnRequest, onStream func(StreamEvent)) (TurnResult, error)
}

// ProviderFunc adapts a function to Provider.
type ProviderFunc func(ctx context.Context, req TurnRequest, onStream func(StreamEvent)) (TurnResult, error)

// Turn implements Provider.
func (f ProviderFunc) Turn(ctx context.Context, req TurnRequest, onStream func(StreamEvent)) (TurnResult, error) {
	return f(ctx, req, onStream)
}

// maxValueDepth bounds the nesting of tool values and arguments walked
// here (normalization, hashing, wire encoding).
const maxValueDepth = 200

// NormalizeValue returns v in the canonical form requests are compared
// and hashed in: integral floats become int64, []string becomes []any,
// empty containers stay empty (not nil). Nesting deeper than the bound
// is cut to nil.
func NormalizeValue(v any) any { return normalizeValue(v, 0) }

func normalizeValue(v any, depth int) any {
	if depth > maxValueDepth {
		return nil
	}
	switch x := v.(type) {
	case float64:
		if !finite(x) {
			return fmt.Sprint(x)
		}
		if x == math.Trunc(x) && x >= -9.2e18 && x <= 9.2e18 {
			return int64(x)
		}
		return x
	case float32:
		return normalizeValue(float64(x), depth)
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return normalizeValue(f, depth)
		}
		return x.String()
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalizeValue(e, depth+1)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalizeValue(e, depth+1)
		}
		return out
	}
	return v
}

// Normalized returns a copy of req in canonical form: values normalized,
// nil and empty lists alike (nil), tool-call argument maps never nil.
func (req TurnRequest) Normalized() TurnRequest {
	out := req
	out.Messages = make([]TurnMessage, len(req.Messages))
	for i, m := range req.Messages {
		m.Value = NormalizeValue(m.Value)
		if m.ToolCall != nil {
			c := m.ToolCall.normalized()
			m.ToolCall = &c
		}
		out.Messages[i] = m
	}
	out.Tools = nil
	for _, t := range req.Tools {
		t.Params = nilIfEmpty(t.Params)
		t.Requires = nilIfEmpty(t.Requires)
		t.Schema = NormalizeValue(t.Schema)
		out.Tools = append(out.Tools, t)
	}
	out.ResponseFormat = NormalizeValue(req.ResponseFormat)
	out.Stop = nilIfEmpty(req.Stop)
	if len(req.Metadata) == 0 {
		out.Metadata = nil
	}
	return out
}

func (c ToolCall) normalized() ToolCall {
	out := ToolCall{ID: c.ID, Tool: c.Tool, Args: map[string]any{}}
	for k, v := range c.Args {
		out.Args[k] = NormalizeValue(v)
	}
	return out
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return append([]string(nil), s...)
}

// Hash is the request's identity: "blake3:" and the hex BLAKE3 of the
// JSON encoding of its normalized form (object keys sorted). Two requests
// have the same hash exactly when a replay treats them as the same.
func (req TurnRequest) Hash() string {
	n := req.Normalized()
	// A non-finite temperature or top_p (0/0 in a script) cannot be
	// encoded as JSON; it is hashed by its text.
	var extra []string
	for _, f := range []**float64{&n.Temperature, &n.TopP} {
		if *f != nil && !finite(**f) {
			extra = append(extra, fmt.Sprint(**f))
			*f = nil
		}
	}
	b, err := json.Marshal(n)
	if err != nil {
		b = []byte(err.Error())
	}
	if len(extra) > 0 {
		b = append(b, strings.Join(extra, ",")...)
	}
	return hashBytes(b)
}

// ValueHash is the identity of one value, for metadata that must name a
// content without carrying it (traces, mismatch reports).
func ValueHash(v any) string {
	b, err := json.Marshal(NormalizeValue(v))
	if err != nil {
		b = []byte(fmt.Sprint(v))
	}
	return hashBytes(b)
}

// Summary describes a request without its content: model, counts, roles,
// tool names and the hash. It is what traces and errors may show.
func (req TurnRequest) Summary() map[string]any {
	roles := make([]any, len(req.Messages))
	for i, m := range req.Messages {
		roles[i] = m.Role
	}
	tools := make([]any, len(req.Tools))
	for i, t := range req.Tools {
		tools[i] = t.Name
	}
	s := map[string]any{
		"model":         req.Model,
		"message_count": int64(len(req.Messages)),
		"roles":         roles,
		"tools":         tools,
		"request_hash":  req.Hash(),
		"stream":        req.Stream,
	}
	if req.MaxTokens != 0 {
		s["max_tokens"] = req.MaxTokens
	}
	if req.ForceTool != "" {
		s["force_tool"] = req.ForceTool
	}
	return s
}

// ToolArgsJSON renders a call's arguments as a JSON object (the wire form
// of OpenAI-compatible tool calls).
func ToolArgsJSON(args map[string]any) string {
	if len(args) == 0 {
		return "{}"
	}
	b, err := json.Marshal(NormalizeValue(args))
	if err != nil {
		return "{}"
	}
	return string(b)
}

// ValueText renders a tool result for a provider: strings as they are,
// other values as JSON.
func ValueText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	b, err := json.Marshal(NormalizeValue(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// ToolInputSchema is the JSON Schema of a tool's arguments: its Schema
// when set, else an object of its Params as required strings.
func ToolInputSchema(t TurnTool) any {
	if t.Schema != nil {
		return NormalizeValue(t.Schema)
	}
	props := map[string]any{}
	required := []any{}
	for _, p := range t.Params {
		prop := map[string]any{"type": "string"}
		if d := t.ParamDocs[p]; d != "" {
			prop["description"] = d
		}
		props[p] = prop
		required = append(required, p)
	}
	return map[string]any{"type": "object", "properties": props, "required": required}
}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(parts []string, sep string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}
