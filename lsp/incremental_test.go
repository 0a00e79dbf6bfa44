package lsp_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/frontends"
	"github.com/harnlang/harn-check/lsp/cache"
)

// incrementalPrograms are the documents the incremental = fresh tests
// edit: one program of each language with imports, evaluation sites,
// functions and top-level statements.
var incrementalPrograms = []struct {
	path, languageID string
	// incremental: some random edits must be checked incrementally.
	incremental bool
}{
	{"testdata/harn/incremental.harn", "harn", true},
	{"testdata/harn/incremental_clean.harn", "harn", true},
	{"testdata/harn/incremental_focus.harn", "harn", true},
	{"../examples/leia/research_report.leia", "leia", false},
	{"testdata/leia/incremental.leia", "leia", true},
	{"../examples/harn/compaction.harn", "harn", false},
}

// incrementalPieces are the texts random edits insert: whole bindings and
// declarations, lone brackets and quotes that break the syntax, and
// changes to a signature.
var incrementalPieces = []string{" ", "\n", "x", "1", "}", "{", "(", ")", "\"", ",", "// c\n", "7", "\n  ", "n", "log(1)\n",
	"+ 1", "let w = n\n", "q",
	"let y = 2\n", "local y = 2\n", "y := 2\n", "fn g(a: int) -> int { return a }\n", "function g(a) return a end\n",
	"return 1\n", ": string", "-> int", "match o {", "end\n", "if x then\n"}

// statements are what statementEdit inserts: valid statements, some with
// diagnostics (an unresolved name, a type mismatch, unreachable code).
var statements = map[string][]string{
	"harn": {"  let w = 1\n", "  log(n)\n", "  let w = q\n", "  let w: string = 1\n", "  return 1\n",
		"  w = w + 1\n", "  print(\"line\")\n", "\n", "  // note\n", "  let n = 2\n"},
	"leia": {"  w := 1\n", "  print(n)\n", "  w := q\n", "  return 1\n", "  w = w + 1\n", "\n", "  // note\n",
		"  scale = nil\n", "  x = x + 1\n", "  scale(1, 2, 3)\n", "  clamp(1, 2, 3, 4)\n", "  limit = 4\n", "  a, counter = 1, 2\n",
		"  t := {}\n  t.k = 1\n", "  w++\n", "  llm.turn({})\n", "  unused_local := 1\n"},
}

