package regex

import (
	"strings"
	"unicode"

	"github.com/harnlang/harn-check/grammar/generate/lex/charset"
)

// scalars is every Unicode scalar value: code points minus surrogates. Rust
// classes range over scalar values, so complements are taken within it.
var scalars = charset.Between(0, 0xD7FF).Union(charset.Between(0xE000, 0x10FFFF))

//go:generate go run ./internal/gen -o unicode16_tables.go

// UnicodeVersion is the version of the Unicode data behind \p{...} classes
// and case-insensitive matching (the tables in unicode16_tables.go).
const UnicodeVersion = unicodeVersion

// fromTable builds a set from inclusive ranges.
func fromTable(table [][2]rune) charset.Set {
	rs := make([]charset.Range, len(table))
	for i, r := range table {
		rs[i] = charset.Range{Start: r[0], End: r[1] + 1}
	}
	return charset.FromRanges(rs...)
}

// categoryGroups lists the general categories formed from leaf ones; C also
// takes Cn, added in category.
var categoryGroups = map[string][]string{
	"L":  {"Lu", "Ll", "Lt", "Lm", "Lo"},
	"LC": {"Lu", "Ll", "Lt"},
	"M":  {"Mn", "Mc", "Me"},
	"N":  {"Nd", "Nl", "No"},
	"P":  {"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"},
	"S":  {"Sm", "Sc", "Sk", "So"},
	"Z":  {"Zs", "Zl", "Zp"},
	"C":  {"Cc", "Cf", "Co", "Cs"},
}

func unionCategories(names ...string) charset.Set {
	var table [][2]rune
	for _, n := range names {
		table = append(table, unicodeCategories[n]...)
	}
	return fromTable(table)
}

// categoryLongNames maps Unicode general-category long names to short names.
var categoryLongNames = map[string]string{
	"letter": "L", "casedletter": "LC", "uppercaseletter": "Lu", "lowercaseletter": "Ll",
	"titlecaseletter": "Lt", "modifierletter": "Lm", "otherletter": "Lo",
	"mark": "M", "combiningmark": "M", "nonspacingmark": "Mn", "spacingmark": "Mc", "enclosingmark": "Me",
	"number": "N", "decimalnumber": "Nd", "digit": "Nd", "letternumber": "Nl", "othernumber": "No",
	"punctuation": "P", "punct": "P", "connectorpunctuation": "Pc", "dashpunctuation": "Pd",
	"openpunctuation": "Ps", "closepunctuation": "Pe", "initialpunctuation": "Pi",
	"finalpunctuation": "Pf", "otherpunctuation": "Po",
	"symbol": "S", "mathsymbol": "Sm", "currencysymbol": "Sc", "modifiersymbol": "Sk", "othersymbol": "So",
	"separator": "Z", "spaceseparator": "Zs", "lineseparator": "Zl", "paragraphseparator": "Zp",
	"other": "C", "control": "Cc", "cntrl": "Cc", "format": "Cf", "surrogate": "Cs",
	"privateuse": "Co", "unassigned": "Cn",
}

func looseName(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch c {
		case ' ', '_', '-', '\t', '\n', '\r', '\f', '\v':
			continue
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

var (
	looseCategories = map[string]string{"cn": "Cn"}
	looseScripts    = map[string]string{}
	looseProps      = map[string]string{}
)

func init() {
	for k := range unicodeCategories {
		looseCategories[looseName(k)] = k
	}
	for k := range categoryGroups {
		looseCategories[looseName(k)] = k
	}
	for k := range unicodeScripts {
		looseScripts[looseName(k)] = k
	}
	for k := range unicodeProperties {
		looseProps[looseName(k)] = k
	}
	for alias, k := range propertyAliases {
		looseProps[alias] = k
	}
}

// assigned is every code point with a general category other than Cn.
func assigned() charset.Set {
	return unionCategories("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No",
		"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp",
		"Cc", "Cf", "Co", "Cs")
}

func category(short string) (charset.Set, bool) {
	switch short {
	case "Cn":
		return assigned().Negate().Intersect(scalars), true
	case "C":
		return unionCategories(categoryGroups["C"]...).Union(assigned().Negate().Intersect(scalars)), true
	}
	if parts, ok := categoryGroups[short]; ok {
		return unionCategories(parts...), true
	}
	if rs, ok := unicodeCategories[short]; ok {
		return fromTable(rs), true
	}
	return charset.Set{}, false
}

// propertyAliases maps the loose short names of binary properties to their
// long names in unicodeProperties.
var propertyAliases = map[string]string{
	"alpha": "Alphabetic", "lower": "Lowercase", "upper": "Uppercase",
	"ids": "ID_Start", "idc": "ID_Continue", "xids": "XID_Start", "xidc": "XID_Continue",
	"wspace": "White_Space", "space": "White_Space", "sterm": "Sentence_Terminal",
}

// special holds the binary properties that are not tables.
var special = map[string]func() charset.Set{
	"any":      func() charset.Set { return scalars },
	"ascii":    func() charset.Set { return charset.Between(0, 0x7F) },
	"assigned": assigned,
}

// property resolves the body of \p{...}: a general category (short or long
// name), a script, a binary property, or name=value for gc/sc/script.
func property(body string) (charset.Set, bool) {
	if i := strings.IndexAny(body, "=:"); i >= 0 {
		key, val := looseName(body[:i]), body[i+1:]
		switch key {
		case "gc", "generalcategory":
			return generalCategory(val)
		case "sc", "script":
			if k, ok := looseScripts[looseName(val)]; ok {
				return fromTable(unicodeScripts[k]), true
			}
		}
		return charset.Set{}, false
	}
	if s, ok := generalCategory(body); ok {
		return s, true
	}
	name := looseName(body)
	if f, ok := special[name]; ok {
		return f(), true
	}
	if k, ok := looseScripts[name]; ok {
		return fromTable(unicodeScripts[k]), true
	}
	if k, ok := looseProps[name]; ok {
		return fromTable(unicodeProperties[k]), true
	}
	return charset.Set{}, false
}

func generalCategory(v string) (charset.Set, bool) {
	name := looseName(v)
	if short, ok := categoryLongNames[name]; ok {
		return category(short)
	}
	if short, ok := looseCategories[name]; ok {
		return category(short)
	}
	switch name {
	case "cn":
		return category("Cn")
	case "lc", "l&":
		return category("LC")
	}
	return charset.Set{}, false
}

// caseFold closes s under simple case folding, as Rust's case_fold_simple:
// every case orbit s meets is added whole.
func caseFold(s charset.Set) charset.Set {
	var extra []charset.Range
	for _, orbit := range unicodeCaseOrbits {
		meets := false
		for _, c := range orbit {
			if s.Contains(c) {
				meets = true
				break
			}
		}
		if !meets {
			continue
		}
		for _, c := range orbit {
			if !s.Contains(c) {
				extra = append(extra, charset.Range{Start: c, End: c + 1})
			}
		}
	}
	if len(extra) == 0 {
		return s
	}
	return s.Union(charset.FromRanges(extra...))
}
