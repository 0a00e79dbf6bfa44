package ai

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Budgets gate AI work, never ordinary evaluation. Dimensions: turns,
// calls (tool dispatches), tokens (input + output as providers report
// them), cost (money, in the provider's unit; upstream spells it money)
// and time (seconds). A negative limit is unlimited, 0 is an explicit
// zero. A budget comes from a request's budget table or its flat
// budget_turns, budget_calls, budget_tokens, budget_money|budget_cost and
// budget_time keys; llm.with_budget(limits, fn) and the legacy
// `budget { limits } { body }` push an ambient budget that every turn and
// tool call inside counts against, together with the request's own.
//
// Checks: before each turn (time, turns, tokens, cost), before each tool
// call (time, calls); usage is charged after each turn. An exhausted
// budget is the error {kind: "budget", dimension, message: "llm budget
// exceeded: DIM", limit, used}; time is {kind: "deadline", message:
// "deadline exceeded"}.

type budget struct {
	maxTokens, maxTurns, maxCalls    int64
	maxCost                          float64
	maxTime                          time.Duration
	usedTokens, usedTurns, usedCalls int64
	usedCost                         float64
	started                          time.Time
	// costName is how the budget spelled its cost limit (money or cost),
	// the dimension its error names.
	costName string
}

func newBudget() *budget {
	return &budget{maxTokens: -1, maxTurns: -1, maxCalls: -1, maxCost: -1, maxTime: -1, costName: "cost"}
}

// budgetFromOptions reads a request's budget (nil when it sets none).
func (rt *Runtime) budgetFromOptions(opts leia.Value) *budget {
	b := newBudget()
	set := false
	num := func(v leia.Value, dst *int64) {
		if v.IsNumber() {
			*dst, set = IntOf(v), true
		}
	}
	flt := func(v leia.Value, dst *float64) {
		if v.IsNumber() {
			*dst, set = v.AsFloat(), true
		}
	}
	dur := func(v leia.Value) {
		if v.IsNumber() {
			b.maxTime, set = seconds(v.AsFloat()), true
		}
	}
	num(Field(opts, "budget_tokens"), &b.maxTokens)
	num(Field(opts, "budget_turns"), &b.maxTurns)
	num(Field(opts, "budget_calls"), &b.maxCalls)
	if v := Field(opts, "budget_money"); v.IsNumber() {
		b.costName = "money"
	}
	flt(Field(opts, "budget_money"), &b.maxCost)
	flt(Field(opts, "budget_cost"), &b.maxCost)
	dur(Field(opts, "budget_time"))
	if bt := Field(opts, "budget"); bt.Table() != nil {
		num(Field(bt, "tokens"), &b.maxTokens)
		num(Field(bt, "turns"), &b.maxTurns)
		num(Field(bt, "calls"), &b.maxCalls)
		if v := Field(bt, "money"); v.IsNumber() {
			b.costName = "money"
		}
		flt(Field(bt, "money"), &b.maxCost)
		flt(Field(bt, "cost"), &b.maxCost)
		dur(Field(bt, "time"))
	}
	if !set {
		return nil
	}
	return rt.startBudget(b)
}

// budgetFromLimits reads a limits table ({turns, calls, tokens, cost |
// money, time}).
func (rt *Runtime) budgetFromLimits(limits leia.Value) *budget {
	b := newBudget()
	if v := Field(limits, "tokens"); v.IsNumber() {
		b.maxTokens = IntOf(v)
	}
	if v := Field(limits, "turns"); v.IsNumber() {
		b.maxTurns = IntOf(v)
	}
	if v := Field(limits, "calls"); v.IsNumber() {
		b.maxCalls = IntOf(v)
	}
	for _, k := range []string{"money", "cost"} {
		if v := Field(limits, k); v.IsNumber() {
			b.maxCost, b.costName = v.AsFloat(), k
		}
	}
	if v := Field(limits, "time"); v.IsNumber() {
		b.maxTime = seconds(v.AsFloat())
	}
	return rt.startBudget(b)
}

func seconds(s float64) time.Duration {
	if s < 0 || s != s {
		return -1
	}
	if s > 1e9 {
		s = 1e9
	}
	return time.Duration(s * float64(time.Second))
}

func (rt *Runtime) startBudget(b *budget) *budget {
	if b.maxTime >= 0 {
		b.started = rt.now()
	}
	return b
}

// budgets is the ambient stack plus a request's own budget.
func (rt *Runtime) budgetsWith(b *budget) []*budget {
	out := append([]*budget(nil), rt.budgets...)
	if b != nil {
		out = append(out, b)
	}
	return out
}

