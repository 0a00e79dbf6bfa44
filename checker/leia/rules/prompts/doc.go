// Package prompts defines the prompts rule.
//
// # Rule prompts
//
// prompts: a prompt block is a message: it has a role and a text
// (LEIA3004, a warning).
//
// `prompt { role: "system", text: "..." }` is valid wherever a message
// table is, because it carries the two fields every message has. Without
// `text` it says nothing; without `role` a provider cannot place it (code
// that fills in a role itself still works, hence a warning). A literal
// role must be one of the stable roles: system, user, assistant, tool.
package prompts
