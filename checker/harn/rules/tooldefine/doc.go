// Package tooldefine defines the tooldefine rule.
//
// # Rule tooldefine
//
// tooldefine: a tool registered with tool_define has exactly one way to
// run (HARN-STD-004).
//
// The config of `tool_define(registry, name, description, config)` names
// an executor: "harn" (the default when a `handler` closure is given)
// runs the handler in the program; "host_bridge" leaves the call to the
// host and needs `host_capability`; "mcp_server" routes it to a
// configured MCP server named by `mcp_server`; "provider_native" leaves it
// to the model provider. The runtime refuses a config that contradicts
// itself when tool_define runs; for a config written as a dict literal
// the checker reports the same problems first, in the runtime's words:
// an unknown executor, no handler and no executor, executor "harn"
// without a handler (except for the tools the runtime answers itself:
// read_file, list_directory, emit_plan, update_plan), a handler beside an
// executor that never calls it, a host_bridge tool without
// host_capability, an mcp_server tool without mcp_server, a harn tool
// that also names a host capability or server, and `params` written for
// `parameters`. Configs built from other values are not judged.
package tooldefine
