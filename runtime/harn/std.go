package harn

import (
	"fmt"
	"strings"
)

// Embedded standard modules (`import "std/math"`), implemented natively.
// Each module is a set of builtins exported under their names; a module
// this runtime does not provide is an import error saying so.

type stdFn = func(c *Call, args []Value) (Value, error)

func installStd(lib *Library) {
	for spec, build := range map[string]func() map[string]stdFn{
		"std/json":        stdJSON,
		"std/schema":      stdSchema,
		"std/collections": stdCollections,
	} {
		lib.StdModule(spec, build())
	}
}

func (in *Interp) stdModule(spec string) (*module, error) {
	if m, ok := in.registeredStdModule(spec); ok {
		return m, nil
	}
	return nil, fmt.Errorf("not available in this runtime: module %s (provided: %s)", spec, strings.Join(in.lib.StdModules(), ", "))
}

func stdJSON() map[string]stdFn {
	return map[string]stdFn{
		"pretty": func(c *Call, args []Value) (Value, error) {
			return c.stringifyJSON("json.pretty", Arg(args, 0))
		},
		"safe_parse": func(c *Call, args []Value) (Value, error) {
			v, err := ParseJSON(Display(Arg(args, 0)))
			if err != nil {
				return Nil, nil
			}
			return v, nil
		},
		"merge": func(c *Call, args []Value) (Value, error) { return Add(Arg(args, 0), Arg(args, 1)) },
		"pick": func(c *Call, args []Value) (Value, error) {
			d := Arg(args, 0)
			out := NewDict(0)
			keys, _ := c.th.collect(Arg(args, 1))
			for _, k := range keys {
				if v, _ := indexValue(d, k); v.k != KindNil {
					out.Set(keyString(k), share(v))
				}
			}
			return DictValue(out), nil
		},
		"omit": func(c *Call, args []Value) (Value, error) {
			d := Arg(args, 0)
			if d.k != KindDict {
				return Nil, typeError("omit: expected a dict")
			}
			out := d.r.(*Dict).clone()
			keys, _ := c.th.collect(Arg(args, 1))
			for _, k := range keys {
				out.Delete(keyString(k))
			}
			return DictValue(out), nil
		},
	}
}

func stdCollections() map[string]stdFn {
	return map[string]stdFn{
		"filter_nil": func(c *Call, args []Value) (Value, error) {
			d := Arg(args, 0)
			if d.k != KindDict {
				return Nil, typeError("filter_nil: expected a dict")
			}
			out := NewDict(0)
			for k, v := range d.r.(*Dict).m {
				if v.k == KindNil || v.k == KindString && (v.r.(string) == "" || v.r.(string) == "null") {
					continue
				}
				out.Set(k, share(v))
			}
			return DictValue(out), nil
		},
	}
}

