package evaluate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Options configure an Evaluator.
type Options struct {
	// Catalog resolves routes (default catalog.Default()).
	Catalog *catalog.Catalog
	// Ledger is the execution's shared monetary ledger (default: a new
	// one without a ceiling).
	Ledger *Ledger
	// Journal keeps the execution's receipts (default: a new one).
	Journal *Journal
	// Tape, when set, replays evaluations from it or records them on it.
	Tape *llm.Tape
	// LLM configures the providers (credentials, HTTP client, timeout).
	LLM llm.Options
	// Provider, when set, supplies the chat provider of a structured
	// route instead of llm.New (a host installing its own transport).
	Provider func(route catalog.Route) (llm.Provider, error)
	// Sites, when set, are the run's admitted literal sites: an
	// evaluation not on the list is refused before dispatch
	// (AdmissionUnlistedSite). Nil admits every literal site (a caller
	// with no manifest, such as `llm evaluate`).
	Sites *Sites
	// Cache, when set, reuses answered evaluations and stores new ones
	// (see Cache); nil: nothing is read or written.
	Cache *Cache
}

// Evaluator runs evaluations: decode, admission, at most one dispatch,
// outcome and receipt. It is safe for concurrent use; concurrent
// evaluations share its ledger.
type Evaluator struct {
	opts Options
	seq  atomic.Int64
}

// New returns an evaluator.
func New(opts Options) *Evaluator {
	if opts.Catalog == nil {
		opts.Catalog = catalog.Default()
	}
	if opts.Ledger == nil {
		opts.Ledger = NewLedger(nil)
	}
	if opts.Journal == nil {
		opts.Journal = &Journal{}
	}
	return &Evaluator{opts: opts}
}

// Journal is the evaluator's receipt journal.
func (e *Evaluator) Journal() *Journal { return e.opts.Journal }

// Ledger is the evaluator's ledger.
func (e *Evaluator) Ledger() *Ledger { return e.opts.Ledger }

// Catalog is the evaluator's route catalog.
func (e *Evaluator) Catalog() *catalog.Catalog { return e.opts.Catalog }

// Request is one evaluation request: decoded JSON values (see
// runtime/canonjson) for state, questions and policy.
type Request struct {
	SiteID                   string
	State, Questions, Policy any
	// NotAdmitted, when set, is why the calling site is not an admitted
	// literal site (a method value, a computed property, a receiver the
	// checker could not see): the evaluation is refused before dispatch,
	// replay or reservation as unavailable/admission_refused with this
	// admission_reason, making no request. It is not part of the
	// request's identity or file form.
	NotAdmitted string
	// At is where the call is written (nil for a request that does not
	// come from a program); with Options.Sites set it must be an
	// admitted site. Like NotAdmitted it is not part of the identity.
	At *Location
}

// Admission reasons of a call that is not an admitted literal site.
const (
	// AdmissionNonLiteralSite: the method was called as a value or
	// through a computed property, not written as recv.method(...).
	AdmissionNonLiteralSite = "non_literal_site"
	// AdmissionUnlistedSite: the call is not among the sites the checker
	// admitted for this run (for example, on a receiver whose static
	// type was erased).
	AdmissionUnlistedSite = "site_not_admitted"
)

// DecodeRequest reads the request file form: exactly {site_id, state,
// questions, policy}, nothing else.
func DecodeRequest(data []byte) (Request, error) {
	v, err := canonjson.Decode(data)
	if err != nil {
		return Request{}, fmt.Errorf("request: %v", err)
	}
	o, ok := v.(*canonjson.Object)
	if !ok {
		return Request{}, errors.New("request: must be an object {site_id, state, questions, policy}")
	}
	for _, k := range o.Keys {
		if !slices.Contains([]string{"site_id", "state", "questions", "policy"}, k) {
			return Request{}, fmt.Errorf("request: unknown field `%s` (a request is exactly {site_id, state, questions, policy})", k)
		}
	}
	for _, k := range []string{"site_id", "state", "questions", "policy"} {
		if _, ok := o.Values[k]; !ok {
			return Request{}, fmt.Errorf("request: missing field `%s`", k)
		}
	}
	site, ok := o.Values["site_id"].(string)
	if !ok {
		return Request{}, errors.New("request: site_id must be a string")
	}
	return Request{SiteID: site, State: o.Values["state"], Questions: o.Values["questions"], Policy: o.Values["policy"]}, nil
}

// Value is the request in its file form.
func (r Request) Value() *canonjson.Object {
	o := canonjson.NewObject()
	o.Set("site_id", r.SiteID)
	o.Set("state", r.State)
	o.Set("questions", r.Questions)
	o.Set("policy", r.Policy)
	return o
}

