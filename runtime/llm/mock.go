package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/harnlang/harn-check/catalog"
)

// DefaultMockText is the mock's chat reply when its route sets no text.
const DefaultMockText = "mock reply"

// DefaultMockConfidence is the confidence of an answer the route's mock
// table does not configure.
const DefaultMockConfidence = 0.9

// Mock is the deterministic provider of a provider = "mock" route. It
// makes no network request, but it counts each call as one request, so
// "zero requests" is measurable against it as against a real provider.
//
// A plain chat turn gets the route's mock text. A turn with an Output
// schema gets a JSON value generated from the schema: objects get their
// required properties, booleans true, strings with an enum their first
// value, numbers their minimum (or 0), strings "mock"; under a property
// named like a key of the route's mock answers, that answer's verdict,
// choice, level, confidence and evidence are used instead (so the
// evaluator's answer schema is answered per question as configured;
// unconfigured questions get true / the first label / the lowest level at
// confidence 0.9, evidence "mock evidence").
type Mock struct {
	route    catalog.Route
	requests atomic.Int64
	// Tape, when set, holds the answers of a mock script file (Harn's
	// --llm-mock FILE): they are tried first, and a request that neither
	// they nor Script answer fails with an *UnmatchedError instead of
	// getting a derived answer.
	Tape *MockScript
	// Script, when set, holds scripted answers tried before the derived
	// ones (see MockScript.Take; the prompt is PromptText, or the
	// request's Prompt.Match).
	Script *MockScript
	// Echo selects Harn's answers in place of the derived ones (see
	// echo): the prompt echoed, or a call of the first offered tool.
	Echo bool
}

// UnmatchedError is a request that no answer of a mock script file
// (Mock.Tape) matched.
type UnmatchedError struct {
	// Prompt is the text the answers' patterns were matched against.
	Prompt string
}

// Error implements error; the prompt is shown up to 200 characters.
func (e *UnmatchedError) Error() string {
	snippet := []rune(e.Prompt)
	if len(snippet) > 200 {
		snippet = append(snippet[:200], []rune("...")...)
	}
	return fmt.Sprintf("No --llm-mock fixture matched prompt: %q", string(snippet))
}

// NewMock returns the mock provider of a route.
func NewMock(route catalog.Route) *Mock { return &Mock{route: route} }

// Requests is the number of calls made to this mock.
func (m *Mock) Requests() int64 { return m.requests.Load() }

func (m *Mock) config() catalog.Mock {
	if m.route.Runtime.Mock != nil {
		return *m.route.Runtime.Mock
	}
	return catalog.Mock{}
}

