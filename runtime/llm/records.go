package llm

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/internal/blake3"
	"github.com/harnlang/harn-check/runtime/redact"
)

// # The .records.json format
//
// A replay fixture is one JSON array; each element records one turn in the
// order the program made it:
//
//	{
//	  "Request": {"Model", "Messages": [{"Role", "Text", "ToolCall": {"ID", "Tool", "Args"},
//	              "ToolUseID", "Value", "Error"}], "Tools": [{"Name", "Description", "Params",
//	              "Requires", "Schema"}], "ForceTool", "MaxTokens", "Temperature", "TopP",
//	              "ResponseFormat", "Stream", "Stop", "Metadata"},
//	  "Result": {"Status", "Text", "Calls": [{"ID", "Tool", "Args"}], "Reason",
//	             "Usage": {"InputTokens", "OutputTokens", "Cost", "LatencyMS"}},
//	  "Error": "...", "ErrorKind": "...",
//	  "StreamEvents": [{"Type": "token", "Token", "Text"}],
//	  "RequestHash": "blake3:..."
//	}
//
// These are upstream Leia's field names (its fixtures read here unchanged,
// whether they spell out empty fields as null/""/0 or omit them). Written
// records omit empty fields, indent by two spaces and end with a newline;
// maps are written with sorted keys, so recording the same run twice gives
// the same bytes. ErrorKind and RequestHash are ours: the kind of a
// recorded provider failure, and the hash (TurnRequest.Hash) the replay
// checks first. Integral numbers inside values read back as integers.

// TurnRecord is one recorded turn.
type TurnRecord struct {
	Request TurnRequest `json:"Request"`
	Result  TurnResult  `json:"Result,omitzero"`
	// Error is a recorded provider failure's message ("" for success).
	Error string `json:"Error,omitempty"`
	// ErrorKind is the recorded failure's ErrorKind.
	ErrorKind    string        `json:"ErrorKind,omitempty"`
	StreamEvents []StreamEvent `json:"StreamEvents,omitempty"`
	RequestHash  string        `json:"RequestHash,omitempty"`
}

// MaxRecordsBytes bounds a fixture file.
const MaxRecordsBytes = 256 << 20

func hashBytes(b []byte) string {
	sum := blake3.Sum256(b)
	return "blake3:" + hex.EncodeToString(sum[:])
}

// ParseRecords reads a fixture. Errors name the file and, for malformed
// JSON, the line and column.
func ParseRecords(data []byte, name string) ([]TurnRecord, error) {
	if len(data) > MaxRecordsBytes {
		return nil, fmt.Errorf("%s: replay fixture larger than %d bytes", name, MaxRecordsBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var records []TurnRecord
	if err := dec.Decode(&records); err != nil {
		return nil, fmt.Errorf("%s: not a replay fixture (a JSON array of turn records): %s", name, jsonErrorAt(data, err))
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: trailing data after the record array", name)
	}
	for i := range records {
		r := &records[i]
		r.Request = r.Request.Normalized()
		for j := range r.Result.Calls {
			r.Result.Calls[j] = r.Result.Calls[j].normalized()
		}
		if r.RequestHash != "" && !strings.HasPrefix(r.RequestHash, "blake3:") {
			return nil, fmt.Errorf("%s: record %d: RequestHash %q is not a blake3 hash", name, i+1, r.RequestHash)
		}
	}
	return records, nil
}

// jsonErrorAt renders a decoding error with its line and column.
func jsonErrorAt(data []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return err.Error()
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}

// LoadRecords reads a fixture file.
func LoadRecords(path string) ([]TurnRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxRecordsBytes+1))
	if err != nil {
		return nil, err
	}
	return ParseRecords(data, path)
}

