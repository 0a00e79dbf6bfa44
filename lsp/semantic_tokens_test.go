package lsp_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

type tokensResult struct {
	ResultID string `json:"resultId"`
	Data     []int  `json:"data"`
	Edits    []struct {
		Start, DeleteCount int
		Data               []int
	} `json:"edits"`
}

func tokens(t *testing.T, m lsptest.Message) tokensResult {
	t.Helper()
	if m.Error != nil {
		t.Fatal(m.Error)
	}
	var r tokensResult
	if err := json.Unmarshal(m.Result, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSemanticTokensDelta: applying a delta to the previous tokens gives
// the full tokens of the new text; an unknown previous result gets full
// tokens.
func TestSemanticTokensDelta(t *testing.T) {
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	c.Open(fakeURI, "fake", 1, "def a 1\ndef b 22\ndef c 3\n")
	full := tokens(t, c.Call("textDocument/semanticTokens/full", map[string]any{"textDocument": doc(fakeURI)}))
	for i, edit := range []lsptest.Edit{
		{StartLine: 1, StartChar: 6, EndLine: 1, EndChar: 8, Text: "4 5"},     // one number becomes two
		{StartLine: 0, StartChar: 0, EndLine: 0, EndChar: 0, Text: "x "},      // everything on line 0 shifts
		{StartLine: 2, StartChar: 0, EndLine: 2, EndChar: 7, Text: "no toks"}, // a line loses its tokens
		{StartLine: 0, StartChar: 0, EndLine: 0, EndChar: 0, Text: ""},        // nothing changes
	} {
		c.Change(fakeURI, int32(i+2), edit)
		delta := tokens(t, c.Call("textDocument/semanticTokens/full/delta", map[string]any{
			"textDocument": doc(fakeURI), "previousResultId": full.ResultID}))
		data := full.Data
		for _, e := range delta.Edits {
			data = append(append(append([]int{}, data[:e.Start]...), e.Data...), data[e.Start+e.DeleteCount:]...)
		}
		want := tokens(t, c.Call("textDocument/semanticTokens/full", map[string]any{"textDocument": doc(fakeURI)}))
		if fmt.Sprint(data) != fmt.Sprint(want.Data) || delta.Data != nil || delta.ResultID == full.ResultID {
			t.Errorf("edit %d: delta %+v applied gives %v, want %v", i, delta, data, want.Data)
		}
		full = want
	}
	stale := tokens(t, c.Call("textDocument/semanticTokens/full/delta", map[string]any{
		"textDocument": doc(fakeURI), "previousResultId": "no such result"}))
	if fmt.Sprint(stale.Data) != fmt.Sprint(full.Data) || stale.Edits != nil {
		t.Errorf("unknown previous result: %+v, want full tokens %v", stale, full.Data)
	}
}
