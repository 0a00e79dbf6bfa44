package regex

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/harnlang/harn-check/grammar/generate/lex/charset"
)

// The reference below rebuilds every property from Go's unicode package
// (Unicode 15.0.0), the way this package did before it had its own tables.

func goTable(t *unicode.RangeTable) charset.Set {
	var rs []charset.Range
	add := func(lo, hi, stride rune) {
		if stride == 1 {
			rs = append(rs, charset.Range{Start: lo, End: hi + 1})
			return
		}
		for c := lo; c <= hi; c += stride {
			rs = append(rs, charset.Range{Start: c, End: c + 1})
		}
	}
	for _, r := range t.R16 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range t.R32 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	return charset.FromRanges(rs...)
}

func goUnion(names ...string) charset.Set {
	s := charset.Empty()
	for _, n := range names {
		if t, ok := unicode.Categories[n]; ok {
			s = s.Union(goTable(t))
		} else if t, ok := unicode.Properties[n]; ok {
			s = s.Union(goTable(t))
		} else {
			panic("no Go table " + n)
		}
	}
	return s
}

func goAssigned() charset.Set { return goUnion("L", "M", "N", "P", "S", "Z", "Cc", "Cf", "Co", "Cs") }

func goIDStart() charset.Set {
	return goUnion("L", "Nl", "Other_ID_Start").Difference(goUnion("Pattern_Syntax", "Pattern_White_Space"))
}

func goIDContinue() charset.Set {
	return goIDStart().Union(goUnion("Mn", "Mc", "Nd", "Pc", "Other_ID_Continue")).
		Difference(goUnion("Pattern_Syntax", "Pattern_White_Space"))
}

// goXIDExcluded are the code points NFKC closure removes from ID_Continue
// (and, with the four more below, from ID_Start) to form XID_*.
var goXIDExcluded = charset.FromRanges(charset.Range{Start: 0x037A, End: 0x037B},
	charset.Range{Start: 0x309B, End: 0x309D}, charset.Range{Start: 0xFC5E, End: 0xFC64},
	charset.Range{Start: 0xFDFA, End: 0xFDFC}, charset.Range{Start: 0xFE70, End: 0xFE71},
	charset.Range{Start: 0xFE72, End: 0xFE73}, charset.Range{Start: 0xFE74, End: 0xFE75},
	charset.Range{Start: 0xFE76, End: 0xFE77}, charset.Range{Start: 0xFE78, End: 0xFE79},
	charset.Range{Start: 0xFE7A, End: 0xFE7B}, charset.Range{Start: 0xFE7C, End: 0xFE7D},
	charset.Range{Start: 0xFE7E, End: 0xFE7F})
var goXIDStartExcluded = charset.FromRanges(charset.Range{Start: 0x0E33, End: 0x0E34},
	charset.Range{Start: 0x0EB3, End: 0x0EB4}, charset.Range{Start: 0xFF9E, End: 0xFFA0})

// goReference returns Go's (Unicode 15) value of every \p name the package
// accepts, keyed by that name.
func goReference() map[string]charset.Set {
	ref := map[string]charset.Set{}
	for k, t := range unicode.Categories {
		ref[k] = goTable(t)
	}
	ref["Cn"] = goAssigned().Negate().Intersect(scalars)
	ref["C"] = goUnion("Cc", "Cf", "Co", "Cs").Union(ref["Cn"])
	ref["LC"] = goUnion("Lu", "Ll", "Lt")
	for k, t := range unicode.Scripts {
		ref[k] = goTable(t)
	}
	for k, t := range unicode.Properties {
		if !strings.HasPrefix(k, "Other_") {
			ref[k] = goTable(t)
		}
	}
	ref["Assigned"] = goAssigned()
	ref["Alphabetic"] = goUnion("Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Other_Alphabetic")
	ref["Lowercase"] = goUnion("Ll", "Other_Lowercase")
	ref["Uppercase"] = goUnion("Lu", "Other_Uppercase")
	ref["Math"] = goUnion("Sm", "Other_Math")
	ref["ID_Start"] = goIDStart()
	ref["ID_Continue"] = goIDContinue()
	ref["XID_Start"] = goIDStart().Difference(goXIDExcluded).Difference(goXIDStartExcluded)
	ref["XID_Continue"] = goIDContinue().Difference(goXIDExcluded)
	return ref
}

// newSinceGo is every code point assigned in Unicode 15.1 or 16.0: Go's
// tables know it as unassigned.
func newSinceGo(t *testing.T) charset.Set {
	a16, ok := property("Assigned")
	if !ok {
		t.Fatal(`\p{Assigned} not accepted`)
	}
	return a16.Difference(goAssigned())
}