// MarshalRecords renders records in the file format.
func MarshalRecords(records []TurnRecord) ([]byte, error) {
	if records == nil {
		records = []TurnRecord{}
	}
	b, err := json.MarshalIndent(records, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// SaveRecords writes a fixture file: a .records.json fixture, or an
// .llm-mock.jsonl script (MarshalMockScript) when the path ends in
// .jsonl (upstream Harn's --llm-mock-record).
func SaveRecords(path string, records []TurnRecord) error {
	marshal := MarshalRecords
	if strings.HasSuffix(path, ".jsonl") {
		marshal = MarshalMockScript
	}
	b, err := marshal(records)
	if err != nil {
		return err
	}
	return redact.WriteFile(path, b, 0o644)
}

// ReplayError is a replay that cannot answer: the request differs from
// the record (Mismatch), or no record is left (Exhausted). Its text names
// the turn and what differs, never message content.
type ReplayError struct {
	// Turn is 1-based.
	Turn int
	// Exhausted is true when the fixture has no record left.
	Exhausted bool
	// Expected and Actual summarize the recorded and the actual request
	// (TurnRequest.Summary); Expected is nil when exhausted.
	Expected, Actual map[string]any
	// Diff says where the requests first differ.
	Diff string
}

// Error implements error.
func (e *ReplayError) Error() string {
	if e.Exhausted {
		return fmt.Sprintf("llm replay exhausted at turn %d: the fixture has no record left for a %s request", e.Turn, e.Actual["model"])
	}
	return fmt.Sprintf("llm replay request mismatch at turn %d: %s", e.Turn, e.Diff)
}

// ReplayedError is a provider failure read back from a record.
type ReplayedError struct {
	Kind    string
	Message string
}

// Error implements error.
func (e *ReplayedError) Error() string { return e.Message }

// Replay answers turns from records, strictly in order: turn N must be
// the request record N holds (same normalized request), a request past
// the last record fails, and Finish reports records left unconsumed. A
// mismatched record is consumed, so later turns stay aligned. Replay is
// safe for concurrent use.
type Replay struct {
	log strict[TurnRecord]
}

// NewReplay returns a replay of records.
func NewReplay(records []TurnRecord) *Replay {
	r := &Replay{}
	r.log.records = append([]TurnRecord(nil), records...)
	return r
}

// Turn implements Provider.
func (r *Replay) Turn(ctx context.Context, req TurnRequest, onStream func(StreamEvent)) (TurnResult, error) {
	if err := ctx.Err(); err != nil {
		return TurnResult{}, (&Transport{}).failure(ctx, err, 0)
	}
	actual := req.Normalized()
	rec, err := r.log.take(func(turn int, rec TurnRecord) error {
		want := rec.RequestHash
		if want == "" {
			want = rec.Request.Hash()
		}
		if actual.Hash() == want {
			return nil
		}
		e := &ReplayError{Turn: turn, Expected: rec.Request.Summary(), Actual: actual.Summary(), Diff: DiffRequests(rec.Request, actual)}
		if want != rec.Request.Hash() {
			e.Diff = "the record's RequestHash does not match its own Request (edited fixture?); " + e.Diff
		}
		return e
	}, func(turn int) error { return &ReplayError{Turn: turn, Exhausted: true, Actual: req.Summary()} })
	if err != nil {
		return TurnResult{}, err
	}
	if rec.Error != "" {
		kind := rec.ErrorKind
		if kind == "" {
			kind = "provider"
		}
		return TurnResult{}, &ReplayedError{Kind: kind, Message: redact.String(rec.Error)} // a fixture is input: its prose may hold a key
	}
	res := rec.Result
	res.Calls = append([]ToolCall(nil), res.Calls...)
	if onStream != nil {
		if len(rec.StreamEvents) > 0 {
			for _, ev := range rec.StreamEvents {
				onStream(ev)
			}
		} else if res.Text != "" {
			onStream(StreamEvent{Type: "token", Token: res.Text, Text: res.Text})
		}
	}
	return res, nil
}

// Loaded is the number of records.
func (r *Replay) Loaded() int {
	n, _ := r.log.counts()
	return n
}

// Consumed is the number of records used so far.
func (r *Replay) Consumed() int {
	_, n := r.log.counts()
	return n
}

// Remaining is the number of records not used yet.
func (r *Replay) Remaining() int {
	n, used := r.log.counts()
	return n - used
}

// Finish reports the first mismatch or exhaustion, else records left
// unconsumed (a program that made fewer turns than recorded fails too).
func (r *Replay) Finish() error {
	return r.log.finish(func(next int, rec TurnRecord, left int) error {
		return &UnconsumedError{Left: left, Next: next, Summary: rec.Request.Summary()}
	})
}

// UnconsumedError is a replay whose program made fewer turns than
// recorded.
type UnconsumedError struct {
	Left, Next int
	Summary    map[string]any
}

// Error implements error.
func (e *UnconsumedError) Error() string {
	return fmt.Sprintf("llm replay left %d unconsumed turn(s); the next is turn %d (a %v request with %v messages)", e.Left, e.Next, e.Summary["model"], e.Summary["message_count"])
}

// Recorder wraps a live provider and records every turn it answers,
// failures included.
type Recorder struct {
	Live    Provider
	mu      sync.Mutex
	records []TurnRecord
	// shared is the recorder a Wrap'd provider records into.
	shared *Recorder
}

// Turn implements Provider.
func (r *Recorder) Turn(ctx context.Context, req TurnRequest, onStream func(StreamEvent)) (TurnResult, error) {
	if r.Live == nil {
		return TurnResult{}, &Error{Kind: ErrUnconfigured, Detail: "recording needs a live provider"}
	}
	var events []StreamEvent
	var tap func(StreamEvent)
	if onStream != nil {
		tap = func(ev StreamEvent) {
			events = append(events, ev)
			onStream(ev)
		}
	}
	res, err := r.Live.Turn(ctx, req, tap)
	norm := req.Normalized()
	rec := TurnRecord{Request: norm, StreamEvents: events, RequestHash: norm.Hash()}
	if err != nil {
		rec.Error = err.Error()
		rec.ErrorKind = ErrorKindOf(err)
	} else {
		rec.Result = res
		for i := range rec.Result.Calls {
			rec.Result.Calls[i] = rec.Result.Calls[i].normalized()
		}
	}
	into := r
	if r.shared != nil {
		into = r.shared
	}
	into.mu.Lock()
	into.records = append(into.records, rec)
	into.mu.Unlock()
	return res, err
}

// Records returns what was recorded so far.
func (r *Recorder) Records() []TurnRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]TurnRecord(nil), r.records...)
}

