package render

import (
	"strings"
	"testing"
)

func TestCString(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"`, `\"`},
		{`\`, `\\`},
		{"??=", `\?\?=`},
		{"a\nb\tc\r", `a\nb\tc\r`},
		{"\x00\x01\x7f", `\0\x01\u007f`},
		{"é", `\u00e9`},
		{"😀", `\U0001f600`},
		{"plain_name", "plain_name"},
	}
	for _, tc := range tests {
		if got := cString(tc.in); got != tc.want {
			t.Errorf("cString(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParserHeaderABIs(t *testing.T) {
	h14, h15 := string(ParserHeader(14)), string(ParserHeader(15))
	for _, want := range []string{"uint32_t version;", "const TSLexMode *lex_modes;", "} TSFieldMapSlice;"} {
		if !strings.Contains(h14, want) {
			t.Errorf("ABI 14 header lacks %q", want)
		}
	}
	for _, want := range []string{"uint32_t abi_version;", "const TSLexerMode *lex_modes;", "} TSMapSlice;",
		"uint16_t reserved_word_set_id;", "const TSSymbol *supertype_map_entries;", "TSLanguageMetadata metadata;"} {
		if !strings.Contains(h15, want) {
			t.Errorf("ABI 15 header lacks %q", want)
		}
	}
	if strings.Contains(h14, "abi_version") || strings.Contains(h14, "supertype_count") {
		t.Error("ABI 14 header carries ABI 15 fields")
	}
}