// knownChanges are the code points, assigned before Unicode 15.1, whose
// value for a property changed in Unicode 15.1 or 16.0 ("+" gained, "-"
// lost). Every other difference from Go's tables is a bug.
var knownChanges = map[string][]string{
	// 15.1: ZWNJ, ZWJ and the two katakana middle dots became identifier
	// characters (Other_ID_Continue).
	"ID_Continue":  {"200C+", "200D+", "30FB+", "FF65+"},
	"XID_Continue": {"200C+", "200D+", "30FB+", "FF65+"},
	// 16.0: combining Latin small letters became Other_Alphabetic.
	"Alphabetic": {"0363+", "0364+", "0365+", "0366+", "0367+", "0368+", "0369+", "036A+", "036B+", "036C+",
		"036D+", "036E+", "036F+", "1DD3+", "1DD4+", "1DD5+", "1DD6+", "1DD7+", "1DD8+", "1DD9+", "1DDA+",
		"1DDB+", "1DDC+", "1DDD+", "1DDE+", "1DDF+", "1DE0+", "1DE1+", "1DE2+", "1DE3+", "1DE4+", "1DE5+", "1DE6+"},
	"Diacritic": {"0E3A+", "1734+", "1A60+", "1BE6+", "1BF2+", "1BF3+", "A806+", "A82C+", "10A38+", "10A39+",
		"10A3A+", "10A3F+", "1133B+", "11F41+", "11F42+"},
	"Extender": {"0A71+", "0AFB+", "11237+"},
	// 16.0: AHOM CONSONANT SIGN MEDIAL RA moved from Mn to Mc.
	"Mc":                   {"1171E+"},
	"Mn":                   {"1171E-"},
	"STerm":                {"17D4+", "17D5+", "2024+", "2CF9+", "2CFA+", "2CFB+", "FE12+", "FE15+", "FE16+"},
	"Sentence_Terminal":    {"17D4+", "17D5+", "2024+", "2CF9+", "2CFA+", "2CFB+", "FE12+", "FE15+", "FE16+"},
	"Terminal_Punctuation": {"0836-", "2024+", "2CF9+", "2CFA+", "2CFB+", "FE12+", "FE15+", "FE16+"},
}

func TestTablesAgreeWithGoOutsideNewCharacters(t *testing.T) {
	newer := newSinceGo(t)
	// Unicode 15.1 added 627 characters, 16.0 another 5185.
	if n := newer.Size(); n != 627+5185 {
		t.Errorf("%d code points newly assigned since Unicode 15.0, want %d", n, 627+5185)
	}
	ref := goReference()
	names := make([]string, 0, len(ref))
	for k := range ref {
		names = append(names, k)
	}
	sort.Strings(names)
	if len(names) < 38+150+25 {
		t.Fatalf("only %d reference tables", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			got, ok := property(name)
			if !ok {
				t.Fatalf(`\p{%s} is not accepted`, name)
			}
			want := ref[name].Intersect(scalars)
			var diff []string
			got.SymmetricDifference(want).Difference(newer).EachChar(func(c rune) bool {
				sign := "-"
				if got.Contains(c) {
					sign = "+"
				}
				diff = append(diff, fmt.Sprintf("%04X%s", c, sign))
				return true
			})
			known := knownChanges[name]
			if !slices.Equal(diff, known) && !(len(diff) == 0 && len(known) == 0) {
				t.Errorf("differences from Go's Unicode %s tables outside new characters:\n got  %v\n want %v",
					unicode.Version, diff, known)
			}
		})
	}
}

// goOrbit is c's class under Go's (Unicode 15.0) simple case folding.
func goOrbit(c rune) []rune {
	o := []rune{c}
	for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
		o = append(o, f)
	}
	slices.Sort(o)
	return o
}

func TestCaseOrbitsAgreeWithGoOutsideNewCharacters(t *testing.T) {
	newer := newSinceGo(t)
	ours := map[rune][]rune{}
	for _, o := range unicodeCaseOrbits {
		if !slices.IsSorted(o) || len(o) < 2 {
			t.Errorf("orbit %X is not an ascending class of two or more", o)
		}
		for _, c := range o {
			if ours[c] != nil {
				t.Errorf("U+%04X is in two orbits", c)
			}
			ours[c] = o
		}
	}
	// 15.1 gave the Greek dialytika-tonos letters and the st ligatures
	// simple foldings (CaseFolding.txt status S).
	known := map[rune][]rune{
		0x0390: {0x0390, 0x1FD3}, 0x1FD3: {0x0390, 0x1FD3},
		0x03B0: {0x03B0, 0x1FE3}, 0x1FE3: {0x03B0, 0x1FE3},
		0xFB05: {0xFB05, 0xFB06}, 0xFB06: {0xFB05, 0xFB06},
	}
	goAssigned().EachChar(func(c rune) bool {
		var got []rune
		for _, x := range ours[c] {
			if !newer.Contains(x) {
				got = append(got, x)
			}
		}
		if got == nil {
			got = []rune{c}
		}
		want := goOrbit(c)
		if k, ok := known[c]; ok {
			want = k
		}
		if !slices.Equal(got, want) {
			t.Errorf("U+%04X folds with %X (new characters left out), want %X", c, got, want)
		}
		return true
	})
}

