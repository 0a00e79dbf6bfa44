package harn

import (
	"fmt"
	"math"
	"strings"

	"github.com/harnlang/harn-check/catalog"
)

// Model spending, as upstream Harn budgets it: llm_cost prices a call by
// the catalog (catalog.Cost), llm_budget caps the run's estimated spend,
// and llm_call's budget option ({max_cost_usd, total_budget_usd,
// max_input_tokens, max_output_tokens}, also accepted as flat options) is
// checked before the provider is called, against a projection of the
// request: a quarter token per byte of the system prompt, the messages
// (one token per scalar, keys and strings by length) and the tools'
// JSON, and max_tokens of output. A call the projection puts over a limit
// is never dispatched (llm_mock_calls does not list it); it throws
// {category: "budget_exceeded", kind: "terminal", reason:
// "budget_exceeded", limit, limit_value, projected_*, session_cost_usd,
// provider, model, message}. After each answered call its cost is added
// to the run's spend, and a spend past llm_budget's cap throws.

// budgetEnvelope is a call's budget option; nil fields are unset.
type budgetEnvelope struct {
	maxCost, totalBudget *float64
	maxInput, maxOutput  *int64
}

// budgetProjection is what a call is expected to use.
type budgetProjection struct {
	provider, model   string
	input, output     int64
	cost, sessionCost float64
}

func installLlmBudget(lib *Library) {
	lib.Builtin("llm_cost", func(c *Call, args []Value) (Value, error) {
		model := ""
		if m := Arg(args, 0); m.k != KindNil {
			model = Display(m)
		}
		in, out := int64(0), int64(0)
		if v := Arg(args, 1); v.k == KindInt {
			in = v.AsInt()
		}
		if v := Arg(args, 2); v.k == KindInt {
			out = v.AsInt()
		}
		return Float(catalog.Cost(model, in, out)), nil
	})
	lib.Builtin("llm_session_cost", func(c *Call, args []Value) (Value, error) {
		st := llmOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		d := NewDict(4)
		d.Set("total_cost", Float(st.spent))
		d.Set("input_tokens", Int(st.usage.input))
		d.Set("output_tokens", Int(st.usage.output))
		d.Set("call_count", Int(st.usage.calls))
		return DictValue(d), nil
	})
	lib.Builtin("llm_budget", func(c *Call, args []Value) (Value, error) {
		limit, ok := Arg(args, 0).Number()
		if !ok {
			return Nil, throwValue(Str("llm_budget: requires a numeric argument"))
		}
		st := llmOf(c)
		st.mu.Lock()
		st.budget = &limit
		st.mu.Unlock()
		return Nil, nil
	})
	lib.Builtin("llm_budget_remaining", func(c *Call, args []Value) (Value, error) {
		st := llmOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		if st.budget == nil {
			return Nil, nil
		}
		return Float(*st.budget - st.spent), nil
	})
}

// parseBudget reads a call's budget option and its flat spellings (nil
// when none is set).
func parseBudget(opts *Dict) (*budgetEnvelope, error) {
	env := &budgetEnvelope{}
	if b, ok := opts.Get("budget"); ok {
		switch b.k {
		case KindNil:
		case KindDict:
			if err := env.read(b.r.(*Dict)); err != nil {
				return nil, err
			}
		default:
			return nil, throwValue(Str("budget: expected a dict {max_cost_usd?, total_budget_usd?, max_input_tokens?, max_output_tokens?}"))
		}
	}
	if err := env.read(opts); err != nil {
		return nil, err
	}
	if env.maxCost == nil && env.totalBudget == nil && env.maxInput == nil && env.maxOutput == nil {
		return nil, nil
	}
	return env, nil
}

func (env *budgetEnvelope) read(d *Dict) error {
	for _, k := range []string{"max_cost_usd", "total_budget_usd"} {
		v, ok := d.Get(k)
		if !ok {
			continue
		}
		f, num := v.Number()
		if !num || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return throwValue(Str("budget." + k + ": expected a non-negative finite number"))
		}
		if k == "max_cost_usd" {
			env.maxCost = &f
		} else {
			env.totalBudget = &f
		}
	}
	for _, k := range []string{"max_input_tokens", "max_output_tokens"} {
		v, ok := d.Get(k)
		if !ok {
			continue
		}
		n, num := int64(0), false
		switch v.k {
		case KindInt:
			n, num = v.AsInt(), true
		case KindFloat:
			if f := v.AsFloat(); f == math.Trunc(f) && !math.IsInf(f, 0) {
				n, num = int64(f), true
			}
		}
		if !num || n < 0 {
			return throwValue(Str("budget." + k + ": expected a non-negative integer"))
		}
		if k == "max_input_tokens" {
			env.maxInput = &n
		} else {
			env.maxOutput = &n
		}
	}
	return nil
}