// Turn implements Provider for the mock: deterministic and offline.
//
//   - A request with an Output gets a JSON answer generated from its
//     schema: the text under native_schema, format_schema and
//     prompt_validation, one call of the answer tool under tool_schema.
//   - A request with ForceTool calls that tool once (arguments generated
//     from its schema, or "mock" for each parameter), unless the last
//     message already is that call's result.
//   - A request that offers tools but has no tool result after its last
//     user message calls the first tool the same way (so an agent loop
//     runs one tool round, then answers).
//   - A request whose ResponseFormat carries a JSON Schema
//     ({type: "json_schema", json_schema: {schema}} or {schema}) gets a
//     JSON answer generated from it; {type: "json_object"} gets "{}".
//   - Otherwise the answer is the route's mock text ("mock reply").
//
// Streaming splits the answer after each space. Usage is estimated as
// ceil(bytes/4) of the messages and of the answer.
func (m *Mock) Turn(ctx context.Context, req TurnRequest, onStream func(StreamEvent)) (TurnResult, error) {
	if err := ctx.Err(); err != nil {
		return TurnResult{}, (&Transport{}).failure(ctx, err, 0)
	}
	m.requests.Add(1)
	cfg := m.config()
	report := &WireReport{ServedModel: cfg.ServedModel, StopReason: StopEnd, Attempts: 1}
	if report.ServedModel == "" {
		report.ServedModel = m.route.Runtime.WireModel
	}
	out := TurnResult{Status: StatusFinalAnswer, Wire: report}
	prompt := mockPrompt(req)
	var scripted *Scripted
	for _, script := range []*MockScript{m.Tape, m.Script} {
		if script != nil && scripted == nil {
			scripted = script.Take(prompt.Match)
		}
	}
	if scripted == nil && m.Tape != nil {
		return TurnResult{}, &UnmatchedError{Prompt: prompt.Match}
	}
	if scripted != nil && scripted.Error != nil {
		return TurnResult{}, scripted.Error
	}
	if m.Echo {
		out = echo(req, prompt, scripted)
		report = out.Wire
		report.Attempts = 1
		streamTokens(out.Text, onStream)
		return out, nil
	}
	report.Scripted = scripted
	force := req.ForceTool
	if force != "" && lastIsResultOf(req.Messages, force) {
		force = ""
	} else if force == "" && len(req.Tools) > 0 && !toolResultSinceUser(req.Messages) {
		force = req.Tools[0].Name
	}
	switch {
	case scripted != nil:
		out.Text, out.Calls = scripted.Text, append([]ToolCall(nil), scripted.Calls...)
		if len(out.Calls) > 0 {
			out.Status, report.StopReason = StatusToolCalls, StopToolUse
		}
		if scripted.Model != "" {
			report.ServedModel = scripted.Model
		}
	case req.Output != nil:
		var schema any
		if err := json.Unmarshal(req.Output.Schema, &schema); err != nil {
			return TurnResult{}, &Error{Kind: ErrUnsupported, Detail: "the output schema is not JSON"}
		}
		v := fillSchema(schema, "", nil, cfg.Answers, 0)
		if req.Output.Strategy == StrategyToolSchema {
			args, _ := NormalizeValue(v).(map[string]any)
			out.Status, report.StopReason = StatusToolCalls, StopToolUse
			out.Calls = []ToolCall{{ID: "call_" + outputName(req.Output) + "_1", Tool: outputName(req.Output), Args: args}}
		} else {
			data, _ := json.Marshal(v)
			out.Text = string(data)
		}
	case force != "":
		var tool *TurnTool
		for i := range req.Tools {
			if req.Tools[i].Name == force {
				tool = &req.Tools[i]
			}
		}
		args := map[string]any{}
		if tool != nil {
			if filled, ok := fillSchema(ToolInputSchema(*tool), "", nil, cfg.Answers, 0).(map[string]any); ok {
				args = filled
			}
		}
		n := 1
		for _, msg := range req.Messages {
			if msg.ToolCall != nil && msg.ToolCall.Tool == force {
				n++
			}
		}
		out.Status, report.StopReason = StatusToolCalls, StopToolUse
		out.Calls = []ToolCall{{ID: fmt.Sprintf("call_%s_%d", force, n), Tool: force, Args: NormalizeValue(args).(map[string]any)}}
	default:
		out.Text = cfg.Text
		if out.Text == "" {
			out.Text = DefaultMockText
		}
		if shape := NormalizeValue(req.Shape); shape != nil {
			b, _ := json.Marshal(fromShape(shape, 0))
			out.Text = string(b)
		} else if rf, ok := NormalizeValue(req.ResponseFormat).(map[string]any); ok {
			if schema := responseSchema(rf); schema != nil {
				b, _ := json.Marshal(fillSchema(schema, "", nil, cfg.Answers, 0))
				out.Text = string(b)
			} else if rf["type"] == "json_object" {
				out.Text = "{}"
			}
		}
	}
	streamTokens(out.Text, onStream)
	var in int
	for _, msg := range req.Messages {
		in += estimateBytes(msg.Text) + estimateBytes(ValueText(msg.Value)) + estimateBytes(msg.Error)
	}
	outTokens := estimateBytes(out.Text)
	for _, c := range out.Calls {
		outTokens += estimateBytes(ToolArgsJSON(c.Args))
	}
	i64, o64 := int64(in), int64(outTokens)
	report.Usage = Usage{InputTokens: &i64, OutputTokens: &o64}
	if scripted != nil {
		if scripted.InputTokens != nil {
			i64 = *scripted.InputTokens
		}
		if scripted.OutputTokens != nil {
			o64 = *scripted.OutputTokens
		}
		report.Usage.CacheReadTokens, report.Usage.CacheWriteTokens = scripted.CacheRead, scripted.CacheWrite
	}
	out.Usage = TurnUsage{InputTokens: i64, OutputTokens: o64}
	return out, nil
}

// streamTokens streams a mock's answer, split after each space.
func streamTokens(text string, onStream func(StreamEvent)) {
	if onStream == nil {
		return
	}
	for _, piece := range tokens(text) {
		onStream(StreamEvent{Type: "token", Token: piece, Text: piece})
	}
}

