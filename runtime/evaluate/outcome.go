package evaluate

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/canonjson"
)

// Outcome kinds.
const (
	OutcomeAnswered        = "answered"
	OutcomeVerdict         = "verdict"
	OutcomeLowConfidence   = "low_confidence"
	OutcomeRefused         = "refused"
	OutcomeBudgetCut       = "budget_cut"
	OutcomeUnavailable     = "unavailable"
	OutcomeReplayMismatch  = "replay_mismatch"
	OutcomeCancelled       = "cancelled"
	OutcomeStateTooLarge   = "state_too_large"
	OutcomeQuestionInvalid = "question_invalid"
	OutcomeRateLimited     = "rate_limited"
	OutcomeOverloaded      = "overloaded"
)

// Outcome is one arm of the closed EvaluationOutcome (or, after
// ProjectPredicate, PredicateOutcome) union: kind, receipt and the arm's
// fields. Its JSON form has sorted keys, as upstream's record does.
type Outcome struct {
	Kind   string
	fields map[string]any
}

func arm(kind, receipt string, kv ...any) *Outcome {
	f := map[string]any{"kind": kind, "receipt": receipt}
	for i := 0; i+1 < len(kv); i += 2 {
		f[kv[i].(string)] = kv[i+1]
	}
	return &Outcome{Kind: kind, fields: f}
}

// Value is the outcome record (a copy of the top level).
func (o *Outcome) Value() map[string]any {
	out := make(map[string]any, len(o.fields))
	for k, v := range o.fields {
		out[k] = v
	}
	return out
}

// Receipt is the outcome's receipt handle (the invocation id).
func (o *Outcome) Receipt() string { s, _ := o.fields["receipt"].(string); return s }

// Field returns one field of the arm.
func (o *Outcome) Field(k string) any { return o.fields[k] }

func answerMap(answers []*Answer) map[string]any {
	m := make(map[string]any, len(answers))
	for _, a := range answers {
		m[a.QuestionID] = a.Value()
	}
	return m
}

func answered(receipt string, answers []*Answer) *Outcome {
	return arm(OutcomeAnswered, receipt, "value", answerMap(answers))
}

// lowConfidence carries every candidate, the threshold and the ids under it.
func lowConfidence(receipt string, answers []*Answer, threshold float64) *Outcome {
	under := []any{}
	for _, a := range answers {
		if !a.Meets(threshold) {
			under = append(under, a.QuestionID)
		}
	}
	return arm(OutcomeLowConfidence, receipt, "candidates", answerMap(answers), "threshold", threshold, "question_ids", under)
}

func refused(receipt, reason, diagnostic string) *Outcome {
	return arm(OutcomeRefused, receipt, "reason", reason, "diagnostic", diagnostic)
}

func unavailable(receipt, reason string) *Outcome {
	return arm(OutcomeUnavailable, receipt, "reason", reason)
}

func budgetCut(receipt, limit string, requested, remaining float64) *Outcome {
	return arm(OutcomeBudgetCut, receipt, "limit", limit, "requested", requested, "remaining", remaining)
}

func cancelled(receipt, event string) *Outcome {
	return arm(OutcomeCancelled, receipt, "control_event", event)
}

func stateTooLarge(receipt string, limit, estimated int) *Outcome {
	return arm(OutcomeStateTooLarge, receipt, "limit_tokens", int64(limit), "estimated_tokens", int64(estimated))
}

func questionInvalid(receipt string, r *QuestionRefusal) *Outcome {
	return arm(OutcomeQuestionInvalid, receipt, "question", r.Question, "reason", r.Reason)
}

// rateLimited omits retry_after_ms when the provider named no delay:
// absence is not zero.
func rateLimited(receipt string, retryAfterMS *int64) *Outcome {
	if retryAfterMS == nil {
		return arm(OutcomeRateLimited, receipt)
	}
	return arm(OutcomeRateLimited, receipt, "retry_after_ms", *retryAfterMS)
}

func overloaded(receipt string) *Outcome { return arm(OutcomeOverloaded, receipt) }

func replayMismatch(receipt, expected, actual string, occurrence int) *Outcome {
	return arm(OutcomeReplayMismatch, receipt, "expected_identity", expected, "actual_identity", actual, "occurrence", int64(occurrence))
}

// ProjectPredicate turns a batched outcome of a one-boolean set into the
// PredicateOutcome union: answered becomes verdict, low_confidence keeps
// one candidate; every refusal passes through unchanged, so the two entry
// points cannot refuse differently.
func ProjectPredicate(o *Outcome, answers []*Answer, threshold float64) *Outcome {
	verdict := func() (map[string]any, bool) {
		if len(answers) != 1 || answers[0].Kind != KindBoolean {
			return nil, false
		}
		a := answers[0]
		return map[string]any{"verdict": a.Verdict, "confidence": a.Confidence, "evidence": a.Evidence}, true
	}
	switch o.Kind {
	case OutcomeAnswered:
		if v, ok := verdict(); ok {
			return arm(OutcomeVerdict, o.Receipt(), "value", v)
		}
	case OutcomeLowConfidence:
		if v, ok := verdict(); ok {
			return arm(OutcomeLowConfidence, o.Receipt(), "candidate", v, "threshold", threshold)
		}
	default:
		return o
	}
	return refused(o.Receipt(), "schema_invalid", "predicate site did not receive a boolean answer")
}

// outcomeFromRecord reads a taped outcome and checks its arm is closed.
func outcomeFromRecord(v any) (*Outcome, error) {
	obj, ok := v.(*canonjson.Object)
	if !ok {
		return nil, fmt.Errorf("a taped outcome is not a record")
	}
	kind, _ := obj.Values["kind"].(string)
	switch kind {
	case OutcomeAnswered, OutcomeLowConfidence, OutcomeRefused, OutcomeBudgetCut, OutcomeUnavailable,
		OutcomeReplayMismatch, OutcomeCancelled, OutcomeStateTooLarge, OutcomeQuestionInvalid,
		OutcomeRateLimited, OutcomeOverloaded:
	default:
		return nil, fmt.Errorf("a taped outcome has kind %q", kind)
	}
	f := map[string]any{}
	for _, k := range obj.Keys {
		f[k] = plain(obj.Values[k])
	}
	return &Outcome{Kind: kind, fields: f}, nil
}

// plain converts decoded objects to maps.
func plain(v any) any {
	switch t := v.(type) {
	case *canonjson.Object:
		m := make(map[string]any, t.Len())
		for _, k := range t.Keys {
			m[k] = plain(t.Values[k])
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plain(e)
		}
		return out
	}
	return v
}
