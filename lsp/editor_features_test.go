package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

// Documents the editor feature tests open: a Harn and a Leia file with a
// local used twice.
const (
	highlightHarn = "fn grade(score: int) -> int {\n  let total = score + 1\n  return total\n}\n"
	highlightLeia = "func main() {\n    n := 1\n    print(n + n)\n}\n"
)

// rng prints a protocol range as L:C-L:C (0-based, UTF-16).
func rng(r json.RawMessage) string {
	var v struct {
		Start, End struct{ Line, Character int }
	}
	if err := json.Unmarshal(r, &v); err != nil {
		return "?"
	}
	return fmt.Sprintf("%d:%d-%d:%d", v.Start.Line, v.Start.Character, v.End.Line, v.End.Character)
}

// TestDocumentHighlight drives textDocument/documentHighlight on real
// Harn and Leia documents: every use of the name in the file, the
// declaration as a write (kind 3) and the other uses as reads (kind 2).
func TestDocumentHighlight(t *testing.T) {
	for _, tc := range []struct {
		name, uri, lang, text string
		line, char            int
		want                  string
	}{
		{"harn local from its use", "file:///w/h.harn", "harn", highlightHarn, 2, 10, "1:6-1:11 3, 2:9-2:14 2"},
		{"harn local from its declaration", "file:///w/h.harn", "harn", highlightHarn, 1, 7, "1:6-1:11 3, 2:9-2:14 2"},
		{"harn parameter", "file:///w/h.harn", "harn", highlightHarn, 1, 14, "0:9-0:14 3, 1:14-1:19 2"},
		{"harn nothing on a keyword", "file:///w/h.harn", "harn", highlightHarn, 2, 3, ""},
		{"leia local used twice", "file:///w/l.leia", "leia", highlightLeia, 2, 10, "1:4-1:5 3, 2:10-2:11 2, 2:14-2:15 2"},
		{"leia nothing on punctuation", "file:///w/l.leia", "leia", highlightLeia, 0, 10, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := lsptest.Start(t, testOptions())
			init := c.Initialize("file:///w", nil)
			if !strings.Contains(string(init.Result), `"documentHighlightProvider":true`) {
				t.Fatalf("documentHighlightProvider not announced: %s", init.Result)
			}
			c.Open(tc.uri, tc.lang, 1, tc.text)
			m := c.Call("textDocument/documentHighlight", at(tc.uri, tc.line, tc.char))
			if m.Error != nil {
				t.Fatal(m.Error)
			}
			var hs []struct {
				Range json.RawMessage
				Kind  int
			}
			if err := json.Unmarshal(m.Result, &hs); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hs {
				got = append(got, fmt.Sprintf("%s %d", rng(h.Range), h.Kind))
			}
			if g := strings.Join(got, ", "); g != tc.want {
				t.Errorf("highlights = %q, want %q", g, tc.want)
			}
		})
	}
}

