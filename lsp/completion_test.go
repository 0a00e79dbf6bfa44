package lsp_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

// leanCompletionCaps are the completion capabilities of a client that
// resolves documentation and detail and applies list defaults (as VS Code
// announces them).
var leanCompletionCaps = map[string]any{"textDocument": map[string]any{"completion": map[string]any{
	"completionItem": map[string]any{"resolveSupport": map[string]any{"properties": []string{"documentation", "detail", "additionalTextEdits"}}},
	"completionList": map[string]any{"itemDefaults": []string{"commitCharacters", "editRange", "insertTextFormat", "insertTextMode", "data"}},
}}}

const completionHarn = `import {boolean} from "std/predicate"

/// Doubles n.
fn twice(n: int) -> int {
  return n * 2
}

/// A point.
struct Point {
  x: int
  y: int
}

fn act(harness: Harness, p: Point) -> string {
  let s = "text"
  let n = twice(p.x)
  let t = s.trim()
  let m = harness.llm
  return t
}
`

const completionLeia = `import "json"

// Sums its arguments.
func sum(total, rest...) {
    for i := 1; i <= #rest; i++ {
        total += rest[i]
    }
    return total
}

func main() {
    x := sum(1, 2)
    s := string.upper("a")
    print(json.encode(x), s)
}
`

// completionPlaces are the places of src a test asks for completion at:
// after the indentation of each line (an empty word), one and two bytes
// into each line's first word, and after each ".".
func completionPlaces(src string) [][2]int {
	var out [][2]int
	for ln, line := range strings.Split(src, "\n") {
		at := func(b int) {
			out = append(out, [2]int{ln, len(utf16.Encode([]rune(line[:b])))})
		}
		ind := len(line) - len(strings.TrimLeft(line, " \t"))
		at(ind)
		for k := 1; k <= 2 && ind+k <= len(line); k++ {
			at(ind + k)
		}
		for i := range len(line) {
			if line[i] == '.' {
				at(i + 1)
			}
		}
	}
	return out
}

type completionList struct {
	IsIncomplete bool `json:"isIncomplete"`
	ItemDefaults *struct {
		EditRange json.RawMessage `json:"editRange"`
		Data      json.RawMessage `json:"data"`
	} `json:"itemDefaults"`
	Items []map[string]json.RawMessage `json:"items"`
}

