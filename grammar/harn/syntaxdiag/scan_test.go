package syntaxdiag

import (
	"math/rand"
	"testing"
)

func TestScanProblems(t *testing.T) {
	tests := []struct {
		src   string
		codes []string
	}{
		{"f(a, [b, {c: 1}])", nil},
		{`"a ${ "b ${c}" } d"`, nil},
		{`r#"x "y" z"# + r"w"`, nil},
		{"#!/usr/bin/env harn\nx", nil},
		{"x # y", []string{"HARN-PAR-003"}},
		{"/* /* */", []string{"HARN-PAR-005"}},
		{"/* /* */ */ x", nil},
		{"\"abc", []string{"HARN-PAR-004"}},
		{"\"\"\"abc\"\"", []string{"HARN-PAR-004"}},
		{"f(", []string{"HARN-PAR-002"}},
		{"f(]", []string{"HARN-PAR-001"}},
		{"{ [ ( ) }", []string{"HARN-PAR-001"}},
		{"a \\\n+ b", nil},
		{"é", []string{"HARN-PAR-003"}},
		{"\xff", []string{"HARN-PAR-003"}},
		{`"${ (a }"`, []string{"HARN-PAR-001"}},
	}
	for _, tt := range tests {
		problems, _ := scan([]byte(tt.src))
		var codes []string
		for _, p := range problems {
			codes = append(codes, p.code)
		}
		if len(codes) != len(tt.codes) {
			t.Errorf("scan(%q) = %v, want %v", tt.src, codes, tt.codes)
			continue
		}
		for i := range codes {
			if codes[i] != tt.codes[i] {
				t.Errorf("scan(%q) = %v, want %v", tt.src, codes, tt.codes)
			}
		}
	}
}

func checkScan(t *testing.T, src []byte) {
	problems, _ := scan(src)
	for _, p := range problems {
		if p.start < 0 || p.end < p.start || p.end > len(src) {
			t.Fatalf("scan(%q): problem span [%d,%d) outside the source", src, p.start, p.end)
		}
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{`f("${x}")`, "/* /*", `r#"`, "{[(", `"""${`} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkScan)
}

func TestScanRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	alphabet := []byte("ab \n\t\"$\\{}[]()r#/*`~é")
	for i := 0; i < 5000; i++ {
		src := make([]byte, rng.Intn(60))
		for j := range src {
			src[j] = alphabet[rng.Intn(len(alphabet))]
		}
		checkScan(t, src)
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		expected []string
		tok      string
		want     string
	}{
		{[]string{"identifier", "`)`", "`...`", "parameter"}, "`+`", "name, `)` or `...`"},
		{[]string{"identifier", "integer", "binary_expression", "`)`"}, "`=`", "expression or `)`"},
		{[]string{"identifier", "integer", "binary_expression", "`)`"}, "integer", ""},
		{[]string{"variable_declaration", "identifier"}, "`}`", "statement"},
		{[]string{"`,`"}, "integer", "`,`"},
		{nil, "`x`", ""},
		{[]string{"block_comment"}, "`x`", ""},
	}
	for _, tt := range tests {
		if got := summarize(tt.expected, tt.tok); got != tt.want {
			t.Errorf("summarize(%v, %s) = %q, want %q", tt.expected, tt.tok, got, tt.want)
		}
	}
}