// textTokens is the projection's token estimate of a text: a token per
// four bytes, rounded up.
func textTokens(s string) int64 { return (int64(len(s)) + 3) / 4 }

// valueTokens estimates a message value: scalars one token each, strings
// and dict keys by length.
func valueTokens(v Value) int64 {
	switch v.k {
	case KindString:
		return textTokens(v.r.(string))
	case KindList:
		n := int64(0)
		for _, it := range v.r.(*List).items {
			n += valueTokens(it)
		}
		return n
	case KindDict:
		d := v.r.(*Dict)
		n := int64(0)
		for _, k := range d.Keys() {
			e, _ := d.Get(k)
			n += textTokens(k) + valueTokens(e)
		}
		return n
	}
	return 1
}

// project is the expected use of request r with sessionCost already spent.
func project(r *llmRequest, maxTokens int64, sessionCost float64) budgetProjection {
	p := budgetProjection{provider: r.provider, model: r.model, output: max(maxTokens, 0), sessionCost: sessionCost}
	if r.system.k == KindString {
		p.input += textTokens(r.system.r.(string))
	}
	for _, m := range r.messages {
		p.input += valueTokens(m)
	}
	if r.tools.k == KindList {
		for _, t := range r.tools.r.(*List).items {
			var b strings.Builder
			writeJSON(&b, t, 0)
			p.input += textTokens(b.String())
		}
	}
	p.cost = catalog.Cost(r.model, p.input, p.output)
	return p
}

// exceeded names the first limit of env the projection passes.
func (env *budgetEnvelope) exceeded(p budgetProjection) (string, float64, bool) {
	switch {
	case env.maxInput != nil && p.input > *env.maxInput:
		return "max_input_tokens", float64(*env.maxInput), true
	case env.maxOutput != nil && p.output > *env.maxOutput:
		return "max_output_tokens", float64(*env.maxOutput), true
	case env.maxCost != nil && p.cost > *env.maxCost:
		return "max_cost_usd", *env.maxCost, true
	case env.totalBudget != nil && p.sessionCost+p.cost > *env.totalBudget:
		return "total_budget_usd", *env.totalBudget, true
	}
	return "", 0, false
}

// budgetError is the dict a call refused by its budget throws.
func budgetError(p budgetProjection, limit string, value float64) error {
	var what string
	switch limit {
	case "max_cost_usd":
		what = fmt.Sprintf("projected cost $%.6f", p.cost)
	case "total_budget_usd":
		what = fmt.Sprintf("projected session cost $%.6f", p.sessionCost+p.cost)
	case "max_input_tokens":
		what = fmt.Sprintf("projected input tokens %d", p.input)
	default:
		what = fmt.Sprintf("projected output tokens %d", p.output)
	}
	d := NewDict(12)
	d.Set("category", Str("budget_exceeded"))
	d.Set("kind", Str("terminal"))
	d.Set("reason", Str("budget_exceeded"))
	d.Set("limit", Str(limit))
	d.Set("limit_value", Float(value))
	d.Set("projected_cost_usd", Float(p.cost))
	d.Set("session_cost_usd", Float(p.sessionCost))
	d.Set("projected_input_tokens", Int(p.input))
	d.Set("projected_output_tokens", Int(p.output))
	d.Set("provider", Str(p.provider))
	d.Set("model", Str(p.model))
	d.Set("message", Str("LLM budget exceeded before provider call: "+what+" would exceed "+limit))
	e := throwValue(DictValue(d))
	e.Category = "budget_exceeded"
	return e
}

// preflight refuses request r before dispatch when its budget option or
// the run's llm_budget cap would be passed.
func (st *llmState) preflight(r *llmRequest, maxTokens int64) error {
	env, err := parseBudget(r.opts)
	if err != nil {
		return err
	}
	st.mu.Lock()
	spent, cap := st.spent, st.budget
	st.mu.Unlock()
	if env == nil && cap == nil {
		return nil
	}
	p := project(r, maxTokens, spent)
	if env != nil {
		if limit, value, over := env.exceeded(p); over {
			return budgetError(p, limit, value)
		}
	}
	if cap != nil && spent+p.cost > *cap {
		return budgetError(p, "total_budget_usd", *cap)
	}
	return nil
}

// charge adds an answered call's cost to the run's spend; passing the
// llm_budget cap throws.
func (st *llmState) charge(model string, input, output int64) error {
	cost := catalog.Cost(model, input, output)
	if cost == 0 {
		return nil
	}
	st.mu.Lock()
	st.spent += cost
	spent, cap := st.spent, st.budget
	st.mu.Unlock()
	if cap != nil && spent > *cap {
		return throwValue(Str(fmt.Sprintf("LLM budget exceeded: spent $%.4f of $%.4f budget", spent, *cap)))
	}
	return nil
}
