package lsp_test

import (
	"fmt"
	"log"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

// FuzzServer drives a server with a random protocol session decoded from
// the input: document opens and edit storms (ranges anywhere, clamped by
// the server), hovers, completions and other requests at any position,
// cancellations, and raw junk written between frames. Whatever happens,
// no handler may panic, and the server must still answer shutdown. Seeds
// in testdata/fuzz/FuzzServer include the truncated frame and the edit
// storms of issue #19.
func FuzzServer(f *testing.F) {
	f.Add([]byte("\x00fn main() { log(x) }\n\x01\x00\x00\x00\x01(\x02\x00\x05\x03Content-Length: 80\r\n\r\n{\x04\x05"), false)
	f.Add([]byte("\x00x := (1 +\r\x01\x00\x00\x09\x00\x02)\n\x05\x02\x00\x01"), true)
	f.Add([]byte("\x00"+strings.Repeat("{a: ", 50)+"\x01\x00\x03\x00\x00\x01}"+"\x02\x00\x07\x06"), false)
	f.Fuzz(func(t *testing.T, script []byte, leia bool) {
		logs := &syncBuffer{}
		opts := testOptions()
		opts.Logger = log.New(logs, "", 0)
		c := lsptest.Start(t, opts)
		c.Initialize("file:///w", nil)
		uri, lang := "file:///w/f.harn", "harn"
		if leia {
			uri, lang = "file:///w/f.leia", "leia"
		}
		next := func(n int) []byte {
			n = min(n, len(script))
			b := script[:n]
			script = script[n:]
			return b
		}
		num := func() int {
			if b := next(1); len(b) == 1 {
				return int(b[0])
			}
			return 0
		}
		text := func() string {
			n := num()
			return string(next(n))
		}
		version := int32(1)
		opened := false
		for len(script) > 0 {
			op := num() % 8
			switch {
			case op == 0 || !opened:
				c.Open(uri, lang, version, text())
				opened = true
			case op == 1:
				version++
				c.Change(uri, version, lsptest.Edit{StartLine: num() % 8, StartChar: num(), EndLine: num() % 8, EndChar: num(), Text: text()})
			case op == 2:
				c.Call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lsptest.Pos(num()%8, num())})
			case op == 3:
				// Junk between frames, or a frame announcing more bytes
				// than it holds: the stream must skip it or resynchronise
				// on the next frame. (Junk that forms a frame header of
				// its own could claim the next frame's bytes, which no
				// reader can tell from a real frame; it is kept out.)
				junk := []byte(strings.NewReplacer("C", "K", "c", "k").Replace(string(next(num()))))
				if len(junk) > 0 && junk[0]%2 == 0 {
					body := `{"jsonrpc":"2.0","id":900,"method":"textDocument/hover","params":{"textDocument":{"uri":"` + uri + `"}}}`
					cut := len(junk) % len(body)
					c.Raw([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body)+1+len(junk), body[:cut])))
				} else {
					c.Raw(junk)
				}
			case op == 4:
				c.Call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lsptest.Pos(num()%8, num())})
			case op == 5:
				method := []string{"textDocument/documentSymbol", "textDocument/semanticTokens/full", "textDocument/foldingRange", "textDocument/formatting"}[num()%4]
				c.Call(method, map[string]any{"textDocument": map[string]any{"uri": uri}, "options": map[string]any{"tabSize": 2, "insertSpaces": true}})
			case op == 6:
				id, wait := c.Go("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lsptest.Pos(num()%8, num())})
				c.Notify("$/cancelRequest", map[string]any{"id": id})
				wait()
			case op == 7:
				c.Call("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lsptest.Pos(num()%8, num()),
					"context": map[string]any{"includeDeclaration": true}})
			}
		}
		if err := c.Shutdown(); err != nil {
			t.Fatalf("shutdown: %v", err)
		}
		if l := logs.String(); strings.Contains(l, "panic") {
			t.Fatalf("a handler panicked:\n%s", l)
		}
	})
}
