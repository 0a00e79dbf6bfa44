package harn

import "sync"

// What a program offers as an MCP server: mcp_tools (alias mcp_serve)
// takes a tool registry, mcp_resource a static resource, mcp_resource_
// template a URI template with a handler, mcp_prompt a prompt with a
// handler. Each call checks its argument and records it for the run; the
// server loop that would answer clients over stdio is not part of a run,
// so nothing is served and no process or socket is opened. The lazy
// registry of MCP servers a program connects to (mcp_registry_status,
// mcp_ensure_active, mcp_release) is empty in a run: servers come from
// harn.toml, which a run does not read for them.

type mcpOffer struct {
	mu        sync.Mutex
	tools     Value
	resources []Value
	templates []Value
	prompts   []Value
}

func mcpOfferOf(in *Interp) *mcpOffer {
	return in.State("mcp_offer", func() any { return &mcpOffer{} }).(*mcpOffer)
}

// mcpDict checks that v is a dict with string fields required and, when
// handler is set, a callable "handler".
func mcpDict(c *Call, v Value, shape string, required []string, handler bool) (*Dict, error) {
	if v.k != KindDict {
		return nil, runtimeError("%s: argument must be a dict with %s", c.Name, shape)
	}
	d := v.AsDict()
	for _, k := range required {
		if dictString(d, k) == "" {
			return nil, runtimeError("%s: '%s' is required", c.Name, k)
		}
	}
	if handler {
		if h, ok := d.Get("handler"); !ok || (h.k != KindClosure && h.k != KindBuiltin) {
			return nil, runtimeError("%s: 'handler' closure is required", c.Name)
		}
	}
	return d, nil
}

func installMcpServe(lib *Library) {
	tools := func(c *Call, args []Value) (Value, error) {
		if len(args) == 0 {
			return Nil, runtimeError("%s: requires a tool_registry argument", c.Name)
		}
		if _, err := registryTools(c, args[0]); err != nil {
			return Nil, runtimeError("%s: argument must be a tool registry (created with tool_registry())", c.Name)
		}
		o := mcpOfferOf(c.th.in)
		o.mu.Lock()
		o.tools = args[0]
		o.mu.Unlock()
		return Nil, nil
	}
	lib.Builtin("mcp_tools", tools)
	lib.Builtin("mcp_serve", tools)
	lib.Builtin("mcp_resource", func(c *Call, args []Value) (Value, error) {
		d, err := mcpDict(c, Arg(args, 0), "{uri, name, text}", []string{"uri", "name"}, false)
		if err != nil {
			return Nil, err
		}
		if t, ok := d.Get("text"); !ok || t.k == KindNil {
			return Nil, runtimeError("%s: 'text' is required", c.Name)
		}
		o := mcpOfferOf(c.th.in)
		o.mu.Lock()
		o.resources = append(o.resources, DictValue(d))
		o.mu.Unlock()
		return Nil, nil
	})
	lib.Builtin("mcp_resource_template", func(c *Call, args []Value) (Value, error) {
		d, err := mcpDict(c, Arg(args, 0), "{uri_template, name, handler}", []string{"uri_template", "name"}, true)
		if err != nil {
			return Nil, err
		}
		o := mcpOfferOf(c.th.in)
		o.mu.Lock()
		o.templates = append(o.templates, DictValue(d))
		o.mu.Unlock()
		return Nil, nil
	})
	lib.Builtin("mcp_prompt", func(c *Call, args []Value) (Value, error) {
		d, err := mcpDict(c, Arg(args, 0), "{name, handler}", []string{"name"}, true)
		if err != nil {
			return Nil, err
		}
		o := mcpOfferOf(c.th.in)
		o.mu.Lock()
		o.prompts = append(o.prompts, DictValue(d))
		o.mu.Unlock()
		return Nil, nil
	})

	serverName := func(c *Call, args []Value) (string, error) {
		if len(args) == 0 || args[0].k == KindNil || Display(args[0]) == "" {
			return "", throwValue(Str(c.Name + ": server name is required"))
		}
		return Display(args[0]), nil
	}
	lib.Builtin("mcp_registry_status", func(c *Call, args []Value) (Value, error) {
		return NewListValue(nil), nil
	})
	lib.Builtin("mcp_ensure_active", func(c *Call, args []Value) (Value, error) {
		name, err := serverName(c, args)
		if err != nil {
			return Nil, err
		}
		return Nil, throwValue(Str("mcp_ensure_active: MCP server '" + name + "' is not registered (declare it under [[mcp]] in harn.toml)"))
	})
	lib.Builtin("mcp_release", func(c *Call, args []Value) (Value, error) {
		_, err := serverName(c, args)
		return Nil, err
	})
}