// TestCompletionResolve: a client that resolves documentation and detail
// and applies list defaults gets the same items as one that does not, less
// their documentation and detail (and their range, said once for the
// list), and completionItem/resolve gives each item back the detail and
// documentation the full list carries: Harn (names of the file, the
// builtin table, namespace and member completion) and Leia (names,
// predeclared names, module members), real and test files.
func TestCompletionResolve(t *testing.T) {
	docs := []struct{ uri, lang, text string }{
		{"file:///w/c.harn", "harn", completionHarn},
		{"file:///w/c.leia", "leia", completionLeia},
	}
	for _, f := range []string{"testdata/harn/incremental_focus.harn", "testdata/leia/incremental.leia"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, struct{ uri, lang, text string }{"file:///w/" + strings.ReplaceAll(f, "/", "_"), f[strings.LastIndexByte(f, '.')+1:], string(b)})
	}
	full := lsptest.Start(t, testOptions())
	full.Initialize("file:///w", nil)
	lean := lsptest.Start(t, testOptions())
	lean.Initialize("file:///w", leanCompletionCaps)
	resolvedAll, withDocs, resolved := false, 0, 0
	for _, d := range docs {
		for _, c := range []*lsptest.Client{full, lean} {
			c.Open(d.uri, d.lang, 1, d.text)
			c.WaitDiagnostics(d.uri, 1)
		}
		places := completionPlaces(d.text)
		for k, p := range places {
			if k%(len(places)/60+1) != 0 {
				continue // a sample of a long file's places
			}
			var fl, ll completionList
			fm := full.Call("textDocument/completion", at(d.uri, p[0], p[1]))
			lm := lean.Call("textDocument/completion", at(d.uri, p[0], p[1]))
			if fm.Error != nil || lm.Error != nil || json.Unmarshal(fm.Result, &fl) != nil || json.Unmarshal(lm.Result, &ll) != nil {
				t.Fatalf("%s %v: completion %s %v / %s %v", d.uri, p, fm.Result, fm.Error, lm.Result, lm.Error)
			}
			if len(fl.Items) != len(ll.Items) || fl.IsIncomplete != ll.IsIncomplete {
				t.Fatalf("%s %v: %d items (incomplete %v), lean client %d (%v)", d.uri, p, len(fl.Items), fl.IsIncomplete, len(ll.Items), ll.IsIncomplete)
			}
			// Resolve every item of the first long list, a sample of the others.
			every := 1
			if resolvedAll {
				every = len(ll.Items)/8 + 1
			}
			resolvedAll = resolvedAll || len(ll.Items) > 100
			for i, want := range fl.Items {
				got := ll.Items[i]
				where := d.uri + " " + string(want["label"])
				if _, ok := got["documentation"]; ok {
					t.Fatalf("%s: lean item carries documentation", where)
				}
				if _, ok := got["detail"]; ok {
					t.Fatalf("%s: lean item carries detail", where)
				}
				// The lean item with the list's defaults applied is the
				// full item less detail and documentation.
				applied := map[string]json.RawMessage{}
				for k, v := range got {
					applied[k] = v
				}
				if ll.ItemDefaults != nil && ll.ItemDefaults.EditRange != nil {
					if _, ok := got["textEdit"]; !ok {
						text := got["label"]
						if tx, ok := got["textEditText"]; ok {
							text = tx
							delete(applied, "textEditText")
						}
						applied["textEdit"] = json.RawMessage(`{"range":` + string(ll.ItemDefaults.EditRange) + `,"newText":` + string(text) + `}`)
					}
				}
				if ll.ItemDefaults != nil && ll.ItemDefaults.Data != nil {
					if _, ok := got["data"]; !ok {
						applied["data"] = ll.ItemDefaults.Data
					}
				}
				data, hasData := applied["data"]
				delete(applied, "data")
				wantLean := map[string]json.RawMessage{}
				for k, v := range want {
					if k != "detail" && k != "documentation" {
						wantLean[k] = v
					}
				}
				if !equalJSONFields(applied, wantLean) {
					t.Fatalf("%s: lean item with defaults %s, full item less docs %s", where, jsonOf(applied), jsonOf(wantLean))
				}
				if !hasData {
					t.Fatalf("%s: lean item has no data to resolve it with", where)
				}
				if i%every != 0 {
					continue
				}
				got["data"] = data
				rm := lean.Call("completionItem/resolve", got)
				var r map[string]json.RawMessage
				if rm.Error != nil || json.Unmarshal(rm.Result, &r) != nil {
					t.Fatalf("%s: resolve: %s %v", where, rm.Result, rm.Error)
				}
				resolved++
				for _, k := range []string{"detail", "documentation"} {
					if !equalJSON(r[k], want[k]) {
						t.Errorf("%s: resolved %s %s, the full list's %s", where, k, r[k], want[k])
					}
				}
				if want["documentation"] != nil {
					withDocs++
				}
			}
		}
	}
	if !resolvedAll || resolved < 1000 || withDocs < 500 {
		t.Errorf("resolved %d items (%d with documentation, a list of over 100: %v): the places miss what the test is about", resolved, withDocs, resolvedAll)
	}
}

func equalJSON(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

func equalJSONFields(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !equalJSON(v, b[k]) {
			return false
		}
	}
	return true
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestCompletionResolveAfterEdits: the items of a list the client shows
// resolve while the user types on (new versions of the document), until
// keptLists newer lists were given; a reply given again from the reply
// cache is resolvable again.
func TestCompletionResolveAfterEdits(t *testing.T) {
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", leanCompletionCaps)
	uri := "file:///w/c.harn"
	c.Open(uri, "harn", 1, completionHarn)
	list := func(line, char int) completionList {
		var l completionList
		m := c.Call("textDocument/completion", at(uri, line, char))
		if m.Error != nil || json.Unmarshal(m.Result, &l) != nil || l.ItemDefaults == nil {
			t.Fatalf("completion: %s %v", m.Result, m.Error)
		}
		return l
	}
	resolve := func(it map[string]json.RawMessage) string {
		var r struct {
			Documentation struct{ Value string }
		}
		m := c.Call("completionItem/resolve", it)
		if m.Error != nil || json.Unmarshal(m.Result, &r) != nil {
			t.Fatalf("resolve: %s %v", m.Result, m.Error)
		}
		return r.Documentation.Value
	}
	// "twi" completes to the documented function.
	l := list(15, 13)
	var twice map[string]json.RawMessage
	for _, it := range l.Items {
		if string(it["label"]) == `"twice"` {
			twice = it
			twice["data"] = l.ItemDefaults.Data
		}
	}
	if twice == nil {
		t.Fatalf("no twice in %v", l.Items)
	}
	if doc := resolve(twice); !strings.Contains(doc, "Doubles n.") {
		t.Fatalf("resolved twice: %q", doc)
	}
	for v := int32(2); v < 5; v++ {
		c.Change(uri, v, lsptest.Edit{StartLine: 15, StartChar: 13, EndLine: 15, EndChar: 13, Text: "x"})
	}
	if doc := resolve(twice); !strings.Contains(doc, "Doubles n.") {
		t.Errorf("resolved twice after three edits: %q", doc)
	}
	for k := range 8 {
		list(15, 2+k%3)
	}
	if doc := resolve(twice); doc != "" {
		t.Errorf("resolved twice after eight newer lists: %q, want the item unchanged", doc)
	}
}
