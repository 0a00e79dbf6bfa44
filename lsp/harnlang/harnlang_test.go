package harnlang

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

const resolveSrc = `fn helper(x: int) -> int {
  return x + later()
}

fn later() -> int { return 1 }

pipeline main(task) {
  let x = helper(2)
  let cfg = {x: 1}
  if x > 0 {
    let x = "shadow"
    log(x)
  }
  log(cfg.x)
  for item in [1, 2] {
    log(item)
  }
  log(item)
}
`

// fakeWorkspace serves files from a map.
type fakeWorkspace map[string]string

func (fakeWorkspace) Roots() []string                { return nil }
func (fakeWorkspace) Documents() []features.Document { return nil }
func (w fakeWorkspace) ReadFile(p string) ([]byte, error) {
	if s, ok := w[p]; ok {
		return []byte(s), nil
	}
	return nil, os.ErrNotExist
}

// at returns the offset of the n-th (1-based) occurrence of needle.
func at(t *testing.T, src, needle string, n int) int {
	t.Helper()
	off := -1
	for range n {
		i := strings.Index(src[off+1:], needle)
		if i < 0 {
			t.Fatalf("no occurrence %d of %q", n, needle)
		}
		off += 1 + i
	}
	return off
}

func TestDefinition(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	tree := f.syntax.Parse(nil, nil, []byte(resolveSrc)).(*tsquery.Tree)
	defer tree.Close()
	snap := features.Snapshot{Doc: features.Document{Path: "/p/m.harn", Text: []byte(resolveSrc), Tree: tree}, Workspace: fakeWorkspace{}}
	for _, tc := range []struct {
		name      string
		needle    string
		n         int
		defNeedle string // "" for no definition
		defN      int
	}{
		{"parameter", "x + later", 1, "x: int", 1},
		{"function declared later (hoisted)", "later()", 1, "later() -> int", 1},
		{"call of a function", "helper(2)", 1, "helper(x", 1},
		{"outer let", "x > 0", 1, "x = helper", 1},
		{"shadowing let", "x)\n  }", 1, "x = \"shadow\"", 1},
		{"member property is not the variable", "x)\n  for", 1, "", 0},
		{"object of a member", "cfg.x", 1, "cfg =", 1},
		{"loop variable", "item)\n  }", 1, "item in", 1},
		{"loop variable out of scope", "item)\n}", 1, "", 0},
		{"builtin", "log(x)", 1, "", 0},
		{"a declaration's own name", "helper(x", 1, "helper(x", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			locs, err := f.Definition(context.Background(), snap, at(t, resolveSrc, tc.needle, tc.n))
			if err != nil {
				t.Fatal(err)
			}
			if tc.defNeedle == "" {
				if len(locs) != 0 {
					t.Fatalf("want no definition, got %+v", locs)
				}
				return
			}
			want := at(t, resolveSrc, tc.defNeedle, tc.defN)
			if len(locs) != 1 || locs[0].Span.Start != want || locs[0].Path != "" {
				t.Fatalf("definition %+v, want one at offset %d (%q)", locs, want, tc.defNeedle)
			}
		})
	}
}

