package harn

import (
	"fmt"
	"math"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/internal/english"
	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/evaluate"
	"github.com/harnlang/harn-check/runtime/host"
)

// The decision-evaluation capability: harness.llm.evaluate,
// evaluate_predicate, evaluate_request and estimate_state_tokens run the
// one evaluator of runtime/evaluate (the one `harn-check llm evaluate`
// runs), and std/predicate provides the question builders and
// evaluation_windows. Values cross into the evaluator as canonical JSON
// values and come back as dicts; every evaluation's receipt lands in the
// run's journal (Options.Evaluator.Journal()).

// maxEvaluationDepth bounds the nesting of a value handed to the
// evaluator (canonical JSON's own bound).
const maxEvaluationDepth = canonjson.MaxDepth

// evaluator is the run's evaluator: Options.Evaluator, or one on the
// built-in route catalog.
func (in *Interp) evaluator() *evaluate.Evaluator {
	if in.opts.Evaluator != nil {
		return in.opts.Evaluator
	}
	return in.State("llm.evaluator", func() any { return evaluate.New(evaluate.Options{}) }).(*evaluate.Evaluator)
}

func installLlm(lib *Library) {
	lib.HarnessMethod("llm", "evaluate", llmEvaluate)
	lib.HarnessMethod("llm", "evaluate_request", llmEvaluate)
	lib.HarnessMethod("llm", "evaluate_predicate", llmEvaluatePredicate)
	lib.HarnessMethod("llm", "estimate_state_tokens", llmEstimateStateTokens)
	lib.StdModule("std/predicate", map[string]func(c *Call, args []Value) (Value, error){
		"boolean":            predicateBoolean,
		"choice":             predicateChoice,
		"score":              predicateScore,
		"evaluation_windows": predicateWindows,
	})
}

// toEvaluation converts a program value to a canonical JSON value.
// Only closed serializable data crosses: nil, bool, int, float, string,
// lists and dicts (and structs and enums as records); functions,
// capability handles and other host values are errors naming what was
// found, never silently dropped.
func toEvaluation(v Value, depth int) (any, error) {
	if depth > maxEvaluationDepth {
		return nil, fmt.Errorf("the value nests deeper than %d", maxEvaluationDepth)
	}
	switch v.k {
	case KindNil:
		return nil, nil
	case KindBool:
		return v.AsBool(), nil
	case KindInt:
		return v.AsInt(), nil
	case KindFloat:
		f := v.AsFloat()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("a non-finite float (%v) is not serializable", f)
		}
		return f, nil
	case KindString:
		return v.AsString(), nil
	case KindList:
		items := v.AsList().Items()
		out := make([]any, len(items))
		for i, it := range items {
			x, err := toEvaluation(it, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case KindDict:
		d := v.AsDict()
		o := canonjson.NewObject()
		for _, k := range d.Keys() {
			x, _ := d.raw(k)
			y, err := toEvaluation(x, depth+1)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", k, err)
			}
			o.Set(k, y)
		}
		return o, nil
	case KindStruct:
		s := v.r.(*StructValue)
		o := canonjson.NewObject()
		for i, name := range s.Type.fields {
			y, err := toEvaluation(s.Fields[i], depth+1)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", name, err)
			}
			o.Set(name, y)
		}
		return o, nil
	}
	return nil, fmt.Errorf("%s is not serializable evaluation data", english.A(v.TypeName()))
}

// fromEvaluation converts an evaluator value (outcome, answers) back.
func fromEvaluation(v any) Value {
	switch t := v.(type) {
	case nil:
		return Nil
	case bool:
		return Bool(t)
	case int64:
		return Int(t)
	case int:
		return Int(int64(t))
	case uint64:
		return Int(int64(t))
	case float64:
		return Float(t)
	case string:
		return Str(t)
	case []any:
		items := make([]Value, len(t))
		for i, e := range t {
			items[i] = fromEvaluation(e)
		}
		return NewListValue(items)
	case map[string]any:
		d := NewDict(len(t))
		for k, e := range t {
			d.Set(k, fromEvaluation(e))
		}
		return DictValue(d)
	case *canonjson.Object:
		d := NewDict(t.Len())
		for _, k := range t.Keys {
			d.Set(k, fromEvaluation(t.Values[k]))
		}
		return DictValue(d)
	}
	return Nil
}

func llmArgString(c *Call, args []Value, i int, what string) (string, error) {
	if i >= len(args) || args[i].k != KindString {
		got := "nothing"
		if i < len(args) {
			got = args[i].TypeName()
		}
		return "", typeError("%s: %s must be a string, got %s", c.Name, what, got)
	}
	return args[i].AsString(), nil
}