// TestSelectionRange drives textDocument/selectionRange: the chain of
// syntax nodes around each position, innermost first, each containing the
// one before and ending at the whole file.
func TestSelectionRange(t *testing.T) {
	for _, tc := range []struct {
		name, uri, lang, text string
		line, char            int
		// want is the innermost ranges of the chain, in order; last is
		// the outermost.
		want []string
		last string
	}{
		{"harn name in a binary expression", "file:///w/h.harn", "harn", highlightHarn, 1, 16,
			[]string{"1:14-1:19", "1:14-1:23"}, "0:0-4:0"},
		{"harn return statement", "file:///w/h.harn", "harn", highlightHarn, 2, 3,
			[]string{"2:2-2:8", "2:2-2:14"}, "0:0-4:0"},
		{"leia call argument", "file:///w/l.leia", "leia", highlightLeia, 2, 10,
			[]string{"2:10-2:11", "2:10-2:15", "2:9-2:16"}, "0:0-4:0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := lsptest.Start(t, testOptions())
			init := c.Initialize("file:///w", nil)
			if !strings.Contains(string(init.Result), `"selectionRangeProvider":true`) {
				t.Fatalf("selectionRangeProvider not announced: %s", init.Result)
			}
			c.Open(tc.uri, tc.lang, 1, tc.text)
			m := c.Call("textDocument/selectionRange", map[string]any{"textDocument": doc(tc.uri),
				"positions": []any{lsptest.Pos(tc.line, tc.char), lsptest.Pos(0, 0)}})
			if m.Error != nil {
				t.Fatal(m.Error)
			}
			type sel struct {
				Range  json.RawMessage
				Parent *sel
			}
			var rs []sel
			if err := json.Unmarshal(m.Result, &rs); err != nil {
				t.Fatal(err)
			}
			if len(rs) != 2 {
				t.Fatalf("got %d results for 2 positions", len(rs))
			}
			var chain []string
			for s := &rs[0]; s != nil; s = s.Parent {
				chain = append(chain, rng(s.Range))
			}
			if len(chain) < len(tc.want) || strings.Join(chain[:len(tc.want)], " ") != strings.Join(tc.want, " ") {
				t.Errorf("chain = %v, want it to start %v", chain, tc.want)
			}
			if chain[len(chain)-1] != tc.last {
				t.Errorf("outermost = %s, want %s (chain %v)", chain[len(chain)-1], tc.last, chain)
			}
			for i := 1; i < len(chain); i++ {
				if chain[i] == chain[i-1] {
					t.Errorf("range %s repeated in the chain %v", chain[i], chain)
				}
			}
		})
	}
}

// TestDocumentLink drives textDocument/documentLink on Harn imports: a
// relative module that exists links its path string to the file; a
// missing module and a std module get no link.
func TestDocumentLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "helpers.harn"), []byte("pub fn clamp(x: int) -> int { return x }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, text string
		want       string
	}{
		{"relative module", "import {clamp} from \"./helpers\"\n", "0:20-0:31 helpers.harn"},
		{"missing module", "import {clamp} from \"./nothere\"\n", ""},
		{"std module", "import \"std/json\"\n", ""},
		{"two imports, one linked", "import \"std/json\"\nimport {clamp} from \"./helpers\"\n", "1:20-1:31 helpers.harn"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := lsptest.Start(t, testOptions())
			init := c.Initialize("file://"+filepath.ToSlash(dir), nil)
			if !strings.Contains(string(init.Result), `"documentLinkProvider":{}`) {
				t.Fatalf("documentLinkProvider not announced: %s", init.Result)
			}
			uri := "file://" + filepath.ToSlash(filepath.Join(dir, "main.harn"))
			c.Open(uri, "harn", 1, tc.text)
			m := c.Call("textDocument/documentLink", map[string]any{"textDocument": doc(uri)})
			if m.Error != nil {
				t.Fatal(m.Error)
			}
			var ls []struct {
				Range  json.RawMessage
				Target string
			}
			if err := json.Unmarshal(m.Result, &ls); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range ls {
				if !strings.HasPrefix(l.Target, "file://") {
					t.Errorf("target %q is not a file URI", l.Target)
				}
				got = append(got, rng(l.Range)+" "+l.Target[strings.LastIndex(l.Target, "/")+1:])
			}
			if g := strings.Join(got, ", "); g != tc.want {
				t.Errorf("links = %q, want %q", g, tc.want)
			}
		})
	}
}

