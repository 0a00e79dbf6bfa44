package regex

import (
	"strings"
	"unicode"

	"github.com/harnlang/harn-check/grammar/generate/lex/charset"
)

// scalars is every Unicode scalar value: code points minus surrogates. Rust
// classes range over scalar values, so complements are taken within it.
var scalars = charset.Between(0, 0xD7FF).Union(charset.Between(0xE000, 0x10FFFF))

func fromTable(t *unicode.RangeTable) charset.Set {
	var rs []charset.Range
	for _, r := range t.R16 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			if r.Stride == 1 {
				rs = append(rs, charset.Range{Start: rune(r.Lo), End: rune(r.Hi) + 1})
				break
			}
			rs = append(rs, charset.Range{Start: c, End: c + 1})
		}
	}
	for _, r := range t.R32 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			if r.Stride == 1 {
				rs = append(rs, charset.Range{Start: rune(r.Lo), End: rune(r.Hi) + 1})
				break
			}
			rs = append(rs, charset.Range{Start: c, End: c + 1})
		}
	}
	return charset.FromRanges(rs...)
}

func unionTables(names ...string) charset.Set {
	s := charset.Empty()
	for _, n := range names {
		if t, ok := unicode.Categories[n]; ok {
			s = s.Union(fromTable(t))
		} else if t, ok := unicode.Properties[n]; ok {
			s = s.Union(fromTable(t))
		}
	}
	return s
}

// categoryLongNames maps Unicode general-category long names to the short
// names Go's unicode.Categories uses.
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
	looseCategories = map[string]string{}
	looseScripts    = map[string]string{}
	looseProps      = map[string]string{}
)

func init() {
	for k := range unicode.Categories {
		looseCategories[looseName(k)] = k
	}
	for k := range unicode.Scripts {
		looseScripts[looseName(k)] = k
	}
	for k := range unicode.Properties {
		looseProps[looseName(k)] = k
	}
}

func assigned() charset.Set {
	s := charset.Empty()
	for _, k := range []string{"L", "M", "N", "P", "S", "Z", "Cc", "Cf", "Co", "Cs"} {
		s = s.Union(fromTable(unicode.Categories[k]))
	}
	return s
}

func category(short string) (charset.Set, bool) {
	switch short {
	case "Cn":
		return assigned().Negate().Intersect(scalars), true
	case "C":
		return unionTables("Cc", "Cf", "Co", "Cs").Union(assigned().Negate().Intersect(scalars)), true
	case "LC":
		return unionTables("Lu", "Ll", "Lt"), true
	}
	if t, ok := unicode.Categories[short]; ok {
		return fromTable(t), true
	}
	return charset.Set{}, false
}

func idStart() charset.Set {
	return unionTables("L", "Nl", "Other_ID_Start").
		Difference(unionTables("Pattern_Syntax", "Pattern_White_Space"))
}

func idContinue() charset.Set {
	return idStart().Union(unionTables("Mn", "Mc", "Nd", "Pc", "Other_ID_Continue")).
		Difference(unionTables("Pattern_Syntax", "Pattern_White_Space"))
}

// xidExcluded are the code points NFKC closure removes from ID_Continue
// (and, with xidStartExcluded, from ID_Start) to form XID_*.
var xidExcluded = []rune{0x037A, 0x309B, 0x309C, 0xFC5E, 0xFC5F, 0xFC60, 0xFC61, 0xFC62, 0xFC63,
	0xFDFA, 0xFDFB, 0xFE70, 0xFE72, 0xFE74, 0xFE76, 0xFE78, 0xFE7A, 0xFE7C, 0xFE7E}
var xidStartExcluded = []rune{0x0E33, 0x0EB3, 0xFF9E, 0xFF9F}

func runes(rs []rune) charset.Set {
	s := charset.Empty()
	for _, r := range rs {
		s = s.Union(charset.Char(r))
	}
	return s
}

// derived holds binary properties that Go does not ship directly but that
// DerivedCoreProperties defines from tables Go does ship.
var derived = map[string]func() charset.Set{
	"any":        func() charset.Set { return scalars },
	"ascii":      func() charset.Set { return charset.Between(0, 0x7F) },
	"assigned":   assigned,
	"alphabetic": func() charset.Set { return unionTables("Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Other_Alphabetic") },
	"alpha":      func() charset.Set { return unionTables("Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Other_Alphabetic") },
	"lowercase":  func() charset.Set { return unionTables("Ll", "Other_Lowercase") },
	"lower":      func() charset.Set { return unionTables("Ll", "Other_Lowercase") },
	"uppercase":  func() charset.Set { return unionTables("Lu", "Other_Uppercase") },
	"upper":      func() charset.Set { return unionTables("Lu", "Other_Uppercase") },
	"math":       func() charset.Set { return unionTables("Sm", "Other_Math") },
	"idstart":    idStart,
	"ids":        idStart,
	"idcontinue": idContinue,
	"idc":        idContinue,
	"xidstart": func() charset.Set {
		return idStart().Difference(runes(xidExcluded)).Difference(runes(xidStartExcluded))
	},
	"xids": func() charset.Set {
		return idStart().Difference(runes(xidExcluded)).Difference(runes(xidStartExcluded))
	},
	"xidcontinue": func() charset.Set { return idContinue().Difference(runes(xidExcluded)) },
	"xidc":        func() charset.Set { return idContinue().Difference(runes(xidExcluded)) },
	"whitespace":  func() charset.Set { return unionTables("White_Space") },
	"wspace":      func() charset.Set { return unionTables("White_Space") },
	"space":       func() charset.Set { return unionTables("White_Space") },
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
				return fromTable(unicode.Scripts[k]), true
			}
		}
		return charset.Set{}, false
	}
	if s, ok := generalCategory(body); ok {
		return s, true
	}
	name := looseName(body)
	if f, ok := derived[name]; ok {
		return f(), true
	}
	if k, ok := looseScripts[name]; ok {
		return fromTable(unicode.Scripts[k]), true
	}
	if k, ok := looseProps[name]; ok && !strings.HasPrefix(k, "Other_") {
		return fromTable(unicode.Properties[k]), true
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

// caseFold closes s under simple case folding, as Rust's case_fold_simple.
func caseFold(s charset.Set) charset.Set {
	out := s
	var extra []charset.Range
	for _, r := range s.RawRanges() {
		for c := r.Start; c < r.End; c++ {
			for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
				if !s.Contains(f) {
					extra = append(extra, charset.Range{Start: f, End: f + 1})
				}
			}
			if c > 0x1FFFF { // no case mappings beyond the SMP
				break
			}
		}
	}
	if len(extra) > 0 {
		out = out.Union(charset.FromRanges(extra...))
	}
	return out
}