func TestImportedDefinitionAndHover(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	main := "import {clamp} from \"./lib/util\"\nlet y = clamp(3)\n"
	util := "/// Bounds a value.\npub fn clamp(v: int) -> int { return v }\n"
	ws := fakeWorkspace{"/p/lib/util.harn": util}
	snap := features.Snapshot{Doc: features.Document{Path: "/p/m.harn", Text: []byte(main)}, Workspace: ws}
	locs, err := f.Definition(context.Background(), snap, at(t, main, "clamp(3)", 1))
	if err != nil || len(locs) != 1 || locs[0].Path != "/p/lib/util.harn" || locs[0].Span.Start != at(t, util, "clamp", 1) {
		t.Fatalf("definition %+v %v, want clamp in /p/lib/util.harn", locs, err)
	}
	h, err := f.Hover(context.Background(), snap, at(t, main, "clamp(3)", 1))
	if err != nil || h == nil || !strings.Contains(h.Markdown, "pub fn clamp(v: int) -> int") ||
		!strings.Contains(h.Markdown, "Bounds a value.") || !strings.Contains(h.Markdown, "./lib/util") {
		t.Fatalf("hover %+v %v", h, err)
	}
	// A missing module leaves the import itself as the definition.
	snap.Workspace = fakeWorkspace{}
	locs, _ = f.Definition(context.Background(), snap, at(t, main, "clamp(3)", 1))
	if len(locs) != 1 || locs[0].Path != "" || locs[0].Span.Start != at(t, main, "clamp", 1) {
		t.Fatalf("definition without the module: %+v", locs)
	}
}

// TestBrokenInputs: features on broken and empty texts answer without
// panicking, with spans inside the text.
func TestBrokenInputs(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"", "fn", "fn (", "let = ", "struct { x: }", "import {a from", "}}}{{{", "pipeline p( { let x = x"} {
		tree := binding.ParseTree([]byte(src), nil)
		snap := features.Snapshot{Doc: features.Document{Path: "/p/m.harn", Text: []byte(src), Tree: &tsquery.Tree{T: tree}}, Workspace: fakeWorkspace{}}
		for off := 0; off <= len(src); off++ {
			defs, _ := f.Definition(context.Background(), snap, off)
			refs, _ := f.References(context.Background(), snap, off, true)
			for _, l := range append(defs, refs...) {
				if l.Span.Start < 0 || l.Span.End > len(src) || l.Span.Start > l.Span.End {
					t.Errorf("%q at %d: span %+v outside the text", src, off, l.Span)
				}
			}
			if h, _ := f.Hover(context.Background(), snap, off); h != nil && (h.Span.Start > off || h.Span.End < off) {
				t.Errorf("%q at %d: hover span %+v does not hold the offset", src, off, h.Span)
			}
		}
		if _, err := f.DocumentSymbols(context.Background(), snap); err != nil {
			t.Errorf("%q: %v", src, err)
		}
		tree.Close()
	}
}

func TestCompletion(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	labels := func(src string, offset int) []string {
		t.Helper()
		snap := features.Snapshot{Doc: features.Document{Path: "/p/m.harn", Text: []byte(src)}, Workspace: fakeWorkspace{}}
		items, err := f.Completion(context.Background(), snap, offset)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, it := range items {
			out = append(out, it.Label)
		}
		return out
	}
	for _, tc := range []struct {
		name, src, cursor string // cursor: the text just before the cursor (first occurrence)
		want, not         []string
	}{
		{"names in scope and keywords by prefix", resolveSrc, "log(x", []string{"x"}, []string{"helper"}},
		{"functions by prefix, hoisted", resolveSrc, "return x + la", []string{"later"}, []string{"let"}},
		{"keywords", "fn f() {\n  re\n}\n", "  re", []string{"return", "retry"}, nil},
		{"not declared yet", "fn f() {\n  let aa = 1\n  a\n  let ab = 2\n}\n", "  a", []string{"aa"}, []string{"ab"}},
		{"after a dot: the receiver's fields, not names", resolveSrc, "cfg.", []string{"x"}, []string{"cfg", "helper", "let"}},
		{"inside a string: nothing", "let s = \"lo\"\n", "\"lo", nil, []string{"log", "let"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := labels(tc.src, strings.Index(tc.src, tc.cursor)+len(tc.cursor))
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("want %q among %v", w, got)
				}
			}
			for _, n := range tc.not {
				if slices.Contains(got, n) {
					t.Errorf("%q offered: %v", n, got)
				}
			}
			if tc.want == nil && len(got) != 0 {
				t.Errorf("want nothing, got %v", got)
			}
		})
	}
}

