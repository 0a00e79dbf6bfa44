package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
)

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

const ok1 = `{"jsonrpc":"2.0","id":1,"method":"a"}`
const ok2 = `{"jsonrpc":"2.0","method":"b","params":{}}`

// replies parses the error responses written to out as "id code" pairs.
func replies(t *testing.T, out string) []string {
	t.Helper()
	var got []string
	for out != "" {
		var n int
		if _, err := fmt.Sscanf(out, "Content-Length: %d\r\n\r\n", &n); err != nil {
			t.Fatalf("bad output %q", out)
		}
		i := strings.Index(out, "\r\n\r\n") + 4
		var m struct {
			ID    json.RawMessage
			Error struct{ Code int }
		}
		if err := json.Unmarshal([]byte(out[i:i+n]), &m); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %d", m.ID, m.Error.Code))
		out = out[i+n:]
	}
	return got
}

func TestStream(t *testing.T) {
	for _, tc := range []struct {
		name    string
		input   string
		methods []string // messages delivered, in order
		replies []string // error responses written
		final   error    // ReadObject's error after the last message
	}{
		{"two messages", frame(ok1) + frame(ok2), []string{"a", "b"}, nil, io.EOF},
		{"header names are case-insensitive, bare newlines tolerated, extra headers ignored",
			"content-length: " + fmt.Sprint(len(ok1)) + "\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n" + ok1,
			[]string{"a"}, nil, io.EOF},
		{"stray blank lines between frames", frame(ok1) + "\r\n\r\n" + frame(ok2), []string{"a", "b"}, nil, io.EOF},
		{"not JSON", frame(`{"jsonrpc":`) + frame(ok2), []string{"b"}, []string{"null -32700"}, io.EOF},
		{"invalid id answered with null", frame(`{"jsonrpc":"2.0","id":1.5,"method":"x"}`) + frame(ok1), []string{"a"}, []string{"null -32600"}, io.EOF},
		{"bad request answered with its id", frame(`{"jsonrpc":"2.0","id":"q","method":7}`), nil, []string{`"q" -32600`}, io.EOF},
		{"response from the client passes", frame(`{"jsonrpc":"2.0","id":3,"result":null}`), []string{""}, nil, io.EOF},
		{"oversized message skipped", frame(strings.Repeat(" ", 200)+ok1) + frame(ok2), []string{"b"}, []string{"null -32700"}, io.EOF},
		{"missing length", "X-Foo: 1\r\n\r\n" + frame(ok1), []string{"a"}, []string{"null -32700"}, io.EOF},
		{"input ends inside a body", "Content-Length: 50\r\n\r\n{", nil, nil, io.ErrUnexpectedEOF},
		{"input ends inside a header", "Content-Len", nil, nil, io.ErrUnexpectedEOF},
		// A frame announcing more bytes than it has swallows the next
		// frame's header; the stream finds the header again and goes on.
		{"truncated frame resyncs", fmt.Sprintf("Content-Length: %d\r\n\r\n", len(ok1)+10) + ok1[:20] + frame(ok1) + frame(ok2),
			[]string{"a", "b"}, []string{"null -32700"}, io.EOF},
		{"length too small resyncs", fmt.Sprintf("Content-Length: %d\r\n\r\n", 10) + ok1 + frame(ok2),
			[]string{"b"}, []string{"null -32700"}, io.EOF},
		{"a lying oversized length does not swallow the stream", "Content-Length: 999999999\r\n\r\n" + ok1 + frame(ok1) + frame(ok2),
			[]string{"a", "b"}, []string{"null -32700"}, io.EOF},
		// Found by FuzzServer: junk that is not UTF-8 before a header
		// made the header's offset one in a lower-cased copy of the line,
		// longer than the line, and slicing it panicked.
		{"junk that is not UTF-8 before a header", "\xa7\xe1\xd2\xe6\xc0\x81\xfc" + frame(ok1),
			[]string{"a"}, nil, io.EOF},
		{"many truncated frames in a row", strings.Repeat(fmt.Sprintf("Content-Length: %d\r\n\r\n{\"jsonrpc\"", 60), 5) + frame(ok2),
			[]string{"b"}, []string{"null -32700", "null -32700", "null -32700", "null -32700", "null -32700"}, io.EOF},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			s := NewStream(strings.NewReader(tc.input), &out, nil)
			s.MaxMessage = 100
			var methods []string
			var err error
			for {
				var m struct {
					Method string `json:"method"`
				}
				if err = s.ReadObject(&m); err != nil {
					break
				}
				methods = append(methods, m.Method)
			}
			if fmt.Sprint(methods) != fmt.Sprint(tc.methods) {
				t.Errorf("delivered %q, want %q", methods, tc.methods)
			}
			if got := replies(t, out.String()); fmt.Sprint(got) != fmt.Sprint(tc.replies) {
				t.Errorf("replies %q, want %q", got, tc.replies)
			}
			if !errors.Is(err, tc.final) {
				t.Errorf("final error %v, want %v", err, tc.final)
			}
		})
	}
}

