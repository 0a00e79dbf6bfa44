package harn

import (
	"strconv"
	"strings"
)

// tool_bind, tool_ref, tool_def: a program binds a tool registry to the
// run (tool_bind(nil) unbinds it) and then names its tools through it:
// tool_ref(name) is the name when the bound registry has that tool,
// tool_def(name) its entry without the handler; an unknown name or no
// bound registry is an error that says which.

type boundTools struct{ registry Value }

func boundToolsOf(c *Call) *boundTools {
	return c.th.in.State("bound_tools", func() any { return &boundTools{} }).(*boundTools)
}

// boundTool is the bound registry's entry named by the first argument.
func boundTool(c *Call, fn string, args []Value) (*Dict, string, error) {
	n := Arg(args, 0)
	if n.k != KindString {
		return nil, "", throwValue(Str(fn + ": name must be a string literal"))
	}
	name := n.AsString()
	b := boundToolsOf(c)
	c.th.in.mu.Lock()
	reg := b.registry
	c.th.in.mu.Unlock()
	if reg.k == KindNil {
		return nil, name, throwValue(Str(fn + ": no tool registry bound to this scope. Call tool_bind(registry) first, or invoke inside an agent_loop."))
	}
	tools, err := registryTools(c, reg)
	if err != nil {
		return nil, name, err
	}
	var names []string
	for _, t := range tools {
		if toolName(t) == name {
			return t.AsDict(), name, nil
		}
		names = append(names, toolName(t))
	}
	listed := "(none registered)"
	if len(names) > 0 {
		listed = strings.Join(names, ", ")
	}
	return nil, name, throwValue(Str(fn + ": unknown tool " + strconv.Quote(name) + ". Registered tools: " + listed))
}

func installToolBind(lib *Library) {
	lib.Builtin("tool_bind", func(c *Call, args []Value) (Value, error) {
		reg := Arg(args, 0)
		if reg.k != KindNil {
			if _, err := registryTools(&Call{th: c.th, Name: "tool_bind"}, reg); err != nil {
				return Nil, throwValue(Str("tool_bind: argument must be a tool registry or nil"))
			}
		}
		b := boundToolsOf(c)
		c.th.in.mu.Lock()
		b.registry = reg
		c.th.in.mu.Unlock()
		return reg, nil
	})
	lib.Builtin("tool_ref", func(c *Call, args []Value) (Value, error) {
		_, name, err := boundTool(c, "tool_ref", args)
		if err != nil {
			return Nil, err
		}
		return Str(name), nil
	})
	lib.Builtin("tool_def", func(c *Call, args []Value) (Value, error) {
		t, _, err := boundTool(c, "tool_def", args)
		if err != nil {
			return Nil, err
		}
		out := NewDict(t.Len())
		for _, k := range t.Keys() {
			if k != "handler" {
				v, _ := t.Get(k)
				out.Set(k, v)
			}
		}
		return DictValue(out), nil
	})
}