func TestSignatureHelp(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "/// Adds.\nfn add(a: int, b: int = 2, ...more: list<int>) -> int { return a + b }\nlet x = add(1, add(2, 3), 4, 5)\nlog(x)\nlet y = add(\n"
	snap := features.Snapshot{Doc: features.Document{Path: "/p/m.harn", Text: []byte(src)}, Workspace: fakeWorkspace{}}
	for _, tc := range []struct {
		name, cursor string // the text just before the cursor
		active       int    // -1: no signature help
	}{
		{"first argument", "let x = add(", 0},
		{"second argument", "let x = add(1, ", 1},
		{"nested call", "add(2, ", 1},
		{"after the nested call", "add(2, 3), ", 2},
		{"rest parameter absorbs the tail", "3), 4, ", 2},
		{"outside a call", "let x", -1},
		{"unclosed call at the end", "let y = add(", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := f.SignatureHelp(context.Background(), snap, strings.Index(src, tc.cursor)+len(tc.cursor))
			if err != nil {
				t.Fatal(err)
			}
			if tc.active < 0 {
				if h != nil {
					t.Fatalf("want none, got %+v", h)
				}
				return
			}
			if h == nil || len(h.Signatures) != 1 {
				t.Fatalf("got %+v", h)
			}
			sig := h.Signatures[0]
			if sig.Label != "fn add(a: int, b: int = 2, ...more: list<int>) -> int" || sig.Documentation != "Adds." ||
				len(sig.Parameters) != 3 || sig.Parameters[1].Label != "b: int = 2" || h.ActiveParameter != tc.active {
				t.Fatalf("got %+v active %d, want active %d", sig, h.ActiveParameter, tc.active)
			}
		})
	}
}

func TestRename(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "let top = 1\nfn f(p: int) -> int {\n  let a = p + top\n  let b = a\n  return a + b\n}\n"
	snap := features.Snapshot{Doc: features.Document{Path: "/p/m.harn", Text: []byte(src)}, Workspace: fakeWorkspace{}}
	apply := func(edits []diagnostics.TextEdit) string {
		out := src
		for i := len(edits) - 1; i >= 0; i-- {
			e := edits[i]
			out = out[:e.Span.Start] + e.NewText + out[e.Span.End:]
		}
		return out
	}
	for _, tc := range []struct {
		name, at, to, want, err string
	}{
		{"local variable", "a = p", "total", "let top = 1\nfn f(p: int) -> int {\n  let total = p + top\n  let b = total\n  return total + b\n}\n", ""},
		{"parameter from a use", "p + top", "q", "let top = 1\nfn f(q: int) -> int {\n  let a = q + top\n  let b = a\n  return a + b\n}\n", ""},
		{"top-level name (no importers)", "top = 1", "x", "let x = 1\nfn f(p: int) -> int {\n  let a = p + x\n  let b = a\n  return a + b\n}\n", ""},
		{"keyword refused", "a = p", "return", "", "not a valid Harn name"},
		// `_` binds nothing; break and continue are statements (issue #25).
		{"wildcard refused", "a = p", "_", "", "not a valid Harn name"},
		{"break refused", "a = p", "break", "", "not a valid Harn name"},
		{"continue refused", "p + top", "continue", "", "not a valid Harn name"},
		{"not an identifier", "a = p", "a b", "", "not a valid Harn name"},
		{"capture of an outer name refused", "a = p", "top", "", "capture"},
		{"shadowing an outer name unused after it", "b = a", "top", "let top = 1\nfn f(p: int) -> int {\n  let a = p + top\n  let top = a\n  return a + top\n}\n", ""},
		{"collision with a visible local refused", "b = a", "a", "", "would make a use refer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			off := strings.Index(src, tc.at)
			span, _ := f.PrepareRename(context.Background(), snap, off)
			edits, err := f.Rename(context.Background(), snap, off, tc.to)
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
			case tc.want == "":
				if span != nil || edits != nil || err != nil {
					t.Fatalf("want a refusal, got span %v edits %v err %v", span, edits, err)
				}
			default:
				if err != nil || span == nil {
					t.Fatalf("span %v err %v", span, err)
				}
				if got := apply(edits); got != tc.want {
					t.Fatalf("renamed:\n%s\nwant\n%s", got, tc.want)
				}
			}
		})
	}
}

