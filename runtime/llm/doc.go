// Package llm is the provider layer shared by the Harn and Leia runtimes:
// one Provider interface (a turn with streaming events), its
// implementations (the mock, OpenAI-compatible chat completions,
// Anthropic-compatible messages, replay, recording), Chat (a chat
// completion with a structured answer, a function over a Provider),
// record/replay tapes, and the one HTTP transport every network call
// goes through (native decision protocols in runtime/evaluate use it
// too).
//
// # Wires
//
// Each wire has one request encoder (openAIBody, anthropicBody) and one
// decoder (decodeOpenAI, decodeAnthropic) that folds a whole response
// or each stream event into one assembly; every bound on what a
// provider may send (total body, line, blocks, tool-input size, JSON
// nodes; time is the route's timeout) is declared in assemble.go.
//
// # Routes
//
// A route is a catalog.Route from package catalog, the catalog the
// checker validates evaluation sites against; New turns one into a
// Provider by its Runtime.API (mock, openai_chat, anthropic_messages).
// There is no second catalog.
//
// # Transport invariants (HTTP)
//
//   - One physical request per call: no retries (a POST is never retried
//     by net/http, and nothing here loops), no redirects (a 3xx is
//     reported as ErrRedirect, not followed), no failover.
//   - Typed failures (Error.Kind): 429 is ErrRateLimited with
//     RetryAfterMS from retry-after-ms or Retry-After (seconds or an HTTP
//     date); 529 and 503 are ErrOverloaded; 401 and 403, and a missing
//     credential, are ErrAuthorityDenied; the route's timeout is
//     ErrTimeout; the caller's cancellation is ErrCancelled and its
//     deadline ErrDeadline; connection failures are ErrTransport; a
//     provider complaint that the input is too long is ErrContextWindow;
//     an unreadable body is ErrMalformed; other statuses are ErrStatus.
//     Error.Attempts says whether a request left the process (0 or 1).
//   - Credentials come only from the environment variable the route's
//     api_key_env names, read at call time through Options.Getenv. They
//     are sent as a header and never appear in an Error, a Response, a
//     tape or a log: error texts are built from the status, the kind and
//     a provider error code that is a short identifier; provider message
//     text (which may echo input or a key) is never copied.
//   - Response bodies, whole or streamed, are read up to
//     MaxResponseBytes; SSE lines up to MaxSSELine.
//
// # Tapes
//
// A Tape is a JSONL file of records {"seq","kind","identity","request",
// "response"} (schema line first: {"schema":"harn-check.tape.v1"}).
// Replay is strict: records are consumed once, in order, and each must
// carry the identity of the request being made; a different identity is
// a *MismatchError (expected, actual, occurrence), never a silent answer,
// and a replaying tape never falls back to a live request. Finish reports
// unconsumed records. runtime/evaluate stores whole evaluations on
// tapes under kind "evaluation", with the identity "blake3:" + hex
// BLAKE3 of the canonical JSON (runtime/canonjson) of the request.
//
// # Turns (the tool-capable layer Leia lowers to)
//
// A Provider answers a TurnRequest (an ordered conversation of
// TurnMessages with tool calls and results paired by call id, the tools
// the model may call, sampling and streaming options, an optional
// structured Output) with a TurnResult (status final_answer / tool_calls
// / stop, text, tool calls, usage, and the wire's report). The mock,
// OpenAI-compatible and Anthropic-compatible providers implement it
// over the same Transport and its invariants (New). The mock answers
// scripted answers first (MockScript: Harn's .llm-mock.jsonl lines and
// llm_mock registrations, Leia's --llm-mock script; a Tape that answers
// nothing is an *UnmatchedError), then answers derived from the request,
// or in Echo style (Harn's builtins) upstream Harn's echo of the prompt.
// Replay fixtures use upstream Leia's .records.json format (records.go):
// Replay answers strictly in order and fails on a different request
// (ReplayError names the first differing field, showing metadata and only
// the size and hash of content), on a request past the last record, and
// in Finish on records left over; Recorder records a live provider's
// turns, stream events and failures. TraceEvent is the metadata-only
// event a runtime emits around turns and tool calls.
//
// What this package must not do: decide outcomes or budgets (that is
// runtime/evaluate), read a credential from anywhere but the environment
// variable the route names, or follow a redirect.
package llm
