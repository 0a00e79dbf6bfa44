package ai

import (
	"strings"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Budget outcomes: llm.budget_outcome(err, opts) projects a budget or
// deadline error (the {kind: "budget", dimension, limit, used, message}
// and {kind: "deadline", message} values budgets produce) into a
// non-throwing table, and llm.budget_outcome_event (alias
// llm.budget_outcome_trace_event) puts it into the generic trace event
// shape. They only read the table given: no budget is reserved, charged
// or reset, and money is not promised as a dimension.
//
// source_kind is the error's kind (or opts.kind); budget gives status
// "exceeded", deadline "deadline", both result_status "blocked", ok
// false, blocked true; anything else is ok. The message is kept only
// when it is one the runtime writes ("llm budget exceeded: DIM",
// "deadline exceeded", "cancelled"): a message of another origin might
// carry anything, so the outcome says message_redacted instead.

// budgetMessageSafe reports a message the budget layer itself writes.
func budgetMessageSafe(msg string) bool {
	switch msg {
	case "deadline exceeded", "cancelled", "context deadline exceeded":
		return true
	}
	if dim, ok := strings.CutPrefix(msg, "llm budget exceeded: "); ok {
		for _, r := range dim {
			if !(r >= 'a' && r <= 'z' || r == '_') {
				return false
			}
		}
		return dim != ""
	}
	return false
}

// BudgetOutcome projects a budget error table.
func BudgetOutcome(src, opts leia.Value) leia.Value {
	out := leia.NewTable(0, 16)
	kind := optString(src, "kind", optString(opts, "kind", ""))
	out.SetStr("kind", leia.String("budget_outcome"))
	out.SetStr("version", leia.String("budget_outcome.v1"))
	out.SetStr("source_kind", leia.String(kind))
	status, result, blocked := "ok", "ok", false
	switch kind {
	case "budget":
		status, result, blocked = "exceeded", "blocked", true
	case "deadline":
		status, result, blocked = "deadline", "blocked", true
	}
	out.SetStr("ok", leia.Bool(!blocked))
	out.SetStr("blocked", leia.Bool(blocked))
	out.SetStr("status", leia.String(status))
	out.SetStr("result_status", leia.String(result))
	copyScalars(out, src, []string{"dimension", "limit", "used"})
	if msg := Field(src, "message"); !msg.IsNil() {
		if msg.Kind() == leia.KindString && budgetMessageSafe(msg.AsString()) {
			out.SetStr("message", msg)
		} else {
			out.SetStr("message_redacted", leia.True)
		}
	}
	setEach(out, append([]string{"operation", "component"}, outcomeCorrelation...), opts, src)
	return leia.TableValue(out)
}

// budgetEvent projects a budget outcome (type budget_outcome;
// correlation_id defaults to the dimension).
func (rt *Runtime) budgetEvent(outcome, opts leia.Value) leia.Value {
	p := leia.NewTable(0, 12)
	setEach(p, []string{"kind", "version", "source_kind", "status", "result_status", "ok", "blocked", "operation", "component"}, outcome)
	copyScalars(p, outcome, []string{"dimension", "limit", "used", "message_redacted"})
	if Field(outcome, "message").Kind() == leia.KindString {
		p.SetStr("message", leia.String("budget outcome"))
	}
	return rt.projectEvent(opts, "budget_outcome", optString(outcome, "status", "ok"), outcome, Field(outcome, "dimension"), p)
}

// budgetOutcomeFamily is the llm module's natives from this file (see families).
func budgetOutcomeFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		src, err := needTable(a, 0, "llm.budget_outcome", "table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.budget_outcome", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(BudgetOutcome(src, opts)), nil
	}, "budget_outcome")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		src, err := needTable(a, 0, "llm.budget_outcome_event", "budget outcome table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.budget_outcome_event", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(rt.budgetEvent(src, opts)), nil
	}, "budget_outcome_event", "budget_outcome_trace_event")
	return m
}