func stdSchema() map[string]stdFn {
	lit := func(pairs ...any) stdFn {
		return func(c *Call, args []Value) (Value, error) {
			d := NewDict(len(pairs) / 2)
			for i := 0; i+1 < len(pairs); i += 2 {
				d.Set(pairs[i].(string), pairs[i+1].(Value))
			}
			return DictValue(d), nil
		}
	}
	extend := func(s Value, pairs ...any) Value {
		d := NewDict(0)
		if s.k == KindDict {
			d = s.r.(*Dict).clone()
		}
		for i := 0; i+1 < len(pairs); i += 2 {
			d.Set(pairs[i].(string), pairs[i+1].(Value))
		}
		return DictValue(d)
	}
	withOpts := func(v Value, o Value) Value {
		if o.k == KindDict {
			r, _ := Add(v, o)
			return r
		}
		return v
	}
	alias := func(name string) stdFn {
		return func(c *Call, args []Value) (Value, error) {
			b, _ := c.th.in.builtin(name)
			return b.Fn(&Call{th: c.th, Name: name}, args)
		}
	}
	return map[string]stdFn{
		"schema_any":    lit("type", Str("any")),
		"schema_string": lit("type", Str("string")),
		"schema_int":    lit("type", Str("int")),
		"schema_float":  lit("type", Str("float")),
		"schema_bool":   lit("type", Str("bool")),
		"schema_nil":    lit("type", Str("nil")),
		"schema_literal": func(c *Call, args []Value) (Value, error) {
			return extend(Nil, "const", Arg(args, 0)), nil
		},
		"schema_enum": func(c *Call, args []Value) (Value, error) { return extend(Nil, "enum", Arg(args, 0)), nil },
		"schema_list": func(c *Call, args []Value) (Value, error) {
			v := extend(Nil, "type", Str("list"))
			if it := Arg(args, 0); it.k != KindNil {
				v = extend(v, "items", it)
			}
			return withOpts(v, Arg(args, 1)), nil
		},
		"schema_array": func(c *Call, args []Value) (Value, error) {
			v := extend(Nil, "type", Str("list"))
			if it := Arg(args, 0); it.k != KindNil {
				v = extend(v, "items", it)
			}
			return withOpts(v, Arg(args, 1)), nil
		},
		"schema_dict": func(c *Call, args []Value) (Value, error) {
			v := extend(Nil, "type", Str("dict"))
			if it := Arg(args, 0); it.k != KindNil {
				v = extend(v, "additional_properties", it)
			}
			return withOpts(v, Arg(args, 1)), nil
		},
		"schema_field": func(c *Call, args []Value) (Value, error) {
			req := True
			if len(args) > 1 {
				req = Bool(args[1].Truthy())
			}
			return extend(Arg(args, 0), "required", req), nil
		},
		"schema_object": func(c *Call, args []Value) (Value, error) {
			fields := Arg(args, 0)
			if fields.k != KindDict {
				return Nil, typeError("schema_object: expected a dict of fields")
			}
			props := NewDict(0)
			var req []Value
			for _, k := range fields.r.(*Dict).Keys() {
				fs := fields.r.(*Dict).m[k]
				isReq := true
				if fs.k == KindDict {
					if r, ok := fs.r.(*Dict).Get("required"); ok && r.k == KindBool {
						isReq = r.AsBool()
					}
					d := fs.r.(*Dict).clone()
					d.Delete("required")
					fs = DictValue(d)
				}
				props.Set(k, fs)
				if isReq {
					req = append(req, Str(k))
				}
			}
			v := extend(Nil, "type", Str("dict"), "properties", DictValue(props))
			if len(req) > 0 {
				v = extend(v, "required", NewListValue(req))
			}
			return withOpts(v, Arg(args, 1)), nil
		},
		"schema_union":    func(c *Call, args []Value) (Value, error) { return extend(Nil, "union", Arg(args, 0)), nil },
		"schema_all_of":   func(c *Call, args []Value) (Value, error) { return extend(Nil, "all_of", Arg(args, 0)), nil },
		"schema_nullable": func(c *Call, args []Value) (Value, error) { return extend(Arg(args, 0), "nullable", True), nil },
		"schema_default": func(c *Call, args []Value) (Value, error) {
			return extend(Arg(args, 0), "default", Arg(args, 1), "required", False), nil
		},
		"schema_pick_keys":    alias("schema_pick"),
		"schema_omit_keys":    alias("schema_omit"),
		"schema_partial_deep": alias("schema_partial"),
		"schema_json":         alias("schema_to_json_schema"),
		"schema_openapi":      alias("schema_to_openapi_schema"),
		"from_json_schema":    alias("schema_from_json_schema"),
		"from_openapi_schema": alias("schema_from_openapi_schema"),
		"is_type":             alias("schema_is"),
		"get_typed_result":    alias("schema_parse"),
		"get_typed_value": func(c *Call, args []Value) (Value, error) {
			b, _ := c.th.in.builtin("schema_expect")
			return b.Fn(&Call{th: c.th, Name: "schema_expect"}, args)
		},
	}
}
