package leia

import (
	"os"
	"regexp"
	"testing"
)

var (
	astFieldRe = regexp.MustCompile(`(?:\.field\(|\.all\()"(\w+)"`)
	astKindRe  = regexp.MustCompile(`case ((?:"[^"]+"(?:, )?)+):`)
	astStrRe   = regexp.MustCompile(`"([^"]+)"`)
	astHasRe   = regexp.MustCompile(`\.has\("([^"]+)"\)`)
)

// TestASTReadsGrammarNames checks package ast's lowering against the
// grammar: every field it reads exists, and every node kind it switches on
// or looks for is a node type of the grammar. A renamed rule or field then
// fails here instead of silently lowering to an Error.
func TestASTReadsGrammarNames(t *testing.T) {
	v := loadVocab(t)
	src, err := os.ReadFile("ast/lower.go")
	if err != nil {
		t.Fatal(err)
	}
	fields := astFieldRe.FindAllSubmatch(src, -1)
	if len(fields) < 20 {
		t.Fatalf("found only %d field reads in ast/lower.go; the pattern is stale", len(fields))
	}
	for _, m := range fields {
		if !v.allFields[string(m[1])] {
			t.Errorf("ast/lower.go reads field %q, which the grammar does not define", m[1])
		}
	}
	kinds := 0
	for _, m := range astKindRe.FindAllSubmatch(src, -1) {
		for _, s := range astStrRe.FindAllSubmatch(m[1], -1) {
			k := string(s[1])
			kinds++
			if !v.named[k] {
				t.Errorf("ast/lower.go handles node kind %q, which the grammar does not define", k)
			}
		}
	}
	if kinds < 40 {
		t.Fatalf("found only %d node kinds in ast/lower.go; the pattern is stale", kinds)
	}
	for _, m := range astHasRe.FindAllSubmatch(src, -1) {
		if !v.anonymous[string(m[1])] {
			t.Errorf("ast/lower.go looks for token %q, which the grammar does not define", m[1])
		}
	}
}
