package ai

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Messages are plain tables: {role, text} for system, user and assistant;
// {role: "assistant", tool_call: {id, tool, args}} for a tool call;
// {role: "tool", tool_use_id, value} or {..., error} for its result.
// Extra fields (a tag, a name) are kept and never sent to a provider.

// Message builds {role, text}.
func Message(role, text string) leia.Value { return T("role", role, "text", text) }

// AssistantCall builds the assistant message of a tool call.
func AssistantCall(call leia.Value) leia.Value { return T("role", "assistant", "tool_call", call) }

// ToolResult builds a tool result message.
func ToolResult(id, value leia.Value) leia.Value {
	return T("role", "tool", "tool_use_id", id, "value", value)
}

// ToolError builds a tool error message.
func ToolError(id leia.Value, message string) leia.Value {
	return T("role", "tool", "tool_use_id", id, "error", message)
}

func messageFamily(module string) Family {
	return func(rt *Runtime) map[string]leia.NativeFunc {
		text := func(role string) leia.NativeFunc {
			return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				if len(a) < 1 {
					return nil, fmt.Errorf("bad argument #1 to '%s.%s' (text expected)", module, role)
				}
				return t.Ret1(Message(role, textOf(t, a[0]))), nil
			}
		}
		call := func(name string) leia.NativeFunc {
			return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				if leia.Arg(a, 0).Table() == nil {
					return nil, fmt.Errorf("bad argument #1 to '%s.%s' (table expected)", module, name)
				}
				return t.Ret1(AssistantCall(a[0])), nil
			}
		}
		result := func(name string) leia.NativeFunc {
			return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				if len(a) < 2 {
					return nil, fmt.Errorf("bad argument to '%s.%s' (id, value expected)", module, name)
				}
				return t.Ret1(ToolResult(a[0], a[1])), nil
			}
		}
		toolErr := func(name string) leia.NativeFunc {
			return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
				if len(a) < 2 {
					return nil, fmt.Errorf("bad argument to '%s.%s' (id, message expected)", module, name)
				}
				msg := a[1]
				if m := Field(msg, "message"); m.Kind() == leia.KindString {
					msg = m
				}
				return t.Ret1(ToolError(a[0], t.ToString(msg))), nil
			}
		}
		return map[string]leia.NativeFunc{
			"system": text("system"), "user": text("user"), "assistant": text("assistant"),
			"assistant_call": call("assistant_call"), "assistantCall": call("assistantCall"),
			"tool_result": result("tool_result"), "toolResult": result("toolResult"),
			"tool_error": toolErr("tool_error"), "toolError": toolErr("toolError"),
		}
	}
}

// historyFamily is the history module: queries over a message list.
//
// A filter table matches a message when every key matches: role; tool
// (the tool_call's tool; tool-role messages never match); tool_use_id or
// id (the message's tool_use_id or its tool_call's id); has_error (the
// truthiness of the filter against the presence of error); any other key
// compares the message's field for equality.
func historyFamily(rt *Runtime) map[string]leia.NativeFunc {
	find := func(name string, last bool) leia.NativeFunc {
		return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			items, filter, err := historyArgs(a, name)
			if err != nil {
				return nil, err
			}
			idx := -1
			for i, m := range items {
				if matches(t, m, filter) {
					idx = i
					if !last {
						break
					}
				}
			}
			if idx < 0 {
				return t.Ret2(leia.Nil, leia.Int(-1)), nil
			}
			return t.Ret2(items[idx], leia.Int(int64(idx+1))), nil
		}
	}
	return map[string]leia.NativeFunc{
		"find": find("find", false),
		"last": find("last", true),
		"find_all": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			items, filter, err := historyArgs(a, "find_all")
			if err != nil {
				return nil, err
			}
			var out []leia.Value
			for _, m := range items {
				if matches(t, m, filter) {
					out = append(out, m)
				}
			}
			return t.Ret1(List(out...)), nil
		},
		"append": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			h := leia.Arg(a, 0).Table()
			if h == nil {
				return nil, fmt.Errorf("bad argument #1 to 'history.append' (table expected)")
			}
			for _, m := range a[1:] {
				h.Append(m)
			}
			return t.Ret1(a[0]), nil
		},
	}
}