func TestWriteObject(t *testing.T) {
	var out bytes.Buffer
	s := NewStream(strings.NewReader(""), &out, nil)
	if err := s.WriteObject(map[string]int{"é": 1}); err != nil {
		t.Fatal(err)
	}
	// Bytes, not characters: "é" is two.
	if want := "Content-Length: 8\r\n\r\n{\"é\":1}"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// TestWriteObjectAsMarshaled: a message that marshals itself is written
// without json.Marshal's second pass, byte for byte what that pass gives
// (HTML characters escaped, no spaces).
func TestWriteObjectAsMarshaled(t *testing.T) {
	params := json.RawMessage(`{"text":"<a & b>","items":[1,2]}`)
	for _, obj := range []any{
		&jsonrpc2.Request{Method: "textDocument/publishDiagnostics", Params: &params, Notif: true},
		&jsonrpc2.Request{Method: "m", ID: jsonrpc2.ID{Num: 7}, Params: &params},
		map[string]string{"k": "<v>"},
	} {
		var out bytes.Buffer
		if err := NewStream(strings.NewReader(""), &out, nil).WriteObject(obj); err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if _, body, _ := strings.Cut(out.String(), "\r\n\r\n"); body != string(want) {
			t.Errorf("wrote %q, json.Marshal gives %q", body, want)
		}
	}
}

// TestWriteResult: a response with an encoded result is written byte for
// byte as jsonrpc2 writes the same response.
func TestWriteResult(t *testing.T) {
	for _, tc := range []struct {
		id     jsonrpc2.ID
		result string
	}{
		{jsonrpc2.ID{Num: 7}, `{"isIncomplete":false,"items":[{"label":"a\u003cb","kind":3}]}`},
		{jsonrpc2.ID{Str: "x\"1", IsString: true}, `null`},
		{jsonrpc2.ID{Num: 0}, `[1,"é"]`},
	} {
		id, err := tc.id.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := NewStream(strings.NewReader(""), &out, nil).WriteResult(id, json.RawMessage(tc.result)); err != nil {
			t.Fatal(err)
		}
		result := json.RawMessage(tc.result)
		want, err := json.Marshal(&jsonrpc2.Response{ID: tc.id, Result: &result})
		if err != nil {
			t.Fatal(err)
		}
		wantFrame := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(want), want)
		if out.String() != wantFrame {
			t.Errorf("wrote %q, jsonrpc2 writes %q", out.String(), wantFrame)
		}
	}
}

// TestWriteNotification: a notification written with its encoded params
// is byte for byte what jsonrpc2 writes for it.
func TestWriteNotification(t *testing.T) {
	for _, tc := range []struct {
		method string
		params any
	}{
		{"textDocument/publishDiagnostics", map[string]any{"uri": "file:///a<b>&c.leia", "version": 3,
			"diagnostics": []any{map[string]any{"message": "x \u2028 é \"q\"", "severity": 1}}}},
		{"window/logMessage", map[string]any{"type": 1, "message": "<html> & \x01"}},
		{"$/progress", []int{1, 2}},
	} {
		params, err := json.Marshal(tc.params)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := NewStream(strings.NewReader(""), &out, nil).WriteNotification(tc.method, params); err != nil {
			t.Fatal(err)
		}
		req := &jsonrpc2.Request{Method: tc.method, Notif: true}
		if err := req.SetParams(tc.params); err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		wantFrame := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(want), want)
		if out.String() != wantFrame {
			t.Errorf("wrote %q, jsonrpc2 writes %q", out.String(), wantFrame)
		}
	}
}

func TestIndexFold(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"Content-Length: 3", 0},
		{"xx CONTENT-length: 3", 3},
		{"\xa7\xe1\xd2Content-Length: 3", 3},
		{"\u0130\u0130Content-Length: 3", 4}, // İ lower-cases to two bytes plus a combining mark
		{"Content-Lengt", -1},
		{"", -1},
	} {
		if got := indexFold(tc.s, "content-length:"); got != tc.want {
			t.Errorf("indexFold(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}
