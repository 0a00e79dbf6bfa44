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
// The stream resynchronises after a frame whose Content-Length is wrong: a
// truncated frame swallows the start of the next one, so a body that is
// not JSON but holds a "Content-Length:" header is cut there and the rest
// read again as the next frame; a header line with junk before
// "Content-Length:" is read from that point; and a frame longer than the
// limit is skipped up to the next header rather than by its announced
// length, which may be a lie the client never fulfils.
//
// The package knows JSON-RPC framing only, nothing of LSP methods.
package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
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
// longer one is skipped and answered with an error. 64 MiB holds a
// didOpen of a file sixteen times the checker's default size limit.
const DefaultMaxMessage = 64 << 20

// Stream implements jsonrpc2.ObjectStream over a reader and a writer.
type Stream struct {
	r      *frameReader
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
	return &Stream{r: &frameReader{r: r}, w: w, closer: closer}
}

func (s *Stream) logf(format string, args ...any) {
	if s.Logf != nil {
		s.Logf(format, args...)
	}
}

// WriteObject writes obj as one frame, in a single write. A message that
// marshals itself (jsonrpc2's messages do, with json.Marshal) is written
// as it marshals: json.Marshal would validate and compact that output a
// second time, a pass over every reply (a completion list, the
// diagnostics of a large file) that changes nothing.
func (s *Stream) WriteObject(obj any) error {
	var data []byte
	var err error
	if m, ok := obj.(json.Marshaler); ok {
		data, err = m.MarshalJSON()
	} else {
		data, err = json.Marshal(obj)
	}
	if err != nil {
		return err
	}
	return s.writeFrame(data)
}

// WriteResult writes the response to the request with JSON id id whose
// result is result, both already encoded by encoding/json (valid and
// compact). jsonrpc2 would decode and compact such a result twice more on
// its way out (Response.SetResult, then the response's own MarshalJSON):
// three passes over a large reply (a completion list of a thousand items)
// that change nothing.
func (s *Stream) WriteResult(id, result json.RawMessage) error {
	data := make([]byte, 0, len(result)+len(id)+40)
	data = append(data, `{"id":`...)
	data = append(data, id...)
	data = append(data, `,"result":`...)
	data = append(data, result...)
	data = append(data, `,"jsonrpc":"2.0"}`...)
	return s.writeFrame(data)
}

// WriteNotification writes the notification of method whose params are
// params, already encoded by encoding/json (valid and compact), byte for
// byte as jsonrpc2 writes it: jsonrpc2 would compact the params twice
// more on the way out, for every publishDiagnostics of a document (70 KB
// for a file with a hundred diagnostics).
func (s *Stream) WriteNotification(method string, params json.RawMessage) error {
	m, err := json.Marshal(method)
	if err != nil {
		return err
	}
	data := make([]byte, 0, len(params)+len(m)+40)
	data = append(data, `{"jsonrpc":"2.0","method":`...)
	data = append(data, m...)
	data = append(data, `,"params":`...)
	data = append(data, params...)
	data = append(data, '}')
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
		line, err := s.r.readLine()
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
		if i := indexFold(line, "content-length:"); i > 0 {
			// Junk before a header (the rest of a frame whose length
			// was too small): the header starts here.
			bad = fmt.Sprintf("junk before a header: %.80q", line[:i])
			line = line[i:]
		}
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
		if err := s.r.skipToHeader(); err != nil && err != io.EOF {
			return nil, err
		}
		return nil, &frameError{fmt.Sprintf("message of %d bytes exceeds the limit of %d", length, limit)}
	}
	body, cut, err := s.r.readBody(length)
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if cut {
		return nil, &frameError{fmt.Sprintf("a frame of %d bytes was cut short by the next frame (announced %d)", len(body), length)}
	}
	if bad != "" {
		// A usable length despite another malformed header: accept.
		s.logf("ignored header problem: %s", bad)
	}
	return body, nil
}