// Wrap returns a provider that answers with live and records each turn
// here (several live providers may share one recorder).
func (r *Recorder) Wrap(live Provider) Provider {
	return &Recorder{Live: live, shared: r}
}

// ErrorKindOf names a provider failure's kind: an *Error's Kind, a
// replayed error's kind, "cancelled"/"deadline" for context errors,
// "provider" otherwise.
func ErrorKindOf(err error) string {
	var pe *Error
	var re *ReplayedError
	var rp *ReplayError
	var se *ScriptedError
	var ue *UnmatchedError
	switch {
	case errors.As(err, &ue):
		return string(ErrReplay)
	case errors.As(err, &se):
		return se.Category
	case errors.As(err, &pe):
		return string(pe.Kind)
	case errors.As(err, &re):
		return re.Kind
	case errors.As(err, &rp):
		return string(ErrReplay)
	case errors.Is(err, context.Canceled):
		return string(ErrCancelled)
	case errors.Is(err, context.DeadlineExceeded):
		return string(ErrDeadline)
	}
	return "provider"
}

// DiffRequests says where two requests first differ. Metadata (model,
// roles, counts, tool names, numbers) is shown; content (message text,
// values, arguments, descriptions, schemas) is described by its size and
// hash only, so the text never carries a prompt.
func DiffRequests(want, got TurnRequest) string {
	want, got = want.Normalized(), got.Normalized()
	show := func(field string, a, b any) string {
		return fmt.Sprintf("%s: recorded %s, actual %s", field, fmtMeta(a), fmtMeta(b))
	}
	content := func(field string, a, b any) string {
		return fmt.Sprintf("%s: recorded %s, actual %s", field, fmtContent(a), fmtContent(b))
	}
	switch {
	case want.Model != got.Model:
		return show("Model", want.Model, got.Model)
	case len(want.Messages) != len(got.Messages):
		for i := 0; i < len(want.Messages) && i < len(got.Messages); i++ {
			if d := diffMessage(i, want.Messages[i], got.Messages[i], content, show); d != "" {
				return d
			}
		}
		return show("len(Messages)", len(want.Messages), len(got.Messages))
	}
	for i := range want.Messages {
		if d := diffMessage(i, want.Messages[i], got.Messages[i], content, show); d != "" {
			return d
		}
	}
	if len(want.Tools) != len(got.Tools) {
		return show("len(Tools)", len(want.Tools), len(got.Tools))
	}
	for i := range want.Tools {
		a, b := want.Tools[i], got.Tools[i]
		f := fmt.Sprintf("Tools[%d]", i)
		switch {
		case a.Name != b.Name:
			return show(f+".Name", a.Name, b.Name)
		case a.Description != b.Description:
			return content(f+".Description", a.Description, b.Description)
		case !reflect.DeepEqual(a.Params, b.Params):
			return show(f+".Params", a.Params, b.Params)
		case !reflect.DeepEqual(a.Requires, b.Requires):
			return show(f+".Requires", a.Requires, b.Requires)
		case ValueHash(a.Schema) != ValueHash(b.Schema):
			return content(f+".Schema", a.Schema, b.Schema)
		}
	}
	switch {
	case want.ForceTool != got.ForceTool:
		return show("ForceTool", want.ForceTool, got.ForceTool)
	case want.MaxTokens != got.MaxTokens:
		return show("MaxTokens", want.MaxTokens, got.MaxTokens)
	case !reflect.DeepEqual(want.Temperature, got.Temperature):
		return show("Temperature", want.Temperature, got.Temperature)
	case !reflect.DeepEqual(want.TopP, got.TopP):
		return show("TopP", want.TopP, got.TopP)
	case ValueHash(want.ResponseFormat) != ValueHash(got.ResponseFormat):
		return content("ResponseFormat", want.ResponseFormat, got.ResponseFormat)
	case want.Stream != got.Stream:
		return show("Stream", want.Stream, got.Stream)
	case !reflect.DeepEqual(want.Stop, got.Stop):
		return content("Stop", want.Stop, got.Stop)
	case !reflect.DeepEqual(want.Metadata, got.Metadata):
		return content("Metadata", want.Metadata, got.Metadata)
	}
	return fmt.Sprintf("the requests hash differently (recorded %s, actual %s)", want.Hash(), got.Hash())
}

