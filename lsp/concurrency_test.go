package lsp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/language"
	"github.com/harnlang/harn-check/lsp"
	"github.com/harnlang/harn-check/lsp/lsptest"
)

// hanging is a language whose analysis runs until its request's context
// is cancelled, telling started each time one begins.
func hanging(started chan<- string) language.Language {
	return language.Language{Name: "Hanging", Extension: ".hang", Check: func(req driver.Request) driver.Result {
		select {
		case started <- req.Path:
		default:
		}
		<-req.Ctx().Done()
		return driver.Result{}
	}}
}

// TestSlowRequestsRunConcurrentlyAndCancel: while one request waits on an
// analysis that never ends, other requests are answered; $/cancelRequest
// answers the waiting one with RequestCancelled; and when the client goes
// away the server stops at once, its analyses cancelled.
func TestSlowRequestsRunConcurrentlyAndCancel(t *testing.T) {
	started := make(chan string, 8)
	opts := testOptions()
	opts.Languages = testLanguages(hanging(started))
	c := lsptest.Start(t, opts)
	c.Initialize("file:///w", nil)
	const slow, fast = "file:///w/a.hang", "file:///w/b.fake"
	c.Open(slow, "", 1, "anything")
	c.Open(fast, "", 1, "good words")
	select {
	case <-started:
	case <-time.After(lsptest.Timeout):
		t.Fatal("the analysis of the slow document never started")
	}
	// codeAction needs the analysis, which the publisher is running and
	// which never ends: this request waits.
	id, wait := c.Go("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": slow},
		"range": lsptest.Range(0, 0, 0, 1), "context": map[string]any{"diagnostics": []any{}}})
	// Meanwhile other requests are answered.
	for range 3 {
		if m := c.Call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": fast}}); m.Error != nil {
			t.Fatalf("documentSymbol while another request waits: %v", m.Error)
		}
	}
	c.Notify("$/cancelRequest", map[string]any{"id": id})
	m := wait()
	if m.Error == nil || m.Error.Code != -32800 {
		t.Fatalf("the cancelled request was answered with %+v, want error -32800", m)
	}
	start := time.Now()
	if err := c.Disconnect(); err != lsp.ErrNoShutdown {
		t.Errorf("Serve after disconnect: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the server took %v to stop after the client went away", d)
	}
}

// TestRequestsReadTheirSnapshot: a request reads the document as it was
// when the request arrived, not a later version.
func TestRequestsReadTheirSnapshot(t *testing.T) {
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	const uri = "file:///w/s.fake"
	c.Open(uri, "", 1, "alpha")
	_, wait := c.Go("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lsptest.Pos(0, 1)})
	c.Change(uri, 2, lsptest.Edit{StartLine: 0, StartChar: 0, EndLine: 0, EndChar: 5, Text: "omega"})
	m := wait()
	if m.Error != nil {
		t.Fatalf("hover: %v", m.Error)
	}
	if r := string(m.Result); strings.Contains(r, "omega") {
		t.Errorf("a request saw a version that arrived after it: %s", r)
	}
}

// TestTruncatedFrameThenShutdown: a frame announcing more bytes than it
// has does not swallow the messages after it; shutdown is answered.
func TestTruncatedFrameThenShutdown(t *testing.T) {
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	c.Raw([]byte("Content-Length: 500\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"textDocument/ho"))
	if err := c.Shutdown(); err != nil {
		t.Errorf("shutdown after a truncated frame: %v", err)
	}
}
