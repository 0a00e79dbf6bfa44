package stdlib

import (
	"testing"

	"github.com/harnlang/harn-check/lang/harn/types"
)

func TestOutcomeUnionsAreTagged(t *testing.T) {
	m := Predicate()
	for _, name := range []string{"EvaluationOutcome", "PredicateOutcome"} {
		tags, ok := types.TagValues(m.Types[name], "kind")
		if !ok || len(tags) != 11 {
			t.Errorf("%s: %d tags, ok=%v", name, len(tags), ok)
		}
		if _, p := types.FieldOf(m.Types[name], "receipt", false); p != types.FieldAll {
			t.Errorf("%s: receipt must be readable without narrowing", name)
		}
		if _, p := types.FieldOf(m.Types[name], "value", false); p != types.FieldSome {
			t.Errorf("%s: value must need narrowing", name)
		}
		if !IsOutcome(m.Types[name]) || !IsOutcome(types.Optional(m.Types[name])) {
			t.Errorf("%s is not recognised as an outcome", name)
		}
	}
	user := types.NewRecord(types.Field{Name: "kind", Type: types.StringLit("verdict")}, types.Field{Name: "receipt", Type: types.StringType})
	if IsOutcome(user) {
		t.Error("a user record with kind and receipt is not an outcome")
	}
	if IsOutcome(types.NilType) || IsOutcome(types.StringType) {
		t.Error("nil and string are not outcomes")
	}
}

func TestAnswersRecordTypesLabels(t *testing.T) {
	rec := AnswersRecord([]Question{
		{ID: "disposition", Kind: KindChoice, Labels: []string{"keep", "reword", "drop"}},
		{ID: "risk", Kind: KindScore, Labels: []string{"low"}},
		{ID: "safe", Kind: KindBoolean},
	})
	d, _ := rec.Lookup("disposition")
	if ct, _ := types.FieldOf(d.Type, "choice", false); ct.String() != `"keep" | "reword" | "drop"` {
		t.Errorf("choice type %s", ct)
	}
	r, _ := rec.Lookup("risk")
	if lt, _ := types.FieldOf(r.Type, "level", false); lt.String() != `"low"` {
		t.Errorf("single-label score level %s", lt)
	}
	s, _ := rec.Lookup("safe")
	if vt, _ := types.FieldOf(s.Type, "verdict", false); vt.String() != "bool" {
		t.Errorf("verdict %s", vt)
	}
	outcome := EvaluationOutcomeFor(rec)
	answered := types.Narrow(outcome, "kind", types.StringLit("answered"))
	if v, p := types.FieldOf(answered, "value", false); p != types.FieldAll || !types.Identical(v, rec) {
		t.Errorf("answered.value = %s (%v)", v, p)
	}
}

func TestHarnessCapabilities(t *testing.T) {
	llm, ok := Harness().Member("llm")
	if !ok || llm != HarnessLlm() {
		t.Fatal("harness.llm is not HarnessLlm")
	}
	for _, m := range []string{MethodEvaluate, MethodEvaluatePredicate, MethodEvaluateRequest, MethodEstimateTokens} {
		if _, ok := HarnessLlm().Member(m); !ok {
			t.Errorf("HarnessLlm lacks %s", m)
		}
	}
	ev, _ := HarnessLlm().Member(MethodEvaluatePredicate)
	if res := ev.(*types.Func).Result; res.String() != "PredicateOutcome" {
		t.Errorf("evaluate_predicate returns %s", res)
	}
	if p, ok := types.CheckSerializable(Predicate().Types["EvaluationPolicy"]); !ok {
		t.Errorf("policy must be closed serializable: %s", p)
	}
}