// TestUnicode16Additions checks characters Go's tables do not have.
func TestUnicode16Additions(t *testing.T) {
	cases := []struct {
		pattern string
		flags   string
		c       rune
		want    bool
	}{
		{`\p{Garay}`, "", 0x10D40, true},
		{`\p{sc=Garay}`, "", 0x10D8F, true},
		{`\p{Tulu_Tigalari}`, "", 0x11380, true},
		{`\p{Script=Tulu-Tigalari}`, "", 0x113D1, true},
		{`\p{Gurung_Khema}`, "", 0x16100, true},
		{`\p{Kirat_Rai}`, "", 0x16D40, true},
		{`\p{Ol_Onal}`, "", 0x1E5D0, true},
		{`\p{Sunuwar}`, "", 0x11BC0, true},
		{`\p{Todhri}`, "", 0x105C0, true},
		{`\p{Han}`, "", 0x2EBF0, true}, // CJK Extension I, Unicode 15.1
		{`\p{Lu}`, "", 0x10D50, true},
		{`\p{Ll}`, "", 0x10D70, true},
		{`\p{Nd}`, "", 0x10D40, true},
		{`\p{Lo}`, "", 0x11380, true},
		{`\p{Cn}`, "", 0x10D50, false},
		{`\P{Assigned}`, "", 0x11380, false},
		{`\p{XID_Start}`, "", 0x10D50, true},
		{`\p{XID_Continue}`, "", 0x10D40, true},
		{`\p{ID_Start}`, "", 0x2EBF0, true},
		{`\p{Alphabetic}`, "", 0x113B8, true},
		{`\p{Uppercase}`, "", 0xA7CB, true},
		{`\p{Lowercase}`, "", 0x10D70, true},
		{`\u{10D50}`, "i", 0x10D70, true},
		{`\u{10D70}`, "i", 0x10D50, true},
		{`\u{264}`, "i", 0xA7CB, true}, // an old letter with a new capital
		{`[\u{10D70}]`, "", 0x10D50, false},
	}
	for _, tc := range cases {
		t.Run(tc.pattern+"/"+tc.flags, func(t *testing.T) {
			if got := fullMatch(t, tc.pattern, tc.flags, string(tc.c)); got != tc.want {
				t.Errorf("/%s/%s on U+%04X = %v, want %v", tc.pattern, tc.flags, tc.c, got, tc.want)
			}
			if goAssigned().Contains(tc.c) && tc.c != 0x0264 {
				t.Errorf("U+%04X is assigned in Go's Unicode %s: the case does not test new data", tc.c, unicode.Version)
			}
		})
	}
}

func TestUnicodeVersion(t *testing.T) {
	if UnicodeVersion != "16.0.0" {
		t.Errorf("UnicodeVersion = %q, want 16.0.0", UnicodeVersion)
	}
}

// TestPropertyNames checks the accepted vocabulary: new scripts and the
// aliases resolve; names outside it are still refused with the offset.
func TestPropertyNames(t *testing.T) {
	cases := []struct {
		body string
		ok   bool
	}{
		{"Garay", true}, {"tulutigalari", true}, {"STerm", true}, {"sterm", true}, {"wspace", true},
		{"space", true}, {"alpha", true}, {"xids", true}, {"XIDC", true}, {"Any", true}, {"ASCII", true},
		{"L&", true}, {"gc=Cn", true}, {"Combining_Mark", true}, {"Hyphen", true},
		{"Other_Alphabetic", false}, {"Unknown", false}, {"Emoji", false}, {"sc=Lu", false},
		{"gc=Greek", false}, {"Not_A_Property", false},
	}
	for _, tc := range cases {
		pattern := `a\p{` + tc.body + `}`
		_, err := Parse(pattern, false)
		if tc.ok && err != nil {
			t.Errorf("Parse(%q): %v", pattern, err)
		}
		if !tc.ok {
			var upe *UnknownPropertyError
			if !errors.As(err, &upe) || upe.Name != tc.body || upe.Offset != 1 {
				t.Errorf("Parse(%q) error = %v, want UnknownPropertyError for %q at offset 1", pattern, err, tc.body)
			}
		}
	}
}
