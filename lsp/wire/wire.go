// Package wire carries JSON-RPC 2.0 messages over the Language Server
// Protocol's base framing (Content-Length headers) for
// github.com/sourcegraph/jsonrpc2, the transport glsp is built on.
//
// Unlike jsonrpc2's own codec, which ends the connection at the first
// malformed message, a Stream answers every frame it cannot accept with a
// JSON-RPC error response (-32700 for bytes that are not JSON, -32600 for
// JSON that is not a request, notification or response) and goes on
// reading. Only end of input or a read error ends the stream.
//
// The package knows JSON-RPC framing only, nothing of LSP methods.
package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// JSON-RPC error codes the stream answers with.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
)

// DefaultMaxMessage is the largest message body accepted, in bytes; a
// longer one is skipped and answered with an error.
const DefaultMaxMessage = 256 << 20

// Stream implements jsonrpc2.ObjectStream over a reader and a writer.
type Stream struct {
	r      *bufio.Reader
	w      io.Writer
	closer io.Closer
	// Logf reports the frames the stream rejected; nil discards.
	Logf func(format string, args ...any)
	// MaxMessage limits the body size; 0 means DefaultMaxMessage.
	MaxMessage int

	wmu sync.Mutex
}

// NewStream returns a stream reading frames from r and writing them to w.
// Close closes closer when it is not nil.
func NewStream(r io.Reader, w io.Writer, closer io.Closer) *Stream {
	return &Stream{r: bufio.NewReaderSize(r, 64<<10), w: w, closer: closer}
}

func (s *Stream) logf(format string, args ...any) {
	if s.Logf != nil {
		s.Logf(format, args...)
	}
}

// WriteObject writes obj as one frame, in a single write.
func (s *Stream) WriteObject(obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return s.writeFrame(data)
}

func (s *Stream) writeFrame(data []byte) error {
	frame := make([]byte, 0, len(data)+32)
	frame = fmt.Appendf(frame, "Content-Length: %d\r\n\r\n", len(data))
	frame = append(frame, data...)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err := s.w.Write(frame)
	return err
}

// ReadObject reads the next acceptable message into v (a jsonrpc2 message).
// Malformed frames are answered and skipped.
func (s *Stream) ReadObject(v any) error {
	for {
		body, err := s.readFrame()
		if err != nil {
			if fe, ok := err.(*frameError); ok {
				s.logf("rejected frame: %s", fe.msg)
				if werr := s.reply(nil, CodeParseError, fe.msg); werr != nil {
					return werr
				}
				continue
			}
			return err
		}
		if id, code, msg, ok := validate(body); !ok {
			s.logf("rejected message: %s: %.200q", msg, body)
			if werr := s.reply(id, code, msg); werr != nil {
				return werr
			}
			continue
		}
		if err := json.Unmarshal(body, v); err != nil {
			msg := "invalid JSON-RPC message: " + err.Error()
			s.logf("rejected message: %s: %.200q", msg, body)
			if werr := s.reply(messageID(body), CodeInvalidRequest, msg); werr != nil {
				return werr
			}
			continue
		}
		return nil
	}
}

// Close closes the underlying connection.
func (s *Stream) Close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

// frameError is a header problem the stream can recover from.
type frameError struct{ msg string }

func (e *frameError) Error() string { return e.msg }

// readFrame reads one header block and its body. Header lines end in
// "\r\n" (a bare "\n" is tolerated); unknown headers are ignored.
func (s *Stream) readFrame() ([]byte, error) {
	length := -1
	var bad string
	sawHeader := false
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && (line != "" || sawHeader) {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !sawHeader {
				continue // stray blank line between frames
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			bad = fmt.Sprintf("malformed header line %.80q", line)
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				bad = fmt.Sprintf("bad Content-Length %.40q", strings.TrimSpace(value))
				continue
			}
			length = n
		}
	}
	if length < 0 {
		if bad == "" {
			bad = "missing Content-Length header"
		}
		return nil, &frameError{bad}
	}
	limit := s.MaxMessage
	if limit <= 0 {
		limit = DefaultMaxMessage
	}
	if length > limit {
		if _, err := io.CopyN(io.Discard, s.r, int64(length)); err != nil {
			return nil, err
		}
		return nil, &frameError{fmt.Sprintf("message of %d bytes exceeds the limit of %d", length, limit)}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if bad != "" {
		// A usable length despite another malformed header: accept.
		s.logf("ignored header problem: %s", bad)
	}
	return body, nil
}

// validate checks that body is one JSON-RPC 2.0 object with a usable id;
// otherwise it returns the id to answer with (possibly nil), the error code
// and a message.
func validate(body []byte) (id json.RawMessage, code int, msg string, ok bool) {
	if !json.Valid(body) {
		return nil, CodeParseError, "parse error: message body is not valid JSON", false
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, CodeInvalidRequest, "invalid request: a message must be a JSON object (batches are not used by LSP)", false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return nil, CodeInvalidRequest, "invalid request: " + err.Error(), false
	}
	rawID, hasID := m["id"]
	if hasID && !validID(rawID) {
		return nil, CodeInvalidRequest, "invalid request: id must be a string, an integer or null", false
	}
	if hasID {
		id = rawID
	}
	if v := string(m["jsonrpc"]); v != `"2.0"` {
		return id, CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`, false
	}
	method, hasMethod := m["method"]
	if hasMethod {
		var name string
		if err := json.Unmarshal(method, &name); err != nil {
			return id, CodeInvalidRequest, "invalid request: method must be a string", false
		}
		if p, ok := m["params"]; ok {
			if t := bytes.TrimSpace(p); len(t) == 0 || (t[0] != '{' && t[0] != '[' && string(t) != "null") {
				return id, CodeInvalidRequest, "invalid request: params must be an object or an array", false
			}
		}
		return nil, 0, "", true
	}
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if hasID && (hasResult || hasError) {
		return nil, 0, "", true
	}
	return id, CodeInvalidRequest, "invalid request: neither a request nor a response", false
}

// validID accepts what jsonrpc2 can decode as an id: a string, a
// non-negative integer or null.
func validID(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	if string(t) == "null" {
		return true
	}
	var s string
	if json.Unmarshal(t, &s) == nil {
		return true
	}
	_, err := strconv.ParseUint(string(t), 10, 64)
	return err == nil
}

// messageID extracts a valid id from body, or nil.
func messageID(body []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) == nil && m.ID != nil && validID(m.ID) {
		return m.ID
	}
	return nil
}

// reply writes an error response.
func (s *Stream) reply(id json.RawMessage, code int, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	if err != nil {
		return err
	}
	return s.writeFrame(data)
}
