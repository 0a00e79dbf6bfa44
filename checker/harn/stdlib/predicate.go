// Package stdlib describes, as checker types, the parts of Harn's standard
// library and host capabilities the checker reasons about: the
// `std/predicate` module (question, answer, outcome and policy types, the
// question builders and evaluation_windows) and the `Harness` /
// `HarnessLlm` capability handles whose `evaluate*` methods declare
// evaluation sites.
//
// The descriptions follow the decision-evaluation contract; they are data,
// built once, and shared read-only by every check.
package stdlib

import (
	"slices"
	"sync"

	"github.com/harnlang/harn-check/lang/harn/types"
)

// PredicateModule is the import path of the evaluation vocabulary.
const PredicateModule = "std/predicate"

// Names of the evaluation methods on HarnessLlm.
const (
	MethodEvaluate          = "evaluate"
	MethodEvaluatePredicate = "evaluate_predicate"
	MethodEvaluateRequest   = "evaluate_request"
	MethodEstimateTokens    = "estimate_state_tokens"
)

// Question kinds, the `kind` literal of a question shape.
const (
	KindBoolean = "boolean"
	KindChoice  = "choice"
	KindScore   = "score"
)

// Module is the checker's view of std/predicate: its exported types and
// functions by name.
type Module struct {
	Types     map[string]*types.Alias
	Functions map[string]*types.Func
}

var (
	once   sync.Once
	pred   *Module
	harn   *types.Capability
	llmCap *types.Capability
	// requestOutcome is evaluate_request's outcome; requestAnswers are
	// the answer records of its EvaluationAnswer union.
	requestOutcome *types.Alias
	requestAnswers map[*types.Record]bool
)

func f(name string, t types.Type) types.Field { return types.Field{Name: name, Type: t} }
func opt(name string, t types.Type) types.Field {
	return types.Field{Name: name, Type: t, Optional: true}
}
func lit(s string) types.Type { return types.StringLit(s) }
func lits(ss ...string) types.Type {
	ts := make([]types.Type, len(ss))
	for i, s := range ss {
		ts[i] = lit(s)
	}
	return types.NewUnion(ts...)
}
func alias(name string, t types.Type) *types.Alias {
	return &types.Alias{Name: name, Module: PredicateModule, Target: t}
}

var (
	strT   = types.StringType
	floatT = types.FloatType
	intT   = types.IntType
	boolT  = types.BoolType
)

// outcomeVariant builds one nominal outcome arm with kind and receipt.
func outcomeVariant(union, kind string, fields ...types.Field) *types.Record {
	all := append([]types.Field{f("kind", lit(kind)), f("receipt", strT)}, fields...)
	return &types.Record{Fields: all, Nominal: PredicateModule + "." + union + "." + kind}
}

// refusalCache holds refusalVariants' result per union name: every
// evaluation site's outcome type has these arms, and building them anew
// for each site was a third of what a run's module graph keeps (18 KB a
// site). Types are immutable; callers get their own slice.
var refusalCache sync.Map // union name -> []types.Type

// refusalVariants are the arms EvaluationOutcome and PredicateOutcome share.
func refusalVariants(union string) []types.Type {
	if v, ok := refusalCache.Load(union); ok {
		return slices.Clone(v.([]types.Type))
	}
	v, _ := refusalCache.LoadOrStore(union, buildRefusalVariants(union))
	return slices.Clone(v.([]types.Type))
}

