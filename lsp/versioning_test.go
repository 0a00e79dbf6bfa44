package lsp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/language"
	"github.com/harnlang/harn-check/lsp/lsptest"
)

// syncBuffer is a log sink tests can read while the server writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestStaleDiagnosticsDropped: an analysis that finishes after its
// document changed is not published; the newer version's is.
func TestStaleDiagnosticsDropped(t *testing.T) {
	release := make(chan struct{})
	// started tells the test that version 1's analysis is under way, so the
	// change below supersedes a running analysis rather than cancelling its
	// debounce timer before it fired (then there would be nothing to drop).
	started := make(chan struct{}, 1)
	slow := language.Language{Name: "Slow", Extension: ".slow", Check: func(req driver.Request) driver.Result {
		path, src := req.Path, req.Source
		if bytes.Contains(src, []byte("block")) {
			started <- struct{}{}
			<-release
		}
		return driver.Result{Diagnostics: []diagnostics.Diagnostic{
			diagnostics.New(path, diagnostics.SourceLint, "FAKE-SLOW-001", diagnostics.Span{End: 1}, string(src)),
		}}
	}}
	logs := &syncBuffer{}
	opts := testOptions()
	opts.Languages = testLanguages(slow)
	opts.Logger = log.New(logs, "", 0)
	c := lsptest.Start(t, opts)
	c.Initialize("file:///w", nil)
	const uri = "file:///w/x.slow"
	c.Open(uri, "", 1, "block")
	select {
	case <-started:
	case <-time.After(lsptest.Timeout):
		t.Fatal("version 1 was never analysed")
	}
	c.Change(uri, 2, lsptest.Edit{StartLine: 0, StartChar: 0, EndLine: 0, EndChar: 5, Text: "fine"})
	if d := c.WaitDiagnostics(uri, 2); len(d.Diagnostics) != 1 || !strings.Contains(string(d.Diagnostics[0]), `"fine"`) {
		t.Errorf("version 2 diagnostics: %s", d.Diagnostics)
	}
	close(release)
	deadline := time.Now().Add(lsptest.Timeout)
	for !strings.Contains(logs.String(), "dropped stale diagnostics of "+uri+" version 1") {
		if time.Now().After(deadline) {
			t.Fatalf("version 1 result was not dropped; log:\n%s", logs)
		}
		time.Sleep(5 * time.Millisecond)
	}
	c.Call("textDocument/hover", at(uri, 0, 0)) // flush
	for _, m := range c.Messages() {
		if m.Method == "textDocument/publishDiagnostics" {
			t.Errorf("unexpected publication after the stale result: %s", m.Params)
		}
	}
}

// utf16Text is the test's own model of a document, in UTF-16 units.
type utf16Text []uint16

func (u utf16Text) pos(off int) (int, int) {
	line, col := 0, 0
	for _, c := range u[:off] {
		if c == '\n' {
			line, col = line+1, 0
		} else {
			col++
		}
	}
	return line, col
}

// boundary moves off back off a low surrogate, so edits never split a
// character.
func (u utf16Text) boundary(off int) int {
	if off > 0 && off < len(u) && u[off] >= 0xDC00 && u[off] <= 0xDFFF {
		return off - 1
	}
	return off
}

var randomPieces = []string{"bad", "warn", " ", "\n", "x", "def ", "{\n", "}\n", "é", "𝄞", "42", "ok"}

// TestRandomEditsMatchFreshOpen sends thousands of random incremental
// changes, in bursts, and checks that the final diagnostics, semantic
// tokens, symbols and folds equal those of a fresh open of the final text.
func TestRandomEditsMatchFreshOpen(t *testing.T) {
	opts := testOptions()
	opts.Debounce = time.Millisecond
	c := lsptest.Start(t, opts)
	c.Initialize("file:///w", nil)
	const uri, fresh = "file:///w/edited.fake", "file:///w/fresh.fake"
	text := utf16Text(utf16.Encode([]rune("def main {\n  bad 𝄞 warn\n}\n")))
	c.Open(uri, "fake", 0, string(utf16.Decode(text)))
	r := rand.New(rand.NewPCG(1, 2))
	version := int32(0)
	for range 3000 {
		a := text.boundary(r.IntN(len(text) + 1))
		b := text.boundary(min(len(text), a+r.IntN(6)))
		var ins strings.Builder
		for range r.IntN(3) {
			ins.WriteString(randomPieces[r.IntN(len(randomPieces))])
		}
		sl, sc := text.pos(a)
		el, ec := text.pos(b)
		version++
		c.Change(uri, version, lsptest.Edit{StartLine: sl, StartChar: sc, EndLine: el, EndChar: ec, Text: ins.String()})
		text = append(text[:a:a], append(utf16Text(utf16.Encode([]rune(ins.String()))), text[b:]...)...)
		if len(text) > 4000 {
			version++
			c.Notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
				"contentChanges": []any{map[string]any{"text": "def again\n"}}})
			text = utf16Text(utf16.Encode([]rune("def again\n")))
		}
	}
	final := string(utf16.Decode(text))
	got := c.WaitDiagnostics(uri, version)
	c.Open(fresh, "fake", 1, final)
	want := c.WaitDiagnostics(fresh, 1)
	if g, w := fmt.Sprint(rawStrings(got.Diagnostics)), fmt.Sprint(rawStrings(want.Diagnostics)); strings.ReplaceAll(g, fresh, uri) != strings.ReplaceAll(w, fresh, uri) {
		t.Errorf("diagnostics after %d edits differ from a fresh open:\n%s\nwant\n%s", version, g, w)
	}
	for _, method := range []string{"textDocument/semanticTokens/full", "textDocument/documentSymbol", "textDocument/foldingRange"} {
		g := c.Call(method, map[string]any{"textDocument": doc(uri)})
		w := c.Call(method, map[string]any{"textDocument": doc(fresh)})
		if gs, ws := strings.ReplaceAll(withoutResultID(g.Result), uri, fresh), withoutResultID(w.Result); gs != ws || g.Error != nil {
			t.Errorf("%s after edits:\n%s\nwant\n%s", method, gs, ws)
		}
	}
	// Every publication was for a version that was current when sent, so
	// versions only grow.
	last := int32(-1)
	for _, m := range c.Messages() {
		var d lsptest.Diagnostics
		if m.Method != "textDocument/publishDiagnostics" || json.Unmarshal(m.Params, &d) != nil || d.URI != uri || d.Version == nil {
			continue
		}
		if *d.Version < last {
			t.Errorf("version %d published after version %d", *d.Version, last)
		}
		last = *d.Version
	}
}

func rawStrings(rs []json.RawMessage) []string {
	var out []string
	for _, r := range rs {
		out = append(out, string(r))
	}
	return out
}

// withoutResultID drops the resultId of semantic tokens, which differs
// between any two requests.
func withoutResultID(raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return string(raw)
	}
	delete(m, "resultId")
	out, _ := json.Marshal(m)
	return string(out)
}