func convertArg(c *Call, v Value, what string) (any, error) {
	x, err := toEvaluation(v, 0)
	if err != nil {
		return nil, typeError("%s: %s: %v", c.Name, what, err)
	}
	return x, nil
}

// llmEvaluate is evaluate(id, state, questions, policy) and
// evaluate_request (the same evaluator; its questions and policy are
// computed at run time, which runtime admission handles identically).
func llmEvaluate(c *Call, args []Value) (Value, error) {
	if len(args) != 4 {
		return Nil, typeError("%s expects (id, state, questions, policy), got %d argument(s)", c.Name, len(args))
	}
	id, err := llmArgString(c, args, 0, "the site id")
	if err != nil {
		return Nil, err
	}
	var req evaluate.Request
	req.SiteID = id
	req.NotAdmitted, req.At = notAdmitted(c), callLocation(c)
	if req.State, err = convertArg(c, args[1], "state"); err != nil {
		return Nil, err
	}
	if req.Questions, err = convertArg(c, args[2], "questions"); err != nil {
		return Nil, err
	}
	if req.Policy, err = convertArg(c, args[3], "policy"); err != nil {
		return Nil, err
	}
	var res *evaluate.Result
	c.Block(func() { res, err = c.Interp().evaluator().Evaluate(c.Context(), req) })
	if err != nil {
		return Nil, runtimeError("%s: %v", c.Name, err)
	}
	return fromEvaluation(res.Outcome.Value()), nil
}

// llmEvaluatePredicate is evaluate_predicate(id, question, input,
// policy): one boolean question named by the site, projected to the
// PredicateOutcome union.
func llmEvaluatePredicate(c *Call, args []Value) (Value, error) {
	if len(args) != 4 {
		return Nil, typeError("evaluate_predicate expects (id, question, input, policy), got %d argument(s)", len(args))
	}
	id, err := llmArgString(c, args, 0, "the site id")
	if err != nil {
		return Nil, err
	}
	question, err := llmArgString(c, args, 1, "the question")
	if err != nil {
		return Nil, err
	}
	input, err := convertArg(c, args[2], "input")
	if err != nil {
		return Nil, err
	}
	policy, err := convertArg(c, args[3], "policy")
	if err != nil {
		return Nil, err
	}
	req := evaluate.Request{SiteID: id, State: input, Questions: evaluate.PredicateQuestions(id, question), Policy: policy, NotAdmitted: notAdmitted(c), At: callLocation(c)}
	var res *evaluate.Result
	c.Block(func() { res, err = c.Interp().evaluator().Evaluate(c.Context(), req) })
	if err != nil {
		return Nil, runtimeError("evaluate_predicate: %v", err)
	}
	return fromEvaluation(evaluate.ProjectPredicate(res.Outcome, res.Answers, res.Policy.Threshold).Value()), nil
}

// notAdmitted says why an evaluation call does not come from an admitted
// literal site ("" when it does): only `recv.evaluate*(...)` written in
// the source declares a site; a method value or a computed property
// (`harness.llm[name](...)`) is refused before dispatch.
func notAdmitted(c *Call) string {
	if !c.Literal() {
		return evaluate.AdmissionNonLiteralSite
	}
	return ""
}

// callLocation is where a literal evaluation call is written, as the site
// manifest locates it (module path, 1-based line and code-point column of
// the call's start); nil for a call that is not literal.
func callLocation(c *Call) *evaluate.Location {
	if c.literal == nil || c.literal.fn == nil || c.literal.fn.mod == nil {
		return nil
	}
	m := c.literal.fn.mod
	line, col := m.position(c.literal.span.Start)
	return &evaluate.Location{Source: m.path, Line: line, Column: col}
}

// llmEstimateStateTokens is the estimate the state_too_large ceiling
// compares.
func llmEstimateStateTokens(c *Call, args []Value) (Value, error) {
	if len(args) != 1 {
		return Nil, typeError("estimate_state_tokens expects (state), got %d argument(s)", len(args))
	}
	state, err := convertArg(c, args[0], "state")
	if err != nil {
		return Nil, err
	}
	n, err := evaluate.EstimateStateTokens(state)
	if err != nil {
		return Nil, runtimeError("estimate_state_tokens: %v", err)
	}
	return Int(int64(n)), nil
}

func question(kind, instructions string) *Dict {
	d := NewDict(3)
	d.Set("kind", Str(kind))
	d.Set("instructions", Str(instructions))
	return d
}

// boolean(instructions, criteria?) builds a BooleanQuestion.
func predicateBoolean(c *Call, args []Value) (Value, error) {
	if len(args) < 1 || len(args) > 2 {
		return Nil, typeError("boolean expects (instructions, criteria?), got %d argument(s)", len(args))
	}
	instr, err := llmArgString(c, args, 0, "instructions")
	if err != nil {
		return Nil, err
	}
	q := question("boolean", instr)
	if len(args) == 2 && !args[1].IsNil() {
		if args[1].k != KindDict {
			return Nil, typeError("boolean: criteria must be {true: string, false: string}")
		}
		q.Set("criteria", args[1])
	}
	return DictValue(q), nil
}

