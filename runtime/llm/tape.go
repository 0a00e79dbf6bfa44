package llm

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/harnlang/harn-check/internal/blake3"
	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/redact"
)

// TapeSchema is the first line of every tape.
const TapeSchema = "harn-check.tape.v1"

// MaxTapeLine bounds one tape line (a record with its state and answer).
const MaxTapeLine = 64 << 20

// Record is one recorded exchange.
type Record struct {
	// Seq is the 1-based position on the tape.
	Seq int `json:"seq"`
	// Kind says what was recorded: "chat" or "evaluation".
	Kind string `json:"kind"`
	// Identity binds the record to its request.
	Identity string          `json:"identity"`
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response"`
}

// MismatchError is a replayed request that does not match the tape.
type MismatchError struct {
	Kind string
	// Expected is the recorded identity ("" when the tape has no record
	// left); Actual the identity of the request being made.
	Expected, Actual string
	// Occurrence is the 1-based position on the tape.
	Occurrence int
}

func (e *MismatchError) Error() string {
	if e.Expected == "" {
		return fmt.Sprintf("replay mismatch: the tape has no record %d for this %s request (%s)", e.Occurrence, e.Kind, e.Actual)
	}
	return fmt.Sprintf("replay mismatch at record %d: the tape holds %s, the %s request is %s", e.Occurrence, e.Expected, e.Kind, e.Actual)
}

// Tape records exchanges, or replays them strictly in order. A Tape is
// safe for concurrent use.
type Tape struct {
	replay bool
	path   string
	log    strict[Record]
}

// NewRecordingTape returns an empty tape in record mode.
func NewRecordingTape() *Tape { return &Tape{} }

// OpenTape opens a tape file the way upstream's --tape does: an existing
// file is replayed, a missing one is recorded (and written by Save).
func OpenTape(path string) (*Tape, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return &Tape{path: path}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := ReadTape(f, path)
	if err != nil {
		return nil, err
	}
	t.path = path
	return t, nil
}

// ReadTape parses a tape for replay. Errors name the line.
func ReadTape(r io.Reader, name string) (*Tape, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxTapeLine)
	t := &Tape{replay: true}
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if line == 1 {
			var head struct {
				Schema string `json:"schema"`
			}
			if err := strictUnmarshal(b, &head); err != nil || head.Schema != TapeSchema {
				return nil, fmt.Errorf("%s:1: not a tape (want the line {\"schema\":%q})", name, TapeSchema)
			}
			continue
		}
		if len(b) == 0 {
			continue
		}
		var rec Record
		if err := strictUnmarshal(b, &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if rec.Seq != len(t.log.records)+1 {
			return nil, fmt.Errorf("%s:%d: record seq %d out of order (want %d)", name, line, rec.Seq, len(t.log.records)+1)
		}
		if rec.Kind == "" || rec.Identity == "" || len(rec.Response) == 0 {
			return nil, fmt.Errorf("%s:%d: record needs kind, identity and response", name, line)
		}
		t.log.records = append(t.log.records, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("%s: empty tape", name)
	}
	return t, nil
}

func strictUnmarshal(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("trailing data")
	}
	return nil
}

// Replaying reports whether the tape replays (true) or records.
func (t *Tape) Replaying() bool { return t.replay }

// Path is the file the tape was opened from, or "".
func (t *Tape) Path() string { return t.path }

// Next consumes the next record, which must have the given kind and
// identity. A mismatch is a *MismatchError; it is also kept for Finish,
// and the record is consumed so later requests stay aligned.
func (t *Tape) Next(kind, identity string) (*Record, error) {
	if !t.replay {
		return nil, errors.New("the tape is recording, not replaying")
	}
	rec, err := t.log.take(func(pos int, rec Record) error {
		if rec.Kind != kind || rec.Identity != identity {
			return &MismatchError{Kind: kind, Expected: rec.Identity, Actual: identity, Occurrence: pos}
		}
		return nil
	}, func(pos int) error { return &MismatchError{Kind: kind, Actual: identity, Occurrence: pos} })
	if err != nil {
		return nil, err
	}
	return &rec, nil
}

