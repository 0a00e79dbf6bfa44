// Package tools defines the tools rule.
//
// # Rule tools
//
// tools: a tool declares valid capabilities (LEIA3001) and is a complete
// descriptor: a non-empty string name and a function (LEIA3002).
//
// For a legacy `tool name(params) { ... }` declaration, Leia's validator
// requires the `//leia:requires` directive directly above it (`none` for a
// tool that needs nothing); each capability must be `none`, `all` or
// dot-separated names (`docs.read`, `net.client`), listed once, and
// `none` cannot be combined with others. A `//leia:param NAME text`
// directive must document a real parameter, once. The same capability
// rules apply to the `requires:` (or `capabilities:`) list of a
// `tool { ... }` block and of `llm.tool(name, fn, {requires: ...})`; the
// table-style forms do not require the list.
//
// A `tool { ... }` block needs `name`, a non-empty string, and `fn`, a
// function; without them the runtime refuses it ("tool dialect requires
// string field name", "... requires function field fn"). The same holds
// for the name and function arguments of `llm.tool`. Only values known
// where the tool is written are judged: a name or function computed at run
// time is not reported.
package tools