func buildRefusalVariants(union string) []types.Type {
	return []types.Type{
		outcomeVariant(union, "refused",
			f("reason", lits("provider_refusal", "schema_invalid", "output_truncated")),
			f("diagnostic", strT)),
		outcomeVariant(union, "budget_cut",
			f("limit", lits("requests", "evaluations", "input_tokens", "output_tokens", "deadline",
				"evaluation_cost", "run_cost", "parent_budget")),
			f("requested", floatT), f("remaining", floatT)),
		outcomeVariant(union, "unavailable",
			f("reason", lits("model_unconfigured", "unsupported_options", "transport_failed",
				"authority_denied", "admission_refused", "producer_cancelled", "cache_miss"))),
		outcomeVariant(union, "replay_mismatch",
			f("expected_identity", strT), f("actual_identity", strT), f("occurrence", intT)),
		outcomeVariant(union, "cancelled", f("control_event", strT)),
		outcomeVariant(union, "state_too_large", f("limit_tokens", intT), f("estimated_tokens", intT)),
		outcomeVariant(union, "question_invalid",
			f("question", strT),
			f("reason", lits("too_many_options", "empty_questions", "empty_options", "empty_identifier",
				"duplicate_labels", "too_few_levels", "too_many_levels", "empty_instructions",
				"too_many_questions", "unsupported_question_kind"))),
		outcomeVariant(union, "rate_limited", opt("retry_after_ms", intT)),
		outcomeVariant(union, "overloaded"),
	}
}

func build() {
	m := &Module{Types: map[string]*types.Alias{}, Functions: map[string]*types.Func{}}
	add := func(a *types.Alias) *types.Alias { m.Types[a.Name] = a; return a }

	confidenceKind := add(alias("ConfidenceKind", lits("binary_probability", "distribution_shape", "model_rationale")))
	evidenceKind := add(alias("EvidenceKind", lits("input_reference", "model_rationale")))
	criteria := add(alias("BooleanCriteria", types.NewRecord(f("true", strT), f("false", strT))))
	boolQ := add(alias("BooleanQuestion", types.NewRecord(f("kind", lit(KindBoolean)), f("instructions", strT), opt("criteria", criteria))))
	choiceQ := add(alias("ChoiceQuestion", types.NewRecord(f("kind", lit(KindChoice)), f("instructions", strT),
		f("criteria", &types.Dict{Key: strT, Value: strT}))))
	scoreQ := add(alias("ScoreQuestion", types.NewRecord(f("kind", lit(KindScore)), f("instructions", strT),
		f("levels", &types.List{Elem: strT}))))
	add(alias("EvaluationQuestion", types.NewUnion(boolQ, choiceQ, scoreQ)))

	common := []types.Field{f("confidence", floatT), f("confidence_kind", confidenceKind), f("evidence", strT), f("evidence_kind", evidenceKind)}
	boolA := add(alias("BooleanAnswer", BooleanAnswerShape(common)))
	choiceA := add(alias("ChoiceAnswer", ChoiceAnswerShape(common, strT)))
	scoreA := add(alias("ScoreAnswer", ScoreAnswerShape(common, strT)))
	answer := add(alias("EvaluationAnswer", types.NewUnion(boolA, choiceA, scoreA)))
	verdict := add(alias("PredicateVerdict", types.NewRecord(f("verdict", boolT), f("confidence", floatT), f("evidence", strT))))

	add(alias("EvaluationPolicy", types.NewRecord(
		f("backend", lits("structured_llm", "native_decision")),
		f("provider", strT), f("model", strT),
		opt("effort", strT), opt("temperature", floatT), f("threshold", floatT),
		opt("evaluation_cost_limit", floatT), opt("run_cost_limit", floatT))))

	answers := &types.Dict{Key: strT, Value: answer}
	add(alias("EvaluationOutcome", EvaluationOutcomeFor(answers)))
	// evaluate_request's outcome is EvaluationOutcome too, built from its
	// own answer records, so that a read of a variant field off one of
	// its answers can be told from a read off an outcome a helper or
	// parameter declares generic.
	reqAnswers := []*types.Record{BooleanAnswerShape(common), ChoiceAnswerShape(common, strT), ScoreAnswerShape(common, strT)}
	requestAnswers = map[*types.Record]bool{}
	for _, r := range reqAnswers {
		requestAnswers[r] = true
	}
	reqAnswer := alias("EvaluationAnswer", types.NewUnion(reqAnswers[0], reqAnswers[1], reqAnswers[2]))
	requestOutcome = alias("EvaluationOutcome", EvaluationOutcomeFor(&types.Dict{Key: strT, Value: reqAnswer}))
	add(alias("PredicateOutcome", types.NewUnion(append([]types.Type{
		outcomeVariant("PredicateOutcome", "verdict", f("value", verdict)),
		outcomeVariant("PredicateOutcome", "low_confidence", f("candidate", verdict), f("threshold", floatT)),
	}, refusalVariants("PredicateOutcome")...)...)))

	window := add(alias("EvaluationWindow", types.NewRecord(f("first_index", intT), f("last_index", intT),
		f("primary_first_index", intT), f("item_count", intT), f("estimated_tokens", intT))))
	add(alias("EvaluationWindows", types.NewRecord(f("windows", &types.List{Elem: window}), f("budget_tokens", intT),
		f("anchor_tokens", intT), f("overlap_items", intT), f("receipt", strT))))

	llmCap = &types.Capability{Name: "HarnessLlm", Members: map[string]types.Type{}}
	param := func(name string, t types.Type) types.Param { return types.Param{Name: name, Type: t} }
	m.Functions["boolean"] = &types.Func{Params: []types.Param{param("instructions", strT), {Name: "criteria", Type: criteria, Optional: true}}, Result: boolQ}
	m.Functions["choice"] = &types.Func{Params: []types.Param{param("instructions", strT), param("criteria", &types.Dict{Key: strT, Value: strT})}, Result: choiceQ}
	m.Functions["score"] = &types.Func{Params: []types.Param{param("instructions", strT), param("levels", &types.List{Elem: strT})}, Result: scoreQ}
	m.Functions["evaluation_windows"] = &types.Func{Params: []types.Param{
		param("llm", llmCap), param("items", &types.List{Elem: types.AnyType}),
		param("options", types.NewRecord(f("budget_tokens", intT), opt("overlap_items", intT), opt("anchor", strT))),
	}, Result: m.Types["EvaluationWindows"]}

	questions := &types.Dict{Key: strT, Value: m.Types["EvaluationQuestion"]}
	policy := m.Types["EvaluationPolicy"]
	llmCap.Members[MethodEvaluate] = &types.Func{Params: []types.Param{param("id", strT), param("state", types.UnknownType),
		param("questions", questions), {Name: "policy", Type: policy, Optional: true}}, Result: m.Types["EvaluationOutcome"]}
	llmCap.Members[MethodEvaluatePredicate] = &types.Func{Params: []types.Param{param("id", strT), param("question", strT),
		param("input", types.UnknownType), {Name: "policy", Type: policy, Optional: true}}, Result: m.Types["PredicateOutcome"]}
	llmCap.Members[MethodEvaluateRequest] = &types.Func{Params: []types.Param{param("id", strT), param("state", types.UnknownType),
		param("questions", questions), param("policy", policy)}, Result: requestOutcome}
	llmCap.Members[MethodEstimateTokens] = &types.Func{Params: []types.Param{param("state", types.UnknownType)}, Result: intT}

	harn = &types.Capability{Name: "Harness", Members: map[string]types.Type{"llm": llmCap}}
	for _, name := range []string{"stdio", "clock", "fs", "env", "random", "net", "process", "crypto", "system"} {
		// The other capability slices are opaque to the checker: reads of
		// their members are gradual.
		harn.Members[name] = types.AnyType
	}
	pred = m
}