// statementEdit returns an edit of a random indented line: a statement
// inserted before it, the line replaced by one, or the line deleted.
func statementEdit(r *rand.Rand, languageID string, text []byte) (int, int, string) {
	var starts []int
	for i := 0; i < len(text); i++ {
		if (i == 0 || text[i-1] == '\n') && bytes.HasPrefix(text[i:], []byte("  ")) {
			line, _, _ := bytes.Cut(text[i:], []byte("\n"))
			line = bytes.TrimSpace(line)
			if len(line) > 0 && (line[0] == '}' || line[len(line)-1] == '{') {
				continue // a block's brace: deleting it breaks the syntax
			}
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 {
		return 0, 0, ""
	}
	a := starts[r.IntN(len(starts))]
	end := a + bytes.IndexByte(text[a:], '\n') + 1
	if end <= a {
		end = len(text)
	}
	st := statements[languageID][r.IntN(len(statements[languageID]))]
	switch r.IntN(3) {
	case 0:
		return a, a, st
	case 1:
		return a, end, st
	}
	return a, end, ""
}

// editDocument applies one edit replacing text[a:b] with ins through the
// store, as a didChange would, and checks the store's text against the
// model.
func editDocument(t testing.TB, s *cache.Store, uri string, v int32, text []byte, a, b int, ins string) (*cache.Document, []byte) {
	for a < len(text) && !utf8.RuneStart(text[a]) {
		a++
	}
	for b < len(text) && !utf8.RuneStart(text[b]) {
		b++
	}
	b = max(a, b)
	lines := diagnostics.NewLineIndex(text)
	rng := &cache.Range{Start: lines.UTF16Column(a), End: lines.UTF16Column(b)}
	d, err := s.Change(uri, v, []cache.Change{{Range: rng, Text: ins}})
	if err != nil {
		t.Fatal(err)
	}
	text = append(append(append([]byte{}, text[:a]...), ins...), text[b:]...)
	if !bytes.Equal(d.Text, text) {
		t.Fatalf("version %d: the store's text differs from the model", v)
	}
	return d, text
}

// compareFresh checks d as the server does (reusing what it can of the
// previous versions' checks) and compares the result with a fresh check of
// the same text, the one harn-check runs, field for field.
func compareFresh(t testing.TB, d *cache.Document, path string, text []byte) {
	read := func(p string) ([]byte, error) { return os.ReadFile(p) }
	got, err := d.CheckWith(read)
	if err != nil {
		t.Fatal(err)
	}
	want := testChecks.Check(driver.Request{Path: path, Source: text, Read: read})
	// Facts are keyed by syntax node: two checks never hold equal ones.
	// What is compared is what the check reports.
	got.Facts, want.Facts = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("version %d: incremental check\n%v\nwant (fresh)\n%v\nof\n%s", d.Version, got.Diagnostics, want.Diagnostics, text)
	}
	compareFreshModel(t, d, path, text)
}

// compareFreshModel compares the semantic model the document's checks
// left (an incremental check's merged into the earlier one) with that of
// a fresh check of the same text: it is of this very text, and every
// identifier resolves as the fresh check resolves it.
func compareFreshModel(t testing.TB, d *cache.Document, path string, text []byte) {
	e := d.Model()
	if e == nil || !e.Unchanged() {
		t.Fatalf("version %d: the document's model is not of its text", d.Version)
	}
	want := testChecks.Check(driver.Request{Path: path, Source: text, Model: true}).Model
	for _, id := range identifiers(text, filepath.Ext(path) == ".harn") {
		def, _, _ := e.At(id.Start)
		wdef, _ := want.At(id.Start)
		var got, exp string
		if def >= 0 {
			g, _ := e.Def(def)
			got = fmt.Sprintf("%s %s at %d", g.Kind, g.Name, g.Span.Start)
		}
		if wdef >= 0 {
			w := want.Def(wdef)
			exp = fmt.Sprintf("%s %s at %d", w.Kind, w.Name, w.Span.Start)
		}
		if got != exp {
			t.Fatalf("version %d: %q at %d resolves to %q, a fresh check to %q, in\n%s", d.Version, text[id.Start:id.End], id.Start, got, exp, text)
		}
	}
}

// TestIncrementalCheckEqualsFresh applies random edit sequences to a
// Harn and a Leia document through the document store, and after every
// edit compares the server's check (which reuses the previous versions'
// work) with a fresh check of the same text.
func TestIncrementalCheckEqualsFresh(t *testing.T) {
	for _, p := range incrementalPrograms {
		t.Run(filepath.Base(p.path), func(t *testing.T) {
			abs, err := filepath.Abs(p.path)
			if err != nil {
				t.Fatal(err)
			}
			orig, err := os.ReadFile(abs)
			if err != nil {
				t.Fatal(err)
			}
			uri := cache.PathToURI(abs)
			s := testStore(t)
			d := s.Open(uri, p.languageID, 0, string(orig))
			compareFresh(t, d, abs, orig)
			r := rand.New(rand.NewPCG(5, 6))
			text := orig
			before, focused := frontends.IncrementalChecks(), frontends.FocusedChecks()
			edits := int32(150)
			if !p.incremental {
				edits = 60
			}
			for v := int32(1); v <= edits; v++ {
				a := r.IntN(len(text) + 1)
				b := min(len(text), a+r.IntN(8))
				ins := incrementalPieces[r.IntN(len(incrementalPieces))]
				switch {
				case v%25 == 0:
					// Back to the original text, so that the edits do not
					// drift into one big syntax error.
					a, b, ins = 0, len(text), string(orig)
				case p.incremental && v%25 != 24 || v%2 == 0:
					// An edit that keeps the syntax valid more often: a
					// statement inserted at the start of, or replacing, a
					// line inside a body.
					a, b, ins = statementEdit(r, p.languageID, text)
				case v%3 == 0:
					// A pure deletion.
					ins = ""
				}
				d, text = editDocument(t, s, uri, v, text, a, b, ins)
				compareFresh(t, d, abs, text)
			}
			t.Logf("%d of %d versions checked incrementally, %d of them focused", frontends.IncrementalChecks()-before, edits, frontends.FocusedChecks()-focused)
			if p.incremental && frontends.IncrementalChecks() == before {
				t.Errorf("no version of %s was checked incrementally", p.path)
			}
			if p.incremental && frontends.FocusedChecks() == focused {
				t.Errorf("no version of %s was checked focused on the edited statement", p.path)
			}
		})
	}
}

// FuzzIncrementalCheckEqualsFresh decodes a sequence of edits from the
// input and applies them to a Harn or a Leia program (the first byte
// picks which) through the document store, comparing the server's check
// with a fresh check after every edit. Each edit is four bytes: a kind (even: a statement inserted
// before, or replacing, an indented line, or that line deleted; odd: a
// raw edit), a position, a length or line, and the text (a piece, or the
// next bytes of the input).
func FuzzIncrementalCheckEqualsFresh(f *testing.F) {
	f.Add([]byte("\x00\x00\x10\x02\x00\x02\x40\x05\x01\x00\x80\x00\x03"), false)
	f.Add([]byte("\x01\x01\x30\x00\x0f\x00\x31\x05\x04\x03\x80\x01\x03"), true)
	f.Add([]byte("\x00\x01\xff\x04\xff\x02\x20\x01\x02"), false)
	f.Add([]byte("\x02\x00\x10\x02\x00\x01\x60\x00\x03\x00\x21\x07\x00"), false)
	f.Fuzz(func(t *testing.T, script []byte, leia bool) {
		// The program: the first byte picks one of the language's
		// programs whose edits can be checked incrementally.
		var programs []int
		for i, q := range incrementalPrograms {
			if q.incremental && (q.languageID == "leia") == leia {
				programs = append(programs, i)
			}
		}
		if len(script) == 0 {
			return
		}
		p := incrementalPrograms[programs[int(script[0])%len(programs)]]
		script = script[1:]
		abs, err := filepath.Abs(p.path)
		if err != nil {
			t.Fatal(err)
		}
		orig, err := os.ReadFile(abs)
		if err != nil {
			t.Fatal(err)
		}
		uri := cache.PathToURI(abs)
		s := testStore(t)
		s.Open(uri, p.languageID, 0, string(orig))
		text := orig
		for v := int32(1); len(script) >= 4 && v <= 20; v++ {
			kind, at, n, k := script[0], int(script[1]), int(script[2]), int(script[3])
			script = script[4:]
			var a, b int
			var ins string
			if kind%2 == 0 {
				r := rand.New(rand.NewPCG(uint64(at), uint64(n)))
				a, b, ins = statementEdit(r, p.languageID, text)
			} else {
				a = at * len(text) / 256
				b = min(len(text), a+n%16)
				if k < len(incrementalPieces) {
					ins = incrementalPieces[k]
				} else {
					m := min(k%8, len(script))
					ins = string(script[:m])
					script = script[m:]
				}
			}
			var d *cache.Document
			d, text = editDocument(t, s, uri, v, text, a, b, ins)
			compareFresh(t, d, abs, text)
		}
	})
}

// TestIncrementalLeiaCrossBody edits one function body of
// testdata/leia/incremental.leia at a time with a statement that could
// change what the rest of the file reports (a top-level function
// reassigned, a constant assigned, an AI call, a runtime load), each
// followed by its removal, and compares the server's check with a fresh
// one after each edit.
func TestIncrementalLeiaCrossBody(t *testing.T) {
	abs, err := filepath.Abs("testdata/leia/incremental.leia")
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ after, stmt string }{
		{"helper := func(a) {\n", "    scale = nil\n"},
		{"func total(items) {\n", "    scale = clamp\n"},
		{"func total(items) {\n", "    sum, scale := 1, 2\n"},
		{"func total(items) {\n", "    items, scale = 1, 2\n"},
		{"func bump(by) {\n", "    clamp++\n"},
		{"func bump(by) {\n", "    limit += 1\n"},
		{"func bump(by) {\n", "    by = 2\n"},
		{"func clamp(v, lo, hi) {\n", "    load(\"x := 1\")\n"},
		{"func clamp(v, lo, hi) {\n", "    r := llm.turn({})\n"},
		{"func describe(n) {\n", "    t := {}\n    t.scale = 1\n    t[1] = 2\n"},
		{"func describe(n) {\n", "    missing_name := 1\n"},
		{"scale := func(x, factor) {\n", "    x = 1\n"},
		// Checked focused on the body: a local redeclaring a top-level
		// name, an undefined name whose suggestion is a declaration the
		// body does not name, a call of a function the tool's statement
		// also names, a name spelt only in a string.
		{"func describe(n) {\n", "    counter := 1\n"},
		{"func describe(n) {\n", "    limit := 1\n"},
		{"func describe(n) {\n", "    v := lookp\n"},
		{"func describe(n) {\n", "    v := clamp(n)\n"},
		{"func clamp(v, lo, hi) {\n", "    print(\"helper total\")\n"},
		{"func clamp(v, lo, hi) {\n", "    w := 1\n"},
		// A call whose arity is not checked: a top-level statement the
		// body does not name reassigns the callee.
		{"func total(items) {\n", "    adjust(1, 2)\n"},
		{"func total(items) {\n", "    scale(1, 2, 3)\n"},
	}
	uri := cache.PathToURI(abs)
	s := testStore(t)
	d := s.Open(uri, "leia", 0, string(orig))
	compareFresh(t, d, abs, orig)
	text := orig
	v := int32(0)
	before, focused := frontends.IncrementalChecks(), frontends.FocusedChecks()
	for _, c := range cases {
		at := bytes.Index(text, []byte(c.after))
		if at < 0 {
			t.Fatalf("no %q in the program", c.after)
		}
		at += len(c.after)
		v++
		d, text = editDocument(t, s, uri, v, text, at, at, c.stmt)
		compareFresh(t, d, abs, text)
		v++
		d, text = editDocument(t, s, uri, v, text, at, at+len(c.stmt), "")
		compareFresh(t, d, abs, text)
	}
	if frontends.IncrementalChecks() == before {
		t.Error("no version was checked incrementally")
	}
	if frontends.FocusedChecks() == focused {
		t.Error("no version was checked focused on the edited statement")
	}
}

