package llm

import (
	"encoding/json"
	"io"
	"sync"
)

// TraceEvent is one metadata-only event of a model-using run: which model
// was asked, how many messages and tools went, what came back (status,
// tool names, call ids, token counts, cost, hashes), how long it took.
// It never holds prompt text, completions, tool arguments or values, or
// credentials; Message, when set, is a fixed text built by the runtime
// (an error's kind and shape), not provider or program prose.
//
// Types (upstream Leia's names): turn_start, turn_end, turn_error,
// stream_token, tool_call, tool_result, tool_error, tool_retry,
// tool_fatal, tool_denied, react_done, react_stopped, react_error,
// output_rejected, validator_broken, approval_pending, budget_exceeded.
type TraceEvent struct {
	Seq          int     `json:"seq"`
	Type         string  `json:"type"`
	Model        string  `json:"model,omitempty"`
	Agent        string  `json:"agent,omitempty"`
	Status       string  `json:"status,omitempty"`
	Tool         string  `json:"tool,omitempty"`
	CallID       string  `json:"call_id,omitempty"`
	ErrorKind    string  `json:"error_kind,omitempty"`
	Message      string  `json:"message,omitempty"`
	Step         int64   `json:"step,omitempty"`
	Attempt      int64   `json:"attempt,omitempty"`
	MessageCount int     `json:"message_count,omitempty"`
	ToolCount    int     `json:"tool_count,omitempty"`
	RequestHash  string  `json:"request_hash,omitempty"`
	ResponseHash string  `json:"response_hash,omitempty"`
	InputTokens  int64   `json:"input_tokens,omitempty"`
	OutputTokens int64   `json:"output_tokens,omitempty"`
	Cost         float64 `json:"cost,omitempty"`
	DurationMS   int64   `json:"duration_ms,omitempty"`
	// Source is where the answer came from: live, mock, replay.
	Source string `json:"source,omitempty"`
}

// TraceSink receives trace events.
type TraceSink interface {
	Emit(TraceEvent)
}

// TraceFunc adapts a function to TraceSink.
type TraceFunc func(TraceEvent)

// Emit implements TraceSink.
func (f TraceFunc) Emit(ev TraceEvent) { f(ev) }

// JSONLTrace writes events as JSON lines, numbering them in order. It is
// safe for concurrent use; the first write error is kept and later events
// are dropped.
type JSONLTrace struct {
	mu  sync.Mutex
	w   io.Writer
	seq int
	err error
}

// NewJSONLTrace returns a sink writing to w.
func NewJSONLTrace(w io.Writer) *JSONLTrace { return &JSONLTrace{w: w} }

// Emit implements TraceSink.
func (t *JSONLTrace) Emit(ev TraceEvent) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return
	}
	t.seq++
	ev.Seq = t.seq
	b, err := json.Marshal(ev)
	if err == nil {
		_, err = t.w.Write(append(b, '\n'))
	}
	t.err = err
}

// Err is the first write error.
func (t *JSONLTrace) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// TraceRecorder keeps events in memory (tests, evaluate reports).
type TraceRecorder struct {
	mu     sync.Mutex
	events []TraceEvent
}

// Emit implements TraceSink.
func (r *TraceRecorder) Emit(ev TraceEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ev.Seq = len(r.events) + 1
	r.events = append(r.events, ev)
}

// Events returns the events so far.
func (r *TraceRecorder) Events() []TraceEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]TraceEvent(nil), r.events...)
}