// Result is one evaluation's outcome and receipt.
type Result struct {
	Outcome *Outcome
	Answers []*Answer
	Receipt *Receipt
	Policy  *Policy
}

// Value is {outcome, receipt}, the form `llm evaluate --json` prints.
func (r *Result) Value() *canonjson.Object {
	o := canonjson.NewObject()
	o.Set("outcome", r.Outcome.Value())
	o.Set("receipt", r.Receipt.Value())
	return o
}

// EstimateStateTokens is the evaluator's one estimate of a state:
// ceil(len(canonical JSON)/4). The state_too_large ceiling compares this
// number, and harness.llm.estimate_state_tokens returns it.
func EstimateStateTokens(state any) (int, error) {
	b, err := canonjson.Encode(state)
	if err != nil {
		return 0, err
	}
	return llm.EstimateTextTokens(string(b)), nil
}

// resolve finds the decision route of a policy with the catalog's one
// derivation of decision support (the checker's HARN-TYP-035 uses it
// too). The route is nil when the policy names no route that can serve
// it (model_unconfigured); a route whose protocol is not the policy's
// backend stays resolved, with the refusal (unsupported_options).
func (e *Evaluator) resolve(p *Policy) (*catalog.Route, *catalog.Refusal) {
	r, ok := e.opts.Catalog.Lookup(p.Provider, p.Model)
	if !ok {
		_, ref := e.opts.Catalog.Decision(p.Provider, p.Model, p.Backend)
		return nil, ref
	}
	if _, ref := r.Decision(p.Backend); ref != nil {
		if ref.Resolved() {
			return &r, ref
		}
		return nil, ref
	}
	return &r, nil
}

// PredicateQuestions is evaluate_predicate's question set: one boolean
// question whose id is the site id.
func PredicateQuestions(siteID, question string) *canonjson.Object {
	q := canonjson.NewObject()
	q.Set("kind", KindBoolean)
	q.Set("instructions", question)
	set := canonjson.NewObject()
	set.Set(siteID, q)
	return set
}

// EvaluatePredicate is the single-boolean projection of Evaluate: the
// same evaluator, projected at the end.
func (e *Evaluator) EvaluatePredicate(ctx context.Context, siteID, question string, input, policy any) (*Result, error) {
	res, err := e.Evaluate(ctx, Request{SiteID: siteID, State: input, Questions: PredicateQuestions(siteID, question), Policy: policy})
	if err != nil {
		return nil, err
	}
	res.Outcome = ProjectPredicate(res.Outcome, res.Answers, res.Policy.Threshold)
	return res, nil
}

// Evaluate runs one evaluation. The error is only for malformed input (a
// policy or question set the contract does not describe, a state that is
// not JSON); every refusal is an outcome with a receipt.
func (e *Evaluator) Evaluate(ctx context.Context, req Request) (*Result, error) {
	started := time.Now()
	p, err := DecodePolicy(req.Policy)
	if err != nil {
		return nil, err
	}
	qs, err := DecodeQuestions(req.Questions)
	if err != nil {
		return nil, err
	}
	route, refusal := e.resolve(p)
	// The state is encoded once: identity, estimate and prompt share it.
	canonical, err := canonjson.Encode(req.State)
	if err != nil {
		return nil, fmt.Errorf("evaluation state: %v", err)
	}
	id := requestIdentity(canonical, req.State, qs, p, route)
	evalID := StableRequestID(req.SiteID, id)
	inv := invocationID(evalID, e.seq.Add(1))
	rc := notDispatched(evalID, inv, req.SiteID, id, p, qs)
	finish := func(o *Outcome, answers []*Answer) (*Result, error) {
		rc.OutcomeKind = o.Kind
		rc.ElapsedMS = time.Since(started).Milliseconds()
		rc.recordAnswers(answers)
		e.opts.Journal.Record(rc)
		return &Result{Outcome: o, Answers: answers, Receipt: rc, Policy: p}, nil
	}
	if req.NotAdmitted != "" {
		// Not a literal site: refused before replay, admission and
		// dispatch, with a receipt like every refusal.
		why := req.NotAdmitted
		rc.AdmissionReason = &why
		return finish(unavailable(rc.InvocationID, "admission_refused"), nil)
	}
	if e.opts.Sites != nil && !e.opts.Sites.Admits(req.At, req.SiteID) {
		why := AdmissionUnlistedSite
		rc.AdmissionReason = &why
		return finish(unavailable(rc.InvocationID, "admission_refused"), nil)
	}
	t := e.opts.Tape
	if t != nil && t.Replaying() {
		return e.replay(req, p, qs, rc, finish)
	}
	c := e.opts.Cache
	if c != nil && t == nil {
		// A hit is decided before admission: it reserves, charges and
		// sends nothing.
		if hit, err := c.lookup(e.opts.Catalog, req, p, qs, route, evalID); err == nil {
			reuse(rc, hit.receipt, hit.receiptValue, SourceCache)
			res, _ := finish(answered(rc.InvocationID, hit.answers), hit.answers)
			rc.ElapsedMS = 0
			return res, nil
		}
	}
	slot := -1
	if t != nil {
		slot = t.Reserve() // recorded in the order evaluations begin
	}
	o, answers := e.run(ctx, req, canonical, p, qs, route, refusal, rc)
	res, _ := finish(o, answers)
	if t != nil {
		if err := e.record(t, slot, req, res); err != nil {
			return nil, err
		}
	}
	if c != nil {
		c.store(route, res)
	}
	return res, nil
}

