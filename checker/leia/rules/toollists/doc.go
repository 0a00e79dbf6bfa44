// Package toollists defines the toollists rule.
//
// # Rule toollists
//
// toollists: a tools list names declared tools and agents, once each, and
// the owner's capabilities cover what they require (LEIA3001).
//
// Owners are agent configurations (legacy declarations and literals,
// `agent { ... }`, the tables an agent's config function returns, the
// options of `llm.agent`), `agent defaults { ... }` and
// `llm.agent_defaults({ ... })`, and turns (`turn { ... }`,
// `llm.turn({ ... })`). For a literal `tools: [...]` list:
//
//   - a name that nothing declares is an undeclared tool or agent (with the
//     nearest tool's name suggested);
//   - a name bound to a value that is certainly no tool or agent (a
//     string, a number, a table literal) is reported;
//   - a tool listed twice is reported.
//
// When the owner also has a literal `capabilities:` (or `caps:`) list of
// strings, and every listed tool's `requires` is known, each required
// capability must be in it; `all`, `cap.all` and `*` allow everything. An
// agent without its own `tools:` or `capabilities:` takes those of the
// agent defaults declared before it (the agent's own list replaces the
// default's, as Leia merges them). The messages are those of Leia's own
// validator.
package toollists
