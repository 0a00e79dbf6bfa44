package harn

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/harnlang/harn-check/catalog"
)

// Manifest hooks: the [[hooks]] of the program's harn.toml (catalog owns
// the file) are installed before the program runs. Each names an event,
// a pattern over the event's payload and a handler exported by a module:
// the package's own name is lib.harn beside harn.toml, an [exports] key
// its path, anything else an import specification. PreToolUse handlers
// get {event, tool: {name, args}} before an agent loop dispatches a tool
// and return nil (go on), {deny: reason} or {args: new arguments};
// PostToolUse handlers get {event, tool, result: {text}} and return nil,
// a string or {result} to replace the result. They run before the
// program's own register_tool_hook hooks, in file order. Patterns are
// upstream's event expressions: "*", `path =~ "regex"`, `path == "x"`,
// `path != "x"`, a dotted path that must be truthy, or a glob over the
// tool's name.

type manifestHook struct {
	event, pattern, handler string
	fn                      importRef
}

type manifestHooks struct{ hooks []manifestHook }

// loadManifestHooks loads the handler modules of the project's [[hooks]]
// and records the hooks; the modules still need initialising.
func (in *Interp) loadManifestHooks() ([]*module, error) {
	p := in.opts.Project
	if p == nil || p.Path == "" {
		return nil, nil
	}
	decl, err := p.Hooks()
	if err != nil || len(decl) == 0 {
		return nil, err
	}
	fail := func(h catalog.Hook, format string, a ...any) error {
		return fmt.Errorf("failed to install manifest hooks (%s): %s", p.Path, fmt.Sprintf(format, a...))
	}
	st := &manifestHooks{}
	var mods []*module
	for _, h := range decl {
		var path string
		var src []byte
		if file, ok := p.ModulePath(h.Module); ok {
			path = file
			if src, err = in.readModule(file); err != nil {
				return nil, fail(h, "module '%s' (%s): %v", h.Module, file, err)
			}
		} else if path, src, err = in.resolveImport(p.Path, h.Module); err != nil {
			return nil, fail(h, "%v", err)
		}
		m, err := in.load(path, src)
		if err != nil {
			return nil, err
		}
		ref, ok := m.exports[h.Function]
		if !ok {
			return nil, fail(h, "hook handler '%s' is not exported by module '%s'", h.Function, h.Module)
		}
		mods = append(mods, m)
		st.hooks = append(st.hooks, manifestHook{event: h.Event, pattern: h.Pattern, handler: h.Module + "::" + h.Function, fn: ref})
	}
	in.State("manifest_hooks", func() any { return st })
	return mods, nil
}

func manifestHooksOf(c *Call) []manifestHook {
	st := c.th.in.State("manifest_hooks", func() any { return &manifestHooks{} }).(*manifestHooks)
	return st.hooks
}

// payloadAt is the value at a dotted path of a payload (ok false when a
// segment is missing).
func payloadAt(v Value, path string) (Value, bool) {
	for seg := range strings.SplitSeq(path, ".") {
		if v.k != KindDict {
			return Nil, false
		}
		var ok bool
		if v, ok = v.r.(*Dict).Get(seg); !ok {
			return Nil, false
		}
	}
	return v, true
}

// payloadText is a payload value as a pattern compares it: strings as
// they are, anything else as JSON.
func payloadText(v Value, ok bool) string {
	if !ok {
		return ""
	}
	if v.k == KindString {
		return v.AsString()
	}
	return jsonText(v)
}

func unquotePattern(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}

// hookPatternMatches reports whether an event expression matches the
// payload; an invalid regular expression matches nothing.
func hookPatternMatches(pattern string, payload Value) bool {
	pattern = strings.TrimSpace(pattern)
	if pattern == "" || pattern == "*" {
		return true
	}
	for _, op := range []string{"=~", "==", "!="} {
		lhs, rhs, ok := strings.Cut(pattern, op)
		if !ok {
			continue
		}
		text := payloadText(payloadAt(payload, strings.TrimSpace(lhs)))
		switch op {
		case "=~":
			re, err := regexp.Compile(unquotePattern(rhs))
			return err == nil && re.MatchString(text)
		case "==":
			return text == unquotePattern(rhs)
		default:
			return text != unquotePattern(rhs)
		}
	}
	if strings.Contains(pattern, ".") {
		v, ok := payloadAt(payload, pattern)
		return ok && v.Truthy()
	}
	return globMatches(pattern, payloadText(payloadAt(payload, "tool.name")))
}

func hookPayload(event, name string, args Value) *Dict {
	tool := NewDict(2)
	tool.Set("name", Str(name))
	tool.Set("args", args)
	d := NewDict(3)
	d.Set("event", Str(event))
	d.Set("tool", DictValue(tool))
	return d
}

// manifestPre runs the PreToolUse hooks: a denial reason ("" to go on)
// and the arguments to call with.
func manifestPre(c *Call, name string, args Value) (string, Value, error) {
	for _, h := range manifestHooksOf(c) {
		if h.event != "PreToolUse" {
			continue
		}
		payload := DictValue(hookPayload("PreToolUse", name, args))
		if !hookPatternMatches(h.pattern, payload) {
			continue
		}
		v, err := c.Invoke(h.fn.mod.globals[h.fn.index], payload)
		if err != nil {
			return "", args, err
		}
		switch v.k {
		case KindNil:
		case KindDict:
			d := v.r.(*Dict)
			if reason, ok := d.Get("deny"); ok {
				return Display(reason), args, nil
			}
			if a, ok := d.Get("args"); ok {
				args = a
			}
		default:
			return "", args, runtimeError("PreToolUse hook %s must return nil or {deny, args}, got %s", h.handler, v.TypeName())
		}
	}
	return "", args, nil
}

// manifestPost runs the PostToolUse hooks over a tool's result text.
func manifestPost(c *Call, name string, args Value, result string) (string, error) {
	for _, h := range manifestHooksOf(c) {
		if h.event != "PostToolUse" {
			continue
		}
		d := hookPayload("PostToolUse", name, args)
		d.Set("result", DictValue(strDict("text", result)))
		payload := DictValue(d)
		if !hookPatternMatches(h.pattern, payload) {
			continue
		}
		v, err := c.Invoke(h.fn.mod.globals[h.fn.index], payload)
		if err != nil {
			return "", err
		}
		switch v.k {
		case KindNil:
		case KindString:
			result = v.AsString()
		case KindDict:
			if r, ok := v.r.(*Dict).Get("result"); ok {
				result = Display(r)
			}
		default:
			return "", runtimeError("PostToolUse hook %s must return nil, string, or {result}, got %s", h.handler, v.TypeName())
		}
	}
	return result, nil
}
