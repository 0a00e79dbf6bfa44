// Package evaluate is the decision evaluator: one request answers a
// question set over one state with at most one physical provider request,
// returns a closed outcome, and leaves a receipt — refusals included. It
// needs no interpreter: `harn-check llm evaluate` and the Harn runtime's
// harness.llm.evaluate* call the same Evaluator.
//
// # Order of admission (each step before dispatch makes zero requests)
//
// Before these steps, a call that is not a literal site
// (Request.NotAdmitted) or not on the run's admitted sites (Options.Sites)
// is unavailable/admission_refused with admission_reason non_literal_site
// or site_not_admitted; then a replaying tape answers, or else an
// evaluation cache hit (Options.Cache, see Cache) answers with no
// admission, reservation or dispatch.
//
//  1. Decode the policy: a record with no unknown field; backend
//     structured_llm or native_decision; string provider and model;
//     threshold finite in [0, 1]; temperature finite; limits finite and
//     nonnegative. Absent effort is "none", absent temperature 0.
//     Malformed input is an error, not an outcome.
//  2. Decode the questions (same rule), sorted by id bytes; choice labels
//     sorted by label bytes; score levels as declared.
//  3. Resolve the route in the catalog (native, or serving structured
//     decisions); none: unavailable/model_unconfigured.
//  4. The route's limits: question_invalid (empty_questions,
//     too_many_questions, empty_identifier, empty_instructions,
//     unsupported_question_kind, empty_options, too_many_options,
//     duplicate_labels, too_few_levels, too_many_levels).
//  5. EstimateStateTokens(state) against the route's state window:
//     state_too_large. Native routes also bound state + longest question
//     by the state window and the whole request by the request window.
//     A route declaring no window: unavailable/unsupported_options.
//  6. Cost bound from the route's price (unknown price, or a native route
//     not declared input-only: unavailable/unsupported_options); bound >
//     evaluation_cost_limit: budget_cut/evaluation_cost; ledger committed
//     + bound > the run limit (run_cost_limit tightened by the ledger's
//     ceiling): budget_cut/run_cost.
//  7. A cancelled context: cancelled ("interrupt"); a passed deadline:
//     budget_cut/deadline.
//  8. Native options (effort/temperature) on a native route, or a backend
//     that does not match the route's protocol: unavailable/
//     unsupported_options. Reservation in the shared Ledger (native
//     always, structured when a run limit asks for conservative
//     admission): no ceiling, late activation or closed admission:
//     unavailable/admission_refused with the receipt's admission_reason;
//     over the ceiling: budget_cut/run_cost.
//  9. One request, no retries, no redirects. 429: rate_limited
//     (retry_after_ms when given); 529/503: overloaded; a refused or
//     missing credential: unavailable/authority_denied; timeouts,
//     redirects, transport failures and every other HTTP status (a 500
//     included), on native and structured routes alike:
//     unavailable/transport_failed (provider_reason says which); a provider window complaint:
//     state_too_large; a truncated answer: refused/output_truncated; a
//     model refusal: refused/provider_refusal; a gateway reporting more
//     than one downstream attempt: refused/provider_refusal, reservation
//     retained as uncertain and admission closed; missing, extra or
//     unprojectable answers: refused/schema_invalid. Then every answer at
//     or above the threshold: answered; otherwise low_confidence with
//     every candidate, the threshold and the ids under it.
//
// # Canonical JSON
//
// Digests are computed over runtime/canonjson's canonical form: object
// keys sorted by UTF-8 bytes at every depth, no whitespace, serde_json's
// string escaping and number forms (documented there). It is upstream
// Harn's canonical JSON byte for byte.
//
// # Digest byte layouts
//
// Every digest is written "blake3:" followed by 64 lower-case hex digits
// of the 32-byte BLAKE3 hash. Two layouts:
//
//	parts(p1, ..., pn) = BLAKE3( u64le(len(p1)) p1 ... u64le(len(pn)) pn )
//	bytes(b)           = BLAKE3( b )
//
// where u64le(n) is n as 8 bytes little-endian and the parts are UTF-8.
//
//   - input_digest = parts(canonical(state))
//   - question_set_digest = bytes(canonical(normalised question set)),
//     the set as upstream serialises it:
//     {"questions":[{"body":B,"id":ID,"instructions":TEXT},...]} sorted
//     by id, with B = "Boolean" | {"Choice":[[LABEL,DESCRIPTION],...]}
//     (labels sorted) | {"Score":[LEVEL,...]} (declared order); a boolean
//     with criteria has B = {"Boolean":{"false":F,"true":T}}.
//   - policy_digest = parts(backend, provider, model, effort,
//     R(temperature), "true"|"false" (effort or temperature given),
//     R(threshold), O(evaluation_cost_limit), O(run_cost_limit)), where
//     R(x) is Rust's {:?} of an f64 (canonjson.RustDebugFloat: "0.0",
//     "0.5", "1e-5") and O(x) is "None" or "Some(" R(x) ")".
//   - evaluation_id (the stable request id) = parts(site_id, I), where I
//     is the identity as JSON with its fields in this order and no
//     whitespace: contract_version, structured_output_strategy (null for
//     native routes), input_digest, canonical_input_type ("record",
//     "list", "string", "number", "bool" or "nil"), question_set_digest,
//     policy_digest, evaluator_instruction_version
//     (harn.evaluator.structured.v1 or harn.evaluator.native.v2),
//     output_schema_version (harn.evaluation.answers.v1), backend_kind,
//     protocol (structured_llm, a native protocol, or "unresolved").
//   - invocation_id = parts("harn-check.evaluation_invocation.v1",
//     evaluation_id, n) with n the evaluator's 1-based count of
//     evaluations in decimal: it names an occurrence (outcome receipt
//     handles are invocation ids), and a replay making the same
//     evaluations in the same order reproduces it.
//
// These are upstream's digests (blake3 over length-prefixed parts and
// over canonical JSON); a test recomputes each from the documented bytes.
// The site manifest's question_set_sha256 is a different digest (SHA-256
// over the checker's source-order layout, without choice descriptions);
// the README explains the difference.
//
// # Receipt (harn.evaluation.receipt.v1)
//
// Fields in order: schema, evaluation_id, invocation_id, site_id,
// identity, requested_provider, requested_model, served_model (verbatim,
// null when nothing was dispatched), questions [{id, kind,
// confidence_kind, raw_probabilities}], outcome_kind, physical_attempts,
// input_tokens, output_tokens, cost_usd (settled measured cost),
// budget_charge_usd (what the ledger was charged, a retained reservation
// included), accounting_status (settled | usage_unknown |
// not_dispatched), cost_admission (adaptive_projection |
// conservative_upper_bound), source (live | cache | tape | fixture),
// elapsed_ms, provider_reason, admission_reason, estimated_state_tokens,
// estimated_longest_question_tokens, estimated_request_tokens,
// limit_tokens, usage {input_tokens, output_tokens, cache_read_tokens,
// cache_write_tokens}, native_transport {data_controls {applied,
// unverified}, provider_attempts_reported, final_provider_reported},
// reused_from (the original receipt of a tape or cache answer, see
// Cache). Absent values are null. A receipt never holds the state,
// question text, evidence or a credential; provider_reason is built from
// fixed words, an HTTP status and a provider error code that is a short
// identifier.
//
// # Tapes
//
// With Options.Tape recording, each evaluation is appended as a record of
// kind "evaluation" whose identity is its evaluation_id, request {site_id,
// state, questions, policy}, and response {outcome, answers, receipt}.
// Replaying, the next record must carry this request's evaluation_id: a
// different one is a replay_mismatch outcome (expected_identity,
// actual_identity, occurrence) and a failure kept for Tape.Finish; a
// matching one is verified against the request like --verify-receipt and
// reused with zero attempts and cost, source "tape" and the original
// receipt in reused_from.
package evaluate