// TestIncrementalHarnFocused replaces one line of a body of
// testdata/harn/incremental_focus.harn at a time (no line added, so the
// focused check applies) with a statement whose diagnostics depend on an
// item the body reaches only through names: a binding, a function's
// signature and the struct it returns, a struct's impl, a binding a
// module-level statement uses, a `var` another body assigns, a function
// whose inferred result is a `var` a module-level statement assigns, an
// undefined name whose suggestion is a declaration the body does not
// name; and a function declared twice. Each is compared with a fresh
// check, then undone.
func TestIncrementalHarnFocused(t *testing.T) {
	abs, err := filepath.Abs("testdata/harn/incremental_focus.harn")
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ line, with string }{
		{"  let z = n + 1", "  let z: string = limit"},
		{"  let z = n + 1", "  let z: string = make_point(n).x"},
		{"  let z = n + 1", "  let z: string = make_point(n).norm()"},
		{"  let z = n + 1", "  let z = make_point(n, 2)"},
		{"  let z = n + 1", "  let z: int = names"},
		{"  let z = n + 1", "  let z: int = slot"},
		{"  let z = n + 1", "  let z = limt"},
		{"  let z = n + 1", "  let z = twice(n, n)"},
		{"  let z = n + 1", "  let z: int = current()"},
		{"  let z = n + 1", "  let z: int = last()"},
		// A line added: still focused.
		{"  let z = n + 1", "  let z = n + 1\n  let y: int = last()"},
		// An undefined name: the reduced check, which must not blank the
		// body assigning the `var` that last() returns.
		{"  let z = n + 1", "  let z = limt\n  let y: int = last()"},
		{"  let d = n * 2", "  let d: string = reader(n)"},
		{"  let d = n * 2", "  let d = Point {x: 1, y: \"a\"}"},
		// Of two functions of one name only the last one's body is
		// checked; two pipelines of one name are both checked.
		{"  let d = n * 2", "  let d: string = n"},
		{"  let a = reader(1)", "  let a: string = 1"},
		// A character the lexer rejects (the tree has no error: the
		// parser reads it as a space).
		{"  let z = n + 1", "  let z = n + 1 §"},
		{"  let a = reader(1)", "  let a: string = limit"},
		{"  slot = \"text\"", "  slot = 5"},
		{"  slot = \"text\"", "  let s = 5"},
	}
	uri := cache.PathToURI(abs)
	s := testStore(t)
	d := s.Open(uri, "harn", 0, string(orig))
	compareFresh(t, d, abs, orig)
	text := orig
	v := int32(0)
	incremental, focused := frontends.IncrementalChecks(), frontends.FocusedChecks()
	for _, c := range cases {
		at := bytes.Index(text, []byte(c.line+"\n"))
		if at < 0 {
			t.Fatalf("no line %q in the program", c.line)
		}
		v++
		d, text = editDocument(t, s, uri, v, text, at, at+len(c.line), c.with)
		compareFresh(t, d, abs, text)
		v++
		d, text = editDocument(t, s, uri, v, text, at, at+len(c.with), c.line)
		compareFresh(t, d, abs, text)
	}
	n := frontends.FocusedChecks() - focused
	t.Logf("%d of %d versions checked incrementally, %d of them focused", frontends.IncrementalChecks()-incremental, v, n)
	if n < int64(len(cases)) || frontends.IncrementalChecks()-incremental <= n {
		t.Errorf("%d of %d versions were checked incrementally, %d of them focused on the edited item", frontends.IncrementalChecks()-incremental, v, n)
	}
}