// BooleanAnswerShape is the answer of a boolean question.
func BooleanAnswerShape(common []types.Field) *types.Record {
	return types.NewRecord(append([]types.Field{f("kind", lit(KindBoolean)), f("verdict", boolT), f("probability", floatT)}, common...)...)
}

// ChoiceAnswerShape is the answer of a choice question whose `choice`
// field has type labels (the literal union of the declared labels at a
// literal site, string otherwise).
func ChoiceAnswerShape(common []types.Field, labels types.Type) *types.Record {
	return types.NewRecord(append([]types.Field{f("kind", lit(KindChoice)), f("choice", labels),
		f("probabilities", &types.Dict{Key: strT, Value: floatT})}, common...)...)
}

// ScoreAnswerShape is the answer of a score question whose `level` field
// has type levels.
func ScoreAnswerShape(common []types.Field, levels types.Type) *types.Record {
	return types.NewRecord(append([]types.Field{f("kind", lit(KindScore)), f("level", levels), f("score", floatT),
		f("probabilities", &types.Dict{Key: strT, Value: floatT})}, common...)...)
}

// CommonAnswerFields are the fields every answer carries.
func CommonAnswerFields() []types.Field { return commonAnswerFields() }

func commonAnswerFields() []types.Field {
	m := Predicate()
	return []types.Field{f("confidence", floatT), f("confidence_kind", m.Types["ConfidenceKind"]),
		f("evidence", strT), f("evidence_kind", m.Types["EvidenceKind"])}
}

