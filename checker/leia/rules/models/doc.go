// Package models defines the models rule.
//
// # Rule models
//
// models: a model registration keeps secrets out of source and names a
// protocol the runtime supports (LEIA3001).
//
// Checked in `model { ... }`, the legacy `models { ... }` and
// `llm.register_models({ ... })` with a table literal, the same three
// forms of one registration. Each field is an alias: a string naming
// another alias (or a provider model), or a provider configuration table.
// In a configuration table, and in any table nested in it:
//
//   - `api_key` must not be a string literal: a key committed to source is
//     leaked the moment it is pushed. Read it from the environment; the fix
//     writes os.getenv("LEIA_LLM_API_KEY");
//   - `protocol` must be a string literal, and one of openai,
//     openai-compatible, openai-compat, chat-completions, anthropic,
//     anthropic-compatible, anthropic-compat or messages (Leia's own
//     names), or openai-chat, anthropic-messages or mock (this runtime's),
//     compared after trimming space, lowering case and turning `_` into
//     `-`: the route catalog's table (catalog.ChatAPI), which the Leia AI
//     runtime dials by, so a protocol checked clean is one the run accepts;
//   - a table with a protocol must say which model to ask for, with
//     `provider_model` or `model`.
//
// String aliases must not form a cycle (`default: "fast"`, `fast:
// "default"`). A legacy `models { ... }` block must be at the top level
// of the file. The messages are those of Leia's own validator.
package models
