// Package ai is Leia's AI dialect at run time: the llm, msg, history,
// chat and loop modules, the global toolof, and the handlers of the AI
// tags (model, models, tool, turn, agent, agent_defaults, budget,
// messages, prompt) in runtime/leia's dialect registry. It is a standard
// library layer, not a second engine: every tagged form lowers to the
// same helpers as the direct calls, and every provider request crosses
// one boundary (Request, in request.go) into runtime/llm's TurnRequest,
// so tracing, recording and replay see the same request whichever form
// the source used.
//
// # Layout (one family per file)
//
//	runtime.go   Runtime, Config, Install, the list of families, request hooks
//	values.go    value helpers shared by every family
//	messages.go  llm/msg message constructors, history, chat
//	models.go    model aliases and provider selection
//	request.go   lowering a request table to llm.TurnRequest; result tables
//	turn.go      llm.turn / turn { }: one provider request
//	tools.go     tools, capability grants, dispatch, tool_caps, check_tools
//	agent.go     agents, flows, agent defaults, agents as tools
//	loop.go      the built-in agent loop, loop.*, approval snapshots
//	validate.go  output checks: shapes, JSON Schema, Rhai validators
//	budget.go    budgets, with_budget, cancellation
//	dialects.go  the AI tags
//	install.go   the runtime/leia extension: run modes (live, mock, replay, record)
//
// # The seam for more helpers
//
// A helper family is one file with a Family function, listed with its
// module in families (runtime.go):
//
//	func workflowFamily(rt *Runtime) map[string]leia.NativeFunc {
//		return map[string]leia.NativeFunc{"workflow": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) { ... }}
//	}
//
// The family gets the run's *Runtime: rt.Turn(t, request) makes
// a turn exactly as llm.turn does; rt.RunAgent runs the loop;
// rt.Dispatch(t, call, tools) dispatches a tool call;
// rt.NormalizeTools wraps agents in a tools list; rt.Emit(llm.TraceEvent)
// sends a metadata-only trace event; values.go builds and reads tables
// (T, List, Field, Str, Items, ErrorValue, ToGo, FromGo).
// A RequestHook, listed in requestHooks, adjusts request tables before
// they are lowered.
//
// # Invariants
//
//   - No provider is contacted except through Config: the host's
//     Provider, or a Factory the host installs (the live factory checks
//     --allow-net before any request and takes keys only from the
//     environment: a key value in a model configuration is accepted only
//     when an environment variable holds it).
//   - Trace events carry metadata (model, counts, tool names, call ids,
//     token counts, cost, hashes, timings of live calls), never prompt
//     text, completions, tool arguments or values, or credentials.
//   - Every recursion and loop is bounded: alias chains (64), value
//     conversion (depth 100, a node budget), loop steps (1000), tool
//     retries (10). Errors raised by Leia callbacks never unwind through
//     provider code: they are caught and re-raised after the call.
package ai