// choice(instructions, {label: description}) builds a ChoiceQuestion.
func predicateChoice(c *Call, args []Value) (Value, error) {
	if len(args) != 2 {
		return Nil, typeError("choice expects (instructions, criteria), got %d argument(s)", len(args))
	}
	instr, err := llmArgString(c, args, 0, "instructions")
	if err != nil {
		return Nil, err
	}
	if args[1].k != KindDict {
		return Nil, typeError("choice: criteria must be a dict of label to description, got %s", args[1].TypeName())
	}
	q := question("choice", instr)
	q.Set("criteria", args[1])
	return DictValue(q), nil
}

// score(instructions, [lowest, ..., highest]) builds a ScoreQuestion.
func predicateScore(c *Call, args []Value) (Value, error) {
	if len(args) != 2 {
		return Nil, typeError("score expects (instructions, levels), got %d argument(s)", len(args))
	}
	instr, err := llmArgString(c, args, 0, "instructions")
	if err != nil {
		return Nil, err
	}
	if args[1].k != KindList {
		return Nil, typeError("score: levels must be a list of strings, got %s", args[1].TypeName())
	}
	q := question("score", instr)
	q.Set("levels", args[1])
	return DictValue(q), nil
}

// evaluation_windows(llm, items, {budget_tokens, overlap_items?,
// anchor?}) plans windows with the evaluator's own estimator; an item
// too large on its own throws.
func predicateWindows(c *Call, args []Value) (Value, error) {
	if len(args) != 3 {
		return Nil, typeError("evaluation_windows expects (llm, items, options), got %d argument(s)", len(args))
	}
	if o, ok := args[0].r.(*Object); args[0].k != KindObject || !ok || o.TypeName != "HarnessLlm" {
		return Nil, typeError("evaluation_windows: the first argument must be harness.llm")
	}
	if args[1].k != KindList {
		return Nil, typeError("evaluation_windows: items must be a list, got %s", args[1].TypeName())
	}
	if args[2].k != KindDict {
		return Nil, typeError("evaluation_windows: options must be {budget_tokens, overlap_items?, anchor?}")
	}
	opts := args[2].AsDict()
	var wo evaluate.WindowOptions
	for _, k := range opts.Keys() {
		v, _ := opts.raw(k)
		switch k {
		case "budget_tokens", "overlap_items":
			if v.k != KindInt {
				return Nil, typeError("evaluation_windows: %s must be an int, got %s", k, v.TypeName())
			}
			if k == "budget_tokens" {
				wo.BudgetTokens = int(v.AsInt())
			} else {
				wo.OverlapItems = int(v.AsInt())
			}
		case "anchor":
			if v.k != KindString {
				return Nil, typeError("evaluation_windows: anchor must be a string, got %s", v.TypeName())
			}
			s := v.AsString()
			wo.Anchor = &s
		default:
			return Nil, typeError("evaluation_windows: unknown option %s", k)
		}
	}
	if !opts.Has("budget_tokens") {
		return Nil, typeError("evaluation_windows: options need budget_tokens")
	}
	items := args[1].AsList().Items()
	converted := make([]any, len(items))
	for i, it := range items {
		x, err := toEvaluation(it, 0)
		if err != nil {
			return Nil, typeError("evaluation_windows: item %d: %v", i, err)
		}
		converted[i] = x
	}
	plan, err := evaluate.PlanWindows(converted, wo)
	if err != nil {
		return Nil, runtimeError("%v", err)
	}
	return fromEvaluation(plan.Value()), nil
}

// NewEvaluator is the evaluator of a program run: cfg's catalog, tape,
// journal and ledger (nil: the catalog of the program's project, the
// harn.toml found above it as the checker finds it), with credentials
// read through the host's environment and HTTP routes reachable only
// under the program's network grant.
func NewEvaluator(project catalog.Project, h *host.Host, cfg *evaluate.Options) (*evaluate.Evaluator, error) {
	var opts evaluate.Options
	if cfg != nil {
		opts = *cfg
	}
	if opts.Catalog == nil {
		cat, err := project.Catalog()
		if err != nil {
			return nil, err
		}
		opts.Catalog = cat
	}
	if opts.LLM.Getenv == nil {
		opts.LLM.Getenv = h.LookupEnv
	}
	if opts.LLM.CheckNet == nil {
		opts.LLM.CheckNet = h.CheckNet
	}
	return evaluate.New(opts), nil
}