// mockPrompt is the request's Prompt, else the messages' texts (Match)
// and the last non-system message with text (Last).
func mockPrompt(req TurnRequest) MockPrompt {
	if req.Prompt != nil {
		return *req.Prompt
	}
	p := MockPrompt{Match: PromptText(req)}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := req.Messages[i]; m.Role != RoleSystem && strings.TrimSpace(m.Text) != "" {
			p.Last = m.Text
			break
		}
	}
	return p
}

// echo is the answer of an Echo mock (upstream Harn's mock provider):
//
//   - A scripted answer as written: its text and tool calls; served model
//     "mock" unless it names one; input tokens the length in bytes of the
//     match text and output tokens 30, unless it gives them.
//   - Else, when the request offers tools, a call (id mock_call_1) of the
//     first, with a placeholder for each required argument of its schema
//     (0, 0.0, false, [], {} or "" by type); 20 output tokens.
//   - Else, for a completion request, "Mock completion after N chars"
//     and " before M chars" when there is a suffix (N, M in characters);
//     input tokens the bytes of both, 16 output tokens.
//   - Else "Mock response to N-word prompt: P", P the first 100
//     characters of the last prompt ("Mock LLM response" without one),
//     wrapped as <assistant_prose>...</assistant_prose> and
//     <done>##DONE##</done> when the system prompt mentions <done>; 30
//     output tokens.
//
// Unscripted answers count the last prompt's bytes as input tokens and
// report the request's model. No stop reason is reported but a
// scripted one.
func echo(req TurnRequest, p MockPrompt, s *Scripted) TurnResult {
	report := &WireReport{ServedModel: req.Model, Scripted: s}
	out := TurnResult{Status: StatusFinalAnswer, Wire: report}
	in, outTokens := int64(len(p.Last)), int64(30)
	switch {
	case s != nil:
		out.Text, out.Calls = s.Text, append([]ToolCall(nil), s.Calls...)
		report.ServedModel = s.Model
		if report.ServedModel == "" {
			report.ServedModel = "mock"
		}
		in = int64(len(p.Match))
		if s.InputTokens != nil {
			in = *s.InputTokens
		}
		if s.OutputTokens != nil {
			outTokens = *s.OutputTokens
		}
		report.Usage.CacheReadTokens, report.Usage.CacheWriteTokens = s.CacheRead, s.CacheWrite
	case len(req.Tools) > 0:
		t := req.Tools[0]
		name := t.Name
		if name == "" {
			name = "unknown"
		}
		out.Calls = []ToolCall{{ID: "mock_call_1", Tool: name, Args: placeholderArgs(ToolInputSchema(t))}}
		outTokens = 20
	case req.Completion != nil:
		c := req.Completion
		out.Text = fmt.Sprintf("Mock completion after %d chars", utf8.RuneCountInString(c.Prefix))
		if c.Suffix != "" {
			out.Text += fmt.Sprintf(" before %d chars", utf8.RuneCountInString(c.Suffix))
		}
		in, outTokens = int64(len(c.Prefix)+len(c.Suffix)), 16
	default:
		if p.Last == "" {
			out.Text = "Mock LLM response"
		} else {
			head := []rune(p.Last)
			if len(head) > 100 {
				head = head[:100]
			}
			out.Text = fmt.Sprintf("Mock response to %d-word prompt: %s", len(strings.Fields(p.Last)), string(head))
		}
		for _, m := range req.Messages {
			if m.Role == RoleSystem && strings.Contains(m.Text, "<done>") {
				out.Text = "<assistant_prose>" + out.Text + "</assistant_prose>\n<done>##DONE##</done>"
				break
			}
		}
	}
	if len(out.Calls) > 0 {
		out.Status = StatusToolCalls
	}
	report.Usage.InputTokens, report.Usage.OutputTokens = &in, &outTokens
	out.Usage = TurnUsage{InputTokens: in, OutputTokens: outTokens}
	return out
}

// placeholderArgs holds a placeholder for each required property of an
// object schema, by its type (a string when it names none).
func placeholderArgs(schema any) map[string]any {
	args := map[string]any{}
	s, _ := schema.(map[string]any)
	props, _ := s["properties"].(map[string]any)
	required, _ := s["required"].([]any)
	for _, k := range required {
		name, _ := k.(string)
		prop, ok := props[name].(map[string]any)
		if !ok {
			continue
		}
		switch prop["type"] {
		case "integer":
			args[name] = int64(0)
		case "number":
			args[name] = 0.0
		case "boolean":
			args[name] = false
		case "array":
			args[name] = []any{}
		case "object":
			args[name] = map[string]any{}
		default:
			args[name] = ""
		}
	}
	return args
}

