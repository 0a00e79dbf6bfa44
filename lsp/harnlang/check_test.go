package harnlang

import (
	"bytes"
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

// TestCheckFromDocumentTreeMatchesFreshCheck: the server checks a Harn
// document from the tree it reparsed incrementally; through random edits
// that result equals a fresh check of the document's text (the one
// harn-check runs), field for field.
func TestCheckFromDocumentTreeMatchesFreshCheck(t *testing.T) {
	frontends.Register()
	if err := Register(); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(filepath.Join("..", "..", "examples", "harn", "compaction.harn"))
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	uri := cache.PathToURI(abs)
	s := cache.NewStore()
	d := s.Open(uri, "harn", 0, string(orig))
	if st, ok := d.Tree().(frontends.SitterTree); !ok || st.Sitter() == nil {
		t.Fatalf("the document's tree %T does not offer its tree-sitter tree to the check", d.Tree())
	}
	read := func(p string) ([]byte, error) { return os.ReadFile(p) }
	pieces := []string{" ", "\n", "x", "1", "}", "{", "(", ")", "let y = 2\n", "// c\n", "\"", ",", "match o {"}
	r := rand.New(rand.NewPCG(3, 4))
	text := orig
	for v := int32(1); v <= 120; v++ {
		a := r.IntN(len(text) + 1)
		b := min(len(text), a+r.IntN(6))
		ins := pieces[r.IntN(len(pieces))]
		for a < len(text) && !utf8.RuneStart(text[a]) {
			a++
		}
		for b < len(text) && !utf8.RuneStart(text[b]) {
			b++
		}
		b = max(a, b)
		if v%10 == 0 {
			a, b, ins = 0, len(text), string(orig)
		}
		lines := diagnostics.NewLineIndex(text)
		rng := &cache.Range{Start: lines.UTF16Column(a), End: lines.UTF16Column(b)}
		var err error
		if d, err = s.Change(uri, v, []cache.Change{{Range: rng, Text: ins}}); err != nil {
			t.Fatal(err)
		}
		text = append(append(append([]byte{}, text[:a]...), ins...), text[b:]...)
		if !bytes.Equal(d.Text, text) {
			t.Fatalf("version %d: the store's text differs from the model", v)
		}
		got, err := d.CheckWith(read)
		if err != nil {
			t.Fatal(err)
		}
		want := driver.Check(driver.Request{Path: abs, Source: text, Read: read})
		if got.Facts == nil {
			t.Fatalf("version %d: the document's check kept no facts for its features", v)
		}
		// Facts are keyed by syntax node: two checks never hold equal
		// ones. What is compared is what the check reports.
		got.Facts, want.Facts = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("version %d: check from the document's tree\n%+v\nwant (fresh)\n%+v\nof\n%s", v, got.Diagnostics, want.Diagnostics, text)
		}
	}
}
