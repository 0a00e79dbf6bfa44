package model

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/harnlang/harn-check/diagnostics"
)

// spanOf is the span of the n-th (0-based) occurrence of word in text.
func spanOf(text, word string, n int) diagnostics.Span {
	at := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(text[at+1:], word)
		if j < 0 {
			panic(word)
		}
		at += 1 + j
	}
	return diagnostics.Span{Start: at, End: at + len(word)}
}

// sample is `let x = 1; let y = x + x; f(y)` with x and y declared and
// used, and f used without a declaration (a builtin).
const sample = "let x = 1; let y = x + x; f(y)"

func sampleModel() *Model {
	b := NewBuilder()
	x := b.Def(Def{Name: "x", Kind: "variable", Span: spanOf(sample, "x", 0)})
	y := b.Def(Def{Name: "y", Kind: "variable", Span: spanOf(sample, "y", 0)})
	// Declared again at the same span: the same definition.
	if again := b.Def(Def{Name: "x", Kind: "variable", Span: spanOf(sample, "x", 0)}); again != x {
		panic("redeclaration made a new definition")
	}
	b.Use(spanOf(sample, "x", 2), x)
	b.Use(spanOf(sample, "x", 1), x)
	b.Use(spanOf(sample, "x", 1), x) // recorded twice
	b.Use(spanOf(sample, "y", 1), y)
	b.Use(spanOf(sample, "f", 0), -1) // nothing declares it
	return b.Model()
}

func TestAtAndOccurrences(t *testing.T) {
	m := sampleModel()
	if len(m.Uses) != 3 {
		t.Fatalf("uses %v, want 3 (the duplicate and the undeclared dropped)", m.Uses)
	}
	for _, tc := range []struct {
		name   string
		offset int
		def    int
		span   diagnostics.Span
	}{
		{"declaration", spanOf(sample, "x", 0).Start, 0, spanOf(sample, "x", 0)},
		{"use", spanOf(sample, "x", 1).Start, 0, spanOf(sample, "x", 1)},
		{"cursor after the name", spanOf(sample, "y", 1).End, 1, spanOf(sample, "y", 1)},
		{"undeclared", spanOf(sample, "f", 0).Start, -1, diagnostics.Span{}},
		{"between names", strings.Index(sample, "="), -1, diagnostics.Span{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			def, span := m.At(tc.offset)
			if def != tc.def || span != tc.span {
				t.Errorf("At(%d) = %d %v, want %d %v", tc.offset, def, span, tc.def, tc.span)
			}
		})
	}
	want := []diagnostics.Span{spanOf(sample, "x", 0), spanOf(sample, "x", 1), spanOf(sample, "x", 2)}
	if got := m.Occurrences(0); !reflect.DeepEqual(got, want) {
		t.Errorf("occurrences of x %v, want %v", got, want)
	}
}

func TestEditedMapsSpansAroundTheEdit(t *testing.T) {
	m := sampleModel()
	for _, tc := range []struct {
		name string
		now  string
		// offset in the new text, and what At says there.
		word  string
		nth   int
		def   int
		known bool
	}{
		{"unchanged", sample, "y", 1, 1, true},
		{"before the edit", "let x = 1; let y = x + x; g(y)", "x", 1, 0, true},
		{"after an edit that grew the text", "let x = 100; let y = x + x; f(y)", "y", 1, 1, true},
		{"in the edited part", "let x = 1; let yy = x + x; f(yy)", "yy", 0, -1, false},
		{"touching the edit", "let x = 1; let y = x + xz; f(y)", "xz", 0, -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := Through(m, []byte(sample), []byte(tc.now))
			sp := spanOf(tc.now, tc.word, tc.nth)
			def, got, ok := e.At(sp.Start)
			if ok != tc.known || def != tc.def {
				t.Fatalf("At(%d) = %d %v %v, want %d known=%v", sp.Start, def, got, ok, tc.def, tc.known)
			}
			if ok && got != sp {
				t.Errorf("span %v, want %v", got, sp)
			}
			if ok {
				d, ok := e.Def(def)
				if !ok || tc.now[d.Span.Start:d.Span.End] != d.Name {
					t.Errorf("definition %+v does not name %s in the new text", d, d.Name)
				}
				for _, o := range e.Occurrences(def) {
					if tc.now[o.Start:o.End] != d.Name {
						t.Errorf("occurrence %v is %q, not %s", o, tc.now[o.Start:o.End], d.Name)
					}
				}
			}
		})
	}
}

// TestModelIsCompact builds a model of many names (enough for the
// builder's arrays to grow past their size) and checks what the editor
// keeps of it: arrays at their exact size, one copy of each type string,
// and every definition's occurrences in source order.
func TestModelIsCompact(t *testing.T) {
	for _, tc := range []struct {
		name       string
		defs, uses int
	}{
		{"one name", 1, 3},
		{"many names", 1000, 5},
		{"names without uses", 100, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuilder()
			b.Scope(diagnostics.Span{Start: 0, End: 1 << 20}, -1)
			// Definition i at 100*i, its uses at 100*i + 10*(k+1).
			for i := range tc.defs {
				typ := strings.Repeat("int", 1+i%2) // made anew for each definition
				d := b.Def(Def{Name: "n", Kind: "variable", Span: diagnostics.Span{Start: 100 * i, End: 100*i + 1}, Type: typ})
				for k := range tc.uses {
					b.Use(diagnostics.Span{Start: 100*i + 10*(k+1), End: 100*i + 10*(k+1) + 1}, d)
				}
			}
			m := b.Model()
			if m.NumDefs() != tc.defs || cap(m.defs) != tc.defs || len(m.Uses) != tc.defs*tc.uses || cap(m.Uses) != len(m.Uses) || cap(m.Scopes) != 1 {
				t.Errorf("defs %d/%d, uses %d/%d, scopes %d/%d: want exact sizes, %d defs and %d uses",
					len(m.defs), cap(m.defs), len(m.Uses), cap(m.Uses), len(m.Scopes), cap(m.Scopes), tc.defs, tc.defs*tc.uses)
			}
			types := map[*byte]bool{}
			for i := range m.NumDefs() {
				if d := m.Def(i); d.Name != "n" || d.Kind != "variable" || d.Type != strings.Repeat("int", 1+i%2) || d.Span.Start != 100*i {
					t.Errorf("definition %d reads %+v", i, d)
				}
				types[unsafe.StringData(m.Def(i).Type)] = true
			}
			if want := min(tc.defs, 2); len(types) != want || len(m.attrs) != want {
				t.Errorf("%d copies of the type strings and %d kinds, modules and types kept, want %d", len(types), len(m.attrs), want)
			}
			for i := range tc.defs {
				occ := m.Occurrences(i)
				if len(occ) != 1+tc.uses {
					t.Fatalf("definition %d: %d occurrences, want %d", i, len(occ), 1+tc.uses)
				}
				for k, o := range occ {
					if o.Start != 100*i+10*k {
						t.Errorf("definition %d: occurrence %d at %d, want %d", i, k, o.Start, 100*i+10*k)
					}
				}
			}
		})
	}
}
