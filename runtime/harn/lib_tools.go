package harn

import (
	"sort"
	"strings"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/tooldef"
)

// Tool registries: a registry is a dict {_type: "tool_registry", tools:
// [entry...]}; an entry is {name, description, parameters (JSON Schema
// per parameter), outputSchema?, handler, executor, ...}. `tool name(..)`
// declarations bind a one-tool registry whose handler runs the body.

func newRegistry(tools []Value) Value {
	d := NewDict(2)
	d.Set("_type", Str("tool_registry"))
	d.Set("tools", NewListValue(tools))
	return DictValue(d)
}

func registryTools(c *Call, v Value) ([]Value, error) {
	if v.k == KindDict {
		d := v.r.(*Dict)
		if t, ok := d.Get("_type"); ok && Display(t) == "tool_registry" {
			if ts, ok := d.Get("tools"); ok && ts.k == KindList {
				return ts.r.(*List).SharedItems(), nil
			}
			return nil, nil
		}
	}
	return nil, throwValue(Str(c.Name + ": requires a tool registry"))
}

func toolName(t Value) string {
	if t.k == KindDict {
		n, _ := t.r.(*Dict).Get("name")
		return Display(n)
	}
	return ""
}

// jsonSchemaOf is a type annotation as JSON Schema (tools speak JSON
// Schema to models).
func jsonSchemaOf(m *module, t ast.Type) Value {
	s := schemaOf(m, t, 0)
	if s.k == KindNil {
		return DictValue(NewDict(0))
	}
	return convertSchema(s, true, 0)
}

func (c *compiler) toolDecl(d *ast.ToolDecl) evalFn {
	if d.Name == nil {
		return nil
	}
	name := d.Name.Name
	p := c.compileFunction(name, d.Span, d.Params, d.Body, false, false)
	desc := ""
	if d.Description != nil {
		desc, _ = d.Description.Value()
	}
	type paramInfo struct {
		name   string
		schema Value
		def    evalFn
	}
	var params []paramInfo
	for _, q := range d.Params {
		if q.Name == nil {
			continue
		}
		pi := paramInfo{name: q.Name.Name, schema: DictValue(NewDict(0))}
		if q.Type != nil {
			pi.schema = jsonSchemaOf(c.mod, q.Type)
		}
		if q.Default != nil {
			pi.def = c.expr(q.Default)
		}
		params = append(params, pi)
	}
	var output Value
	if d.ReturnType != nil {
		output = jsonSchemaOf(c.mod, d.ReturnType)
	}
	store := c.bindName(name)
	mk := func(f *frame) (Value, error) {
		props := NewDict(len(params))
		for _, pi := range params {
			s := pi.schema.r.(*Dict).clone()
			if pi.def != nil {
				dv, err := pi.def(f)
				if err != nil {
					return Nil, err
				}
				s.Set("required", False)
				s.Set("default", dv)
			}
			props.Set(pi.name, DictValue(s))
		}
		entry := NewDict(6)
		entry.Set("name", Str(name))
		entry.Set("description", Str(desc))
		entry.Set("parameters", DictValue(props))
		if output.k != KindNil {
			entry.Set("outputSchema", output)
		}
		entry.Set("handler", Value{k: KindClosure, r: p.makeClosure(f)})
		entry.Set("executor", Str("harn"))
		store(f, newRegistry([]Value{DictValue(entry)}))
		return Nil, nil
	}
	if c.fn.block.top {
		c.fn.prelude = append(c.fn.prelude, mk)
		return nil
	}
	return mk
}

// toolConfigField answers tooldef's questions about a tool config dict:
// at run time every value is known.
func toolConfigField(cfg *Dict) tooldef.Config {
	return func(key string) tooldef.Field {
		v, ok := cfg.Get(key)
		f := tooldef.Field{Present: ok, Set: ok && v.k != KindNil, Known: true}
		if f.Set && v.k == KindString {
			f.IsString, f.Str = true, v.AsString()
		}
		return f
	}
}

