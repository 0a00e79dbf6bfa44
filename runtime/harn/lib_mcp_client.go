package harn

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/mcp"
)

// MCP servers a program connects to: mcp_connect starts a server process
// (behind --allow-exec) and speaks the protocol over its stdin/stdout;
// agent_loop's mcp_servers option also reaches servers over HTTP (behind
// --allow-net). The protocol is runtime/mcp; this file turns its results
// into values. A server lives at most as long as the run: the run's end
// kills it and whatever it started.

const mcpClientType = "mcp_client"

// mcpClientValue wraps a connected client.
func mcpClientValue(cl *mcp.Client) Value {
	return Value{k: KindObject, r: &Object{TypeName: mcpClientType, Data: cl}}
}

// mcpClientArg is the client argument i, or the error upstream gives.
func mcpClientArg(c *Call, args []Value, i int, what string) (*mcp.Client, error) {
	if v := Arg(args, i); v.k == KindObject {
		if cl, ok := v.r.(*Object).Data.(*mcp.Client); ok {
			return cl, nil
		}
	}
	return nil, throwValue(Str(c.Name + ": " + what + " must be an MCP client"))
}

// mcpError turns a client error into the program's: a tool's own error
// and an error response are thrown strings, a refused grant is a
// permission error, anything else a runtime error.
func mcpError(c *Call, err error) error {
	var tool *mcp.ToolError
	var rpc *mcp.RPCError
	var denied *host.DeniedError
	switch {
	case errors.As(err, &tool):
		return throwValue(Str(tool.Text))
	case errors.As(err, &rpc):
		return throwValue(Str(rpc.Error()))
	case errors.As(err, &denied):
		return ioError(c.Name, err)
	case c.th.ctx.Err() != nil:
		if lerr := c.th.checkLimits(); lerr != nil {
			return lerr
		}
		return plainError("Deadline exceeded")
	}
	return runtimeError("%s", err.Error())
}

// mcpConnectStdio starts command with args in the program's folder and
// connects to it. The process belongs to the run: it is killed, with
// every process it started, when the run ends.
func mcpConnectStdio(c *Call, name, command string, args []string, env map[string]string) (*mcp.Client, error) {
	in := c.th.in
	runCtx := in.run.Context()
	var envList []string
	if len(env) > 0 {
		envList = in.host.Environ()
		for k, v := range env {
			envList = append(envList, k+"="+v)
		}
	}
	cmd, err := in.host.Prepare(runCtx, host.Command{Name: command, Args: args, Env: envList, Group: true})
	if err != nil {
		return nil, err
	}
	var cl *mcp.Client
	c.Block(func() {
		cl, err = mcp.Stdio(c.th.ctx, name, cmd, func(cmd *exec.Cmd) error { return host.Start(runCtx, cmd) })
	})
	return cl, err
}

// mcpConnectHTTP connects to an MCP endpoint through the host's client.
func mcpConnectHTTP(c *Call, name, url string, opts mcp.HTTPOptions) (*mcp.Client, error) {
	var cl *mcp.Client
	var err error
	c.Block(func() {
		cl, err = mcp.HTTP(c.th.ctx, name, url, c.th.in.host.HTTPClient(mcp.DefaultTimeout), opts)
	})
	return cl, err
}

// mcpCall runs fn with the turn released (the server answers while other
// tasks run).
func mcpCall[T any](c *Call, fn func(ctx context.Context) (T, error)) (T, error) {
	var out T
	var err error
	c.Block(func() { out, err = fn(c.th.ctx) })
	if err != nil {
		return out, mcpError(c, err)
	}
	return out, nil
}

// mcpArgs converts an arguments dict for the wire; anything else is no
// arguments.
func mcpArgs(v Value) map[string]any {
	if v.k != KindDict {
		return map[string]any{}
	}
	m, _ := toGo(v).(map[string]any)
	return m
}

// mcpCardCache keeps the server cards a run read, by source.
type mcpCardCache struct {
	mu    sync.Mutex
	cards map[string]Value
}