// TestIncrementalHarnTypingAcrossBodies edits six isolated bodies of
// testdata/harn/incremental_focus.harn one after the other, none undone:
// every version is checked focused on its edited body (the facts of the
// earlier focused checks stay small enough to keep), and equal to a fresh
// check.
func TestIncrementalHarnTypingAcrossBodies(t *testing.T) {
	abs, err := filepath.Abs("testdata/harn/incremental_focus.harn")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{"  return Point {x: a, y: a}\n", "  let z = n + 1\n", "  let d = n * 2\n",
		"  let a = reader(1)\n", "  return n + n\n", "  log(twice(2))\n"}
	uri := cache.PathToURI(abs)
	s := testStore(t)
	d := s.Open(uri, "harn", 0, string(text))
	compareFresh(t, d, abs, text)
	focused := frontends.FocusedChecks()
	for i, line := range lines {
		at := bytes.Index(text, []byte(line))
		if at < 0 {
			t.Fatalf("no line %q in the program", line)
		}
		d, text = editDocument(t, s, uri, int32(i+1), text, at, at, " ")
		compareFresh(t, d, abs, text)
	}
	if n := frontends.FocusedChecks() - focused; n != int64(len(lines)) {
		t.Errorf("%d of %d edits were checked focused", n, len(lines))
	}
}