func installTools(lib *Library) {
	lib.Builtin("tool_registry", func(c *Call, args []Value) (Value, error) { return newRegistry(nil), nil })
	lib.Builtin("tool_define", func(c *Call, args []Value) (Value, error) {
		if len(args) < 4 {
			return Nil, throwValue(Str("tool_define: requires registry, name, description, and config dict"))
		}
		tools, err := registryTools(c, args[0])
		if err != nil {
			return Nil, err
		}
		name, desc := Display(args[1]), Display(args[2])
		if args[3].k != KindDict {
			return Nil, throwValue(Str("tool_define: config must be a dict with parameters and handler"))
		}
		cfg := args[3].r.(*Dict)
		if msg, _ := tooldef.Problem(name, toolConfigField(cfg)); msg != "" {
			return Nil, throwValue(Str("tool_define: " + msg))
		}
		executor := OptStr(cfg, "executor")
		if executor == "" || executor == "harn_builtin" {
			executor = "harn"
		}
		if v, ok := cfg.Get("defer_loading"); ok && v.k != KindBool {
			return Nil, throwValue(Str("tool_define: `defer_loading` must be a bool (true: hold the schema back until a tool_search call surfaces it; false or absent: ship it eagerly)"))
		}
		if v, ok := cfg.Get("namespace"); ok && v.k != KindNil && (v.k != KindString || v.r.(string) == "") {
			return Nil, throwValue(Str("tool_define: `namespace` must be a non-empty string"))
		}
		entry := NewDict(cfg.Len() + 3)
		for _, k := range cfg.Keys() {
			switch k {
			case "returns":
				entry.Set("outputSchema", share(cfg.m[k]))
			case "parameters":
				entry.Set("parameters", share(cfg.m[k]))
			default:
				entry.Set(k, share(cfg.m[k]))
			}
		}
		entry.Set("name", Str(name))
		entry.Set("description", Str(desc))
		entry.Set("executor", Str(executor))
		if !entry.Has("parameters") {
			entry.Set("parameters", DictValue(NewDict(0)))
		}
		var out []Value
		for _, t := range tools {
			if toolName(t) != name {
				out = append(out, t)
			}
		}
		return newRegistry(append(out, DictValue(entry))), nil
	})
	lib.Builtin("tool_find", func(c *Call, args []Value) (Value, error) {
		tools, err := registryTools(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		want := Display(Arg(args, 1))
		for _, t := range tools {
			if toolName(t) == want {
				return t, nil
			}
		}
		return Nil, nil
	})
	lib.Builtin("tool_list", func(c *Call, args []Value) (Value, error) {
		tools, err := registryTools(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		out := make([]Value, 0, len(tools))
		for _, t := range tools {
			if t.k != KindDict {
				continue
			}
			d := t.r.(*Dict).clone()
			d.Delete("handler")
			out = append(out, DictValue(d))
		}
		return NewListValue(out), nil
	})
	lib.Builtin("tool_count", func(c *Call, args []Value) (Value, error) {
		tools, err := registryTools(c, Arg(args, 0))
		return Int(int64(len(tools))), err
	})
	lib.Builtin("tool_select", func(c *Call, args []Value) (Value, error) {
		tools, err := registryTools(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		want := map[string]bool{}
		names, _ := c.th.collect(Arg(args, 1))
		for _, n := range names {
			want[Display(n)] = true
		}
		var out []Value
		for _, t := range tools {
			if want[toolName(t)] {
				out = append(out, t)
			}
		}
		return newRegistry(out), nil
	})
	lib.Builtin("tool_remove", func(c *Call, args []Value) (Value, error) {
		tools, err := registryTools(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		var out []Value
		for _, t := range tools {
			if toolName(t) != Display(Arg(args, 1)) {
				out = append(out, t)
			}
		}
		return newRegistry(out), nil
	})
	lib.Builtin("tool_describe", func(c *Call, args []Value) (Value, error) {
		tools, err := registryTools(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		if len(tools) == 0 {
			return Str("Available tools:\n(none)"), nil
		}
		var b strings.Builder
		b.WriteString("Available tools:\n")
		for _, t := range tools {
			d := t.r.(*Dict)
			desc, _ := d.Get("description")
			b.WriteString("- " + toolName(t) + "(" + paramSummary(d) + "): " + Display(desc) + "\n")
		}
		return Str(strings.TrimRight(b.String(), "\n")), nil
	})
	lib.Builtin("tool_schema", func(c *Call, args []Value) (Value, error) {
		tools, err := registryTools(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		var defs []Value
		for _, t := range tools {
			d := t.r.(*Dict)
			def := NewDict(4)
			def.Set("name", Str(toolName(t)))
			desc, _ := d.Get("description")
			def.Set("description", Str(Display(desc)))
			params, _ := d.Get("parameters")
			def.Set("inputSchema", paramsSchema(params, false))
			if o, ok := d.Get("outputSchema"); ok {
				def.Set("outputSchema", o)
			}
			defs = append(defs, DictValue(def))
		}
		s := NewDict(2)
		s.Set("schema_version", Str("harn-tools/1.0"))
		s.Set("tools", NewListValue(defs))
		return DictValue(s), nil
	})
	lib.Builtin("tool_parse_call", func(c *Call, args []Value) (Value, error) {
		text := Display(Arg(args, 0))
		var out []Value
		for {
			i := strings.Index(text, "<tool_call>")
			if i < 0 {
				break
			}
			rest := text[i+len("<tool_call>"):]
			j := strings.Index(rest, "</tool_call>")
			if j < 0 {
				break
			}
			if v, err := ParseJSON(strings.TrimSpace(rest[:j])); err == nil {
				out = append(out, v)
			}
			text = rest[j+len("</tool_call>"):]
		}
		return NewListValue(out), nil
	})
	lib.Builtin("tool_format_result", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, throwValue(Str("tool_format_result: requires name and result"))
		}
		var n, r strings.Builder
		writeJSONString(&n, Display(args[0]))
		writeJSONString(&r, Display(args[1]))
		return Str(`<tool_result>{"name": ` + n.String() + `, "result": ` + r.String() + `}</tool_result>`), nil
	})
	lib.Builtin("tool_prompt", func(c *Call, args []Value) (Value, error) {
		tools, err := registryTools(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		var b strings.Builder
		b.WriteString("## Available Tools\n\n")
		for _, t := range tools {
			d := t.r.(*Dict)
			desc, _ := d.Get("description")
			b.WriteString("### " + toolName(t) + "\n" + Display(desc) + "\n")
			if ps := paramSummary(d); ps != "" {
				b.WriteString("Parameters: " + ps + "\n")
			}
			b.WriteString("\n")
		}
		b.WriteString("Call a tool with <tool_call>{\"name\": \"...\", \"arguments\": {...}}</tool_call>.")
		return Str(b.String()), nil
	})
}

// paramSummary renders "name: type, ..." for a tool entry.
func paramSummary(d *Dict) string {
	params, _ := d.Get("parameters")
	if params.k != KindDict {
		return ""
	}
	keys := append([]string(nil), params.r.(*Dict).Keys()...)
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		t := "any"
		if ps := params.r.(*Dict).m[k]; ps.k == KindDict {
			if tv, ok := ps.r.(*Dict).Get("type"); ok {
				t = Display(tv)
			}
		}
		parts = append(parts, k+": "+t)
	}
	return strings.Join(parts, ", ")
}

// paramsSchema is a tool's parameters as a JSON Schema object: tool_define's
// {name: {type, description, required?}} shape (a parameter is required
// unless it says required: false) becomes {type: object, properties,
// required}. With keepSchema, parameters already written as a JSON Schema
// object ({type: "object", properties}) are kept as they are.
func paramsSchema(params Value, keepSchema bool) Value {
	if keepSchema && params.k == KindDict {
		if d := params.r.(*Dict); dictString(d, "type") == "object" || d.Has("properties") {
			return params
		}
	}
	input := NewDict(3)
	input.Set("type", Str("object"))
	props := NewDict(0)
	var req []Value
	if params.k == KindDict {
		for _, k := range params.r.(*Dict).Keys() {
			ps := params.r.(*Dict).m[k]
			if ps.k == KindDict {
				pd := ps.r.(*Dict).clone()
				if r, ok := pd.Get("required"); !ok || r.Truthy() {
					req = append(req, Str(k))
				}
				pd.Delete("required")
				ps = DictValue(pd)
			}
			props.Set(k, ps)
		}
	}
	input.Set("properties", DictValue(props))
	input.Set("required", NewListValue(req))
	return DictValue(input)
}