// Question is one question of a literal question set, as the checker read
// it from the call.
type Question struct {
	ID     string
	Kind   string // KindBoolean, KindChoice or KindScore
	Labels []string
}

// AnswersRecord returns the per-question answers record of a literal site:
// one field per question id, each typed from its own question (a choice's
// `choice` and a score's `level` become the literal union of the declared
// labels).
func AnswersRecord(qs []Question) *types.Record {
	common := commonAnswerFields()
	rec := &types.Record{}
	for _, q := range qs {
		var t types.Type
		switch q.Kind {
		case KindBoolean:
			t = BooleanAnswerShape(common)
		case KindChoice:
			t = ChoiceAnswerShape(common, lits(q.Labels...))
		case KindScore:
			t = ScoreAnswerShape(common, lits(q.Labels...))
		default:
			t = types.UnknownType
		}
		rec.Fields = append(rec.Fields, f(q.ID, t))
	}
	return rec
}

// EvaluationOutcomeFor returns the EvaluationOutcome union whose answered
// `value` and low_confidence `candidates` have type answers (the
// per-question record at a literal site, dict<string, EvaluationAnswer>
// otherwise).
func EvaluationOutcomeFor(answers types.Type) types.Type {
	return types.NewUnion(append([]types.Type{
		outcomeVariant("EvaluationOutcome", "answered", f("value", answers)),
		outcomeVariant("EvaluationOutcome", "low_confidence", f("candidates", answers), f("threshold", floatT),
			f("question_ids", &types.List{Elem: strT})),
	}, refusalVariants("EvaluationOutcome")...)...)
}

// Predicate returns the description of std/predicate.
func Predicate() *Module {
	once.Do(build)
	return pred
}

// Harness returns the Harness capability type.
func Harness() *types.Capability {
	once.Do(build)
	return harn
}

// HarnessLlm returns the HarnessLlm capability type.
func HarnessLlm() *types.Capability {
	once.Do(build)
	return llmCap
}

// RequestOutcome is the outcome of evaluate_request: EvaluationOutcome
// whose answers are runtime vocabulary.
func RequestOutcome() *types.Alias {
	once.Do(build)
	return requestOutcome
}

// IsRequestAnswer reports whether t is an answer of an evaluate_request
// outcome that may still be of more than one kind: after removing nil,
// every member is one of that outcome's answer records, of at least two
// kinds. Its variant fields (verdict, choice, level, ...) need narrowing
// on kind before they are read. An answer of an outcome a parameter or a
// helper declares as the generic EvaluationOutcome is not one.
func IsRequestAnswer(t types.Type) bool {
	once.Do(build)
	ms := types.Members(types.StripNil(t))
	if len(ms) < 2 {
		return false
	}
	for _, m := range ms {
		r, ok := types.Unalias(m).(*types.Record)
		if !ok || !requestAnswers[r] {
			return false
		}
	}
	return true
}

// IsOutcome reports whether t is an evaluation outcome: after removing nil,
// every member is one of std/predicate's nominal outcome variants. A user
// record with the same fields is not an outcome.
func IsOutcome(t types.Type) bool {
	ms := types.Members(types.StripNil(t))
	if len(ms) == 0 {
		return false
	}
	for _, m := range ms {
		r, ok := types.Unalias(m).(*types.Record)
		if !ok || r.Nominal == "" {
			return false
		}
		if _, has := r.Lookup("receipt"); !has {
			return false
		}
	}
	return true
}
