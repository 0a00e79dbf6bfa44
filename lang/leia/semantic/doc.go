// Package semantic is the semantic model of one Leia file: the name
// resolver (lexical scopes, bindings, uses, names nothing declares) and
// the AI-dialect facts that both dialect styles lower to (tools with their
// capabilities, agents, the owners of tools lists, model configurations,
// turns, prompts), so that each consumer reads `tool {...}`,
// `llm.tool(...)` and the legacy `tool name(p) {...}` alike.
//
//	facts := semantic.Compute(file)
//	facts.Uses[id]        // the binding an identifier names
//	facts.Tools, facts.Agents, facts.Models
//
// The Leia checker's rules read it (through checker/leia/analysis.Pass),
// the language server resolves names with it, and the evaluation harness
// (runtime/leia/harness) counts a file's declarations with it: it sits
// below the checker and the runtime so neither depends on the other.
//
// Scoping follows the Leia specification: `:=`, `const`, `func`, import
// aliases and the legacy declarations bind in the current block; a
// declaration is visible after it (its right-hand side still sees the
// outer name); parameters and range variables belong to their function or
// loop. A function body runs later than the code around it, so a body
// sees every name its enclosing scopes declare, before or after it.
//
// Invariants: no IO, no printing, deterministic; walks are bounded in depth
// (ast.MaxDepth), so hostile nesting degrades to fewer findings, never a
// crash.
package semantic
