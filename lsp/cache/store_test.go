package cache

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf16"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjson "github.com/tree-sitter/tree-sitter-json/bindings/go"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/grammar/tsutil"
)

func rng(sl, sc, el, ec int) *Range {
	return &Range{diagnostics.Position{Line: sl, Column: sc}, diagnostics.Position{Line: el, Column: ec}}
}

func TestStoreChange(t *testing.T) {
	for _, tc := range []struct {
		name    string
		text    string
		changes []Change
		want    string
		err     string
	}{
		{"insert", "ab\ncd", []Change{{rng(1, 1, 1, 1), "X"}}, "ab\ncXd", ""},
		{"whole document", "ab", []Change{{nil, "new"}}, "new", ""},
		{"in order", "abc", []Change{{rng(0, 0, 0, 1), ""}, {rng(0, 0, 0, 1), "Z"}}, "Zc", ""},
		{"column past line end clamps to it", "ab\ncd", []Change{{rng(0, 99, 0, 99), "!"}}, "ab!\ncd", ""},
		{"line past end clamps to document end", "ab\ncd", []Change{{rng(7, 0, 9, 3), "!"}}, "ab\ncd!", ""},
		{"utf-16 columns: astral character is two units", "𝄞x", []Change{{rng(0, 2, 0, 3), "y"}}, "𝄞y", ""},
		{"inside a surrogate pair snaps to the character start", "𝄞x", []Change{{rng(0, 1, 0, 1), "<"}}, "<𝄞x", ""},
		{"crlf line end excludes the carriage return", "ab\r\ncd", []Change{{rng(0, 5, 0, 5), "!"}}, "ab!\r\ncd", ""},
		{"reversed range is an error and nothing applies", "abc", []Change{{rng(0, 0, 0, 1), "Z"}, {rng(0, 2, 0, 1), ""}}, "abc",
			"change 1: range end 0:1 precedes start 0:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore(unchecked)
			s.Open("file:///w/a.harn", "harn", 1, tc.text)
			d, err := s.Change("file:///w/a.harn", 2, tc.changes)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				if got := string(s.Get("file:///w/a.harn").Text); got != tc.want {
					t.Errorf("text after failed change = %q, want %q", got, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(d.Text) != tc.want || d.Version != 2 || len(d.Edits) != len(tc.changes) {
				t.Errorf("got %q v%d with %d edits, want %q v2 with %d", d.Text, d.Version, len(d.Edits), tc.want, len(tc.changes))
			}
		})
	}
}

func TestStoreUnopened(t *testing.T) {
	s := NewStore(unchecked)
	if _, err := s.Change("file:///nope.harn", 2, []Change{{nil, "x"}}); !errors.Is(err, ErrNotOpen) {
		t.Errorf("change of unopened document: err = %v", err)
	}
	if err := s.Close("file:///nope.harn"); !errors.Is(err, ErrNotOpen) {
		t.Errorf("close of unopened document: err = %v", err)
	}
	if s.Get("file:///nope.harn") != nil || len(s.All()) != 0 {
		t.Error("store must stay empty")
	}
}

func TestResolveExtension(t *testing.T) {
	for _, tc := range []struct{ uri, id, want string }{
		{"file:///a/b.harn", "harn", ".harn"},
		{"file:///a/b.txt", "leia", ".leia"},
		{"file:///a/b.leia", "plaintext", ".leia"},
		{"untitled:Untitled-1", "harn", ".harn"},
		{"file:///a/b.txt", "plaintext", ""},
		{"file:///a/b.harn", "", ".harn"},
	} {
		if got := unchecked.ResolveExtension(tc.uri, tc.id); got != tc.want {
			t.Errorf("ResolveExtension(%q, %q) = %q, want %q", tc.uri, tc.id, got, tc.want)
		}
	}
}

// model is an independent reference for applying protocol changes: the text
// as UTF-16 code units, positions resolved by scanning for line breaks.
type model struct{ u []uint16 }

func (m *model) offset(p diagnostics.Position) int {
	line, i := 0, 0
	for line < p.Line {
		for i < len(m.u) && m.u[i] != '\n' {
			i++
		}
		if i == len(m.u) {
			return len(m.u)
		}
		i++
		line++
	}
	end := i
	for end < len(m.u) && m.u[end] != '\n' {
		end++
	}
	if end > i && end < len(m.u) && m.u[end-1] == '\r' {
		end--
	}
	off := min(i+p.Column, end)
	if off > i && off < len(m.u) && utf16.IsSurrogate(rune(m.u[off])) && m.u[off] >= 0xDC00 {
		off-- // inside a surrogate pair: back to the character's start
	}
	return off
}

func (m *model) apply(c Change) {
	start, end := 0, len(m.u)
	if c.Range != nil {
		start, end = m.offset(c.Range.Start), m.offset(c.Range.End)
		end = max(start, end)
	}
	ins := utf16.Encode([]rune(c.Text))
	m.u = append(m.u[:start:start], append(ins, m.u[end:]...)...)
}

// pieces are the fragments random edits insert: ASCII, JSON punctuation,
// multi-byte and astral characters, and both line endings.
var pieces = []string{"a", "1", "{", "}", "[", "]", ",", ":", `"`, " ", "\n", "\r\n", "é", "€", "𝄞", "true", `"k": 2`, "null"}

func randomChange(r *rand.Rand, m *model) Change {
	lines := strings.Count(string(utf16.Decode(m.u)), "\n") + 1
	pos := func() diagnostics.Position {
		// Mostly in range, sometimes past the end of a line or the file.
		return diagnostics.Position{Line: r.IntN(lines + 1), Column: r.IntN(12)}
	}
	var text strings.Builder
	for range r.IntN(4) {
		text.WriteString(pieces[r.IntN(len(pieces))])
	}
	if r.IntN(200) == 0 {
		return Change{Text: text.String()}
	}
	a, b := pos(), pos()
	if b.Line < a.Line || (b.Line == a.Line && b.Column < a.Column) {
		a, b = b, a
	}
	return Change{Range: &Range{a, b}, Text: text.String()}
}

// checkEdited verifies that every node the edit did not touch has, after
// Tree.Edit, the row and column its byte offsets have in the new text: the
// points of an Edit are only right if they agree with its byte offsets.
func checkEdited(n *sitter.Node, e Edit, lines *diagnostics.LineIndex) string {
	if n.EndByte() <= e.StartByte || n.StartByte() >= e.NewEndByte && n.StartByte() > e.StartByte {
		for _, end := range []bool{false, true} {
			b, p := n.StartByte(), n.StartPosition()
			if end {
				b, p = n.EndByte(), n.EndPosition()
			}
			want := lines.ByteColumn(int(b))
			if p.Row != uint(want.Line) || p.Column != uint(want.Column) {
				return fmt.Sprintf("%s at byte %d has point %v, want %d:%d", n.GrammarName(), b, p, want.Line, want.Column)
			}
		}
	}
	for i := range n.ChildCount() {
		if err := checkEdited(n.Child(i), e, lines); err != "" {
			return err
		}
	}
	return ""
}

// dump prints every node of a tree with its byte range and points.
func dump(n *sitter.Node, depth int, b *strings.Builder) {
	fmt.Fprintf(b, "%*s%s %d-%d %v-%v\n", depth, "", n.GrammarName(), n.StartByte(), n.EndByte(), n.StartPosition(), n.EndPosition())
	for i := range n.ChildCount() {
		dump(n.Child(i), depth+1, b)
	}
}

func treeDump(t *sitter.Tree) string {
	var b strings.Builder
	dump(t.RootNode(), 0, &b)
	return b.String()
}

// jsonSyntax is a Syntax over tree-sitter's JSON grammar, standing in for
// the Harn and Leia front ends: it copies the previous tree, applies the
// edits to the copy and reparses incrementally.
type jsonSyntax struct {
	parser *sitter.Parser
	closed *atomic.Int64
}

type jsonTree struct {
	t      *sitter.Tree
	closed *atomic.Int64
}

func (t *jsonTree) Close() {
	t.t.Close()
	t.closed.Add(1)
}

func inputEdit(e Edit) *sitter.InputEdit {
	return &sitter.InputEdit{
		StartByte: e.StartByte, OldEndByte: e.OldEndByte, NewEndByte: e.NewEndByte,
		StartPosition:  sitter.Point{Row: e.StartPoint.Row, Column: e.StartPoint.Column},
		OldEndPosition: sitter.Point{Row: e.OldEndPoint.Row, Column: e.OldEndPoint.Column},
		NewEndPosition: sitter.Point{Row: e.NewEndPoint.Row, Column: e.NewEndPoint.Column},
	}
}

func (s jsonSyntax) Parse(prev Tree, edits []Edit, text []byte) Tree {
	var old *sitter.Tree
	if prev != nil {
		old = prev.(*jsonTree).t.Clone()
		defer old.Close()
		for _, e := range edits {
			old.Edit(inputEdit(e))
		}
	}
	return &jsonTree{t: tsutil.Parse(s.parser, text, old), closed: s.closed}
}

// TestRandomEdits applies thousands of random changes through the store
// and checks, after each batch, that the text equals the reference model,
// that a fresh open of it gives the same document, and that the document's
// syntax tree, reparsed incrementally from the previous version's with the
// recorded Edits, equals a fresh parse (JSON stands in for the Harn and
// Leia grammars). It also checks each Edit's points directly: after
// Tree.Edit, every node the edit did not touch must sit at the row and
// column its byte offsets have in the new text.
func TestRandomEdits(t *testing.T) {
	parser := sitter.NewParser()
	defer parser.Close()
	if err := parser.SetLanguage(sitter.NewLanguage(tsjson.Language())); err != nil {
		t.Fatal(err)
	}
	closed := &atomic.Int64{}
	langs := Languages{Check: driver.Languages{{Name: "JSON test", Extension: ".jsontest"}},
		Syntax: map[string]Syntax{".jsontest": jsonSyntax{parser: parser, closed: closed}}}
	const uri = "file:///w/r.jsontest"
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 99))
		s := NewStore(langs)
		initial := `{"a": [1, 2, "é𝄞"],` + "\r\n" + `"b": {"c": null}}` + "\n"
		prev := s.Open(uri, "", 0, initial)
		if prev.Tree() == nil {
			t.Fatal("a document of a language with a Syntax must have a tree")
		}
		m := &model{u: utf16.Encode([]rune(initial))}
		for step := range 1000 {
			var batch []Change
			var texts [][]byte // the text after each change of the batch
			for range 1 + r.IntN(3) {
				c := randomChange(r, m)
				m.apply(c)
				batch = append(batch, c)
				texts = append(texts, []byte(string(utf16.Decode(m.u))))
			}
			d, err := s.Change(uri, int32(step+1), batch)
			if err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
			want := string(utf16.Decode(m.u))
			if string(d.Text) != want {
				t.Fatalf("seed %d step %d: text\n%q\nwant\n%q", seed, step, d.Text, want)
			}
			fresh := NewStore(langs).Open(uri, "", d.Version, want)
			if fresh.Lines.LineCount() != d.Lines.LineCount() || fresh.Ext != d.Ext {
				t.Fatalf("seed %d step %d: document differs from a fresh open", seed, step)
			}
			check := prev.Tree().(*jsonTree).t.Clone()
			for i, e := range d.Edits {
				check.Edit(inputEdit(e))
				if err := checkEdited(check.RootNode(), e, diagnostics.NewLineIndex(texts[i])); err != "" {
					t.Fatalf("seed %d step %d edit %d %+v: %s", seed, step, i, e, err)
				}
			}
			check.Close()
			if step%10 == 0 {
				if got, want := treeDump(d.Tree().(*jsonTree).t), treeDump(fresh.Tree().(*jsonTree).t); got != want {
					t.Fatalf("seed %d step %d: incremental tree differs from a fresh parse of %q\n%s\nwant\n%s", seed, step, d.Text, got, want)
				}
				// Parse left the previous version's tree as it was.
				prevFresh := NewStore(langs).Open(uri, "", 0, string(prev.Text))
				if got, want := treeDump(prev.Tree().(*jsonTree).t), treeDump(prevFresh.Tree().(*jsonTree).t); got != want {
					t.Fatalf("seed %d step %d: the previous version's tree changed", seed, step)
				}
			}
			prev = d
		}
	}
	// Trees of unreachable documents are closed.
	deadline := time.Now().Add(10 * time.Second)
	for closed.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no tree of an unreachable document was closed")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

