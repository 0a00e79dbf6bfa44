package llm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/harnlang/harn-check/catalog"
)

// # Scripted answers: the .llm-mock.jsonl format
//
// A mock script is a JSON-lines file (Harn's .llm-mock.jsonl, which
// `--llm-mock FILE` and `--llm-mock-replay FILE` take for Harn and Leia
// alike); each line is one answer:
//
//	{"text", "tool_calls": [{"name", "arguments"}], "match", "consume_match",
//	 "model", "provider", "input_tokens", "output_tokens", "cache_read_tokens",
//	 "cache_write_tokens" (or "cache_creation_input_tokens"), "stop_reason",
//	 "thinking", "thinking_summary",
//	 "error": {"category", "message", "retry_after_ms"}}
//
// An answer without "match" answers the next request, in order, once; an
// answer with a glob "match" answers any request whose prompt text
// matches, and is used up only with "consume_match": true. The same
// answers registered at run time (Harn's llm_mock) go into the same
// script.

// Scripted is one scripted answer.
type Scripted struct {
	Match   string
	Consume bool
	// Model and Provider are reported as the served model and provider
	// ("" leaves the mock's).
	Model, Provider string
	Text            string
	Calls           []ToolCall
	InputTokens     *int64
	OutputTokens    *int64
	CacheRead       *int64
	CacheWrite      *int64
	// StopReason, Thinking and ThinkingSummary are reported as given.
	StopReason, Thinking, ThinkingSummary any
	// Error, when set, is a scripted failure instead of an answer.
	Error *ScriptedError
}

// ScriptedError is a scripted provider failure.
type ScriptedError struct {
	Category, Message string
	RetryAfterMS      *int64
}

// Error implements error.
func (e *ScriptedError) Error() string { return e.Category + ": " + e.Message }

// MockScript holds scripted answers; it is safe for concurrent use.
type MockScript struct {
	mu      sync.Mutex
	answers []*Scripted
}

// NewMockScript returns a script of answers.
func NewMockScript(answers ...*Scripted) *MockScript {
	return &MockScript{answers: answers}
}

// Add appends an answer.
func (s *MockScript) Add(a *Scripted) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers = append(s.answers, a)
}

// Take finds the answer to a prompt: the first answer without a pattern
// (used up), else the first whose pattern matches the prompt (used up
// when it says so); nil when none answers.
func (s *MockScript) Take(prompt string) *Scripted {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, a := range s.answers {
		if a.Match == "" {
			s.answers = append(s.answers[:i], s.answers[i+1:]...)
			return a
		}
	}
	for i, a := range s.answers {
		if GlobMatch(a.Match, prompt) {
			if a.Consume {
				s.answers = append(s.answers[:i], s.answers[i+1:]...)
			}
			return a
		}
	}
	return nil
}

// Clear removes every answer.
func (s *MockScript) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers = nil
}

// Snapshot returns the answers left (for a scope to restore).
func (s *MockScript) Snapshot() []*Scripted {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Scripted(nil), s.answers...)
}

// Restore replaces the answers.
func (s *MockScript) Restore(answers []*Scripted) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers = answers
}

// GlobMatch matches text against a pattern whose "*" matches any run of
// characters (catalog.GlobMatch, the one matcher for mock prompts and
// capability rules).
func GlobMatch(pattern, text string) bool { return catalog.GlobMatch(pattern, text) }

// MaxScriptLine bounds one line of a mock script.
const MaxScriptLine = 64 << 20

// ParseMockScript reads a .llm-mock.jsonl script; errors name the file
// and line. categoryOK, when not nil, vets an error's category.
func ParseMockScript(data []byte, name string, categoryOK func(string) bool) ([]*Scripted, error) {
	var out []*Scripted
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), MaxScriptLine)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.UseNumber()
		var d map[string]any
		if err := dec.Decode(&d); err != nil || d == nil {
			return out, fmt.Errorf("%s:%d: not a JSON object", name, line)
		}
		a, err := ScriptedFromMap(d, categoryOK)
		if err != nil {
			return out, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	return out, nil
}