func TestOutcomeKindCompletion(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	evalKinds := outcomeKinds("EvaluationOutcome")
	if len(evalKinds) < 3 || evalKinds[0] != "answered" {
		t.Fatalf("EvaluationOutcome kinds from stdlib: %v", evalKinds)
	}
	const head = "fn f(harness: Harness, w, p: PredicateOutcome) -> string {\n  const o = harness.llm.evaluate(\"x\", w, {})\n"
	for _, tc := range []struct {
		name, src, cursor string
		want              []string // insert texts; nil: not outcome completion
		not               []string
	}{
		{"arm pattern, unmatched kinds", head + "  match o.kind {\n    \"answered\" -> { return \"a\" }\n    \n  }\n}\n",
			"{ return \"a\" }\n    ", []string{`"low_confidence"`}, []string{`"answered"`}},
		{"inside an opened string", head + "  match o.kind {\n    \"lo\n  }\n}\n", "\"lo", []string{"low_confidence"}, nil},
		{"predicate outcome parameter", head + "  match p.kind {\n    \n  }\n}\n", "p.kind {\n    ", []string{`"verdict"`}, []string{`"answered"`}},
		{"arm body: ordinary completion", head + "  match o.kind {\n    \"answered\" -> { ret }\n  }\n}\n", "{ ret", nil, nil},
		{"not an outcome", "fn g(x) {\n  match x.kind {\n    \n  }\n}\n", "x.kind {\n    ", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := features.Snapshot{Doc: features.Document{Path: "/p/m.harn", Text: []byte(tc.src)}, Workspace: fakeWorkspace{}}
			items, err := f.Completion(context.Background(), snap, strings.Index(tc.src, tc.cursor)+len(tc.cursor))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			kinds := 0
			for _, it := range items {
				if it.Kind == features.CompletionEnumMember {
					kinds++
					got = append(got, it.InsertText)
				}
			}
			if tc.want == nil {
				if kinds != 0 {
					t.Fatalf("outcome kinds offered: %v", got)
				}
				return
			}
			if kinds != len(items) {
				t.Errorf("other items beside the kinds: %+v", items)
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("want %s among %v", w, got)
				}
			}
			for _, n := range tc.not {
				if slices.Contains(got, n) {
					t.Errorf("%s offered: %v", n, got)
				}
			}
		})
	}
}

// rootWorkspace is a workspace of one root folder and open documents.
type rootWorkspace struct {
	root string
	docs []features.Document
}

func (w rootWorkspace) Roots() []string                   { return []string{w.root} }
func (w rootWorkspace) Documents() []features.Document    { return w.docs }
func (w rootWorkspace) ReadFile(p string) ([]byte, error) { return os.ReadFile(p) }

func TestWorkspaceSymbols(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	disk := write("lib/util.harn", "pub fn clamp_value(x: int) -> int { return x }\nstruct Clamp { lo: int }\n")
	write(".git/hidden.harn", "fn clamp_hidden() {}\n")
	write("notes.txt", "fn clamp_txt() {}\n")
	open := write("main.harn", "fn clamp_on_disk() {}\n")
	ws := rootWorkspace{root: root, docs: []features.Document{{Path: open, Text: []byte("fn clamp_open() {}\n")}}}
	syms, err := f.WorkspaceSymbols(context.Background(), ws, "CLAMP")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range syms {
		got = append(got, filepath.Base(s.Location.Path)+":"+s.Name+"/"+s.Container)
	}
	want := []string{"util.harn:clamp_value/", "util.harn:Clamp/", "main.harn:clamp_open/"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("workspace symbols %v, want %v (the open buffer wins over the disk, hidden and non-Harn files skipped)", got, want)
	}
	// A changed file on disk is read again.
	time.Sleep(10 * time.Millisecond)
	write("lib/util.harn", "fn clamp_renamed() {}\n")
	now := time.Now().Add(time.Second)
	os.Chtimes(disk, now, now)
	syms, _ = f.WorkspaceSymbols(context.Background(), ws, "renamed")
	if len(syms) != 1 || syms[0].Name != "clamp_renamed" {
		t.Fatalf("after the change: %+v", syms)
	}
}