// fromShape is an instance of an example shape: strings naming
// alternatives ("low|medium|high") give the first, lists one instance of
// their first element, other values themselves.
func fromShape(shape any, depth int) any {
	if depth > maxValueDepth {
		return nil
	}
	switch x := shape.(type) {
	case string:
		if alt, _, ok := strings.Cut(x, "|"); ok {
			return alt
		}
		return x
	case []any:
		if len(x) == 0 {
			return []any{}
		}
		return []any{fromShape(x[0], depth+1)}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[k] = fromShape(v, depth+1)
		}
		return out
	}
	return shape
}

// tokens splits a streamed answer into its words and the runs of space
// between them ("hello stream" streams as "hello", " ", "stream").
func tokens(text string) []string {
	var out []string
	for text != "" {
		space := text[0] == ' ' || text[0] == '\n' || text[0] == '\t'
		i := strings.IndexFunc(text, func(r rune) bool { return (r == ' ' || r == '\n' || r == '\t') != space })
		if i < 0 {
			i = len(text)
		}
		out = append(out, text[:i])
		text = text[i:]
	}
	return out
}

// PromptText is the text a scripted answer's pattern is matched against:
// the messages' texts, one per line.
func PromptText(req TurnRequest) string {
	var parts []string
	for _, m := range req.Messages {
		if m.Text != "" {
			parts = append(parts, m.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func lastIsResultOf(msgs []TurnMessage, tool string) bool {
	if len(msgs) < 2 {
		return false
	}
	last, call := msgs[len(msgs)-1], msgs[len(msgs)-2]
	return last.Role == RoleTool && call.ToolCall != nil && call.ToolCall.Tool == tool && call.ToolCall.ID == last.ToolUseID
}

// toolResultSinceUser reports a tool message after the last user message.
func toolResultSinceUser(msgs []TurnMessage) bool {
	for i := len(msgs) - 1; i >= 0; i-- {
		switch msgs[i].Role {
		case RoleTool:
			return true
		case RoleUser:
			return false
		}
	}
	return false
}

// responseSchema finds the JSON Schema inside a response_format table:
// OpenAI's {type: json_schema, json_schema: {schema}} or a bare {schema}.
func responseSchema(rf map[string]any) any {
	if js, ok := rf["json_schema"].(map[string]any); ok {
		if s, ok := js["schema"].(map[string]any); ok {
			return s
		}
	}
	if s, ok := rf["schema"].(map[string]any); ok {
		return s
	}
	return nil
}

// EstimateTextTokens is the runtime's one text estimator: ceil(bytes/4),
// 0 for empty text (upstream Harn's estimate_text_tokens).
func EstimateTextTokens(s string) int { return estimateBytes(s) }

func estimateBytes(s string) int { return (len(s) + 3) / 4 }

// fillSchema generates a value conforming to schema.
func fillSchema(schema any, name string, answer *catalog.MockAnswer, answers map[string]catalog.MockAnswer, depth int) any {
	s, _ := schema.(map[string]any)
	if s == nil || depth > 32 {
		return nil
	}
	typ, _ := s["type"].(string)
	switch typ {
	case "object":
		props, _ := s["properties"].(map[string]any)
		var keys []string
		if req, ok := s["required"].([]any); ok {
			for _, k := range req {
				if ks, ok := k.(string); ok {
					keys = append(keys, ks)
				}
			}
		} else {
			for k := range props {
				keys = append(keys, k)
			}
			slices.Sort(keys)
		}
		obj := map[string]any{}
		for _, k := range keys {
			sub := answer
			if a, ok := answers[k]; ok {
				sub = &a
			}
			obj[k] = fillSchema(props[k], k, sub, answers, depth+1)
		}
		return obj
	case "boolean":
		if answer != nil && answer.Verdict != nil {
			return *answer.Verdict
		}
		return true
	case "number", "integer":
		if name == "confidence" {
			if answer != nil && answer.Confidence != nil {
				return *answer.Confidence
			}
			return DefaultMockConfidence
		}
		if v, ok := s["minimum"].(float64); ok {
			return v
		}
		return 0
	case "string":
		if answer != nil {
			switch {
			case name == "choice" && answer.Choice != "":
				return answer.Choice
			case name == "level" && answer.Level != "":
				return answer.Level
			case name == "evidence" && answer.Evidence != "":
				return answer.Evidence
			}
		}
		if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
			return enum[0]
		}
		if name == "evidence" {
			return "mock evidence"
		}
		return "mock"
	case "array":
		return []any{}
	}
	return nil
}