// TestPullDiagnostics drives textDocument/diagnostic (LSP 3.17): a full
// report of the same diagnostics the server publishes, then "unchanged"
// when the client sends the result id back for the same text.
func TestPullDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		name, uri, lang, text string
		// wantCodes are the items' codes, wantPrefix the start of each.
		wantItems  int
		wantPrefix string
	}{
		{"harn clean", "file:///w/ok.harn", "harn", "pipeline default(task) {\n  log(1)\n}\n", 0, ""},
		{"harn syntax error", "file:///w/bad.harn", "harn", "pipeline default(task) {\n  log(1\n}\n", 1, "HARN-PAR"},
		{"leia syntax error", "file:///w/bad.leia", "leia", "func main() {\n    print(\n}\n", 1, "LEIA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := lsptest.Start(t, testOptions())
			init := c.Initialize("file:///w", nil)
			if !strings.Contains(string(init.Result), `"diagnosticProvider":{"identifier":"leia-lsp","interFileDependencies":true`) {
				t.Fatalf("diagnosticProvider not announced: %s", init.Result)
			}
			c.Open(tc.uri, tc.lang, 1, tc.text)
			pushed := c.WaitDiagnostics(tc.uri, 1)
			type report struct {
				Kind     string
				ResultID string
				Items    []struct {
					Code    string
					Message string
				}
			}
			pull := func(prev string) report {
				p := map[string]any{"textDocument": doc(tc.uri)}
				if prev != "" {
					p["previousResultId"] = prev
				}
				m := c.Call("textDocument/diagnostic", p)
				if m.Error != nil {
					t.Fatal(m.Error)
				}
				var r report
				if err := json.Unmarshal(m.Result, &r); err != nil {
					t.Fatal(err)
				}
				return r
			}
			r := pull("")
			if r.Kind != "full" || r.ResultID == "" {
				t.Fatalf("first pull = %+v, want a full report with a result id", r)
			}
			if len(r.Items) != tc.wantItems || len(pushed.Diagnostics) != tc.wantItems {
				t.Fatalf("pulled %d and pushed %d diagnostics, want %d: %+v", len(r.Items), len(pushed.Diagnostics), tc.wantItems, r.Items)
			}
			for _, it := range r.Items {
				if !strings.HasPrefix(it.Code, tc.wantPrefix) {
					t.Errorf("item code %q, want %s...", it.Code, tc.wantPrefix)
				}
			}
			if again := pull(r.ResultID); again.Kind != "unchanged" || again.ResultID != r.ResultID {
				t.Errorf("pull with the previous id = %+v, want unchanged %s", again, r.ResultID)
			}
			if other := pull("stale"); other.Kind != "full" {
				t.Errorf("pull with a stale id = %+v, want full", other)
			}
		})
	}
}