func installMcpClient(lib *Library) {
	lib.Builtin("mcp_connect", func(c *Call, args []Value) (Value, error) {
		command := Display(Arg(args, 0))
		if Arg(args, 0).k == KindNil || command == "" {
			return Nil, throwValue(Str("mcp_connect: command is required"))
		}
		var argv []string
		if l := Arg(args, 1); l.k == KindList {
			for _, a := range l.r.(*List).items {
				argv = append(argv, Display(a))
			}
		}
		cl, err := mcpConnectStdio(c, command, command, argv, nil)
		if err != nil {
			var denied *host.DeniedError
			if errors.As(err, &denied) {
				return Nil, ioError(c.Name, err)
			}
			var rpc *mcp.RPCError
			if errors.As(err, &rpc) {
				return Nil, throwValue(Str(rpc.Error()))
			}
			return Nil, throwValue(Str("mcp_connect: " + err.Error()))
		}
		return mcpClientValue(cl), nil
	})
	lib.Builtin("mcp_list_tools", func(c *Call, args []Value) (Value, error) {
		cl, err := mcpClientArg(c, args, 0, "argument")
		if err != nil {
			return Nil, err
		}
		tools, err := mcpCall(c, func(ctx context.Context) ([]any, error) { return cl.List(ctx, "tools/list", "tools") })
		if err != nil {
			return Nil, err
		}
		out := make([]Value, len(tools))
		for i, t := range tools {
			if m, ok := t.(map[string]any); ok {
				if _, has := m["_mcp_server"]; !has {
					m["_mcp_server"] = cl.Name
				}
			}
			out[i] = fromGo(t)
		}
		return NewListValue(out), nil
	})
	lib.Builtin("mcp_call", func(c *Call, args []Value) (Value, error) {
		cl, err := mcpClientArg(c, args, 0, "first argument")
		if err != nil {
			return Nil, err
		}
		tool := Display(Arg(args, 1))
		if Arg(args, 1).k == KindNil || tool == "" {
			return Nil, throwValue(Str("mcp_call: tool name is required"))
		}
		res, err := mcpCall(c, func(ctx context.Context) (any, error) { return cl.CallTool(ctx, tool, mcpArgs(Arg(args, 2))) })
		if err != nil {
			return Nil, err
		}
		return fromGo(res), nil
	})
	lib.Builtin("mcp_server_info", func(c *Call, args []Value) (Value, error) {
		cl, err := mcpClientArg(c, args, 0, "argument")
		if err != nil {
			return Nil, err
		}
		if !cl.Connected() {
			return Nil, runtimeError("%s", mcp.ErrClosed.Error())
		}
		d := NewDict(2)
		d.Set("name", Str(cl.Name))
		d.Set("connected", Bool(true))
		return DictValue(d), nil
	})
	lib.Builtin("mcp_disconnect", func(c *Call, args []Value) (Value, error) {
		cl, err := mcpClientArg(c, args, 0, "argument")
		if err != nil {
			return Nil, err
		}
		c.Block(func() { cl.Close() })
		return Nil, nil
	})
	list := func(name, method, key string) {
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			cl, err := mcpClientArg(c, args, 0, "argument")
			if err != nil {
				return Nil, err
			}
			items, err := mcpCall(c, func(ctx context.Context) ([]any, error) { return cl.List(ctx, method, key) })
			if err != nil {
				return Nil, err
			}
			return fromGo(items), nil
		})
	}
	list("mcp_list_resources", "resources/list", "resources")
	list("mcp_list_resource_templates", "resources/templates/list", "resourceTemplates")
	list("mcp_list_prompts", "prompts/list", "prompts")
	lib.Builtin("mcp_read_resource", func(c *Call, args []Value) (Value, error) {
		cl, err := mcpClientArg(c, args, 0, "first argument")
		if err != nil {
			return Nil, err
		}
		uri := Display(Arg(args, 1))
		if Arg(args, 1).k == KindNil || uri == "" {
			return Nil, throwValue(Str("mcp_read_resource: URI is required"))
		}
		x, err := mcpCall(c, func(ctx context.Context) (any, error) {
			raw, err := cl.Call(ctx, "resources/read", map[string]any{"uri": uri})
			if err != nil {
				return nil, err
			}
			return mcp.Decode(raw)
		})
		if err != nil {
			return Nil, err
		}
		res, _ := x.(map[string]any)
		contents, _ := res["contents"].([]any)
		if len(contents) == 1 {
			if item, ok := contents[0].(map[string]any); ok {
				if t, ok := item["text"].(string); ok {
					return Str(t), nil
				}
			}
		}
		if len(contents) == 0 {
			return Nil, nil
		}
		return fromGo(contents), nil
	})
	lib.Builtin("mcp_get_prompt", func(c *Call, args []Value) (Value, error) {
		cl, err := mcpClientArg(c, args, 0, "first argument")
		if err != nil {
			return Nil, err
		}
		name := Display(Arg(args, 1))
		if Arg(args, 1).k == KindNil || name == "" {
			return Nil, throwValue(Str("mcp_get_prompt: prompt name is required"))
		}
		x, err := mcpCall(c, func(ctx context.Context) (any, error) {
			raw, err := cl.Call(ctx, "prompts/get", map[string]any{"name": name, "arguments": mcpArgs(Arg(args, 2))})
			if err != nil {
				return nil, err
			}
			return mcp.Decode(raw)
		})
		if err != nil {
			return Nil, err
		}
		return fromGo(x), nil
	})
	lib.Builtin("mcp_server_card", mcpServerCard)
}

