package tooldefine

import (
	_ "embed"
	"fmt"
	"strconv"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

const code = "HARN-STD-004"

//go:embed doc.go
var doc string

// Rule is the tooldefine rule.
var Rule = &analysis.Rule{
	Name:  "tooldefine",
	Doc:   analysis.ExtractDoc(doc, "tooldefine"),
	Codes: []string{code},
	Run:   run,
}

// executors are the values `executor` may take.
var executors = []string{"harn", "host_bridge", "mcp_server", "provider_native"}

// runtimeTools are tools the runtime itself answers, so an explicit
// executor "harn" needs no handler for them.
var runtimeTools = map[string]bool{"read_file": true, "list_directory": true, "emit_plan": true, "update_plan": true}

func run(p *analysis.Pass) {
	for _, c := range p.Facts.Calls {
		if c.Name != "tool_define" || !c.Builtin || c.Node == nil || len(c.Node.Args) != 4 {
			continue
		}
		cfg, ok := ast.Unparen(c.Node.Args[3]).(*ast.DictLit)
		if !ok {
			continue
		}
		entries, ok := literalEntries(cfg)
		if !ok {
			continue
		}
		name := "?"
		if s, ok := ast.Unparen(c.Node.Args[1]).(*ast.StringLit); ok {
			if v, ok := s.Value(); ok {
				name = v
			}
		}
		if msg, at := problem(entries, strconv.Quote(name)); msg != "" {
			span := cfg.Span
			if at != nil {
				span = at.Span
			}
			d := p.Diag(diagnostics.SourceType, code, span, "tool_define: %s", msg)
			d.Help = "pick one executor: a handler (executor \"harn\"), host_bridge + host_capability, mcp_server + mcp_server, or provider_native"
			p.Report(d)
		}
	}
}

// field is what the config literal says about one key.
type field struct {
	entry *ast.DictEntry
	// str is the value when it is a string literal; isStr says so.
	str   string
	isStr bool
	// null is set when the value is the nil literal.
	null bool
}

// literalEntries reads a config literal whose keys are all written out;
// a spread or computed key makes its content uncertain.
func literalEntries(d *ast.DictLit) (map[string]*field, bool) {
	out := map[string]*field{}
	for _, en := range d.Entries {
		key := ""
		switch {
		case en.Spread || en.Computed != nil:
			return nil, false
		case en.Name != nil:
			key = en.Name.Name
		case en.StringKey != nil:
			k, ok := en.StringKey.Value()
			if !ok {
				return nil, false
			}
			key = k
		}
		f := &field{entry: en}
		switch v := ast.Unparen(en.Value).(type) {
		case *ast.StringLit:
			f.str, f.isStr = v.Value()
		case *ast.NilLit:
			f.null = true
		}
		out[key] = f
	}
	return out, true
}

// problem returns the runtime's complaint about a config, in upstream
// Harn's words, and the entry it concerns, or "".
func problem(cfg map[string]*field, name string) (string, *ast.DictEntry) {
	if f, ok := cfg["params"]; ok && cfg["parameters"] == nil {
		return "use 'parameters', not 'params'", f.entry
	}
	set := func(key string) *field {
		if f := cfg[key]; f != nil && !f.null {
			return f
		}
		return nil
	}
	handler := set("handler")
	executor := set("executor")
	if executor != nil && !executor.isStr {
		return "", nil // computed: not certain
	}
	resolved := "harn"
	switch {
	case executor == nil && handler == nil:
		return fmt.Sprintf("tool %s has no `handler` and no `executor`. Either attach a `handler` fn (executor: \"harn\") or declare an alternate backend, e.g. executor: \"host_bridge\" + host_capability: \"cap.op\", executor: \"mcp_server\" + mcp_server: \"server-name\", executor: \"provider_native\". Defining a handlerless tool would surface as `[builtin_call] unhandled: %s` at the first model call.", name, unquote(name)), nil
	case executor != nil:
		resolved = executor.str
		if resolved == "harn_builtin" {
			resolved = "harn"
		}
	}
	known := false
	for _, e := range executors {
		known = known || e == resolved
	}
	if !known {
		return fmt.Sprintf("unknown executor %s for tool %s. Expected one of: \"harn\", \"host_bridge\", \"mcp_server\", \"provider_native\"", strconv.Quote(executor.str), name), executor.entry
	}
	// missing reports a key that must hold a non-empty string; a value
	// that is not a literal is not certain.
	missing := func(key string) bool {
		f := set(key)
		return f == nil || (f.isStr && f.str == "")
	}
	switch resolved {
	case "harn":
		if handler == nil && executor != nil && !runtimeTools[unquote(name)] {
			return fmt.Sprintf("tool %s declares executor: \"harn\" but has no `handler`. Attach the handler fn or change the executor.", name), executor.entry
		}
		if f := set("host_capability"); f != nil {
			return fmt.Sprintf("tool %s declares executor: \"harn\" but also sets `host_capability`. Drop one — the harn executor runs the handler in-VM and never reaches the host bridge.", name), f.entry
		}
		if f := set("mcp_server"); f != nil {
			return fmt.Sprintf("tool %s declares executor: \"harn\" but also sets `mcp_server`. Drop one — MCP-served tools must declare executor: \"mcp_server\".", name), f.entry
		}
	case "host_bridge":
		if handler != nil {
			return fmt.Sprintf("tool %s declares executor: \"host_bridge\" but also has a `handler`. Drop the handler — host-bridge tools are dispatched by the host shell, not the VM.", name), handler.entry
		}
		if missing("host_capability") {
			return fmt.Sprintf("tool %s declares executor: \"host_bridge\" but is missing `host_capability`. Set it to the canonical bridge identifier (e.g. \"interaction.ask\") so `harn check` can validate the binding against the host capability manifest.", name), executor.entry
		}
	case "mcp_server":
		if handler != nil {
			return fmt.Sprintf("tool %s declares executor: \"mcp_server\" but also has a `handler`. Drop the handler — MCP-served tools route through the MCP transport.", name), handler.entry
		}
		if missing("mcp_server") {
			return fmt.Sprintf("tool %s declares executor: \"mcp_server\" but is missing `mcp_server` (the configured server name).", name), executor.entry
		}
	case "provider_native":
		if handler != nil {
			return fmt.Sprintf("tool %s declares executor: \"provider_native\" but also has a `handler`. Provider-side tools are executed by the model server; the runtime never dispatches them locally.", name), handler.entry
		}
	}
	return "", nil
}

func unquote(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}
