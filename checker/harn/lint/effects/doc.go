// Package effects defines the Harn lint rules about what a program does
// to the world: approvals whose answer is dropped, long-running work
// nobody cancels, connector exports calling builtins their effect policy
// denies, untrusted text in system prompts, and pull requests opened
// without a secret scan. They read calls of upstream's builtins by name;
// a builtin reached through a variable or a wrapper is not seen.
//
// # Rule long-running-without-cleanup
//
// long-running-without-cleanup: long-running work without a cancelling defer or finally (HARN-LNT-006).
//
// A warning, on by default.
//
// Reported: a call of walk_dir, glob, http_get, http_request,
// http_download, run_command, run_test or run_build_command, or
// host_tool_call of "run_command", "run_test" or "run_build_command"
// (with or without a "tools." prefix), passed a dict literal with
// `long_running: true` or `background: true`, in a function, pipeline,
// tool or closure body that has no cleanup path. A cleanup path is a
// `defer` block, or the `finally` block of a try, anywhere in that body
// (closures in it included, nested declared functions not) that calls
// `cancel_handle`, host_tool_call("cancel_handle") or a
// `.cancel_handle(...)` method. The handle otherwise outlives a failure
// of the code that started it. No fix.
//
// # Rule pr-open-without-secret-scan
//
// pr-open-without-secret-scan: a pull request opened before a secret scan (HARN-LNT-008).
//
// A warning, on by default.
//
// Reported: mcp_call(client, "git::push_pr" | "git.push_pr" |
// "create_pr", ...) or host_tool_call of the same names, reached in a
// function, tool, pipeline, closure or the file's top level without a
// preceding secret_scan(...) (or mcp_call/host_tool_call of
// "harn.secret_scan") on every path to it. A scan in one branch of an
// if, match or select counts after it only when every branch scans; a
// scan in a loop body or a closure does not count after it; a scan in a
// finally block counts. No fix.
//
// # Rule unhandled-approval-result
//
// unhandled-approval-result: the record request_approval returns is dropped (HARN-LNT-013).
//
// A warning, on by default.
//
// Reported: `request_approval(...)` as a statement whose value nobody
// uses. The value of the last statement of a closure, a try, an if or
// match arm and the other block expressions flows to that expression,
// so it is reported only when the enclosing expression's value is
// itself dropped. Bind the record and inspect its approver receipts, or
// assign it to `_` to drop it on purpose. No fix.
//
// # Rule prompt-injection-risk
//
// prompt-injection-risk: interpolated text in the system prompt of llm_call (HARN-LNT-026).
//
// A warning, on by default.
//
// Reported: `llm_call(prompt, system, ...)` whose second argument is an
// interpolated string literal. Text spliced into a system prompt carries
// the authority of the instructions; data belongs in the user prompt. No
// fix.
//
// # Rule connector-effect-policy
//
// connector-effect-policy: a connector export calls a builtin its policy denies (HARN-LNT-027).
//
// A warning, on by default.
//
// Reported: inside a function named like a connector export
// (`normalize_inbound`, the ingress hot path; `poll_tick` and `call`,
// outbound; `activate`), a call of a builtin that export's default policy
// denies: file system and agent-state builtins, processes (exec, shell,
// vision_ocr), LLM calls, MCP clients and host calls for every export,
// and network clients and connector_call on the hot path. The message
// says why. Move the call out of the export or give the connector a
// trusted effect-policy override. No fix.
//
// # Rule untyped-dict-access
//
// untyped-dict-access: a field or index read straight off parsed or received data (HARN-LNT-029).
//
// A warning, on by default.
//
// Reported: `.name`, `?.name`, `[key]` or `?[key]` applied directly to
// the call of a builtin whose result is data from outside the program
// and has no declared shape: json_parse, json_extract, yaml_parse,
// toml_parse, llm_call, llm_completion, the http_* clients,
// http_session_request, the sse_* receivers, websocket_accept,
// websocket_receive, host_call and mcp_call. A method called on the
// result is not a read of its fields and is not reported. Bind the result
// and validate it (schema_expect, or a binding with a declared type)
// before reading it. No fix.
package effects
