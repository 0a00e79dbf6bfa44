package infer_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/infer"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/binding"
)

// typeAt checks src and returns the recorded type of the n-th expression
// (in source order of start offset, then shortest) whose text is expr.
func typeAt(t *testing.T, src, expr string, n int) string {
	t.Helper()
	file, diags := binding.Parse("t.harn", []byte(src))
	if len(diags) > 0 {
		t.Fatalf("syntax: %v", diags[0].Message)
	}
	facts, _ := infer.Check(file, infer.Config{Path: "t.harn", Src: []byte(src)})
	type hit struct {
		span ast.Span
		typ  string
	}
	var hits []hit
	for e, ty := range facts.Types {
		sp := e.Pos()
		if src[sp.Start:sp.End] == expr {
			hits = append(hits, hit{sp, ty.String()})
		}
	}
	for i := range hits {
		for j := i + 1; j < len(hits); j++ {
			if hits[j].span.Start < hits[i].span.Start || (hits[j].span.Start == hits[i].span.Start && hits[j].span.End < hits[i].span.End) {
				hits[i], hits[j] = hits[j], hits[i]
			}
		}
	}
	if n >= len(hits) {
		t.Fatalf("expression %q occurrence %d not found (%d hits)", expr, n, len(hits))
	}
	return hits[n].typ
}

const prelude = "import {boolean, choice, score} from \"std/predicate\"\n"

func TestInference(t *testing.T) {
	tests := []struct {
		name, src, expr string
		n               int
		want            string
	}{
		{"let widens", "let x = \"a\"\nlog(x)", "x", 0, "string"},
		{"list literal", "const xs = [1, 2]\nlog(xs)", "xs", 0, "list<int>"},
		{"mixed numbers", "const x = 1 + 2.5\nlog(x)", "x", 0, "float"},
		{"record literal", "const r = {a: 1, b: \"s\"}\nlog(r)", "r", 0, "{a: int, b: string}"},
		{"inferred return", "fn f() { return 3 }\nconst y = f()\nlog(y)", "y", 0, "int"},
		{"closure result", "const f = { x -> 1 }\nconst y = f(2)\nlog(y)", "y", 0, "int"},
		{"coalesce strips nil", "fn f(x: int?) -> int { return x ?? 0 }", "x ?? 0", 0, "int"},
		{"nil check", "fn f(x: int?) -> int {\n if x != nil { return x }\n return 0 }", "x", 1, "int"},
		{"early return", "fn f(x: string?) -> string { if x == nil { return \"\" }\n return x }", "x", 1, "string"},
		{"guard", "fn f(x: string?) -> string { guard x else { return \"\" }\n return x }", "x", 1, "string"},
		{"tag narrowing", prelude + "fn f(o: PredicateOutcome) -> bool {\n if o.kind == \"verdict\" { return o.value.verdict }\n return false }", "o", 1, "{kind: \"verdict\", receipt: string, value: PredicateVerdict}"},
		{"else excludes", prelude + "fn f(o: PredicateOutcome) -> string { if o.kind != \"budget_cut\" { return \"\" }\n return o.limit }", "o", 1, "{kind: \"budget_cut\", receipt: string, limit: \"requests\" | \"evaluations\" | \"input_tokens\" | \"output_tokens\" | \"deadline\" | \"evaluation_cost\" | \"run_cost\" | \"parent_budget\", requested: float, remaining: float}"},
		{"match arm", prelude + "fn f(o: PredicateOutcome) -> string { match o.kind { \"cancelled\" -> { return o.control_event } _ -> { return \"\" } } }", "o", 1, "{kind: \"cancelled\", receipt: string, control_event: string}"},
		{"answer labels", prelude + "fn f(llm: HarnessLlm, s: {a: int}) -> string {\n const o = llm.evaluate(\"x.v1\", s, {pick: choice(\"Which?\", {left: \"L\", right: \"R\"})})\n match o.kind { \"answered\" -> { return o.value.pick.choice } _ -> { return \"\" } } }", "o.value.pick.choice", 0, "\"left\" | \"right\""},
		{"score levels", prelude + "fn f(llm: HarnessLlm, s: {a: int}) -> string {\n const o = llm.evaluate(\"x.v1\", s, {r: score(\"How?\", [\"lo\", \"hi\"])})\n if o.kind == \"answered\" { return o.value.r.level }\n return \"\" }", "o.value.r.level", 0, "\"lo\" | \"hi\""},
		{"request is generic", prelude + "fn f(llm: HarnessLlm, s: {a: int}, q: dict<string, EvaluationQuestion>, p: EvaluationPolicy) -> any {\n const o = llm.evaluate_request(\"x.v1\", s, q, p)\n return o }", "o", 0, "EvaluationOutcome"},
		{"struct", "struct P { x: int }\nconst p = P { x: 1 }\nlog(p.x)", "p.x", 0, "int"},
		{"for element", "fn f(xs: list<string>) { for x in xs { log(x) } }", "x", 0, "string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := typeAt(t, tc.src, tc.expr, tc.n); got != tc.want {
				t.Errorf("type of %q #%d = %s, want %s", tc.expr, tc.n, got, tc.want)
			}
		})
	}
}