func TestParsePanicIsContained(t *testing.T) {
	langs := Languages{Check: driver.Languages{{Name: "Panicky syntax", Extension: ".panicsyntax"}},
		Syntax: map[string]Syntax{".panicsyntax": panicSyntax{}}}
	d := NewStore(langs).Open("file:///w/x.panicsyntax", "", 1, "x")
	if d.Tree() != nil || d.ParseError() == nil {
		t.Errorf("tree %v, error %v; want no tree and an error", d.Tree(), d.ParseError())
	}
}

type panicSyntax struct{}

func (panicSyntax) Parse(Tree, []Edit, []byte) Tree { panic("boom") }

// TestOversizeNotKept (issue #25): a document over the size limit is
// refused (HARN-LIM-001) without its text being kept: a 40 MB didOpen was
// copied, indexed and held for as long as it stayed open. A later change
// of the whole text makes it known again; a change of part of it cannot be
// applied to a text that was not kept, and leaves it refused.
func TestOversizeNotKept(t *testing.T) {
	const uri = "file:///w/big.harn"
	s := NewStore(unchecked)
	s.Limits.FileSize = 1 << 10
	big := strings.Repeat("let x = 1\n", 1000) // 10,000 bytes
	refusedDropped := func(what string, d *Document, size int64) {
		t.Helper()
		if d.Text != nil || !d.Dropped() || d.Size() != size || d.Lines.LineCount() > 1 || d.Edits != nil {
			t.Errorf("%s: text of %d bytes kept (dropped %v, size %d, want %d)", what, len(d.Text), d.Dropped(), d.Size(), size)
		}
		if r := d.Refused(); r == nil || r.Code != "HARN-LIM-001" || !strings.Contains(r.Message, "more than the limit of 1 KiB") {
			t.Errorf("%s: refusal %+v", what, r)
		}
	}
	refusedDropped("open", s.Open(uri, "harn", 1, big), 10000)
	d, err := s.Change(uri, 2, []Change{{rng(0, 0, 0, 0), "// x\n"}})
	if err != nil {
		t.Fatal(err)
	}
	refusedDropped("a change of part of a dropped text", d, 10000)
	d, err = s.Change(uri, 3, []Change{{nil, "let y = 2\n"}, {rng(0, 4, 0, 5), "z"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(d.Text) != "let z = 2\n" || d.Dropped() || d.Refused() != nil {
		t.Errorf("a whole text under the limit: %q dropped %v refused %v", d.Text, d.Dropped(), d.Refused())
	}
	d, err = s.Change(uri, 4, []Change{{nil, big + big}})
	if err != nil {
		t.Fatal(err)
	}
	refusedDropped("a whole text over the limit", d, 20000)
	d, err = s.Change(uri, 5, []Change{{nil, "a"}, {rng(0, 1, 0, 1), big}})
	if err != nil {
		t.Fatal(err)
	}
	refusedDropped("a text grown over the limit by a change of part of it", d, 10001)
	// A document of no known language is not kept either.
	if d := s.Open("file:///w/big.txt", "plaintext", 1, big); d.Text != nil || !d.Dropped() || d.Refused() != nil {
		t.Errorf("plain text: kept %d bytes, dropped %v, refused %v", len(d.Text), d.Dropped(), d.Refused())
	}
}
