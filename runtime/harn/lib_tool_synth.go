package harn

import (
	"encoding/hex"
	"sort"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/internal/blake3"
)

// tool_synthesize(spec) pins a tool from a description: its name (given,
// or made from the description), parameters, return type, capabilities
// (sorted, so their order does not matter) and side-effect level (given,
// or inferred from the capabilities), and an executor: dry_run (the
// default: a call validates its arguments and returns what it would
// have done), host_bridge or mcp_server (which need a host this runtime
// does not have). The result is a callable; the spec is cached under a
// deterministic id (tool_synthesis_cache, tool_synthesis_clear).

type synthSpec struct {
	id, name, description, sideEffect, executor, target string
	parameters, returnType                              Value
	capabilities                                        []string
}

type synthCache struct{ specs []*synthSpec }

func synthCacheOf(c *Call) *synthCache {
	return c.th.in.State("tool_synthesis", func() any { return &synthCache{} }).(*synthCache)
}

func synthName(desc string) string {
	var b strings.Builder
	b.WriteString("synth_")
	gap := false
	for _, r := range desc {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			if gap && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
			b.WriteRune(r | 0x20*boolInt(r >= 'A' && r <= 'Z'))
			gap = false
		} else {
			gap = true
		}
		if b.Len() >= 64 {
			break
		}
	}
	name := strings.TrimRight(b.String(), "_")
	if name == "synth" {
		name = "synth_tool"
	}
	return name
}

func boolInt(b bool) rune {
	if b {
		return 1
	}
	return 0
}

func inferSideEffect(caps []string) string {
	has := func(prefixes ...string) bool {
		for _, c := range caps {
			for _, p := range prefixes {
				if strings.HasPrefix(c, p) {
					return true
				}
			}
		}
		return false
	}
	switch {
	case has("http", "oauth", "network", "connector", "mcp"):
		return "network"
	case has("process", "exec", "shell"):
		return "process_exec"
	case has("workspace.write", "workspace.apply", "workspace.delete"):
		return "workspace_write"
	case len(caps) == 0:
		return "none"
	}
	return "read_only"
}

func parseSynthSpec(v Value) (*synthSpec, error) {
	const fn = "tool_synthesize"
	cfg := v.AsDict()
	if v.k != KindDict || cfg == nil {
		return nil, throwValue(Str(fn + ": requires a config dict"))
	}
	if h, ok := cfg.Get("handler"); ok && h.k != KindNil {
		return nil, throwValue(Str(fn + ": executable handlers must be supplied with tool_define; synthesized tools are dry-run, host_bridge, or mcp_server only"))
	}
	s := &synthSpec{description: strings.TrimSpace(dictString(cfg, "description"))}
	if d, _ := cfg.Get("description"); d.k != KindString || s.description == "" {
		return nil, throwValue(Str(fn + ": description must be a non-empty string"))
	}
	s.description = dictString(cfg, "description")
	s.name = dictString(cfg, "name")
	if strings.TrimSpace(s.name) == "" {
		s.name = synthName(s.description)
	}
	for i, r := range s.name {
		if !(r == '_' || r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9')) {
			return nil, throwValue(Str(fn + ": invalid tool name " + strconv.Quote(s.name) + "; use ASCII letters, digits, and underscores"))
		}
	}
	s.parameters = DictValue(NewDict(0))
	for _, k := range []string{"parameters", "params"} {
		if p, ok := cfg.Get(k); ok {
			s.parameters = p
			break
		}
	}
	for _, k := range []string{"return_type", "returns"} {
		if p, ok := cfg.Get(k); ok {
			s.returnType = p
			break
		}
	}
	if c, ok := cfg.Get("capabilities"); ok {
		if c.k != KindList {
			return nil, throwValue(Str(fn + ": capabilities must be a list of strings"))
		}
		for _, x := range c.r.(*List).SharedItems() {
			if x.k != KindString || strings.TrimSpace(x.AsString()) == "" {
				return nil, throwValue(Str(fn + ": capabilities must be a list of non-empty strings"))
			}
			if !containsString(s.capabilities, x.AsString()) {
				s.capabilities = append(s.capabilities, x.AsString())
			}
		}
		sort.Strings(s.capabilities)
	}
	s.sideEffect = dictString(cfg, "side_effect_level")
	if s.sideEffect == "" {
		s.sideEffect = inferSideEffect(s.capabilities)
	}
	s.executor = orDefault(dictString(cfg, "executor"), "dry_run")
	switch s.executor {
	case "dry_run":
	case "host_bridge":
		s.target = orDefault(dictString(cfg, "host_tool"), s.name)
	case "mcp_server":
		s.target = orDefault(dictString(cfg, "mcp_tool"), s.name)
	default:
		return nil, throwValue(Str(fn + ": unknown executor " + strconv.Quote(s.executor) + "; expected \"dry_run\", \"host_bridge\", or \"mcp_server\""))
	}
	// The id hashes the spec as the cache lists it (before it has one).
	sum := blake3.Sum256([]byte(jsonText(s.value())))
	s.id = "tool_synth_" + hex.EncodeToString(sum[:])[:16]
	return s, nil
}