// run is admission and dispatch; rc is filled as it goes.
func (e *Evaluator) run(ctx context.Context, req Request, canonical []byte, p *Policy, qs *QuestionSet, route *catalog.Route, unserved *catalog.Refusal, rc *Receipt) (*Outcome, []*Answer) {
	h := rc.InvocationID
	reason := func(s string) { rc.ProviderReason = &s }

	// --- Local refusals: every one of these makes zero provider requests. ---
	if route == nil {
		if unserved != nil && unserved.Kind != catalog.RefuseUnknownRoute {
			reason(unserved.Message)
		}
		return unavailable(h, "model_unconfigured"), nil
	}
	rt := route.Runtime
	if r := qs.Admit(rt); r != nil {
		return questionInvalid(h, r), nil
	}
	estimated := llm.EstimateTextTokens(string(canonical))
	rc.EstimatedStateTokens = &estimated
	if rt.StateWindowTokens <= 0 {
		reason("the route declares no state window")
		return unavailable(h, "unsupported_options"), nil
	}
	window := rt.StateWindowTokens
	rc.LimitTokens = &window
	if estimated > window {
		return stateTooLarge(h, window, estimated), nil
	}
	budgetInput := estimated
	if route.IsNative() {
		body, err := nativeBody(route, req.State, qs)
		if err != nil {
			reason(err.Error())
			return unavailable(h, "unsupported_options"), nil
		}
		longest := 0
		for _, q := range body["questions"].(map[string]any) {
			n, _ := EstimateStateTokens(q)
			longest = max(longest, n)
		}
		total, _ := EstimateStateTokens(body)
		rc.EstimatedLongestQuestionTokens, rc.EstimatedRequestTokens = &longest, &total
		limit, over := 0, 0
		switch {
		case estimated+longest > window:
			limit, over = window, estimated+longest
		case rt.RequestWindowTokens > 0 && total > rt.RequestWindowTokens:
			limit, over = rt.RequestWindowTokens, total
		}
		if over > 0 {
			rc.LimitTokens = &limit
			return stateTooLarge(h, limit, over), nil
		}
		// Encoded bytes bound the token count without trusting a tokenizer.
		budgetInput = len(canonjson.MustEncode(body))
	}
	bound, ok := costBound(route, budgetInput)
	if !ok {
		reason("the route declares no usable price")
		return unavailable(h, "unsupported_options"), nil
	}
	if l := p.EvaluationCostLimit; l != nil && bound > *l {
		return budgetCut(h, "evaluation_cost", bound, *l), nil
	}
	// The run limit is the policy's run_cost_limit tightened by the
	// execution's ceiling (the ledger's conservative authority).
	runLimit := p.RunCostLimit
	if c := e.opts.Ledger.State().Ceiling; c != nil && (runLimit == nil || *c < *runLimit) {
		runLimit = c
	}
	if l := runLimit; l != nil {
		if spent := e.opts.Ledger.Committed(); spent+bound > *l {
			return budgetCut(h, "run_cost", bound, math.Max(*l-spent, 0)), nil
		}
	}
	// An accepted stop is observed before dispatch.
	if errors.Is(ctx.Err(), context.Canceled) {
		return cancelled(h, "interrupt"), nil
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return budgetCut(h, "deadline", 0, 0), nil
	}
	if route.IsNative() && p.NativeOptionsSupplied {
		reason("native decision routes take neither effort nor temperature")
		return unavailable(h, "unsupported_options"), nil
	}
	if unserved != nil {
		reason(unserved.Message)
		return unavailable(h, "unsupported_options"), nil
	}
	be, err := e.backend(route)
	if err != nil {
		reason(err.Error())
		return unavailable(h, "model_unconfigured"), nil
	}

	// --- Reservation. ---
	var hold *Hold
	conservative := route.IsNative() || runLimit != nil
	if conservative {
		var refusal *Refusal
		hold, refusal = e.opts.Ledger.Reserve(bound, p.RunCostLimit, route.IsNative())
		if refusal != nil {
			if refusal.BudgetCut {
				return budgetCut(h, "run_cost", bound, refusal.Remaining), nil
			}
			rc.AdmissionReason = &refusal.AdmissionReason
			return unavailable(h, "admission_refused"), nil
		}
		mode := CostConservative
		rc.CostAdmission = &mode
	} else {
		mode := CostAdaptive
		rc.CostAdmission = &mode
	}

	// --- One dispatch. ---
	resp, derr := be.decide(ctx, decision{route: route, policy: p, state: req.State, stateJSON: canonical, questions: qs})
	var read *rawResponse
	var ref *refusal
	var le *llm.Error
	switch {
	case derr == nil:
		read = resp
	case errors.As(derr, &ref):
		read = ref.response
	case errors.As(derr, &le):
		rc.PhysicalAttempts = le.Attempts
	default:
		rc.PhysicalAttempts = 1
		reason("the request failed")
	}
	if read != nil {
		rc.PhysicalAttempts = read.attempts
		if read.servedModel != "" {
			s := read.servedModel
			rc.ServedModel = &s
		}
		rc.NativeTransport = read.native
		if route.IsNative() {
			rc.InputTokens, rc.OutputTokens = read.usage.InputTokens, read.usage.OutputTokens
		} else {
			u := read.usage
			rc.Usage = &u
			if u.Known() {
				rc.InputTokens, rc.OutputTokens = u.InputTokens, u.OutputTokens
			}
		}
	}
	multiple := e.account(route, rc, read, hold, bound)

	if derr != nil {
		if ref != nil {
			return refused(h, ref.reason, ref.diagnostic), nil
		}
		if le != nil {
			return e.transportOutcome(h, le, rc), nil
		}
		return unavailable(h, "transport_failed"), nil
	}
	if read.attempts != 1 {
		return refused(h, "schema_invalid", "decision backend violated the single-request contract"), nil
	}
	if multiple {
		rc.CostUSD = nil
		return refused(h, "provider_refusal", "gateway reported multiple downstream attempts"), nil
	}
	return answerOutcome(h, read, qs, p.Threshold)
}

