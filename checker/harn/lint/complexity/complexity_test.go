package complexity_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/lint/complexity"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/binding"
)

func TestCyclomaticComplexity(t *testing.T) {
	analysistest.Run(t, "testdata", harn.Checker, complexity.RuleWithThreshold(3))
}

// TestScore pins the score of each construct: one function per case.
func TestScore(t *testing.T) {
	tests := []struct {
		body string
		want int
	}{
		{"return 1", 1},
		{"if a { } else if b { } else { }", 3},
		{"for x in xs { while y { } }", 3},
		{"const z = a && b || c", 3},
		{"const z = a ?? b", 1},
		{"match x { 1 -> { } 2 -> { } _ -> { } }", 2},
		{"const r = try { f() }", 1},
		{"try { f() } catch (e) { }", 2},
		{"guard a else { return }", 2},
		{"retry 3 { f() }", 2},
		{"const t = a ? 1 : 2", 2},
		{"const g = { x -> if x { } }", 2},
		{"fn inner() { if a { } }", 1},
	}
	for _, tt := range tests {
		file, diags := binding.Parse("t.harn", []byte("fn f(a, b, c, x, xs, y) {\n"+tt.body+"\n}\n"))
		if len(diags) > 0 {
			t.Fatalf("%s: %v", tt.body, diags)
		}
		if got := complexity.Score(file.Items[0].(*ast.FuncDecl).Body); got != tt.want {
			t.Errorf("%s: score %d, want %d", tt.body, got, tt.want)
		}
	}
}
