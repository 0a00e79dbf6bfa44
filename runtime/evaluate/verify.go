package evaluate

import (
	"fmt"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/canonjson"
)

// Verification refusal codes.
const (
	RefuseUnsupportedContract = "unsupported_contract"
	RefuseInput               = "input_mismatch"
	RefuseQuestions           = "questions_mismatch"
	RefusePolicy              = "policy_mismatch"
	RefuseSite                = "site_mismatch"
	RefuseRoute               = "route_mismatch"
	RefuseIdentity            = "identity_mismatch"
)

// VerificationRefusal names a failed binding and the receipt field.
type VerificationRefusal struct {
	Code, Field string
}

// Verification is a harn.evaluation_verification.v1 report.
type Verification struct {
	Verified        bool
	Refusals        []VerificationRefusal
	RequestIdentity *Identity
	StableRequestID *string
}

// Value is the report as JSON.
func (v *Verification) Value() *canonjson.Object {
	o := canonjson.NewObject()
	o.Set("schema", VerificationSchema)
	o.Set("verified", v.Verified)
	rs := []any{}
	for _, r := range v.Refusals {
		ro := canonjson.NewObject()
		ro.Set("code", r.Code)
		ro.Set("field", r.Field)
		rs = append(rs, ro)
	}
	o.Set("refusals", rs)
	if v.RequestIdentity == nil {
		o.Set("request_identity", nil)
	} else {
		o.Set("request_identity", v.RequestIdentity.value())
	}
	o.Set("stable_request_id", optString(v.StableRequestID))
	return o
}

// Verify checks a saved request against the receipt the evaluator
// emitted for it, offline: no credentials, no budget, no provider call.
// It verifies a binding (canonical input, normalised questions and their
// text, requested policy, site, route, evaluator contract, stable
// identity), not a provider's authenticity, answer quality or
// accounting. JSON whitespace and key order do not change the result.
// The error is for unreadable input (exit status 2).
func Verify(cat *catalog.Catalog, request, receipt []byte) (*Verification, error) {
	req, err := DecodeRequest(request)
	if err != nil {
		return nil, err
	}
	rv, err := canonjson.Decode(receipt)
	if err != nil {
		return nil, fmt.Errorf("receipt: %v", err)
	}
	rc, err := ParseReceipt(rv)
	if err != nil {
		return nil, fmt.Errorf("receipt: %v", err)
	}
	// An unknown contract is refused before the request is interpreted:
	// an old receipt stays readable evidence but is not upgraded.
	if v := contractRefusals(rc); v != nil {
		return v, nil
	}
	p, err := DecodePolicy(req.Policy)
	if err != nil {
		return nil, fmt.Errorf("request: %v", err)
	}
	qs, err := DecodeQuestions(req.Questions)
	if err != nil {
		return nil, fmt.Errorf("request: %v", err)
	}
	if _, err := canonjson.Encode(req.State); err != nil {
		return nil, fmt.Errorf("request: state: %v", err)
	}
	return verifyParsed(cat, req, p, qs, rc), nil
}

func contractRefusals(rc *Receipt) *Verification {
	v := &Verification{}
	if rc.Schema != ReceiptSchema {
		v.Refusals = append(v.Refusals, VerificationRefusal{RefuseUnsupportedContract, "schema"})
	}
	if rc.Identity.ContractVersion != IdentityContract {
		v.Refusals = append(v.Refusals, VerificationRefusal{RefuseUnsupportedContract, "identity.contract_version"})
	}
	if len(v.Refusals) == 0 {
		return nil
	}
	return v
}

// verifyParsed compares a decoded request with a parsed receipt.
func verifyParsed(cat *catalog.Catalog, req Request, p *Policy, qs *QuestionSet, rc *Receipt) *Verification {
	if v := contractRefusals(rc); v != nil {
		return v
	}
	v := &Verification{}
	check := func(ok bool, code, field string) {
		if !ok {
			v.Refusals = append(v.Refusals, VerificationRefusal{code, field})
		}
	}
	route, _ := New(Options{Catalog: cat}).resolve(p)
	want, _ := RequestIdentity(req.State, qs, p, route)
	got := rc.Identity
	check(got.EvaluatorInstructionVersion == want.EvaluatorInstructionVersion, RefuseUnsupportedContract, "identity.evaluator_instruction_version")
	check(got.OutputSchemaVersion == want.OutputSchemaVersion, RefuseUnsupportedContract, "identity.output_schema_version")
	check(got.Protocol == want.Protocol, RefuseUnsupportedContract, "identity.protocol")
	check(optString(got.StructuredOutputStrategy) == optString(want.StructuredOutputStrategy), RefuseUnsupportedContract, "identity.structured_output_strategy")
	check(rc.SiteID == req.SiteID, RefuseSite, "site_id")
	check(rc.RequestedProvider == p.Provider, RefuseRoute, "requested_provider")
	check(rc.RequestedModel == p.Model, RefuseRoute, "requested_model")
	check(got.InputDigest == want.InputDigest, RefuseInput, "identity.input_digest")
	check(got.CanonicalInputType == want.CanonicalInputType, RefuseInput, "identity.canonical_input_type")
	check(got.QuestionSetDigest == want.QuestionSetDigest, RefuseQuestions, "identity.question_set_digest")
	check(got.PolicyDigest == want.PolicyDigest, RefusePolicy, "identity.policy_digest")
	check(got.BackendKind == want.BackendKind, RefusePolicy, "identity.backend_kind")
	stable := StableRequestID(req.SiteID, want)
	check(rc.EvaluationID == stable, RefuseIdentity, "evaluation_id")
	v.Verified = len(v.Refusals) == 0
	v.RequestIdentity, v.StableRequestID = &want, &stable
	return v
}
