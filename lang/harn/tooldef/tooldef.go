// Package tooldef owns the rules a tool_define config must follow and
// the words used when it breaks one. A tool has exactly one way to run
// (its executor: a handler in the VM, a host bridge, an MCP server, or
// the model provider), and each executor requires or forbids some keys
// of the config. The runtime applies these rules when tool_define runs;
// the checker applies them ahead of time to a config written as a dict
// literal, so both report the same problem with the same message.
package tooldef

import (
	"fmt"
	"strconv"
)

// Executors are the values the `executor` key may take ("harn_builtin"
// is accepted as a spelling of "harn").
var Executors = []string{"harn", "host_bridge", "mcp_server", "provider_native"}

// runtimeTools are tools the runtime answers itself, so an explicit
// executor "harn" needs no handler for them.
var runtimeTools = map[string]bool{"read_file": true, "list_directory": true, "emit_plan": true, "update_plan": true}

// Field is what is known about one key of a config.
type Field struct {
	// Present reports that the key is in the config, nil or not.
	Present bool
	// Set reports that the key is present with a value other than nil.
	Set bool
	// Known reports that the value is known: always at run time; for the
	// checker, only for a string or nil literal.
	Known bool
	// IsString reports that the known value is a string, and Str holds it.
	IsString bool
	Str      string
}

// Config answers what is known about a key of a tool's config.
type Config func(key string) Field

// Problem returns what is wrong with the config of the tool named name,
// in upstream Harn's words without the "tool_define: " prefix, and the
// key the problem concerns ("" for the config as a whole). It returns
// "" when the config is valid or when what is known of it cannot tell.
func Problem(name string, cfg Config) (msg, key string) {
	quoted := strconv.Quote(name)
	if cfg("params").Present && !cfg("parameters").Present {
		return "use 'parameters', not 'params'", "params"
	}
	handler := cfg("handler").Set
	executor := cfg("executor")
	resolved := "harn"
	switch {
	case executor.Set && !executor.Known:
		return "", "" // computed: not certain
	case executor.Set && !executor.IsString:
		return "`executor` must be a string (\"harn\", \"host_bridge\", \"mcp_server\", or \"provider_native\")", "executor"
	case executor.Set:
		resolved = executor.Str
		if resolved == "harn_builtin" {
			resolved = "harn"
		}
	case !handler:
		return fmt.Sprintf("tool %s has no `handler` and no `executor`. Either attach a `handler` fn (executor: \"harn\") or declare an alternate backend, e.g. executor: \"host_bridge\" + host_capability: \"cap.op\", executor: \"mcp_server\" + mcp_server: \"server-name\", executor: \"provider_native\". Defining a handlerless tool would surface as `[builtin_call] unhandled: %s` at the first model call.", quoted, name), ""
	}
	known := false
	for _, e := range Executors {
		known = known || e == resolved
	}
	if !known {
		return fmt.Sprintf("unknown executor %s for tool %s. Expected one of: \"harn\", \"host_bridge\", \"mcp_server\", \"provider_native\"", strconv.Quote(executor.Str), quoted), "executor"
	}
	// missing reports a key that must hold a non-empty string; a value
	// that is not known is not certain.
	missing := func(key string) bool {
		f := cfg(key)
		return !f.Set || (f.Known && (!f.IsString || f.Str == ""))
	}
	switch resolved {
	case "harn":
		if !handler && executor.Set && !runtimeTools[name] {
			return fmt.Sprintf("tool %s declares executor: \"harn\" but has no `handler`. Attach the handler fn or change the executor.", quoted), "executor"
		}
		if cfg("host_capability").Set {
			return fmt.Sprintf("tool %s declares executor: \"harn\" but also sets `host_capability`. Drop one — the harn executor runs the handler in-VM and never reaches the host bridge.", quoted), "host_capability"
		}
		if cfg("mcp_server").Set {
			return fmt.Sprintf("tool %s declares executor: \"harn\" but also sets `mcp_server`. Drop one — MCP-served tools must declare executor: \"mcp_server\".", quoted), "mcp_server"
		}
	case "host_bridge":
		if handler {
			return fmt.Sprintf("tool %s declares executor: \"host_bridge\" but also has a `handler`. Drop the handler — host-bridge tools are dispatched by the host shell, not the VM.", quoted), "handler"
		}
		if missing("host_capability") {
			return fmt.Sprintf("tool %s declares executor: \"host_bridge\" but is missing `host_capability`. Set it to the canonical bridge identifier (e.g. \"interaction.ask\") so `harn check` can validate the binding against the host capability manifest.", quoted), "executor"
		}
	case "mcp_server":
		if handler {
			return fmt.Sprintf("tool %s declares executor: \"mcp_server\" but also has a `handler`. Drop the handler — MCP-served tools route through the MCP transport.", quoted), "handler"
		}
		if missing("mcp_server") {
			return fmt.Sprintf("tool %s declares executor: \"mcp_server\" but is missing `mcp_server` (the configured server name).", quoted), "executor"
		}
	case "provider_native":
		if handler {
			return fmt.Sprintf("tool %s declares executor: \"provider_native\" but also has a `handler`. Provider-side tools are executed by the model server; the runtime never dispatches them locally.", quoted), "handler"
		}
	}
	return "", ""
}
