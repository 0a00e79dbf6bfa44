package evaluate

import (
	"fmt"
	"sync"

	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Accounting statuses, sources and cost admission modes.
const (
	AccountingSettled       = "settled"
	AccountingUsageUnknown  = "usage_unknown"
	AccountingNotDispatched = "not_dispatched"
	SourceLive              = "live"
	SourceCache             = "cache"
	SourceTape              = "tape"
	SourceFixture           = "fixture"
	CostAdaptive            = "adaptive_projection"
	CostConservative        = "conservative_upper_bound"
)

// QuestionReceipt is one question's raw answer on the receipt.
type QuestionReceipt struct {
	ID             string
	Kind           string
	ConfidenceKind *string
	// RawProbabilities is what the backend measured (empty for model
	// reports).
	RawProbabilities map[string]float64
}

// NativeTransport separates the controls this client applied from what
// a gateway reported about its own routing.
type NativeTransport struct {
	// Applied are the data controls the request carried; Unverified the
	// controls the route cannot demonstrate.
	Applied, Unverified []string
	// ProviderAttemptsReported is the gateway's downstream attempt count,
	// nil when unreported (independent of PhysicalAttempts).
	ProviderAttemptsReported *int64
	FinalProviderReported    *string
}

// Receipt is a harn.evaluation.receipt.v1 document: what was evaluated,
// what came back and what it consumed. It never holds the state, the
// instructions, answers' evidence or a credential.
type Receipt struct {
	Schema       string
	EvaluationID string
	// InvocationID names this occurrence; outcome handles use it.
	InvocationID      string
	SiteID            string
	Identity          Identity
	RequestedProvider string
	RequestedModel    string
	// ServedModel is the provider's served model, verbatim.
	ServedModel      *string
	Questions        []QuestionReceipt
	OutcomeKind      string
	PhysicalAttempts int
	InputTokens      *int64
	OutputTokens     *int64
	// CostUSD is settled measured cost; nil when usage is unknown.
	CostUSD *float64
	// BudgetChargeUSD is what the shared ledger was charged, including a
	// reservation retained because usage is unknown.
	BudgetChargeUSD  *float64
	AccountingStatus string
	CostAdmission    *string
	Source           string
	ElapsedMS        int64
	// ProviderReason explains a mapped provider failure in fixed words
	// (kind, HTTP status, provider error code), never provider prose.
	ProviderReason *string
	// AdmissionReason names why admission refused (admission_refused).
	AdmissionReason                *string
	EstimatedStateTokens           *int
	EstimatedLongestQuestionTokens *int
	EstimatedRequestTokens         *int
	LimitTokens                    *int
	// Usage is the provider's reported usage, cache fields included.
	Usage           *llm.Usage
	NativeTransport *NativeTransport
	// ReusedFrom is the original receipt a tape or cache answer reuses.
	ReusedFrom *canonjson.Object
}

func notDispatched(evaluationID, invocation, site string, id Identity, p *Policy, qs *QuestionSet) *Receipt {
	r := &Receipt{Schema: ReceiptSchema, EvaluationID: evaluationID, InvocationID: invocation, SiteID: site, Identity: id,
		RequestedProvider: p.Provider, RequestedModel: p.Model, OutcomeKind: OutcomeUnavailable,
		AccountingStatus: AccountingNotDispatched, Source: SourceLive}
	for _, q := range qs.Questions {
		r.Questions = append(r.Questions, QuestionReceipt{ID: q.ID, Kind: q.Kind, RawProbabilities: map[string]float64{}})
	}
	return r
}

// recordAnswers fills each answered question's confidence kind and raw
// distribution; unanswered questions stay visible as they were. When a
// question has several answers the last one counts. The answers are
// indexed once, so the work is linear in the number of questions.
func (r *Receipt) recordAnswers(answers []*Answer) {
	if len(answers) == 0 {
		return
	}
	byID := make(map[string]*Answer, len(answers))
	for _, a := range answers {
		byID[a.QuestionID] = a
	}
	for i := range r.Questions {
		if a, ok := byID[r.Questions[i].ID]; ok {
			k := a.ConfidenceKind
			r.Questions[i].ConfidenceKind = &k
			r.Questions[i].RawProbabilities = cloneDist(a.Raw)
		}
	}
}

func optString(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func optInt(n *int) any {
	if n == nil {
		return nil
	}
	return int64(*n)
}

func optInt64(n *int64) any {
	if n == nil {
		return nil
	}
	return *n
}

func optFloat(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// Value is the receipt as an ordered JSON object (the documented field
// order; absent values are null).
func (r *Receipt) Value() *canonjson.Object {
	o := canonjson.NewObject()
	o.Set("schema", r.Schema)
	o.Set("evaluation_id", r.EvaluationID)
	o.Set("invocation_id", r.InvocationID)
	o.Set("site_id", r.SiteID)
	o.Set("identity", r.Identity.value())
	o.Set("requested_provider", r.RequestedProvider)
	o.Set("requested_model", r.RequestedModel)
	o.Set("served_model", optString(r.ServedModel))
	qs := []any{}
	for _, q := range r.Questions {
		qo := canonjson.NewObject()
		qo.Set("id", q.ID)
		qo.Set("kind", q.Kind)
		qo.Set("confidence_kind", optString(q.ConfidenceKind))
		qo.Set("raw_probabilities", distValue(q.RawProbabilities))
		qs = append(qs, qo)
	}
	o.Set("questions", qs)
	o.Set("outcome_kind", r.OutcomeKind)
	o.Set("physical_attempts", int64(r.PhysicalAttempts))
	o.Set("input_tokens", optInt64(r.InputTokens))
	o.Set("output_tokens", optInt64(r.OutputTokens))
	o.Set("cost_usd", optFloat(r.CostUSD))
	o.Set("budget_charge_usd", optFloat(r.BudgetChargeUSD))
	o.Set("accounting_status", r.AccountingStatus)
	o.Set("cost_admission", optString(r.CostAdmission))
	o.Set("source", r.Source)
	o.Set("elapsed_ms", r.ElapsedMS)
	o.Set("provider_reason", optString(r.ProviderReason))
	o.Set("admission_reason", optString(r.AdmissionReason))
	o.Set("estimated_state_tokens", optInt(r.EstimatedStateTokens))
	o.Set("estimated_longest_question_tokens", optInt(r.EstimatedLongestQuestionTokens))
	o.Set("estimated_request_tokens", optInt(r.EstimatedRequestTokens))
	o.Set("limit_tokens", optInt(r.LimitTokens))
	if r.Usage == nil {
		o.Set("usage", nil)
	} else {
		u := canonjson.NewObject()
		u.Set("input_tokens", optInt64(r.Usage.InputTokens))
		u.Set("output_tokens", optInt64(r.Usage.OutputTokens))
		u.Set("cache_read_tokens", optInt64(r.Usage.CacheReadTokens))
		u.Set("cache_write_tokens", optInt64(r.Usage.CacheWriteTokens))
		o.Set("usage", u)
	}
	if r.NativeTransport == nil {
		o.Set("native_transport", nil)
	} else {
		t := r.NativeTransport
		dc := canonjson.NewObject()
		dc.Set("applied", stringValues(t.Applied))
		dc.Set("unverified", stringValues(t.Unverified))
		n := canonjson.NewObject()
		n.Set("data_controls", dc)
		n.Set("provider_attempts_reported", optInt64(t.ProviderAttemptsReported))
		n.Set("final_provider_reported", optString(t.FinalProviderReported))
		o.Set("native_transport", n)
	}
	if r.ReusedFrom == nil {
		o.Set("reused_from", nil)
	} else {
		o.Set("reused_from", r.ReusedFrom)
	}
	return o
}

func stringValues(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// ParseReceipt reads a receipt document. Fields it does not know are
// ignored (older and newer receipts stay readable); the fields
// verification and reuse depend on must be present and typed.
func ParseReceipt(v any) (*Receipt, error) {
	o, ok := v.(*canonjson.Object)
	if !ok {
		return nil, fmt.Errorf("the receipt is not a JSON object")
	}
	var err error
	str := func(k string) string {
		s, ok := o.Values[k].(string)
		if !ok && err == nil {
			err = fmt.Errorf("the receipt has no string %q", k)
		}
		return s
	}
	optS := func(k string) *string {
		if s, ok := o.Values[k].(string); ok {
			return &s
		}
		return nil
	}
	optI := func(k string) *int {
		if f, ok := toFloat(o.Values[k]); ok {
			n := int(f)
			return &n
		}
		return nil
	}
	optI64 := func(k string) *int64 {
		if f, ok := toFloat(o.Values[k]); ok {
			n := int64(f)
			return &n
		}
		return nil
	}
	optF := func(k string) *float64 {
		if f, ok := toFloat(o.Values[k]); ok {
			return &f
		}
		return nil
	}
	r := &Receipt{Schema: str("schema"), EvaluationID: str("evaluation_id"), SiteID: str("site_id"),
		RequestedProvider: str("requested_provider"), RequestedModel: str("requested_model")}
	if err != nil {
		return nil, err
	}
	r.InvocationID, _ = o.Values["invocation_id"].(string)
	idObj, ok := o.Values["identity"].(*canonjson.Object)
	if !ok {
		return nil, fmt.Errorf("the receipt has no identity object")
	}
	r.Identity, err = parseIdentity(idObj)
	if err != nil {
		return nil, err
	}
	r.ServedModel = optS("served_model")
	if list, ok := o.Values["questions"].([]any); ok {
		for _, e := range list {
			qo, ok := e.(*canonjson.Object)
			if !ok {
				return nil, fmt.Errorf("a receipt question is not an object")
			}
			q := QuestionReceipt{RawProbabilities: map[string]float64{}}
			q.ID, _ = qo.Values["id"].(string)
			q.Kind, _ = qo.Values["kind"].(string)
			if s, ok := qo.Values["confidence_kind"].(string); ok {
				q.ConfidenceKind = &s
			}
			if d, ok := qo.Values["raw_probabilities"].(*canonjson.Object); ok {
				for _, k := range d.Keys {
					q.RawProbabilities[k], _ = toFloat(d.Values[k])
				}
			}
			r.Questions = append(r.Questions, q)
		}
	}
	r.OutcomeKind, _ = o.Values["outcome_kind"].(string)
	if n := optI("physical_attempts"); n != nil {
		r.PhysicalAttempts = *n
	}
	r.InputTokens, r.OutputTokens = optI64("input_tokens"), optI64("output_tokens")
	r.CostUSD, r.BudgetChargeUSD = optF("cost_usd"), optF("budget_charge_usd")
	r.AccountingStatus, _ = o.Values["accounting_status"].(string)
	r.CostAdmission = optS("cost_admission")
	r.Source, _ = o.Values["source"].(string)
	if n := optI64("elapsed_ms"); n != nil {
		r.ElapsedMS = *n
	}
	r.ProviderReason, r.AdmissionReason = optS("provider_reason"), optS("admission_reason")
	r.EstimatedStateTokens = optI("estimated_state_tokens")
	r.EstimatedLongestQuestionTokens = optI("estimated_longest_question_tokens")
	r.EstimatedRequestTokens = optI("estimated_request_tokens")
	r.LimitTokens = optI("limit_tokens")
	if u, ok := o.Values["usage"].(*canonjson.Object); ok {
		r.Usage = &llm.Usage{}
		get := func(k string) *int64 {
			if f, ok := toFloat(u.Values[k]); ok {
				n := int64(f)
				return &n
			}
			return nil
		}
		r.Usage.InputTokens, r.Usage.OutputTokens = get("input_tokens"), get("output_tokens")
		r.Usage.CacheReadTokens, r.Usage.CacheWriteTokens = get("cache_read_tokens"), get("cache_write_tokens")
	}
	if nt, ok := o.Values["native_transport"].(*canonjson.Object); ok {
		t := &NativeTransport{}
		if dc, ok := nt.Values["data_controls"].(*canonjson.Object); ok {
			t.Applied, t.Unverified = stringList(dc.Values["applied"]), stringList(dc.Values["unverified"])
		}
		if f, ok := toFloat(nt.Values["provider_attempts_reported"]); ok {
			n := int64(f)
			t.ProviderAttemptsReported = &n
		}
		if s, ok := nt.Values["final_provider_reported"].(string); ok {
			t.FinalProviderReported = &s
		}
		r.NativeTransport = t
	}
	if rf, ok := o.Values["reused_from"].(*canonjson.Object); ok {
		r.ReusedFrom = rf
	}
	return r, nil
}

func stringList(v any) []string {
	var out []string
	if l, ok := v.([]any); ok {
		for _, e := range l {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// parseIdentity reads an identity object. A missing contract_version
// reads as "" (a historical receipt), which verification refuses as
// unsupported_contract rather than upgrading it.
func parseIdentity(o *canonjson.Object) (Identity, error) {
	var id Identity
	get := func(k string, optional bool) (string, error) {
		v, present := o.Values[k]
		s, ok := v.(string)
		if !ok && (present || !optional) {
			if v == nil && optional {
				return "", nil
			}
			return "", fmt.Errorf("the receipt identity has no string %q", k)
		}
		return s, nil
	}
	var err error
	if id.ContractVersion, err = get("contract_version", true); err != nil {
		return id, err
	}
	if s, ok := o.Values["structured_output_strategy"].(string); ok {
		id.StructuredOutputStrategy = &s
	}
	for _, f := range []struct {
		k string
		p *string
	}{
		{"input_digest", &id.InputDigest}, {"canonical_input_type", &id.CanonicalInputType},
		{"question_set_digest", &id.QuestionSetDigest}, {"policy_digest", &id.PolicyDigest},
		{"evaluator_instruction_version", &id.EvaluatorInstructionVersion},
		{"output_schema_version", &id.OutputSchemaVersion}, {"backend_kind", &id.BackendKind}, {"protocol", &id.Protocol},
	} {
		if *f.p, err = get(f.k, false); err != nil {
			return id, err
		}
	}
	return id, nil
}

// Journal keeps the receipts of one execution: at most MaxJournal, the
// overflow counted. It is safe for concurrent use and shared by every
// evaluator (and child VM) of the execution.
type Journal struct {
	mu       sync.Mutex
	receipts []*Receipt
	dropped  int
}

// MaxJournal bounds the receipts a run record keeps.
const MaxJournal = 1024

// Record keeps a receipt (or counts it as dropped past MaxJournal).
func (j *Journal) Record(r *Receipt) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.receipts) < MaxJournal {
		j.receipts = append(j.receipts, r)
	} else {
		j.dropped++
	}
}

// Snapshot returns the kept receipts and the number dropped.
func (j *Journal) Snapshot() ([]*Receipt, int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]*Receipt(nil), j.receipts...), j.dropped
}

// Lookup finds a kept receipt by its invocation id (an outcome handle).
func (j *Journal) Lookup(handle string) (*Receipt, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, r := range j.receipts {
		if r.InvocationID == handle {
			return r, true
		}
	}
	return nil, false
}