func TestLabelCompletion(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	const head = "fn f(harness: Harness, w) -> string {\n  const o = harness.llm.evaluate(\"x\", w, {\n" +
		"    d: choice(\"Keep?\", {keep: \"a\", \"drop\": \"b\", reword: \"c\"}),\n" +
		"    r: score(\"Risk?\", [\"low\", \"high\"]),\n  })\n"
	for _, tc := range []struct {
		name, src, cursor string
		want              []string // insert texts; nil: no label completion
	}{
		{"comparison in a string", head + "  if o.value.d.choice == \"k\" {\n    return \"\"\n  }\n}\n", "== \"k", []string{"keep"}},
		{"comparison, unquoted prefix", head + "  if o.value.d.choice != r {\n    return \"\"\n  }\n}\n", "!= r", []string{`"reword"`}},
		{"score level", head + "  if o.value.r.level == \"\" {\n    return \"\"\n  }\n}\n", "== \"", []string{"low", "high"}},
		{"match over a choice", head + "  match o.value.d.choice {\n    \"dr\" -> { return \"\" }\n  }\n}\n", "    \"dr", []string{"drop"}},
		{"unknown question", head + "  if o.value.zz.choice == \"\" {\n    return \"\"\n  }\n}\n", "== \"", []string{}},
		{"not an answer", head + "  if o.kind == \"\" {\n    return \"\"\n  }\n}\n", "== \"", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := features.Snapshot{Doc: features.Document{Path: "/p/m.harn", Text: []byte(tc.src)}, Workspace: fakeWorkspace{}}
			items, err := f.Completion(context.Background(), snap, strings.Index(tc.src, tc.cursor)+len(tc.cursor))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range items {
				if strings.HasPrefix(it.Detail, "label of question") {
					got = append(got, it.InsertText)
				}
			}
			if tc.want == nil {
				if len(got) != 0 {
					t.Fatalf("labels offered: %v", got)
				}
				return
			}
			if len(got) != len(items) || !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Fatalf("got %v (items %+v), want %v", got, items, tc.want)
			}
		})
	}
}

func TestBuiltinSignatureHelp(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "import {choice} from \"std/predicate\"\nfn g(harness: Harness, w) {\n  const o = harness.llm.evaluate(\"id\", w, {d: choice(\"Keep?\", {keep: \"a\"})})\n}\n"
	snap := features.Snapshot{Doc: features.Document{Path: "/p/m.harn", Text: []byte(src)}, Workspace: fakeWorkspace{}}
	for _, tc := range []struct {
		cursor, label string
		active        int
	}{
		{"evaluate(\"id\", ", "llm.evaluate(id: string", 1},
		{"choice(\"Keep?\", ", "choice(", 1},
	} {
		h, err := f.SignatureHelp(context.Background(), snap, strings.Index(src, tc.cursor)+len(tc.cursor))
		if err != nil || h == nil || len(h.Signatures) != 1 {
			t.Fatalf("%s: %+v %v", tc.cursor, h, err)
		}
		if sig := h.Signatures[0]; !strings.HasPrefix(sig.Label, tc.label) || h.ActiveParameter != tc.active || len(sig.Parameters) < 2 {
			t.Errorf("%s: %+v active %d", tc.cursor, sig, h.ActiveParameter)
		}
	}
}