// account settles the dispatch in the ledger and on the receipt: known
// usage settles at the measured cost; unknown usage (a failed or
// cancelled request included) keeps the whole bound as uncertain; a
// gateway reporting hidden downstream attempts keeps it and closes
// admission. It reports whether that happened.
func (e *Evaluator) account(route *catalog.Route, rc *Receipt, read *rawResponse, hold *Hold, bound float64) (multiple bool) {
	known := read != nil && read.usage.Known()
	multiple = read != nil && read.native != nil && read.native.ProviderAttemptsReported != nil && *read.native.ProviderAttemptsReported > 1
	var charge float64
	switch {
	case rc.PhysicalAttempts == 0:
		rc.AccountingStatus = AccountingNotDispatched
		rc.NativeTransport = nil
		if hold != nil {
			hold.Release()
		}
	case multiple:
		rc.AccountingStatus, charge = AccountingUsageUnknown, bound
		if hold != nil {
			hold.RetainAndClose()
		}
	case known:
		cost := settledCost(route, *read.usage.InputTokens, *read.usage.OutputTokens)
		rc.AccountingStatus, rc.CostUSD, charge = AccountingSettled, &cost, cost
		if hold != nil {
			hold.Settle(cost)
		} else {
			e.opts.Ledger.RecordAdaptive(cost, true)
		}
	default:
		rc.AccountingStatus, charge = AccountingUsageUnknown, bound
		if hold != nil {
			hold.Retain()
		} else {
			e.opts.Ledger.RecordAdaptive(bound, false)
		}
	}
	if rc.PhysicalAttempts > 0 {
		rc.BudgetChargeUSD = &charge
	}
	return multiple
}