// value is the spec as tool_synthesis_cache lists it.
func (s *synthSpec) value() Value {
	d := NewDict(9)
	d.Set("id", Str(s.id))
	d.Set("name", Str(s.name))
	d.Set("description", Str(s.description))
	d.Set("parameters", s.parameters)
	d.Set("return_type", s.returnType)
	d.Set("capabilities", NewListValue(StrValues(s.capabilities)))
	d.Set("side_effect_level", Str(s.sideEffect))
	d.Set("executor", Str(s.executor))
	switch s.executor {
	case "host_bridge":
		d.Set("host_tool", Str(s.target))
	case "mcp_server":
		d.Set("mcp_tool", Str(s.target))
	}
	return DictValue(d)
}

// invoke is one call of a synthesized tool.
func (s *synthSpec) invoke(args Value) (Value, error) {
	if params := s.parameters.AsDict(); s.parameters.k == KindDict && params.Len() > 0 {
		a := args.AsDict()
		if args.k != KindDict || a == nil {
			return Nil, throwValue(Str(s.name + ": arguments must be a dict"))
		}
		for _, p := range params.Keys() {
			if pd := dictValue(params, p).AsDict(); pd != nil {
				if r, ok := pd.Get("required"); ok && r.k == KindBool && !r.AsBool() {
					continue
				}
			}
			if !a.Has(p) {
				return Nil, throwValue(Str(s.name + ": missing required argument " + strconv.Quote(p)))
			}
		}
	}
	if s.executor != "dry_run" {
		return Nil, throwValue(Str(s.name + ": the " + s.executor + " executor needs a host this runtime does not provide"))
	}
	d := NewDict(9)
	d.Set("_type", Str("synthesized_tool_result"))
	d.Set("status", Str("dry_run"))
	d.Set("tool_id", Str(s.id))
	d.Set("name", Str(s.name))
	d.Set("description", Str(s.description))
	d.Set("args", args)
	d.Set("capabilities", NewListValue(StrValues(s.capabilities)))
	d.Set("side_effect_level", Str(s.sideEffect))
	d.Set("message", Str("synthesized tool is pinned and validated, but executor is dry_run; set executor: \"host_bridge\" or \"mcp_server\" to dispatch"))
	return DictValue(d), nil
}

// closure is the callable tool_synthesize returns: a one-parameter
// closure (as upstream's, type_of says "closure") whose body invokes
// the spec.
func (s *synthSpec) closure() Value {
	body := func(f *frame) (Value, error) { return s.invoke(f.slots[0]) }
	// A call site runs stmts then ret; other callers run body.
	p := &funcProto{name: "__harn_synthesized_tool", params: []param{{name: "args", slot: 0}}, nslots: 1, simple: true,
		body: body, ret: body}
	return Value{k: KindClosure, r: &Closure{proto: p}}
}

func installToolSynth(lib *Library) {
	lib.Builtin("tool_synthesize", func(c *Call, args []Value) (Value, error) {
		s, err := parseSynthSpec(Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		cache := synthCacheOf(c)
		c.th.in.mu.Lock()
		replaced := false
		for i, old := range cache.specs {
			if old.id == s.id {
				cache.specs[i], replaced = s, true
			}
		}
		if !replaced {
			cache.specs = append(cache.specs, s)
		}
		c.th.in.mu.Unlock()
		return s.closure(), nil
	})
	lib.Builtin("tool_synthesis_cache", func(c *Call, args []Value) (Value, error) {
		cache := synthCacheOf(c)
		c.th.in.mu.Lock()
		defer c.th.in.mu.Unlock()
		out := make([]Value, len(cache.specs))
		for i, s := range cache.specs {
			out[i] = s.value()
		}
		return NewListValue(out), nil
	})
	lib.Builtin("tool_synthesis_clear", func(c *Call, args []Value) (Value, error) {
		cache := synthCacheOf(c)
		c.th.in.mu.Lock()
		cache.specs = nil
		c.th.in.mu.Unlock()
		return Nil, nil
	})
}
