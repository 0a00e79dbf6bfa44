package features

import "strings"

// captureTokens maps highlight capture names of queries/highlights.scm (the
// nvim-treesitter vocabulary) to a semantic token type and modifiers of the
// legend. A capture is looked up by its longest dotted prefix present here.
var captureTokens = map[string]struct {
	typ  string
	mods []string
}{
	"attribute":            {"decorator", nil},
	"boolean":              {"keyword", nil},
	"comment":              {"comment", nil},
	"constant":             {"variable", []string{"readonly"}},
	"constant.builtin":     {"variable", []string{"readonly", "defaultLibrary"}},
	"function":             {"function", nil},
	"function.builtin":     {"function", []string{"defaultLibrary"}},
	"function.macro":       {"macro", nil},
	"function.method":      {"method", nil},
	"keyword":              {"keyword", nil},
	"keyword.modifier":     {"modifier", nil},
	"keyword.operator":     {"operator", nil},
	"label":                {"label", nil},
	"module":               {"namespace", nil},
	"number":               {"number", nil},
	"operator":             {"operator", nil},
	"property":             {"property", nil},
	"string":               {"string", nil},
	"string.regexp":        {"regexp", nil},
	"type":                 {"type", nil},
	"type.builtin":         {"type", []string{"defaultLibrary"}},
	"variable":             {"variable", nil},
	"variable.builtin":     {"variable", []string{"defaultLibrary"}},
	"variable.parameter":   {"parameter", nil},
	"variable.member":      {"property", nil},
	"function.method.call": {"method", nil},
}

// noToken are capture families that are not semantic tokens: editors draw
// punctuation themselves, and @spell only marks where to spell-check.
var noToken = []string{"punctuation", "spell", "none", "conceal"}

// TokenForCapture converts a highlight capture name (with or without the
// leading "@") to a semantic token type and modifiers from TokenTypes and
// TokenModifiers. ok is false for captures that are not semantic tokens
// and for unknown ones.
func TokenForCapture(capture string) (typ string, mods []string, ok bool) {
	name := strings.TrimPrefix(capture, "@")
	for _, skip := range noToken {
		if name == skip || strings.HasPrefix(name, skip+".") {
			return "", nil, false
		}
	}
	for name != "" {
		if t, found := captureTokens[name]; found {
			return t.typ, t.mods, true
		}
		i := strings.LastIndexByte(name, '.')
		if i < 0 {
			break
		}
		name = name[:i]
	}
	return "", nil, false
}
