package regex

import (
	"errors"
	"strings"
	"testing"
)

// ends returns the rune offsets at which n can finish matching s from pos.
func ends(n *Node, s []rune, pos int) map[int]bool {
	out := map[int]bool{}
	switch n.Kind {
	case Empty:
		out[pos] = true
	case Class:
		if pos < len(s) && n.Set.Contains(s[pos]) {
			out[pos+1] = true
		}
	case Concat:
		cur := map[int]bool{pos: true}
		for _, sub := range n.Subs {
			next := map[int]bool{}
			for p := range cur {
				for e := range ends(sub, s, p) {
					next[e] = true
				}
			}
			cur = next
		}
		return cur
	case Alt:
		for _, sub := range n.Subs {
			for e := range ends(sub, s, pos) {
				out[e] = true
			}
		}
	case Repeat:
		cur := map[int]bool{pos: true}
		if n.Min == 0 {
			out[pos] = true
		}
		for i := 1; n.Max < 0 || i <= n.Max; i++ {
			next := map[int]bool{}
			for p := range cur {
				for e := range ends(n.Subs[0], s, p) {
					next[e] = true
				}
			}
			grew := false
			for e := range next {
				if i >= n.Min && !out[e] {
					out[e] = true
					grew = true
				}
			}
			if len(next) == 0 || (n.Max < 0 && i > n.Min && !grew) {
				break
			}
			cur = next
		}
	}
	return out
}

func fullMatch(t *testing.T, pattern, flags, s string) bool {
	t.Helper()
	n, err := Parse(RewritePerlClasses(pattern), strings.Contains(flags, "i"))
	if err != nil {
		t.Fatalf("Parse(%q): %v", pattern, err)
	}
	r := []rune(s)
	return ends(n, r, 0)[len(r)]
}

func TestParseMatches(t *testing.T) {
	cases := []struct {
		pattern, flags string
		yes, no        []string
	}{
		{`(a|b|c)d(e|f|g)h?`, "", []string{"ade", "bdfh"}, []string{"ad", "adeh h"}},
		{`a((bc)+|(de)*)f`, "", []string{"af", "adedef", "abcbcf"}, []string{"abcdef", "a"}},
		{`[a-fA-F0-9]+`, "", []string{"A1ff0"}, []string{"g", ""}},
		{`\w\d\s`, "", []string{"_0 ", "a9\t"}, []string{"é0 ", "a٣ "}},
		{`[^\s]+`, "", []string{"abc"}, []string{"a b"}},
		{`\W\D\S`, "", []string{"-a-"}, []string{"a1 "}},
		{`.`, "", []string{"a", "é", "\r"}, []string{"\n"}},
		{`(?s).`, "", []string{"\n"}, nil},
		{`[^x\\]`, "", []string{"a", "\n"}, []string{"x", "\\"}},
		{`[]a]`, "", []string{"]", "a"}, []string{"b"}},
		{`[a-]+`, "", []string{"a-a"}, []string{"b"}},
		{`[-a]`, "", []string{"-"}, nil},
		{`[\d_]`, "", []string{"5", "_"}, []string{"a"}},
		{`[a-z&&[^aeiou]]`, "", []string{"b"}, []string{"a", "B"}},
		{`[a-z--b]`, "", []string{"a", "c"}, []string{"b"}},
		{`[[:alpha:][:digit:]]+`, "", []string{"ab12"}, []string{"-"}},
		{`[[:^alpha:]]`, "", []string{"1"}, []string{"a"}},
		{`\u{00dc}\U{000000dd}\u00de\U000000df\x41\x{42}`, "", []string{"\u00dc\u00dd\u00de\u00dfAB"}, nil},
		{`\/\"\'\-\{`, "", []string{`/"'-{`}, nil},
		{`u{[0-9]+}`, "", []string{"u{12}"}, []string{"u12"}},
		{`a{2}`, "", []string{"aa"}, []string{"a", "aaa"}},
		{`a{2,}`, "", []string{"aa", "aaaa"}, []string{"a"}},
		{`a{1,3}`, "", []string{"a", "aaa"}, []string{"", "aaaa"}},
		{`a{0}b`, "", []string{"b"}, []string{"ab"}},
		{`a+?b*?`, "", []string{"a", "aabb"}, []string{"b"}},
		{`(?:ab)+`, "", []string{"abab"}, []string{"aba"}},
		{`(?P<n>x)(?<m>y)`, "", []string{"xy"}, nil},
		{`abc`, "i", []string{"ABC", "aBc"}, []string{"abd"}},
		{`(?i)k`, "", []string{"k", "K", "\u212a"}, nil},
		{`(?i:a)b`, "", []string{"Ab"}, []string{"AB"}},
		{`(?i)[^x]`, "", []string{"y"}, []string{"x", "X"}},
		{`\p{L}+\P{L}`, "", []string{"ბΨƁ_"}, []string{"ab"}},
		{`\pL`, "", []string{"a"}, []string{"1"}},
		{`\p{Lu}\p{Uppercase_Letter}\p{gc=Lu}`, "", []string{"ABC"}, []string{"aBC"}},
		{`\p{Greek}\p{Script=Latin}\p{sc=Cyrillic}`, "", []string{"Ψaж"}, []string{"aaa"}},
		{`\p{XID_Start}\p{XID_Continue}*`, "", []string{"a1", "a_", "é٣"}, []string{"1a", "a-", "_"}},
		{`\p{White_Space}\p{Alphabetic}`, "", []string{"\u00a0a"}, []string{"aa"}},
		{`\p{Nd}\p{Decimal_Number}\p{N}`, "", []string{"1٣½"}, []string{"a11"}},
		{`\0\t\n\r`, "", []string{"\x00\t\n\r"}, nil},
		{`a|`, "", []string{"a", ""}, []string{"b"}},
	}
	for _, c := range cases {
		for _, s := range c.yes {
			if !fullMatch(t, c.pattern, c.flags, s) {
				t.Errorf("/%s/%s should match %q", c.pattern, c.flags, s)
			}
		}
		for _, s := range c.no {
			if fullMatch(t, c.pattern, c.flags, s) {
				t.Errorf("/%s/%s should not match %q", c.pattern, c.flags, s)
			}
		}
	}
}

