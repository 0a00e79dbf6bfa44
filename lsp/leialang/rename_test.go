package leialang

import (
	"context"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

const renameSrc = "// Adds.\nfunc add(a, b, rest...) {\n    return a + b\n}\n\nfunc main() {\n    scale := func(x, k) { return x * k }\n    total := add(1, scale(2, 3), 4, 5)\n    print(total)\n}\n"

func snapshotOf(t *testing.T, src string) (*Features, features.Snapshot, func()) {
	t.Helper()
	f, syn, err := New()
	if err != nil {
		t.Fatal(err)
	}
	tree := syn.Parse(nil, nil, []byte(src)).(*tsquery.Tree)
	return f, features.Snapshot{Doc: features.Document{Text: []byte(src), Tree: tree}}, tree.Close
}

// TestSignatureHelp: the signature of a declared function and of a
// function literal bound by :=, the active parameter counted by commas and
// held at a variadic parameter; a built-in's from lang/leia/stdlib.
func TestSignatureHelp(t *testing.T) {
	f, snap, done := snapshotOf(t, renameSrc)
	defer done()
	for _, tc := range []struct {
		at, label string
		active    int
	}{
		{"1, scale", "func add(a, b, rest...)", 0},
		{"2, 3), 4", "func scale(x, k)", 0},
		{"3), 4", "func scale(x, k)", 1},
		{"4, 5)", "func add(a, b, rest...)", 2},
		{"5)", "func add(a, b, rest...)", 2},
		{"total)", "print(values...: any)", 0},
	} {
		h, err := f.SignatureHelp(context.Background(), snap, strings.Index(renameSrc, tc.at))
		if err != nil {
			t.Fatal(err)
		}
		if tc.label == "" {
			if h != nil {
				t.Errorf("at %q: want nothing, got %+v", tc.at, h)
			}
			continue
		}
		if h == nil || len(h.Signatures) != 1 || h.Signatures[0].Label != tc.label || h.ActiveParameter != tc.active {
			t.Errorf("at %q: got %+v, want %s active %d", tc.at, h, tc.label, tc.active)
		}
	}
	h, _ := f.SignatureHelp(context.Background(), snap, strings.Index(renameSrc, "1, scale"))
	if h == nil || h.Signatures[0].Documentation != "Adds." || len(h.Signatures[0].Parameters) != 3 {
		t.Errorf("add's documentation and parameters: %+v", h)
	}
}

// TestRename: locals, parameters and top-level functions are renamed in
// the file; invalid names and renames that change a use's meaning are
// refused with an error.
func TestRename(t *testing.T) {
	f, snap, done := snapshotOf(t, renameSrc)
	defer done()
	for _, tc := range []struct{ at, to, want, err string }{
		{"add(1", "sum", strings.ReplaceAll(renameSrc, "add(", "sum("), ""},
		{"b\n}", "y", strings.Replace(strings.Replace(renameSrc, "a, b,", "a, y,", 1), "a + b", "a + y", 1), ""},
		{"total)", "t", strings.ReplaceAll(renameSrc, "total", "t"), ""},
		{"total)", "print", "", "capture the use of print"},
		{"a + b", "b", "", "already declared"},
		{"scale(2", "total", "", "already declared"},
		{"a + b", "func", "", "not a valid Leia name"},
		{"a + b", "nil", "", "not a valid Leia name"},
		{"a + b", "1x", "", "not a valid Leia name"},
		// Words the grammar reads as statements or expressions of their
		// own, and the blank name (issue #25).
		{"a + b", "break", "", "not a valid Leia name"},
		{"a + b", "continue", "", "not a valid Leia name"},
		{"a + b", "chan", "", "not a valid Leia name"},
		{"a + b", "_", "", "not a valid Leia name"},
		{"add(1", "chan", "", "not a valid Leia name"},
	} {
		off := strings.Index(renameSrc, tc.at)
		span, _ := f.PrepareRename(context.Background(), snap, off)
		edits, err := f.Rename(context.Background(), snap, off, tc.to)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q to %s: error %v, want %q", tc.at, tc.to, err, tc.err)
			}
			continue
		}
		if err != nil || span == nil {
			t.Fatalf("%q to %s: span %v err %v", tc.at, tc.to, span, err)
		}
		got := renameSrc
		for i := len(edits) - 1; i >= 0; i-- {
			got = got[:edits[i].Span.Start] + edits[i].NewText + got[edits[i].Span.End:]
		}
		if got != tc.want {
			t.Errorf("%q to %s:\n%s\nwant\n%s", tc.at, tc.to, got, tc.want)
		}
	}
}
