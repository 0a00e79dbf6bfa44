package features

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestTokenForCapture(t *testing.T) {
	for _, tc := range []struct {
		capture, typ string
		mods         []string
		ok           bool
	}{
		{"@keyword", "keyword", nil, true},
		{"@keyword.conditional", "keyword", nil, true},
		{"@keyword.modifier", "modifier", nil, true},
		{"@function.method.call", "method", nil, true},
		{"@function.call", "function", nil, true},
		{"@constant.builtin", "variable", []string{"readonly", "defaultLibrary"}, true},
		{"@variable.parameter", "parameter", nil, true},
		{"@number.float", "number", nil, true},
		{"@punctuation.bracket", "", nil, false},
		{"@spell", "", nil, false},
		{"@nonsense", "", nil, false},
	} {
		typ, mods, ok := TokenForCapture(tc.capture)
		if typ != tc.typ || !slices.Equal(mods, tc.mods) || ok != tc.ok {
			t.Errorf("TokenForCapture(%q) = %q %q %v, want %q %q %v", tc.capture, typ, mods, ok, tc.typ, tc.mods, tc.ok)
		}
	}
}

// TestHighlightCapturesHaveTokens keeps semantic tokens consistent with
// the grammars' highlight queries: every capture they use maps to a legend
// type, unless it is punctuation or @spell.
func TestHighlightCapturesHaveTokens(t *testing.T) {
	captureRE := regexp.MustCompile(`@[A-Za-z_][A-Za-z0-9_.]*`)
	for _, path := range []string{"../../grammar/harn/queries/highlights.scm", "../../grammar/leia/queries/highlights.scm"} {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		caps := captureRE.FindAllString(string(src), -1)
		if len(caps) < 10 {
			t.Fatalf("%s: only %d captures found", path, len(caps))
		}
		for _, c := range caps {
			typ, mods, ok := TokenForCapture(c)
			if !ok {
				if c == "@spell" || strings.HasPrefix(c, "@punctuation") {
					continue
				}
				t.Errorf("%s: capture %s has no semantic token type", path, c)
				continue
			}
			if !slices.Contains(TokenTypes, typ) {
				t.Errorf("%s: %s maps to %q, not in the legend", path, c, typ)
			}
			for _, m := range mods {
				if !slices.Contains(TokenModifiers, m) {
					t.Errorf("%s: %s has modifier %q, not in the legend", path, c, m)
				}
			}
		}
	}
}