// indexFold returns the index of the lower-case ASCII text sub in s,
// ignoring case, or -1.
func indexFold(s, sub string) int {
	// ASCII folding only: strings.ToLower can change the byte length of
	// a line (invalid UTF-8 becomes U+FFFD, some letters change width),
	// and the index must be one into s.
	for i := 0; i+len(sub) <= len(s); i++ {
		match := true
		for j := 0; j < len(sub); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

// frameReader reads lines and bodies from r, and can put bytes back in
// front of what it has not read yet (to resynchronise on a header).
type frameReader struct {
	r   io.Reader
	buf []byte // read from r, not consumed yet
	err error  // r's error once it has one
}

// fill reads more input into buf; it returns false once r fails.
func (f *frameReader) fill() bool {
	if f.err != nil {
		return false
	}
	var chunk [64 << 10]byte
	n, err := f.r.Read(chunk[:])
	f.buf = append(f.buf, chunk[:n]...)
	if err != nil {
		f.err = err
	}
	return n > 0 || err == nil
}

// readLine returns the next line, "\n" included; at the end of input it
// returns what is left with the read error.
func (f *frameReader) readLine() (string, error) {
	scanned := 0
	for {
		if i := bytes.IndexByte(f.buf[scanned:], '\n'); i >= 0 {
			line := string(f.buf[:scanned+i+1])
			f.buf = f.buf[scanned+i+1:]
			return line, nil
		}
		scanned = len(f.buf)
		if scanned > 1<<20 {
			// No header line is a megabyte long: this is junk; keep
			// its tail, where a header may begin.
			f.buf = f.buf[scanned-64:]
			scanned = len(f.buf)
		}
		if !f.fill() {
			line := string(f.buf)
			f.buf = nil
			return line, f.err
		}
	}
}

// nextHeader finds a "Content-Length: N" header line start: raw inside a
// body it cannot be JSON (a line break in a JSON string is escaped, and
// the words are no JSON token), so it is the next frame.
var nextHeader = regexp.MustCompile(`(?i)content-length:[ \t]*[0-9]+[ \t]*\r?\n`)

// readBody returns the next body of n bytes, or, when the next frame's
// header turns up before n bytes arrived (the frame was shorter than
// announced), the bytes before it with cut set; the header stays unread.
// It does not wait for the rest of a frame the client never sends.
func (f *frameReader) readBody(n int) (body []byte, cut bool, err error) {
	scanned := 0
	for {
		have := min(len(f.buf), n)
		if scanned < have {
			from := max(0, scanned-64) // a header split between reads
			if loc := nextHeader.FindIndex(f.buf[from:have]); loc != nil {
				at := from + loc[0]
				body = append([]byte(nil), f.buf[:at]...)
				f.buf = f.buf[at:]
				return body, true, nil
			}
			scanned = have
		}
		if len(f.buf) >= n {
			body = make([]byte, n)
			copy(body, f.buf)
			f.buf = f.buf[n:]
			return body, false, nil
		}
		if !f.fill() {
			if f.err == io.EOF && len(f.buf) > 0 {
				return nil, false, io.ErrUnexpectedEOF
			}
			return nil, false, f.err
		}
	}
}

// unread puts b back in front of the unread input.
func (f *frameReader) unread(b []byte) {
	f.buf = append(append(make([]byte, 0, len(b)+len(f.buf)), b...), f.buf...)
}

// skipToHeader discards input up to the next Content-Length header (which
// stays unread), or to the end of input. Frames need not be separated by
// a line break, so the header is looked for anywhere.
func (f *frameReader) skipToHeader() error {
	for {
		if at := bytes.Index(bytes.ToLower(f.buf), []byte("content-length:")); at >= 0 {
			f.buf = f.buf[at:]
			return nil
		}
		// Keep a tail that could hold the start of a header.
		if len(f.buf) > 32 {
			f.buf = f.buf[len(f.buf)-32:]
		}
		if !f.fill() {
			f.buf = nil
			return f.err
		}
	}
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
