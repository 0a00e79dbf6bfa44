// Package turns defines the turns rule.
//
// # Rule turns
//
// turns: a turn request has something to send: messages or user
// (LEIA3005).
//
// `turn { ... }` and `llm.turn({ ... })` perform exactly one provider
// request. Without `messages` the runtime builds them from `user` (and
// `system`); with neither it refuses the request ("loop requires messages
// or user") before any provider is called. Requests whose fields are not
// all written out (computed keys) are not judged.
package turns