// ScriptedFromMap reads one answer from its decoded JSON object (a script
// line, or a runtime's registration converted to plain values).
func ScriptedFromMap(d map[string]any, categoryOK func(string) bool) (*Scripted, error) {
	str := func(k string) string {
		switch v := NormalizeValue(d[k]).(type) {
		case nil:
			return ""
		case string:
			return v
		default:
			return ValueText(v)
		}
	}
	num := func(k string) *int64 {
		if n, ok := NormalizeValue(d[k]).(int64); ok {
			return &n
		}
		return nil
	}
	a := &Scripted{Text: str("text"), Match: str("match"), Model: str("model"), Provider: str("provider"),
		InputTokens: num("input_tokens"), OutputTokens: num("output_tokens"), CacheRead: num("cache_read_tokens"), CacheWrite: num("cache_write_tokens"),
		StopReason: NormalizeValue(d["stop_reason"]), Thinking: NormalizeValue(d["thinking"]), ThinkingSummary: NormalizeValue(d["thinking_summary"])}
	a.Consume, _ = d["consume_match"].(bool)
	if a.CacheWrite == nil {
		a.CacheWrite = num("cache_creation_input_tokens")
	}
	if calls, ok := d["tool_calls"].([]any); ok {
		for i, x := range calls {
			c, ok := x.(map[string]any)
			if !ok {
				continue
			}
			name, _ := c["name"].(string)
			if name == "" {
				name = "unknown"
			}
			args, _ := NormalizeValue(c["arguments"]).(map[string]any)
			if args == nil {
				args = map[string]any{}
			}
			a.Calls = append(a.Calls, ToolCall{ID: fmt.Sprintf("mock_call_%d", i+1), Tool: name, Args: args})
		}
	}
	if e, ok := d["error"]; ok && e != nil {
		ed, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("error must be a dict {category, message, retry_after_ms?}")
		}
		se := &ScriptedError{}
		se.Category, _ = ed["category"].(string)
		if se.Category == "" {
			return nil, fmt.Errorf("error.category is required")
		}
		if categoryOK != nil && !categoryOK(se.Category) {
			return nil, fmt.Errorf("unknown error category `%s`", se.Category)
		}
		if m, ok := ed["message"]; ok && m != nil {
			se.Message = ValueText(NormalizeValue(m))
		}
		if n, ok := NormalizeValue(ed["retry_after_ms"]).(int64); ok {
			se.RetryAfterMS = &n
		}
		a.Error = se
	}
	return a, nil
}

// MarshalMockScript writes recorded turns as a .llm-mock.jsonl script
// (upstream Harn's --llm-mock-record): one line per turn, in order and
// without a pattern, so replaying the script answers the same turns in
// the same order. A turn's text, tool calls and token counts are kept; a
// failure becomes an error line whose category is Harn's name of the
// recorded kind (generic when it has none; a scripted failure keeps its
// category).
func MarshalMockScript(records []TurnRecord) ([]byte, error) {
	var b bytes.Buffer
	for _, r := range records {
		line := map[string]any{}
		if r.Error != "" {
			line["error"] = map[string]any{"category": scriptCategory(r.ErrorKind), "message": r.Error}
		} else {
			line["text"] = r.Result.Text
			if len(r.Result.Calls) > 0 {
				calls := make([]any, len(r.Result.Calls))
				for i, c := range r.Result.Calls {
					args := c.Args
					if args == nil {
						args = map[string]any{}
					}
					calls[i] = map[string]any{"name": c.Tool, "arguments": NormalizeValue(args)}
				}
				line["tool_calls"] = calls
			}
			line["input_tokens"], line["output_tokens"] = r.Result.Usage.InputTokens, r.Result.Usage.OutputTokens
		}
		out, err := marshalPlain(line)
		if err != nil {
			return nil, err
		}
		b.Write(out)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// scriptCategory is Harn's error category of a recorded failure kind.
func scriptCategory(kind string) string {
	switch ErrorKind(kind) {
	case ErrRateLimited:
		return "rate_limit"
	case ErrOverloaded:
		return "overloaded"
	case ErrTimeout, ErrDeadline:
		return "timeout"
	case ErrTransport:
		return "transient_network"
	case ErrAuthorityDenied:
		return "auth"
	case ErrCancelled:
		return "cancelled"
	case ErrStatus, ErrMalformed, ErrContextWindow, ErrUnconfigured, ErrUnsupported, ErrReplay, ErrRedirect, "provider", "":
		return "generic"
	}
	return kind // a scripted failure's own category, vetted when it was read
}
