// Package mcptest is a small MCP server over stdio for tests of MCP
// clients: tools echo, add, fail, pid (the server's process id) and crash, one resource, one resource
// template, one prompt. Before answering it writes a log line to stdout
// (clients must skip it) and, for tools/call, first asks the client for
// its roots (clients without that capability answer with an error).
package mcptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// Serve answers requests read from r on w until r ends or the crash tool
// is called (then it writes to stderr and exits with status 3).
func Serve(r io.Reader, w io.Writer) error {
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "%s\n", b)
	}
	reply := func(id json.RawMessage, result any) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	}
	fail := func(id json.RawMessage, code int, msg string) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	}
	text := func(s string, isErr bool) map[string]any {
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}, "isError": isErr}
	}
	for in.Scan() {
		var m message
		if json.Unmarshal(in.Bytes(), &m) != nil || m.Method == "" {
			continue // responses (to our roots request) and junk
		}
		if m.ID == nil {
			continue // notifications
		}
		var p struct {
			Name      string         `json:"name"`
			URI       string         `json:"uri"`
			Arguments map[string]any `json:"arguments"`
		}
		json.Unmarshal(m.Params, &p)
		fmt.Fprintln(w, "fixture: handling "+m.Method)
		switch m.Method {
		case "initialize":
			reply(m.ID, map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "fixture", "version": "1.0.0"}})
		case "tools/list":
			reply(m.ID, map[string]any{"tools": []any{
				map[string]any{"name": "echo", "description": "Echo a message", "inputSchema": map[string]any{"type": "object"}},
				map[string]any{"name": "add", "description": "Add a and b", "inputSchema": map[string]any{"type": "object"}},
				map[string]any{"name": "fail", "description": "Always fails", "inputSchema": map[string]any{"type": "object"}},
				map[string]any{"name": "pid", "description": "The server's process id", "inputSchema": map[string]any{"type": "object"}},
				map[string]any{"name": "crash", "description": "Exits", "inputSchema": map[string]any{"type": "object"}},
			}})
		case "tools/call":
			send(map[string]any{"jsonrpc": "2.0", "id": "roots-1", "method": "roots/list"})
			switch p.Name {
			case "echo":
				reply(m.ID, text(fmt.Sprint(p.Arguments["message"]), false))
			case "add":
				a, _ := p.Arguments["a"].(float64)
				b, _ := p.Arguments["b"].(float64)
				reply(m.ID, text(fmt.Sprint(a+b), false))
			case "fail":
				reply(m.ID, text("intentional error", true))
			case "pid":
				reply(m.ID, text(fmt.Sprint(os.Getpid()), false))
			case "crash":
				fmt.Fprintln(os.Stderr, "fixture: crashing on purpose")
				os.Exit(3)
			default:
				fail(m.ID, -32601, "Unknown tool: "+p.Name)
			}
		case "resources/list":
			reply(m.ID, map[string]any{"resources": []any{map[string]any{"uri": "fixture://readme", "name": "readme"}}})
		case "resources/read":
			reply(m.ID, map[string]any{"contents": []any{map[string]any{"uri": p.URI, "text": "contents of " + p.URI}}})
		case "resources/templates/list":
			reply(m.ID, map[string]any{"resourceTemplates": []any{map[string]any{"uriTemplate": "fixture://{name}", "name": "any"}}})
		case "prompts/list":
			reply(m.ID, map[string]any{"prompts": []any{map[string]any{"name": "greet"}}})
		case "prompts/get":
			reply(m.ID, map[string]any{"messages": []any{map[string]any{"role": "user",
				"content": map[string]any{"type": "text", "text": fmt.Sprint("hello ", p.Arguments["who"])}}}})
		default:
			fail(m.ID, -32601, "Method not found: "+m.Method)
		}
	}
	return in.Err()
}