func diffMessage(i int, a, b TurnMessage, content, show func(string, any, any) string) string {
	f := fmt.Sprintf("Messages[%d]", i)
	switch {
	case a.Role != b.Role:
		return show(f+".Role", a.Role, b.Role)
	case a.Text != b.Text:
		return content(f+".Text", a.Text, b.Text)
	case (a.ToolCall == nil) != (b.ToolCall == nil):
		return show(f+".ToolCall", a.ToolCall != nil, b.ToolCall != nil)
	case a.ToolCall != nil && a.ToolCall.ID != b.ToolCall.ID:
		return show(f+".ToolCall.ID", a.ToolCall.ID, b.ToolCall.ID)
	case a.ToolCall != nil && a.ToolCall.Tool != b.ToolCall.Tool:
		return show(f+".ToolCall.Tool", a.ToolCall.Tool, b.ToolCall.Tool)
	case a.ToolCall != nil && ValueHash(a.ToolCall.Args) != ValueHash(b.ToolCall.Args):
		return content(f+".ToolCall.Args", a.ToolCall.Args, b.ToolCall.Args)
	case a.ToolUseID != b.ToolUseID:
		return show(f+".ToolUseID", a.ToolUseID, b.ToolUseID)
	case ValueHash(a.Value) != ValueHash(b.Value):
		return content(f+".Value", a.Value, b.Value)
	case a.Error != b.Error:
		return content(f+".Error", a.Error, b.Error)
	}
	return ""
}

func fmtMeta(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case *float64:
		if x == nil {
			return "unset"
		}
		return fmt.Sprint(*x)
	}
	return fmt.Sprint(v)
}

func fmtContent(v any) string {
	if v == nil {
		return "nothing"
	}
	if s, ok := v.(string); ok {
		if s == "" {
			return "nothing"
		}
		return fmt.Sprintf("%d bytes (%s)", len(s), shortHash(ValueHash(s)))
	}
	b, _ := json.Marshal(NormalizeValue(v))
	return fmt.Sprintf("a %d-byte value (%s)", len(b), shortHash(ValueHash(v)))
}

func shortHash(h string) string {
	if len(h) > len("blake3:")+12 {
		return h[:len("blake3:")+12]
	}
	return h
}

// finite reports a usable float (not NaN or infinite).
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