func historyArgs(a []leia.Value, name string) ([]leia.Value, leia.Value, error) {
	if leia.Arg(a, 0).Table() == nil {
		return nil, leia.Nil, fmt.Errorf("bad argument #1 to 'history.%s' (table expected)", name)
	}
	f := leia.Arg(a, 1)
	if !f.IsNil() && f.Table() == nil {
		return nil, leia.Nil, fmt.Errorf("bad argument #2 to 'history.%s' (filter table expected)", name)
	}
	return Items(a[0]), f, nil
}

func matches(t *leia.Thread, m, filter leia.Value) bool {
	if m.Table() == nil {
		return false
	}
	ok := true
	filter.Table().Iter(func(k, want leia.Value) bool {
		if k.Kind() != leia.KindString {
			return true
		}
		switch key := k.AsString(); key {
		case "tool":
			call := Field(m, "tool_call")
			ok = StrField(m, "role") != "tool" && call.Table() != nil && t.Equal(Field(call, "tool"), want)
		case "tool_use_id", "id":
			got := Field(m, "tool_use_id")
			if got.IsNil() {
				got = Field(Field(m, "tool_call"), "id")
			}
			ok = t.Equal(got, want)
		case "has_error":
			ok = want.Truthy() == !Field(m, "error").IsNil()
		default:
			ok = t.Equal(Field(m, key), want)
		}
		return ok
	})
	return ok
}

// chatFamily is the chat module: chat.merge(a, b, ...) concatenates
// message lists into a new list; chat.window(history, max_tokens) keeps
// the newest messages that fit an estimated token budget (system
// messages first are always kept).
func chatFamily(rt *Runtime) map[string]leia.NativeFunc {
	return map[string]leia.NativeFunc{
		"merge": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			var out []leia.Value
			for i, l := range a {
				if l.Table() == nil {
					return nil, fmt.Errorf("bad argument #%d to 'chat.merge' (message list expected)", i+1)
				}
				out = append(out, Items(l)...)
			}
			return t.Ret1(List(out...)), nil
		},
		"window": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil {
				return nil, fmt.Errorf("bad argument #1 to 'chat.window' (message list expected)")
			}
			n, err := leia.CheckInt(a, 1, "window")
			if err != nil {
				return nil, err
			}
			return t.Ret1(List(window(Items(a[0]), n)...)), nil
		},
		"tokens": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			var n int64
			for _, m := range Items(leia.Arg(a, 0)) {
				n += messageTokens(m)
			}
			return t.Ret1(leia.Int(n)), nil
		},
	}
}

// textOf is the text of a message argument: a string or number as
// text, a prompt or message table's text field, else tostring.
func textOf(t *leia.Thread, v leia.Value) string {
	switch v.Kind() {
	case leia.KindString, leia.KindInt, leia.KindFloat:
		return Str(v)
	case leia.KindTable:
		if tx := Field(v, "text"); tx.Kind() == leia.KindString {
			return tx.AsString()
		}
	}
	return t.ToString(v)
}

// messageTokens estimates a message's tokens (runtime/llm's estimator
// over its text, value and error).
func messageTokens(m leia.Value) int64 {
	n := llm.EstimateTextTokens(StrField(m, "text")) + llm.EstimateTextTokens(StrField(m, "error"))
	if v := Field(m, "value"); !v.IsNil() {
		n += llm.EstimateTextTokens(llm.ValueText(ToGo(v)))
	}
	if c := Field(m, "tool_call"); !c.IsNil() {
		n += llm.EstimateTextTokens(llm.ToolArgsJSON(argsToGo(Field(c, "args"))))
	}
	return int64(n) + 1
}

// window keeps leading system messages and the newest others within max
// estimated tokens; a tool result is never kept without its call.
func window(items []leia.Value, max int64) []leia.Value {
	if max <= 0 {
		return items
	}
	var head []leia.Value
	i := 0
	for ; i < len(items) && StrField(items[i], "role") == "system"; i++ {
		head = append(head, items[i])
		max -= messageTokens(items[i])
	}
	start := len(items)
	for j := len(items) - 1; j >= i; j-- {
		cost := messageTokens(items[j])
		if cost > max {
			break
		}
		max -= cost
		start = j
	}
	for start < len(items) && StrField(items[start], "role") == "tool" {
		start++
	}
	return append(head, items[start:]...)
}
