package evaluate

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"strconv"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/internal/blake3"
	"github.com/harnlang/harn-check/runtime/canonjson"
)

// Contract strings.
const (
	ReceiptSchema               = "harn.evaluation.receipt.v1"
	IdentityContract            = "harn.evaluation_identity.v1"
	VerificationSchema          = "harn.evaluation_verification.v1"
	StructuredInstructionVer    = "harn.evaluator.structured.v1"
	NativeInstructionVer        = "harn.evaluator.native.v2"
	OutputSchemaVersion         = "harn.evaluation.answers.v1"
	ProtocolStructured          = "structured_llm"
	ProtocolUnresolved          = "unresolved"
	invocationDomain            = "harn-check.evaluation_invocation.v1"
	unsupportedStructuredOutput = "unsupported"
)

// Identity is the complete request identity a receipt binds
// (harn.evaluation_identity.v1), field by field.
type Identity struct {
	ContractVersion string `json:"contract_version"`
	// StructuredOutputStrategy is the route's structured transport for a
	// structured route, nil for a native one or an unresolved route.
	StructuredOutputStrategy    *string `json:"structured_output_strategy"`
	InputDigest                 string  `json:"input_digest"`
	CanonicalInputType          string  `json:"canonical_input_type"`
	QuestionSetDigest           string  `json:"question_set_digest"`
	PolicyDigest                string  `json:"policy_digest"`
	EvaluatorInstructionVersion string  `json:"evaluator_instruction_version"`
	OutputSchemaVersion         string  `json:"output_schema_version"`
	BackendKind                 string  `json:"backend_kind"`
	Protocol                    string  `json:"protocol"`
}

// digestParts is "blake3:" + hex BLAKE3 over, for each part,
// u64le(len(part)) followed by the part's bytes.
func digestParts(parts ...string) string {
	h := blake3.New()
	var n [8]byte
	for _, p := range parts {
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
	}
	return "blake3:" + hex.EncodeToString(h.Sum(nil))
}

// digestBytes is "blake3:" + hex BLAKE3 of b (no length prefix).
func digestBytes(b []byte) string {
	sum := blake3.Sum256(b)
	return "blake3:" + hex.EncodeToString(sum[:])
}

// Digest is the identity's question_set_digest: BLAKE3 of the
// canonical JSON of the normalised question set.
func (s *QuestionSet) Digest() string {
	return digestBytes(canonjson.MustEncode(s.normalized()))
}

// protocolOf is the route's decision protocol as the identity names it.
func protocolOf(r *catalog.Route) string {
	switch {
	case r == nil:
		return ProtocolUnresolved
	case r.IsNative():
		return r.Protocol
	}
	return ProtocolStructured
}

// strategyOf is the structured output strategy of a structured route:
// its declared structured_transport, prompt_validation when none is
// declared.
func strategyOf(r *catalog.Route) *string {
	if r == nil || r.IsNative() {
		return nil
	}
	s := r.Transport
	if s == "" {
		s = catalog.DefaultStrategy
	}
	return &s
}

// RequestIdentity computes the identity of a decoded request on a route
// (nil: no route resolved).
func RequestIdentity(state any, qs *QuestionSet, p *Policy, route *catalog.Route) (Identity, error) {
	canonical, err := canonjson.Encode(state)
	if err != nil {
		return Identity{}, err
	}
	return requestIdentity(canonical, state, qs, p, route), nil
}

// requestIdentity is RequestIdentity with the state's canonical form
// already computed.
func requestIdentity(canonical []byte, state any, qs *QuestionSet, p *Policy, route *catalog.Route) Identity {
	instr := StructuredInstructionVer
	if route != nil && route.IsNative() {
		instr = NativeInstructionVer
	}
	return Identity{
		ContractVersion:             IdentityContract,
		StructuredOutputStrategy:    strategyOf(route),
		InputDigest:                 digestParts(string(canonical)),
		CanonicalInputType:          typeName(state),
		QuestionSetDigest:           qs.Digest(),
		PolicyDigest:                digestParts(p.digestParts()...),
		EvaluatorInstructionVersion: instr,
		OutputSchemaVersion:         OutputSchemaVersion,
		BackendKind:                 p.Backend,
		Protocol:                    protocolOf(route),
	}
}

// encodeIdentity is the identity as upstream's serde writes it: fields in
// declaration order, no whitespace, null for an absent strategy.
func encodeIdentity(id Identity) string {
	var b bytes.Buffer
	field := func(first bool, k string) {
		if !first {
			b.WriteByte(',')
		}
		canonjson.WriteString(&b, k)
		b.WriteByte(':')
	}
	b.WriteByte('{')
	field(true, "contract_version")
	canonjson.WriteString(&b, id.ContractVersion)
	field(false, "structured_output_strategy")
	if id.StructuredOutputStrategy == nil {
		b.WriteString("null")
	} else {
		canonjson.WriteString(&b, *id.StructuredOutputStrategy)
	}
	for _, kv := range [][2]string{
		{"input_digest", id.InputDigest}, {"canonical_input_type", id.CanonicalInputType},
		{"question_set_digest", id.QuestionSetDigest}, {"policy_digest", id.PolicyDigest},
		{"evaluator_instruction_version", id.EvaluatorInstructionVersion},
		{"output_schema_version", id.OutputSchemaVersion}, {"backend_kind", id.BackendKind},
		{"protocol", id.Protocol},
	} {
		field(false, kv[0])
		canonjson.WriteString(&b, kv[1])
	}
	b.WriteByte('}')
	return b.String()
}

// StableRequestID is evaluation_id: digestParts(site_id, identity JSON).
// It names the request, not the occurrence.
func StableRequestID(siteID string, id Identity) string {
	return digestParts(siteID, encodeIdentity(id))
}

// invocationID names the n-th evaluation (1-based) of an evaluator:
// digestParts(domain, evaluation_id, n in decimal). A replay that makes
// the same evaluations in the same order gets the same ids.
func invocationID(evaluationID string, n int64) string {
	return digestParts(invocationDomain, evaluationID, strconv.FormatInt(n, 10))
}

// value is the identity as an ordered JSON object.
func (id Identity) value() *canonjson.Object {
	o := canonjson.NewObject()
	o.Set("contract_version", id.ContractVersion)
	if id.StructuredOutputStrategy == nil {
		o.Set("structured_output_strategy", nil)
	} else {
		o.Set("structured_output_strategy", *id.StructuredOutputStrategy)
	}
	o.Set("input_digest", id.InputDigest)
	o.Set("canonical_input_type", id.CanonicalInputType)
	o.Set("question_set_digest", id.QuestionSetDigest)
	o.Set("policy_digest", id.PolicyDigest)
	o.Set("evaluator_instruction_version", id.EvaluatorInstructionVersion)
	o.Set("output_schema_version", id.OutputSchemaVersion)
	o.Set("backend_kind", id.BackendKind)
	o.Set("protocol", id.Protocol)
	return o
}
