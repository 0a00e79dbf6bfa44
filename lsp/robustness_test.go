package lsp_test

import (
	"log"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

// TestRobustness sends malformed and unexpected input; each gets an error
// response or is ignored, and the server keeps answering.
func TestRobustness(t *testing.T) {
	tr := &transcript{t: t}
	logs := &syncBuffer{}
	opts := testOptions()
	opts.Logger = log.New(logs, "", 0)
	c := lsptest.Start(t, opts)
	c.Initialize("file:///w", nil)
	c.Open(fakeURI, "fake", 1, "one bad\ntwo panic\n")
	c.WaitDiagnostics(fakeURI, 1)
	orphan := func(what string) lsptest.Message {
		return c.Wait(what, func(m lsptest.Message) bool { return m.Method == "" })
	}
	c.Frame(`{"jsonrpc":"2.0","id":1,"method":`)
	tr.add("truncated JSON", orphan("parse error"))
	c.Frame(`[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]`)
	tr.add("batch", orphan("batch error"))
	c.Frame(`{"jsonrpc":"2.0","id":{"x":1},"method":"shutdown"}`)
	tr.add("object id", orphan("id error"))
	c.Frame(`{"jsonrpc":"2.0","id":-4,"method":"shutdown"}`)
	tr.add("negative id", orphan("id error"))
	c.Frame(`{"jsonrpc":"1.0","id":7,"method":"shutdown"}`)
	tr.add("wrong jsonrpc version", orphan("version error"))
	c.Frame(`{"jsonrpc":"2.0","id":8,"method":"textDocument/hover","params":3}`)
	tr.add("scalar params", orphan("params error"))
	c.Frame(`{"jsonrpc":"2.0","id":9}`)
	tr.add("neither request nor response", orphan("shape error"))
	c.Raw([]byte("Content-Type: application/json\r\n\r\n"))
	tr.add("frame without Content-Length", orphan("header error"))
	c.Raw([]byte("Content-Length: x\r\n\r\n"))
	tr.add("bad Content-Length", orphan("header error"))

	tr.add("unknown request", c.Call("leia/unknown", map[string]any{}))
	c.Notify("leia/unknownNotification", map[string]any{})
	tr.add("params of the wrong type", c.Call("textDocument/hover", map[string]any{"textDocument": 5}))
	tr.add("negative position", c.Call("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": fakeURI}, "position": lsptest.Pos(-1, 0)}))
	tr.add("line past the end", c.Call("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": fakeURI}, "position": lsptest.Pos(40, 0)}))
	tr.add("column past the line end clamps", c.Call("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": fakeURI}, "position": lsptest.Pos(0, 400)}))
	tr.add("request on an unopened document", c.Call("textDocument/definition", map[string]any{
		"textDocument": map[string]any{"uri": "file:///w/nope.fake"}, "position": lsptest.Pos(0, 0)}))
	c.Change("file:///w/nope.fake", 2, lsptest.Edit{Text: "x"})
	c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": "file:///w/nope.fake"}})
	tr.add("panic in a handler", c.Call("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": fakeURI}, "position": lsptest.Pos(1, 5)}))

	// A reversed range is rejected as a whole: the text stays, the client
	// hears about it in its log.
	c.Change(fakeURI, 2, lsptest.Edit{StartLine: 0, StartChar: 0, EndLine: 0, EndChar: 0, Text: "bad "},
		lsptest.Edit{StartLine: 0, StartChar: 3, EndLine: 0, EndChar: 1, Text: ""})
	tr.add("reversed range", c.Wait("log message", func(m lsptest.Message) bool { return m.Method == "window/logMessage" }))
	tr.add("text unchanged after the rejected change", c.Call("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": fakeURI}, "position": lsptest.Pos(0, 5)}))

	// Still alive: a normal change is analysed.
	c.Change(fakeURI, 3, lsptest.Edit{StartLine: 0, StartChar: 4, EndLine: 0, EndChar: 7, Text: "fine"})
	tr.add("alive after all of it", c.WaitDiagnostics(fakeURI, 3))
	for _, m := range c.Messages() {
		t.Errorf("unexpected message: %s %s %s", m.Method, m.ID, m.Params)
	}
	if err := c.Shutdown(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
	tr.check("robustness")
	for _, want := range []string{
		"ignored didChange of file:///w/nope.fake: the document is not open",
		"ignored didClose of file:///w/nope.fake: the document is not open",
		"notification leia/unknownNotification: method not supported",
		"panic in textDocument/hover: fake language: hover on \"panic\"",
		"rejected frame: missing Content-Length header",
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

func TestShutdownRefusesRequests(t *testing.T) {
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	if m := c.Call("shutdown", nil); m.Error != nil {
		t.Fatal(m.Error)
	}
	m := c.Call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": fakeURI}, "position": lsptest.Pos(0, 0)})
	if m.Error == nil || m.Error.Code != -32600 {
		t.Errorf("request after shutdown: %+v, want error -32600", m)
	}
}

// TestLargeDocument: a multi-megabyte document opens, changes and is
// analysed like any other.
func TestLargeDocument(t *testing.T) {
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	line := "let x = value(1) + y // padding padding padding\n"
	text := strings.Repeat(line, 25000) + "bad\n" // about 1.2 MB
	c.Open(fakeURI, "fake", 1, text)
	if d := c.WaitDiagnostics(fakeURI, 1); len(d.Diagnostics) != 1 || !strings.Contains(string(d.Diagnostics[0]), `"line":25000`) {
		t.Fatalf("diagnostics of the large document: %d %.300s", len(d.Diagnostics), d.Diagnostics)
	}
	c.Change(fakeURI, 2, lsptest.Edit{StartLine: 25000, StartChar: 0, EndLine: 25000, EndChar: 3, Text: "ok"})
	if d := c.WaitDiagnostics(fakeURI, 2); len(d.Diagnostics) != 0 {
		t.Errorf("after the fix: %s", d.Diagnostics)
	}
}