// mcpServerCard reads a server card: a URL is fetched (behind
// --allow-net), a path read (behind the file grants); a bare name would be
// a server registered in harn.toml, which a run does not read. A run
// reads each card once.
func mcpServerCard(c *Call, args []Value) (Value, error) {
	target := Display(Arg(args, 0))
	if Arg(args, 0).k == KindNil || target == "" {
		return Nil, throwValue(Str("mcp_server_card: server name, URL, or path is required"))
	}
	isURL := strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://")
	if !isURL && !strings.ContainsAny(target, `/\`) && !strings.HasSuffix(target, ".json") {
		return Nil, throwValue(Str("mcp_server_card: no MCP server '" + target + "' registered (check harn.toml) — pass a URL or path directly instead"))
	}
	cache := c.th.in.State("mcp_cards", func() any { return &mcpCardCache{cards: map[string]Value{}} }).(*mcpCardCache)
	cache.mu.Lock()
	v, ok := cache.cards[target]
	cache.mu.Unlock()
	if ok {
		return v, nil
	}
	var text string
	if isURL {
		resp, err := doHTTP(c, "GET", target, Nil)
		if err != nil {
			return Nil, err
		}
		d := resp.AsDict()
		if st, _ := d.Get("status"); st.k == KindInt && (int64(st.n) < 200 || int64(st.n) > 299) {
			return Nil, throwValue(Str("mcp_server_card: " + target + ": HTTP status " + Display(st)))
		}
		body, _ := d.Get("body")
		text = Display(body)
	} else {
		var b []byte
		var err error
		c.Block(func() { b, err = c.th.in.host.ReadFile(target) })
		if err != nil {
			return Nil, ioError("mcp_server_card: "+target, err)
		}
		text = string(b)
	}
	card, err := ParseJSON(text)
	if err != nil {
		return Nil, throwValue(Str("mcp_server_card: " + target + ": not a JSON server card: " + err.Error()))
	}
	if card.k != KindDict {
		return Nil, throwValue(Str("mcp_server_card: " + target + ": a server card is a JSON object"))
	}
	cache.mu.Lock()
	cache.cards[target] = card
	cache.mu.Unlock()
	return card, nil
}

// agentMCPServers connects the servers of agent_loop's mcp_servers option
// ({name, transport: "stdio" | "http", command, args, env, url,
// auth_token, protocol_version}) and returns the options with their tools
// added to `tools`, each named server__tool and answered by its server,
// and a function that disconnects them all. Without the option, opts is
// returned as it is.
func agentMCPServers(c *Call, fn string, opts *Dict) (*Dict, func(), error) {
	specs, ok := opts.Get("mcp_servers")
	if !ok || specs.k == KindNil {
		return opts, func() {}, nil
	}
	if specs.k != KindList {
		return nil, nil, runtimeError("%s: `mcp_servers` must be a list of server config dicts", fn)
	}
	var clients []*mcp.Client
	closeAll := func() {
		for _, cl := range clients {
			c.Block(func() { cl.Close() })
		}
	}
	fail := func(err error) (*Dict, func(), error) {
		closeAll()
		return nil, nil, err
	}
	var tools []Value
	if t, ok := opts.Get("tools"); ok && t.k != KindNil {
		if t.k == KindList {
			tools = append(tools, t.r.(*List).SharedItems()...)
		} else {
			ts, err := registryTools(c, t)
			if err != nil {
				return nil, nil, runtimeError("%s: `tools` must be a tool registry or list when `mcp_servers` is used", fn)
			}
			tools = append(tools, ts...)
		}
	}
	seen := map[string]bool{}
	for _, t := range tools {
		seen[toolName(t)] = true
	}
	names := map[string]bool{}
	for _, s := range specs.r.(*List).items {
		if s.k != KindDict {
			return fail(runtimeError("%s: each `mcp_servers` entry must be a dict", fn))
		}
		d := s.AsDict()
		name := strings.TrimSpace(dictString(d, "name"))
		if name == "" {
			return fail(runtimeError("%s: every `mcp_servers` entry requires a non-empty `name`", fn))
		}
		if names[name] {
			return fail(runtimeError("%s: duplicate MCP server name `%s` in `mcp_servers`", fn, name))
		}
		names[name] = true
		var cl *mcp.Client
		var err error
		switch transport := orDefault(dictString(d, "transport"), "stdio"); transport {
		case "http":
			cl, err = mcpConnectHTTP(c, name, dictString(d, "url"), mcp.HTTPOptions{
				AuthToken: dictString(d, "auth_token"), ProtocolVersion: dictString(d, "protocol_version")})
		case "stdio":
			var command string
			var argv []string
			cmd, _ := d.Get("command")
			switch cmd.k {
			case KindString:
				command = cmd.AsString()
			case KindList:
				for _, a := range cmd.r.(*List).items {
					argv = append(argv, Display(a))
				}
				if len(argv) > 0 {
					command, argv = argv[0], argv[1:]
				}
			}
			if command == "" {
				return fail(runtimeError("%s: MCP server `%s` needs a `command`", fn, name))
			}
			if a, ok := d.Get("args"); ok && a.k == KindList {
				argv = argv[:0]
				for _, x := range a.r.(*List).items {
					argv = append(argv, Display(x))
				}
			}
			env := map[string]string{}
			if e, ok := d.Get("env"); ok && e.k == KindDict {
				for _, k := range e.AsDict().Keys() {
					v, _ := e.AsDict().Get(k)
					env[k] = Display(v)
				}
			}
			cl, err = mcpConnectStdio(c, name, command, argv, env)
		default:
			return fail(runtimeError("%s: MCP server `%s` has unknown transport %q", fn, name, transport))
		}
		if err != nil {
			return fail(mcpError(c, err))
		}
		clients = append(clients, cl)
		listed, err := mcpCall(c, func(ctx context.Context) ([]any, error) { return cl.List(ctx, "tools/list", "tools") })
		if err != nil {
			return fail(err)
		}
		for _, t := range listed {
			m, _ := t.(map[string]any)
			orig, _ := m["name"].(string)
			if strings.TrimSpace(orig) == "" {
				return fail(runtimeError("%s: MCP server `%s` returned a tool without a name", fn, name))
			}
			entry := mcpToolEntry(cl, name, orig, m)
			if seen[toolName(entry)] {
				return fail(runtimeError("%s: duplicate tool name `%s`", fn, toolName(entry)))
			}
			seen[toolName(entry)] = true
			tools = append(tools, entry)
		}
	}
	out := opts.clone()
	reg := NewDict(2)
	reg.Set("_type", Str("tool_registry"))
	reg.Set("tools", NewListValue(tools))
	out.Set("tools", DictValue(reg))
	return out, closeAll, nil
}

// mcpToolEntry is a tool registry entry for tool orig of a server: its
// input schema as parameters, answered by the server.
func mcpToolEntry(cl *mcp.Client, server, orig string, tool map[string]any) Value {
	schema, _ := tool["inputSchema"].(map[string]any)
	if schema == nil {
		schema, _ = tool["input_schema"].(map[string]any)
	}
	required := map[string]bool{}
	var requiredList []any
	if rs, ok := schema["required"].([]any); ok {
		for _, r := range rs {
			if s, ok := r.(string); ok {
				required[s] = true
				requiredList = append(requiredList, s)
			}
		}
	}
	params := NewDict(0)
	if props, ok := schema["properties"].(map[string]any); ok {
		for name, p := range props {
			v := fromGo(p)
			if v.k == KindDict {
				d := v.AsDict()
				d.Set("required", Bool(required[name]))
			}
			params.Set(name, v)
		}
	}
	desc, _ := tool["description"].(string)
	e := NewDict(8)
	e.Set("name", Str(server+"__"+orig))
	e.Set("description", Str(desc))
	e.Set("parameters", DictValue(params))
	e.Set("annotations", fromGo(map[string]any{"kind": "fetch", "side_effect_level": "network",
		"arg_schema": map[string]any{"required": append([]any{}, requiredList...)}}))
	e.Set("executor", Str("mcp_server"))
	e.Set("mcp_server", Str(server))
	e.Set("_mcp_server", Str(server))
	e.Set("_mcp_tool_name", Str(orig))
	if o, ok := tool["outputSchema"]; ok {
		e.Set("outputSchema", fromGo(o))
	}
	e.Set("handler", BuiltinValue(server+"__"+orig, func(c *Call, args []Value) (Value, error) {
		res, err := mcpCall(c, func(ctx context.Context) (any, error) { return cl.CallTool(ctx, orig, mcpArgs(Arg(args, 0))) })
		if err != nil {
			return Nil, err
		}
		return fromGo(res), nil
	}))
	return DictValue(e)
}