func TestSurrogatesOnlyInsideSpanningRanges(t *testing.T) {
	cases := []struct {
		pattern   string
		spans     bool
		rangesNum int
	}{
		{`[^a]`, true, 2},
		{`.`, true, 2},
		{`\P{L}`, true, -1},
		{`\W`, true, -1},
		{`[\x{D000}-\x{D7FF}]`, false, 1},
		{`[\x{D000}-\x{D7FF}\x{E000}-\x{E0FF}]`, true, 1},
	}
	for _, c := range cases {
		n, err := Parse(c.pattern, false)
		if err != nil {
			t.Fatal(err)
		}
		if n.Set.Contains(0xD800) != c.spans || n.Set.Contains(0xDFFF) != c.spans {
			t.Errorf("/%s/: surrogates included = %v, want %v", c.pattern, n.Set.Contains(0xD800), c.spans)
		}
		if c.rangesNum >= 0 && n.Set.RangeCount() != c.rangesNum {
			t.Errorf("/%s/: %d ranges, want %d", c.pattern, n.Set.RangeCount(), c.rangesNum)
		}
	}
}

func TestRejects(t *testing.T) {
	cases := []struct{ pattern, want string }{
		{`^a`, "anchor"},
		{`a$`, "anchor"},
		{`\bfoo`, "assertion"},
		{`a(?=b)`, "lookaround"},
		{`(a)\1`, "backreference"},
		{`(ab`, "unclosed group"},
		{`a)`, "unmatched"},
		{`[ab`, "unclosed character class"},
		{`[z-a]`, "invalid range"},
		{`*a`, "nothing to repeat"},
		{`\q`, "unrecognized escape"},
		{`\u{110000}`, "invalid code point"},
		{`a{3,1}`, "invalid repetition"},
	}
	for _, c := range cases {
		_, err := Parse(c.pattern, false)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) error = %v, want it to mention %q", c.pattern, err, c.want)
		}
	}
}

func TestUnknownPropertyIsNamed(t *testing.T) {
	_, err := Parse(`\p{Not_A_Property}`, false)
	var upe *UnknownPropertyError
	if !errors.As(err, &upe) || upe.Name != "Not_A_Property" {
		t.Fatalf("error = %v, want UnknownPropertyError naming the property", err)
	}
}

// FuzzParse checks that no pattern makes the parser panic or hang, and that
// every class it returns is canonical.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`a|b`, `[^\]a-]`, `(?i:x)+`, `\p{Greek}`, `[[:^alpha:]&&[a-z]]`, `a{2,3}?`,
		`\u{41}\x{1F600}`, `(?P<n>.)`, `[\d--5]`, `(((`, `[`, `\`, `x{`, `{1}`, `(?`, `\p`} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, pattern string, i bool) {
		n, err := Parse(pattern, i)
		if err != nil {
			return
		}
		var walk func(*Node)
		walk = func(n *Node) {
			if n.Kind == Class && n.Set.IsEmpty() && !strings.Contains(pattern, "&&") && !strings.Contains(pattern, "--") {
				// An empty class only arises from set operations or negating everything.
				if !strings.Contains(pattern, "^") && !strings.Contains(pattern, `\P`) {
					t.Errorf("empty class from %q", pattern)
				}
			}
			for _, s := range n.Subs {
				walk(s)
			}
		}
		walk(n)
	})
}
