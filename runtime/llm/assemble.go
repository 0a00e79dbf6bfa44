package llm

import (
	"encoding/json"
	"sort"
	"strings"
)

// Bounds on what a provider may send back. Every path that reads model
// output (a whole response, a stream, the mock and replay aside) goes
// through Transport and assembly, which enforce them; a reply over a
// bound is an ErrMalformed *Error naming the bound, never a partial
// answer.
const (
	// MaxResponseBytes bounds a response body, whole or streamed.
	MaxResponseBytes = 32 << 20
	// MaxSSELine bounds one line of a stream.
	MaxSSELine = 4 << 20
	// MaxBlocks bounds the content blocks and tool calls of one turn.
	MaxBlocks = 128
	// MaxToolInput bounds the JSON input of one tool call.
	MaxToolInput = 4 << 20
	// MaxTextBytes bounds the assembled text of one turn (far above any
	// model's output limit; a stream's wrappers make it much smaller
	// than the stream).
	MaxTextBytes = 8 << 20
	// MaxJSONNodes bounds the objects and arrays of one JSON document a
	// provider sends (a whole response or one stream event); it is
	// checked before decoding, so a million empty blocks are refused
	// before they become a million structures.
	MaxJSONNodes = 64 << 10
)

// The time bound is the route's timeout_ms (catalog.DefaultTimeoutMS
// when unset, Options.Timeout when set): it covers the whole exchange,
// the stream included.

// malformed is the error of a reply that breaks the wire or a bound.
func malformed(detail string) *Error {
	return &Error{Kind: ErrMalformed, Status: 200, Attempts: 1, Detail: detail}
}

// decodeReply unmarshals one JSON document of a reply after checking
// MaxJSONNodes.
func decodeReply(data []byte, v any) error {
	nodes, inString, escaped := 0, false, false
	for _, c := range data {
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped = c == '\\'
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if nodes++; nodes > MaxJSONNodes {
				return malformed("the reply nests more than the bound of JSON objects and arrays")
			}
		}
	}
	if json.Unmarshal(data, v) != nil {
		return malformed("the reply is not the wire's JSON")
	}
	return nil
}

// WireReport is what a provider said beyond the turn itself.
type WireReport struct {
	// ServedModel is the model the provider says served the request.
	ServedModel string
	// StopReason is the normalized stop reason (StopEnd, StopLength, ...).
	StopReason string
	// Usage is the usage as reported (nil counts were not reported).
	Usage Usage
	// Attempts is the number of physical requests (1 live, 0 replayed).
	Attempts int
	// Scripted is the scripted answer the mock gave (its provider,
	// thinking and stop reason are reported as written), nil otherwise.
	Scripted *Scripted
}

// assembly builds one turn from the pieces a wire decoder reads, a whole
// response and a stream alike, and enforces MaxBlocks and MaxToolInput.
type assembly struct {
	text     strings.Builder
	refusal  bool
	pieces   map[int]*piece
	report   WireReport
	onStream func(StreamEvent)
}

// piece is one content block: text, or a tool call being assembled.
type piece struct {
	key            int
	kind, id, name string
	input          strings.Builder
}

func newAssembly(onStream func(StreamEvent)) *assembly {
	return &assembly{pieces: map[int]*piece{}, report: WireReport{Attempts: 1}, onStream: onStream}
}

// piece returns the block at key, starting it (within MaxBlocks) when new.
func (a *assembly) piece(key int) (*piece, error) {
	if p := a.pieces[key]; p != nil {
		return p, nil
	}
	if len(a.pieces) >= MaxBlocks {
		return nil, malformed("the reply has more content blocks than the bound")
	}
	p := &piece{key: key}
	a.pieces[key] = p
	return p, nil
}

// addText appends assistant text within MaxTextBytes, streaming it when
// asked.
func (a *assembly) addText(s string) error {
	if s == "" {
		return nil
	}
	if a.text.Len()+len(s) > MaxTextBytes {
		return malformed("the reply's text exceeds the size bound")
	}
	a.text.WriteString(s)
	if a.onStream != nil {
		a.onStream(StreamEvent{Type: "token", Token: s, Text: s})
	}
	return nil
}

// addInput appends to a tool call's JSON input within MaxToolInput.
func (p *piece) addInput(s string) error {
	if p.input.Len()+len(s) > MaxToolInput {
		return malformed("a tool call's input exceeds the size bound")
	}
	p.input.WriteString(s)
	return nil
}

// result is the assembled turn, priced with the route's prices (USD per
// million tokens) when the catalog has them.
func (a *assembly) result(inPrice, outPrice *float64) (TurnResult, error) {
	out := TurnResult{Text: a.text.String(), Wire: &a.report}
	keys := make([]int, 0, len(a.pieces))
	for k, p := range a.pieces {
		if p.kind == "tool_use" {
			keys = append(keys, k)
		}
	}
	sort.Ints(keys)
	for _, k := range keys {
		p := a.pieces[k]
		args, err := parseToolArgs(p.input.String())
		if err != nil {
			return TurnResult{}, malformed("tool input for " + safeCode(p.name) + " is not a JSON object")
		}
		out.Calls = append(out.Calls, ToolCall{ID: p.id, Tool: p.name, Args: args})
	}
	if a.refusal {
		a.report.StopReason = StopRefusal
	}
	u := a.report.Usage
	if u.InputTokens != nil {
		out.Usage.InputTokens = *u.InputTokens
	}
	if u.OutputTokens != nil {
		out.Usage.OutputTokens = *u.OutputTokens
	}
	if inPrice != nil && outPrice != nil {
		out.Usage.Cost = float64(out.Usage.InputTokens)**inPrice/1e6 + float64(out.Usage.OutputTokens)**outPrice/1e6
	}
	out.Status, out.Reason = turnStatus(len(out.Calls) > 0, a.report.StopReason)
	return out, nil
}

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
func turnStatus(hasCalls bool, stop string) (status, reason string) {
	switch {
	case hasCalls:
		return StatusToolCalls, ""
	case stop == StopRefusal:
		return StatusStop, StopRefusal
	case stop == StopLength:
		return StatusStop, "max_tokens"
	case stop == StopContentFilter:
		return StatusStop, StopContentFilter
	}
	return StatusFinalAnswer, ""
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