// Reserve takes the next position on a recording tape for an exchange
// that has started but not finished, so concurrent exchanges are recorded
// in the order they began (the order a replay asks for them), not the
// order they completed. Fill completes it; an unfilled position is left
// out of the file.
func (t *Tape) Reserve() int {
	t.log.mu.Lock()
	defer t.log.mu.Unlock()
	t.log.records = append(t.log.records, Record{})
	return len(t.log.records) - 1
}

// Fill records the exchange of a reserved position.
func (t *Tape) Fill(pos int, kind, identity string, request, response any) error {
	req, err := canonjson.Encode(request)
	if err != nil {
		return fmt.Errorf("tape: %v", err)
	}
	resp, err := marshalPlain(response)
	if err != nil {
		return fmt.Errorf("tape: %v", err)
	}
	t.log.mu.Lock()
	defer t.log.mu.Unlock()
	if t.replay || pos < 0 || pos >= len(t.log.records) || t.log.records[pos].Kind != "" {
		return errors.New("tape: no such reserved position")
	}
	t.log.records[pos] = Record{Kind: kind, Identity: identity, Request: req, Response: resp}
	return nil
}

// Append records an exchange (record mode).
func (t *Tape) Append(kind, identity string, request, response any) error {
	req, err := canonjson.Encode(request)
	if err != nil {
		return fmt.Errorf("tape: %v", err)
	}
	resp, err := marshalPlain(response)
	if err != nil {
		return fmt.Errorf("tape: %v", err)
	}
	t.log.mu.Lock()
	defer t.log.mu.Unlock()
	if t.replay {
		return errors.New("the tape is replaying, not recording")
	}
	t.log.records = append(t.log.records, Record{Kind: kind, Identity: identity, Request: req, Response: resp})
	return nil
}

// Fail keeps err (the first one) for Finish.
func (t *Tape) Fail(err error) { t.log.Fail(err) }

// Finish reports the first replay failure, or unconsumed records (a tape
// whose program made fewer requests fails too).
func (t *Tape) Finish() error {
	if !t.replay {
		return t.log.finish(nil)
	}
	return t.log.finish(func(next int, rec Record, left int) error {
		return fmt.Errorf("replay mismatch: %d unconsumed tape record(s), the next is record %d (%s %s)", left, next, rec.Kind, rec.Identity)
	})
}

// Records returns the records, numbered from 1 (unfilled reservations
// of a recording tape left out).
func (t *Tape) Records() []Record {
	t.log.mu.Lock()
	defer t.log.mu.Unlock()
	var out []Record
	for _, r := range t.log.records {
		if r.Kind == "" {
			continue
		}
		r.Seq = len(out) + 1
		out = append(out, r)
	}
	return out
}

// WriteTo writes the tape in its file format.
func (t *Tape) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	b.WriteString(`{"schema":"` + TapeSchema + `"}` + "\n")
	for _, r := range t.Records() {
		line, err := marshalPlain(r)
		if err != nil {
			return 0, err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	n, err := w.Write(b.Bytes())
	return int64(n), err
}

// Save writes a recording tape to the file it was opened from.
func (t *Tape) Save() error {
	if t.replay || t.path == "" {
		return nil
	}
	var b bytes.Buffer
	if _, err := t.WriteTo(&b); err != nil {
		return err
	}
	return redact.WriteFile(t.path, b.Bytes(), 0o600)
}

// marshalPlain is encoding/json without HTML escaping or a newline.
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Identity is "blake3:" + the hex BLAKE3 of v's canonical JSON.
func Identity(v any) (string, error) {
	b, err := canonjson.Encode(v)
	if err != nil {
		return "", err
	}
	sum := blake3.Sum256(b)
	return "blake3:" + hex.EncodeToString(sum[:]), nil
}
