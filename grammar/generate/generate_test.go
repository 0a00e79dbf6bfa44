package generate

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// A small expression grammar with a word token, an extra token, fields,
// an alias and precedences.
const exprGrammar = `{
  "name": "expr",
  "word": "identifier",
  "rules": {
    "program": {"type": "REPEAT", "content": {"type": "SYMBOL", "name": "_statement"}},
    "_statement": {"type": "SEQ", "members": [{"type": "SYMBOL", "name": "_expression"}, {"type": "STRING", "value": ";"}]},
    "_expression": {"type": "CHOICE", "members": [
      {"type": "SYMBOL", "name": "binary"}, {"type": "SYMBOL", "name": "identifier"},
      {"type": "SYMBOL", "name": "number"}, {"type": "SYMBOL", "name": "keyword_value"}]},
    "binary": {"type": "CHOICE", "members": [
      {"type": "PREC_LEFT", "value": 1, "content": {"type": "SEQ", "members": [
        {"type": "FIELD", "name": "left", "content": {"type": "SYMBOL", "name": "_expression"}},
        {"type": "FIELD", "name": "operator", "content": {"type": "STRING", "value": "+"}},
        {"type": "FIELD", "name": "right", "content": {"type": "SYMBOL", "name": "_expression"}}]}},
      {"type": "PREC_LEFT", "value": 2, "content": {"type": "SEQ", "members": [
        {"type": "FIELD", "name": "left", "content": {"type": "SYMBOL", "name": "_expression"}},
        {"type": "FIELD", "name": "operator", "content": {"type": "STRING", "value": "*"}},
        {"type": "FIELD", "name": "right", "content": {"type": "SYMBOL", "name": "_expression"}}]}}]},
    "keyword_value": {"type": "ALIAS", "value": "constant", "named": true, "content": {"type": "STRING", "value": "nil"}},
    "identifier": {"type": "PATTERN", "value": "[a-z_]+"},
    "number": {"type": "PATTERN", "value": "\\d+"},
    "comment": {"type": "PATTERN", "value": "#.*"}
  },
  "extras": [{"type": "PATTERN", "value": "\\s"}, {"type": "SYMBOL", "name": "comment"}]
}`

func TestGenerateIsDeterministicAndComplete(t *testing.T) {
	a, err := Generate([]byte(exprGrammar), Options{Name: "expr_test"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate([]byte(exprGrammar), Options{Name: "expr_test"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.ParserC, b.ParserC) || !bytes.Equal(a.NodeTypesJSON, b.NodeTypesJSON) {
		t.Fatal("two runs differ")
	}
	c := string(a.ParserC)
	for _, want := range []string{
		"#define LANGUAGE_VERSION 14",
		"TS_PUBLIC const TSLanguage *tree_sitter_expr_test(void)",
		"static bool ts_lex_keywords(TSLexer *lexer, TSStateId state)",
		".keyword_capture_token = sym_identifier,",
		"  [field_left] = \"left\",",
		"  [field_operator] = \"operator\",",
		"SHIFT_EXTRA()",
		"RECOVER()",
		"ACCEPT_INPUT()",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("parser.c lacks %q", want)
		}
	}
	// The word token is symbol 1.
	if !regexp.MustCompile(`sym_identifier = 1,`).MatchString(c) {
		t.Error("the word token is not symbol 1")
	}
	if !bytes.Contains(a.ParserH, []byte("struct TSLanguage {")) {
		t.Error("parser.h lacks the language struct")
	}
}

func TestGenerateErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"bad json", `{`, "grammar.json"},
		{"bad name", strings.Replace(exprGrammar, `"name": "expr"`, `"name": "e-x"`, 1), "not a C identifier"},
		{"unknown rule", strings.Replace(exprGrammar, `"name": "keyword_value"}]}`, `"name": "nope"}]}`, 1), "undefined symbol `nope`"},
		{"conflict", strings.Replace(exprGrammar, `"PREC_LEFT", "value": 2`, `"PREC", "value": 1`, 1), "Unresolved conflict"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Generate([]byte(tc.src), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestGenerateABI15(t *testing.T) {
	src := strings.Replace(exprGrammar, `"word": "identifier",`,
		`"word": "identifier", "supertypes": ["_expression"],
  "reserved": {"global": [{"type": "STRING", "value": "nil"}]},`, 1)
	out, err := Generate([]byte(src), Options{Name: "expr15", ABI: 15, Version: [3]uint8{1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	c := string(out.ParserC)
	for _, want := range []string{
		"#define LANGUAGE_VERSION 15",
		"#define MAX_RESERVED_WORD_SET_SIZE 1",
		"#define SUPERTYPE_COUNT 1",
		"static const TSLexerMode ts_lex_modes[STATE_COUNT] = {",
		"static const TSSymbol ts_reserved_words[",
		"  sym__expression,\n};",
		"    .abi_version = LANGUAGE_VERSION,",
		`    .name = "expr15",`,
		"      .minor_version = 2,",
		"static const TSMapSlice ts_field_map_slices[PRODUCTION_ID_COUNT] = {",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("parser.c lacks %q", want)
		}
	}
	h := string(out.ParserH)
	for _, want := range []string{"uint32_t abi_version;", "const TSLexerMode *lex_modes;", "TSLanguageMetadata metadata;", "} TSMapSlice;"} {
		if !strings.Contains(h, want) {
			t.Errorf("parser.h lacks %q", want)
		}
	}
	if _, err := Generate([]byte(src), Options{ABI: 13}); err == nil {
		t.Error("ABI 13 accepted")
	}
	if len(out.Warnings) != 0 {
		t.Errorf("unexpected warnings %q", out.Warnings)
	}
	auto, err := Generate([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(auto.ParserC), "#define LANGUAGE_VERSION 15") {
		t.Error("a grammar with reserved words should default to ABI 15")
	}
	out14, err := Generate([]byte(src), Options{ABI: 14})
	if err != nil {
		t.Fatal(err)
	}
	if len(out14.Warnings) != 1 || !strings.Contains(out14.Warnings[0], "reserved words") {
		t.Errorf("ABI 14 with reserved words: warnings %q", out14.Warnings)
	}
}