func budgetError(dim string, limit, used float64) leia.Value {
	e := ErrorWith("budget", "llm budget exceeded: "+dim, "dimension", dim)
	if limit > 0 {
		e.Table().SetStr("limit", number(limit))
	}
	if used > 0 {
		e.Table().SetStr("used", number(used))
	}
	return e
}

func number(f float64) leia.Value {
	if f == float64(int64(f)) {
		return leia.Int(int64(f))
	}
	return leia.Float(f)
}

func (rt *Runtime) timeLeft(b *budget) leia.Value {
	if b.maxTime >= 0 && !b.started.IsZero() && rt.now().Sub(b.started) >= b.maxTime {
		return ErrorValue("deadline", "deadline exceeded")
	}
	return leia.Nil
}

// beforeTurn checks every budget, then counts the turn in each.
func (rt *Runtime) beforeTurn(bs []*budget) leia.Value {
	for _, b := range bs {
		if e := rt.timeLeft(b); !e.IsNil() {
			return e
		}
		switch {
		case b.maxTurns >= 0 && b.usedTurns >= b.maxTurns:
			return budgetError("turns", float64(b.maxTurns), float64(b.usedTurns))
		case b.maxTokens >= 0 && b.usedTokens >= b.maxTokens:
			return budgetError("tokens", float64(b.maxTokens), float64(b.usedTokens))
		case b.maxCost >= 0 && b.usedCost >= b.maxCost:
			return budgetError(b.costName, b.maxCost, b.usedCost)
		}
	}
	for _, b := range bs {
		b.usedTurns++
	}
	return leia.Nil
}

// beforeToolCall checks time and calls, then counts the call.
func (rt *Runtime) beforeToolCall(bs []*budget) leia.Value {
	for _, b := range bs {
		if e := rt.timeLeft(b); !e.IsNil() {
			return e
		}
		if b.maxCalls >= 0 && b.usedCalls >= b.maxCalls {
			return budgetError("calls", float64(b.maxCalls), float64(b.usedCalls))
		}
	}
	for _, b := range bs {
		b.usedCalls++
	}
	return leia.Nil
}

func charge(bs []*budget, u llm.TurnUsage) {
	for _, b := range bs {
		b.usedTokens += u.InputTokens + u.OutputTokens
		b.usedCost += u.Cost
	}
}

// withBudget runs fn under an ambient budget.
func (rt *Runtime) withBudget(t *leia.Thread, b *budget, fn leia.Value, args ...leia.Value) []leia.Value {
	rt.budgets = append(rt.budgets, b)
	defer rt.popBudget(b)
	return t.Call(fn, args...)
}

func (rt *Runtime) popBudget(b *budget) {
	for i := len(rt.budgets) - 1; i >= 0; i-- {
		if rt.budgets[i] == b {
			rt.budgets = append(rt.budgets[:i], rt.budgets[i+1:]...)
			return
		}
	}
}

// budgetFamily is the llm module's natives from this file (see families).
func budgetFamily(rt *Runtime) map[string]leia.NativeFunc {
	return map[string]leia.NativeFunc{
		"with_budget": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil || !leia.Arg(a, 1).IsFunction() {
				return nil, fmt.Errorf("bad argument to 'llm.with_budget' (budget table, function expected)")
			}
			return rt.withBudget(t, rt.budgetFromLimits(a[0]), a[1]), nil
		},
	}
}

// cancelled reports the host context's or a request's cancellation as
// an error value: {kind: "cancelled"|"deadline", message}. A request's
// ctx, context or cancel field counts when it is a context object (a
// table with an err function and a done channel, as context.withCancel
// makes), not an llm.context wrapper.
func (rt *Runtime) cancelled(t *leia.Thread, opts leia.Value) leia.Value {
	if err := rt.in.Context().Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return ErrorValue("deadline", "deadline exceeded")
		}
		return ErrorValue("cancelled", "cancelled")
	}
	for _, k := range []string{"ctx", "context", "cancel"} {
		c := Field(opts, k)
		errFn := Field(c, "err")
		if !errFn.IsFunction() || Field(c, "done").Kind() != leia.KindChannel {
			continue
		}
		reason := t.Call1(errFn)
		if reason.IsNil() || reason.Kind() == leia.KindBool && !reason.AsBool() {
			return leia.Nil
		}
		msg := Str(reason)
		if msg == "" {
			msg = "cancelled"
		}
		kind := "cancelled"
		if msg == "deadline exceeded" || msg == "context deadline exceeded" {
			kind = "deadline"
		}
		return ErrorValue(kind, msg)
	}
	return leia.Nil
}