// answerOutcome projects a complete response onto the questions and
// applies the threshold.
func answerOutcome(h string, read *rawResponse, qs *QuestionSet, threshold float64) (*Outcome, []*Answer) {
	// A partial answer set is a schema failure, not a smaller answered.
	if len(read.answers) != len(qs.Questions) {
		return refused(h, "schema_invalid", fmt.Sprintf("backend answered %d of %d declared questions", len(read.answers), len(qs.Questions))), nil
	}
	answers := make([]*Answer, 0, len(qs.Questions))
	for i := range qs.Questions {
		q := &qs.Questions[i]
		raw, ok := read.answers[q.ID]
		if !ok {
			return refused(h, "schema_invalid", fmt.Sprintf("backend omitted question `%s`", q.ID)), nil
		}
		a, err := project(q, raw, read.provenance)
		if err != nil {
			return refused(h, "schema_invalid", err.Error()), nil
		}
		answers = append(answers, a)
	}
	for _, a := range answers {
		if !a.Meets(threshold) {
			return lowConfidence(h, answers, threshold), answers
		}
	}
	return answered(h, answers), answers
}

// transportOutcome maps a typed provider failure onto exactly one arm.
// The receipt's provider_reason names the failure in fixed words.
func (e *Evaluator) transportOutcome(h string, le *llm.Error, rc *Receipt) *Outcome {
	r := string(le.Kind)
	if le.Status != 0 {
		r += fmt.Sprintf(" (HTTP %d)", le.Status)
	}
	if le.Code != "" {
		r += " [" + le.Code + "]"
	}
	rc.ProviderReason = &r
	switch le.Kind {
	case llm.ErrRateLimited:
		return rateLimited(h, le.RetryAfterMS)
	case llm.ErrOverloaded:
		return overloaded(h)
	case llm.ErrAuthorityDenied:
		return unavailable(h, "authority_denied")
	case llm.ErrUnsupported:
		if le.Detail != "" {
			d := le.Detail
			rc.ProviderReason = &d
		}
		return unavailable(h, "unsupported_options")
	case llm.ErrUnconfigured:
		return unavailable(h, "model_unconfigured")
	case llm.ErrCancelled:
		return cancelled(h, "interrupt")
	case llm.ErrDeadline:
		return budgetCut(h, "deadline", 0, 0)
	case llm.ErrContextWindow:
		limit, est := 0, 0
		if rc.LimitTokens != nil {
			limit = *rc.LimitTokens
		}
		if rc.EstimatedStateTokens != nil {
			est = *rc.EstimatedStateTokens
		}
		return stateTooLarge(h, limit, est)
	case llm.ErrMalformed:
		return refused(h, "schema_invalid", "the provider's response could not be read")
	}
	// Any other HTTP status (a 500 among them) is one mapping on every
	// route: the request failed in transport, not in the model's answer.
	// provider_reason keeps the status.
	return unavailable(h, "transport_failed")
}

// backend returns the route's dispatcher.
func (e *Evaluator) backend(route *catalog.Route) (backend, error) {
	if route.IsNative() {
		return &nativeBackend{route: route, transport: llm.NewTransport(*route, e.opts.LLM)}, nil
	}
	var p llm.Provider
	var err error
	if e.opts.Provider != nil {
		p, err = e.opts.Provider(*route)
	} else {
		p, err = llm.New(*route, e.opts.LLM)
	}
	if err != nil {
		return nil, err
	}
	return &structuredBackend{provider: p}, nil
}

// StructuredReserveTokens is the input and output allowance the cost
// bound adds for the evaluator's instruction, schema and answers.
const StructuredReserveTokens = 2048

// costBound is the upper bound an evaluation may cost under the route's
// declared price: ((input + 2048) * input_price + 2048 * output_price) /
// 1e6. Unknown prices refuse; native protocols have no output cap, so
// their bound is valid only for declared input-only billing (output price
// exactly 0).
func costBound(route *catalog.Route, input int) (float64, bool) {
	rt := route.Runtime
	if rt.InputPricePerMTok == nil {
		return 0, false
	}
	out := 0.0
	if rt.OutputPricePerMTok != nil {
		out = *rt.OutputPricePerMTok
	}
	if route.IsNative() && (rt.OutputPricePerMTok == nil || out != 0) {
		return 0, false
	}
	return ((float64(input)+StructuredReserveTokens)**rt.InputPricePerMTok + StructuredReserveTokens*out) / 1e6, true
}

func settledCost(route *catalog.Route, input, output int64) float64 {
	rt := route.Runtime
	in, out := 0.0, 0.0
	if rt.InputPricePerMTok != nil {
		in = *rt.InputPricePerMTok
	}
	if rt.OutputPricePerMTok != nil {
		out = *rt.OutputPricePerMTok
	}
	return (float64(input)*in + float64(output)*out) / 1e6
}