// TestCodeLens drives textDocument/codeLens: a run lens above each Harn
// test pipeline (test_* or @test) and each Leia evaluate block, and a
// replay lens for the block when a .records.json sits beside the program;
// each lens's command carries the harn-check argv.
func TestCodeLens(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "suite.records.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file, lang, text string
		want                   []string
	}{
		{"harn test pipelines", "t.harn", "harn",
			"@test\npipeline smoke(task) { log(1) }\npipeline test_b() { log(2) }\npipeline main(task) { log(3) }\n",
			[]string{"0:0-1:31 ▶ run tests harn-check test T", "2:0-2:28 ▶ run tests harn-check test T"}},
		{"harn no tests", "t.harn", "harn", "pipeline main(task) { log(3) }\n", nil},
		{"leia evaluate with records", "suite.leia", "leia", "evaluate \"judge\" {\n    print(1)\n}\n",
			[]string{"0:0-2:1 ▶ run evaluation harn-check evaluate --filter judge T",
				"0:0-2:1 ↺ replay harn-check evaluate --filter judge --replay R T"}},
		{"leia evaluate without records", "other.leia", "leia", "evaluate \"judge\" {\n    print(1)\n}\n",
			[]string{"0:0-2:1 ▶ run evaluation harn-check evaluate --filter judge T"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := lsptest.Start(t, testOptions())
			init := c.Initialize("file://"+filepath.ToSlash(dir), nil)
			if !strings.Contains(string(init.Result), `"codeLensProvider":{}`) {
				t.Fatalf("codeLensProvider not announced: %s", init.Result)
			}
			path := filepath.Join(dir, tc.file)
			uri := "file://" + filepath.ToSlash(path)
			c.Open(uri, tc.lang, 1, tc.text)
			m := c.Call("textDocument/codeLens", map[string]any{"textDocument": doc(uri)})
			if m.Error != nil {
				t.Fatal(m.Error)
			}
			var ls []struct {
				Range   json.RawMessage
				Command struct {
					Title, Command string
					Arguments      []struct{ Argv []string }
				}
			}
			if err := json.Unmarshal(m.Result, &ls); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range ls {
				if l.Command.Command != "leia-lsp.run" || len(l.Command.Arguments) != 1 {
					t.Errorf("lens command %+v, want leia-lsp.run with one argument", l.Command)
					continue
				}
				argv := strings.Join(l.Command.Arguments[0].Argv, " ")
				argv = strings.ReplaceAll(argv, filepath.Join(dir, "suite.records.json"), "R")
				argv = strings.ReplaceAll(argv, path, "T")
				got = append(got, rng(l.Range)+" "+l.Command.Title+" "+argv)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("lenses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// callsHarn has a pipeline calling two functions, one of them twice, and
// a function calling another.
const callsHarn = "fn base(x: int) -> int {\n  return x\n}\n\nfn twice(x: int) -> int {\n  return base(base(x))\n}\n\npipeline default(task) {\n  log(twice(1))\n  log(base(2))\n}\n"

// callsLeia is a Leia file with the same calls, both forms of function
// declaration, and a local named like a function whose call is not one
// of it.
const callsLeia = "func base(x) {\n  return x\n}\n\ntwice := func(x) {\n  return base(base(x))\n}\n\nfunc main() {\n  print(twice(1))\n  print(base(2))\n  base := func(y) { return y }\n  print(base(3))\n}\n"

// TestCallHierarchy drives prepareCallHierarchy and incoming / outgoing
// calls on a Harn and a Leia file: callers and callees among their
// top-level functions and pipelines, with the call sites' ranges; names
// are resolved as definition resolves them (the checker's model).
func TestCallHierarchy(t *testing.T) {
	for _, tc := range []struct {
		name       string
		lang       string
		line, char int
		// item is the prepared item's name, incoming and outgoing the
		// other ends as NAME@RANGE,RANGE.
		item, incoming, outgoing string
	}{
		{"function called twice in one caller", "harn", 0, 4, "base", "twice@5:9-5:13,5:14-5:18; default@10:6-10:10", ""},
		{"from a call site", "harn", 5, 10, "base", "twice@5:9-5:13,5:14-5:18; default@10:6-10:10", ""},
		{"function calling another", "harn", 4, 4, "twice", "default@9:6-9:11", "base@5:9-5:13,5:14-5:18"},
		{"pipeline", "harn", 8, 10, "default", "", "twice@9:6-9:11; base@10:6-10:10"},
		{"not a callable", "harn", 1, 9, "", "", ""},
		{"Leia function called twice in one caller", "leia", 0, 5, "base", "twice@5:9-5:13,5:14-5:18; main@10:8-10:12", ""},
		{"Leia function bound by :=", "leia", 4, 0, "twice", "main@9:8-9:13", "base@5:9-5:13,5:14-5:18"},
		{"Leia caller", "leia", 8, 5, "main", "", "twice@9:8-9:13; base@10:8-10:12"},
		{"Leia local named like a function", "leia", 12, 8, "", "", ""},
		{"Leia parameter", "leia", 1, 9, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			uri, text := "file:///w/calls.harn", callsHarn
			if tc.lang == "leia" {
				uri, text = "file:///w/calls.leia", callsLeia
			}
			c := lsptest.Start(t, testOptions())
			init := c.Initialize("file:///w", nil)
			if !strings.Contains(string(init.Result), `"callHierarchyProvider":true`) {
				t.Fatalf("callHierarchyProvider not announced: %s", init.Result)
			}
			c.Open(uri, tc.lang, 1, text)
			m := c.Call("textDocument/prepareCallHierarchy", at(uri, tc.line, tc.char))
			if m.Error != nil {
				t.Fatal(m.Error)
			}
			var items []map[string]any
			if err := json.Unmarshal(m.Result, &items); err != nil {
				t.Fatal(err)
			}
			if tc.item == "" {
				if len(items) != 0 {
					t.Fatalf("items = %v, want none", items)
				}
				return
			}
			if len(items) != 1 || items[0]["name"] != tc.item {
				t.Fatalf("items = %v, want %s", items, tc.item)
			}
			ends := func(method, field string) string {
				m := c.Call(method, map[string]any{"item": items[0]})
				if m.Error != nil {
					t.Fatal(m.Error)
				}
				var calls []map[string]json.RawMessage
				if err := json.Unmarshal(m.Result, &calls); err != nil {
					t.Fatal(err)
				}
				var parts []string
				for _, call := range calls {
					var other struct{ Name string }
					var ranges []json.RawMessage
					json.Unmarshal(call[field], &other)
					json.Unmarshal(call["fromRanges"], &ranges)
					var rs []string
					for _, r := range ranges {
						rs = append(rs, rng(r))
					}
					parts = append(parts, other.Name+"@"+strings.Join(rs, ","))
				}
				return strings.Join(parts, "; ")
			}
			if got := ends("callHierarchy/incomingCalls", "from"); got != tc.incoming {
				t.Errorf("incoming = %q, want %q", got, tc.incoming)
			}
			if got := ends("callHierarchy/outgoingCalls", "to"); got != tc.outgoing {
				t.Errorf("outgoing = %q, want %q", got, tc.outgoing)
			}
		})
	}
}

// TestInlayHints drives textDocument/inlayHint (LSP 3.17) on Harn and
// Leia: the checker's inferred type after each untyped binding (and Harn
// closure parameter), none after a binding with a written type or one
// the checker cannot type, only within the requested range.
func TestInlayHints(t *testing.T) {
	harnText := "pipeline default(task) {\n  let a = 1\n  var b: string = \"x\"\n  let s = \"y\"\n  let f = { y: int -> y + 1 }\n}\n"
	// Leia: the checker's static types of variables declared with one
	// value and never assigned; none for a reassigned one or a parameter.
	leiaText := "func main(p) {\n  a := 1\n  s := \"x\" .. a\n  t := {}\n  n := string.len(s)\n  m := 1\n  m = 2\n  f := func(x) { return x }\n  q := p\n}\n"
	for _, tc := range []struct {
		name     string
		lang     string
		from, to int // lines
		want     string
	}{
		{"whole file", "harn", 0, 6, "1:7 : int; 3:7 : string; 4:7 : fn(int) -> int"},
		{"one line", "harn", 3, 4, "3:7 : string"},
		{"typed binding only", "harn", 2, 3, ""},
		{"Leia whole file", "leia", 0, 10, "1:3 : number; 2:3 : string; 3:3 : table; 4:3 : number; 7:3 : function"},
		{"Leia one line", "leia", 3, 4, "3:3 : table"},
		{"Leia reassigned", "leia", 5, 7, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			uri, text := "file:///w/hints.harn", harnText
			if tc.lang == "leia" {
				uri, text = "file:///w/hints.leia", leiaText
			}
			c := lsptest.Start(t, testOptions())
			init := c.Initialize("file:///w", nil)
			if !strings.Contains(string(init.Result), `"inlayHintProvider":true`) {
				t.Fatalf("inlayHintProvider not announced: %s", init.Result)
			}
			c.Open(uri, tc.lang, 1, text)
			c.WaitDiagnostics(uri, 1)
			m := c.Call("textDocument/inlayHint", map[string]any{"textDocument": doc(uri), "range": lsptest.Range(tc.from, 0, tc.to, 0)})
			if m.Error != nil {
				t.Fatal(m.Error)
			}
			var hs []struct {
				Position struct{ Line, Character int }
				Label    string
				Kind     int
			}
			if err := json.Unmarshal(m.Result, &hs); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hs {
				if h.Kind != 1 {
					t.Errorf("hint %q kind %d, want 1 (type)", h.Label, h.Kind)
				}
				got = append(got, fmt.Sprintf("%d:%d %s", h.Position.Line, h.Position.Character, h.Label))
			}
			if g := strings.Join(got, "; "); g != tc.want {
				t.Errorf("hints = %q, want %q", g, tc.want)
			}
		})
	}
}
