package harn

import (
	"path"
	"sync"
)

// Tool hooks: register_tool_hook({pattern, deny?, max_output?, pre?,
// post?}) applies to every tool an agent loop dispatches whose name
// matches the glob pattern. deny rejects the call (permission_denied,
// with the hook's text as the reason); pre is a closure given {tool,
// args} that may return false or a string to deny, or a dict of new
// arguments; max_output cuts a longer result and marks it snipped; post
// is a closure given {tool, args, result} whose string return replaces
// the result. clear_tool_hooks removes them all. Hooks belong to one run.

type toolHook struct {
	pattern   string
	deny      string
	maxOutput int
	pre, post Value
}

type toolHooks struct {
	mu    sync.Mutex
	hooks []toolHook
}

func hooksOf(c *Call) *toolHooks {
	return c.th.in.State("tool_hooks", func() any { return &toolHooks{} }).(*toolHooks)
}

// matching lists the hooks whose pattern matches the tool name.
func (h *toolHooks) matching(name string) []toolHook {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []toolHook
	for _, k := range h.hooks {
		if ok, _ := path.Match(k.pattern, name); ok || k.pattern == name {
			out = append(out, k)
		}
	}
	return out
}

// hookPre runs the pre-dispatch hooks (harn.toml's first, see
// lib_manifest_hooks.go): a denial reason ("" to go on) and the
// arguments to call with.
func hookPre(c *Call, name string, args Value) (string, Value, error) {
	reason, args, err := manifestPre(c, name, args)
	if err != nil || reason != "" {
		return reason, args, err
	}
	for _, k := range hooksOf(c).matching(name) {
		if k.deny != "" {
			return k.deny, args, nil
		}
		if k.pre.k == KindNil {
			continue
		}
		in := NewDict(2)
		in.Set("tool", Str(name))
		in.Set("args", args)
		v, err := c.Invoke(k.pre, DictValue(in))
		if err != nil {
			return "", args, err
		}
		switch v.k {
		case KindBool:
			if !v.AsBool() {
				return "denied by tool hook", args, nil
			}
		case KindString:
			if v.AsString() != "" {
				return v.AsString(), args, nil
			}
		case KindDict:
			args = v
		}
	}
	return "", args, nil
}

// hookPost runs the post-dispatch hooks over a tool's result text.
func hookPost(c *Call, name string, args Value, result string) (string, error) {
	result, err := manifestPost(c, name, args, result)
	if err != nil {
		return "", err
	}
	for _, k := range hooksOf(c).matching(name) {
		if k.post.k != KindNil {
			in := NewDict(3)
			in.Set("tool", Str(name))
			in.Set("args", args)
			in.Set("result", Str(result))
			v, err := c.Invoke(k.post, DictValue(in))
			if err != nil {
				return "", err
			}
			if v.k == KindString {
				result = v.AsString()
			}
		}
		if k.maxOutput > 0 && len([]rune(result)) > k.maxOutput {
			r := []rune(result)
			result = string(r[:k.maxOutput]) + "\n[... output snipped: " + itoa(int64(len(r)-k.maxOutput)) + " characters omitted by a tool hook ...]"
		}
	}
	return result, nil
}

func installToolHooks(lib *Library) {
	lib.Builtin("register_tool_hook", func(c *Call, args []Value) (Value, error) {
		cfg := Arg(args, 0)
		if cfg.k != KindDict {
			return Nil, throwValue(Str("register_tool_hook: config must be a dict"))
		}
		d := cfg.r.(*Dict)
		k := toolHook{pattern: "*"}
		if p := dictString(d, "pattern"); p != "" {
			k.pattern = p
		}
		if v, ok := d.Get("deny"); ok && v.k != KindNil && !(v.k == KindBool && !v.AsBool()) {
			k.deny = Display(v)
			if v.k == KindBool {
				k.deny = "denied by tool hook"
			}
		}
		if v, ok := d.Get("max_output"); ok && v.k == KindInt {
			k.maxOutput = int(v.AsInt())
		}
		k.pre, _ = d.Get("pre")
		k.post, _ = d.Get("post")
		h := hooksOf(c)
		h.mu.Lock()
		h.hooks = append(h.hooks, k)
		h.mu.Unlock()
		return Nil, nil
	})
	lib.Builtin("clear_tool_hooks", func(c *Call, args []Value) (Value, error) {
		h := hooksOf(c)
		h.mu.Lock()
		h.hooks = nil
		h.mu.Unlock()
		return Nil, nil
	})
}
