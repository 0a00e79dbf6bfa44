// Package analysis is the shared machinery of the Leia checker's rules: the
// Leia Pass (an instance of the framework in checker/analysis, shared with
// the Harn checker), the name resolver (lexical scopes, bindings, uses,
// names nothing declares), and the AI-dialect facts that both dialect
// styles lower to (tools with their capabilities, agents, the owners of
// tools lists, model configurations, turns, prompts), so that each rule is
// written once for `tool {...}`, `llm.tool(...)` and the legacy
// `tool name(p) {...}` alike.
//
// Scoping follows the Leia specification: `:=`, `const`, `func`, import
// aliases and the legacy declarations bind in the current block; a
// declaration is visible after it (its right-hand side still sees the
// outer name); parameters and range variables belong to their function or
// loop. A function body runs later than the code around it, so a body
// sees every name its enclosing scopes declare, before or after it.
//
// Invariants: no IO, no printing, deterministic; walks are bounded in depth
// (MaxDepth), so hostile nesting degrades to fewer findings, never a crash.
package analysis
