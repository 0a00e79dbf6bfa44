package ai

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/runtime/jsonschema"
	"github.com/harnlang/harn-check/runtime/leia"
)

// Output validation helpers: llm.schema(spec) normalizes a lightweight
// shape or a JSON Schema-like table to a JSON Schema table;
// llm.schema_info(spec) (alias schemaInfo) returns {schema, json_schema,
// kind}; llm.output_schema(name, spec, opts) (alias outputSchema) builds
// the provider-facing response_format {type: "json_schema", json_schema:
// {name, schema, strict}}, strict unless opts.strict says otherwise;
// llm.validate_output(value, schema) (alias validateOutput) returns
// (true, "") or (false, message). They describe and check data; they add
// no type rule to the language and call no provider.
//
// Lightweight specs: a string is a type name ("string", "number",
// "integer", "boolean", "object", "array", "null" and the short forms
// str, num, float, double, int, bool, table, list; a trailing "?" makes
// an object field optional); a one-element list is an array of its item
// spec; a map is an object whose fields are required unless optional
// (descriptor tables {type, description, items, fields, enum, format,
// optional, required} describe one field). Objects built from specs are
// closed (additionalProperties false), as strict providers want.
//
// validate_output parses a string value as JSON, then checks it with the
// JSON Schema validator (runtime/jsonschema) when the
// schema is JSON Schema-like, else against the example shape as agents
// do. Like upstream Leia and the agents' shape check it tolerates fields
// the schema does not declare (additionalProperties: false is not
// enforced by this helper; every other keyword is). Messages name the
// field: `structured output missing field "a.b"`, `structured output
// field "a" has type string, want number`, `structured output field "a"
// is not one of the allowed values`.

// Bounds on schema normalization and the schema/value walks: nesting
// depth, and schema nodes normalized per call (a schema table shared by
// many properties, or reaching itself, is cut off rather than expanded
// exponentially; what is cut off becomes {type: "object"}).
const (
	maxSchemaDepth = 64
	maxSchemaNodes = 1 << 12
)

// schemaNorm is one normalization with its node budget.
type schemaNorm struct {
	nodes int
	// copies is the one copy budget of every non-schema value the
	// normalization carries over (examples, enums, defaults).
	copies cloner
}

// schemaTypeName maps a type spelling to a JSON Schema type ("" when it
// names none).
func schemaTypeName(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "str", "string", "":
		return "string"
	case "num", "number", "float", "double":
		return "number"
	case "int", "integer":
		return "integer"
	case "bool", "boolean":
		return "boolean"
	case "object", "table":
		return "object"
	case "array", "list":
		return "array"
	case "null":
		return "null"
	}
	return ""
}

// looksLikeJSONSchema reports a table with a known type name or one of
// properties, anyOf, oneOf, allOf, $schema.
func looksLikeJSONSchema(v leia.Value) bool {
	if v.Table() == nil {
		return false
	}
	if t := Field(v, "type"); t.Kind() == leia.KindString && schemaTypeName(t.AsString()) != "" {
		return true
	}
	for _, k := range []string{"properties", "anyOf", "oneOf", "allOf", "$schema"} {
		if !Field(v, k).IsNil() {
			return true
		}
	}
	return false
}

// Schema normalizes a spec (llm.schema).
func Schema(spec leia.Value) leia.Value {
	n := &schemaNorm{copies: cloner{onPath: map[*leia.Table]bool{}}}
	return n.normalize(spec, true, 0)
}

func typed(typ string) leia.Value {
	t := leia.NewTable(0, 4)
	t.SetStr("type", leia.String(typ))
	if typ == "object" {
		t.SetStr("properties", leia.TableValue(leia.NewTable(0, 0)))
		t.SetStr("required", leia.TableValue(leia.NewTable(0, 0)))
		t.SetStr("additionalProperties", leia.False)
	}
	return leia.TableValue(t)
}

func primitive(s string) leia.Value {
	typ := schemaTypeName(s)
	if typ == "" {
		typ = "string"
	}
	return typed(typ)
}

func (n *schemaNorm) normalize(v leia.Value, root bool, depth int) leia.Value {
	n.nodes++
	if depth > maxSchemaDepth || n.nodes > maxSchemaNodes {
		return typed("object")
	}
	switch v.Kind() {
	case leia.KindString:
		return primitive(v.AsString())
	case leia.KindInt, leia.KindFloat:
		return typed("number")
	case leia.KindBool:
		return typed("boolean")
	}
	if v.Table() == nil {
		return typed("string")
	}
	if looksLikeJSONSchema(v) {
		return leia.TableValue(n.explicitSchema(v, depth))
	}
	if f := Field(v, "fields"); f.Table() != nil {
		return leia.TableValue(n.objectFromFields(f, depth))
	}
	if v.Table().Len() > 0 {
		return T("type", "array", "items", n.normalize(v.Table().GetInt(1), false, depth+1))
	}
	if root {
		return leia.TableValue(n.objectFromFields(v, depth))
	}
	return leia.TableValue(n.fieldDescriptor(v, depth))
}

func (n *schemaNorm) explicitSchema(src leia.Value, depth int) *leia.Table {
	out := leia.NewTable(0, 8)
	src.Table().Iter(func(k, val leia.Value) bool {
		if k.Kind() == leia.KindString {
			switch k.AsString() {
			case "type":
				if val.Kind() == leia.KindString {
					out.Set(k, leia.String(schemaTypeName(val.AsString())))
					return true
				}
			case "properties":
				if val.Table() != nil {
					props := leia.NewTable(0, val.Table().HashLen())
					val.Table().Iter(func(pk, pv leia.Value) bool {
						props.Set(pk, n.normalize(pv, false, depth+1))
						return true
					})
					out.Set(k, leia.TableValue(props))
					return true
				}
			case "items":
				out.Set(k, n.normalize(val, false, depth+1))
				return true
			case "fields":
				if val.Table() != nil && out.GetStr("properties").IsNil() {
					obj := n.objectFromFields(val, depth)
					obj.Iter(func(ok, ov leia.Value) bool {
						out.Set(ok, ov)
						return true
					})
				}
				return true
			}
		}
		out.Set(k, n.copies.clone(val, 0))
		return true
	})
	if out.GetStr("type").IsNil() && !out.GetStr("properties").IsNil() {
		out.SetStr("type", leia.String("object"))
	}
	if Str(out.GetStr("type")) == "object" && out.GetStr("additionalProperties").IsNil() {
		out.SetStr("additionalProperties", leia.False)
	}
	return out
}

func (n *schemaNorm) objectFromFields(fields leia.Value, depth int) *leia.Table {
	props := leia.NewTable(0, fields.Table().HashLen())
	required := newList()
	for _, name := range Keys(fields) {
		f, req := n.fieldSchema(Field(fields, name), depth)
		props.SetStr(name, f)
		if req {
			appendTo(required, leia.String(name))
		}
	}
	out := leia.NewTable(0, 4)
	out.SetStr("type", leia.String("object"))
	out.SetStr("properties", leia.TableValue(props))
	out.SetStr("required", leia.TableValue(required))
	out.SetStr("additionalProperties", leia.False)
	return out
}

func (n *schemaNorm) fieldSchema(v leia.Value, depth int) (leia.Value, bool) {
	if v.Kind() == leia.KindString {
		s := v.AsString()
		if t, ok := strings.CutSuffix(s, "?"); ok {
			return primitive(t), false
		}
		return primitive(s), true
	}
	if v.Table() != nil {
		req := true
		if o := Field(v, "optional"); !o.IsNil() && o.Truthy() {
			req = false
		}
		if r := Field(v, "required"); !r.IsNil() && r.Kind() == leia.KindBool {
			req = r.AsBool()
		}
		return leia.TableValue(n.fieldDescriptor(v, depth+1)), req
	}
	return n.normalize(v, false, depth+1), true
}

func (n *schemaNorm) fieldDescriptor(src leia.Value, depth int) *leia.Table {
	if src.Table().Len() > 0 {
		if s := n.normalize(src, false, depth+1).Table(); s != nil {
			return s
		}
	}
	if looksLikeJSONSchema(src) {
		explicit := n.explicitSchema(src, depth)
		out := leia.NewTable(0, explicit.HashLen())
		explicit.Iter(func(k, v leia.Value) bool {
			if s := Str(k); s == "optional" || (s == "required" && v.Kind() == leia.KindBool) {
				return true
			}
			out.Set(k, v)
			return true
		})
		return out
	}
	out := leia.NewTable(0, 6)
	typ := "object"
	if t := Field(src, "type"); t.Kind() == leia.KindString {
		typ = schemaTypeName(t.AsString())
	}
	out.SetStr("type", leia.String(typ))
	if d := Field(src, "description"); d.Kind() == leia.KindString {
		out.SetStr("description", d)
	}
	if it := Field(src, "items"); !it.IsNil() {
		out.SetStr("items", n.normalize(it, false, depth+1))
	}
	if f := Field(src, "fields"); f.Table() != nil {
		obj := n.objectFromFields(f, depth+1)
		out.SetStr("type", leia.String("object"))
		out.SetStr("properties", obj.GetStr("properties"))
		out.SetStr("required", obj.GetStr("required"))
		out.SetStr("additionalProperties", leia.False)
	}
	if e := Field(src, "enum"); e.Table() != nil {
		out.SetStr("enum", n.copies.clone(e, 0))
	}
	if f := Field(src, "format"); f.Kind() == leia.KindString {
		out.SetStr("format", f)
	}
	return out
}

// SchemaInfo is {schema, json_schema, kind}.
func SchemaInfo(spec leia.Value) leia.Value {
	s := Schema(spec)
	return T("schema", s, "json_schema", s, "kind", Str(Field(s, "type")))
}

// OutputSchema is llm.output_schema(name, spec, opts) (also (spec) and
// (spec, opts)).
func OutputSchema(args []leia.Value) (leia.Value, error) {
	name := "output"
	var spec, opts leia.Value
	switch {
	case len(args) == 1:
		spec = args[0]
	case len(args) >= 2 && args[0].Kind() == leia.KindString:
		name, spec = args[0].AsString(), args[1]
		if o := leia.Arg(args, 2); o.Table() != nil {
			opts = o
		}
	case len(args) >= 2:
		spec = args[0]
		if args[1].Table() != nil {
			opts = args[1]
		}
	default:
		return leia.Nil, errors.New("bad argument to 'llm.output_schema' (schema spec expected)")
	}
	if spec.IsNil() {
		return leia.Nil, errors.New("bad argument to 'llm.output_schema' (schema spec expected)")
	}
	name = optString(opts, "name", name)
	if name == "" {
		name = "output"
	}
	strict := true
	if s := Field(opts, "strict"); !s.IsNil() {
		strict = s.Truthy()
	}
	return T("type", "json_schema", "json_schema", T("name", name, "schema", deepClone(Schema(spec)), "strict", strict)), nil
}

// ValidateOutput is llm.validate_output: ok and "" or false and why.
func ValidateOutput(value, schema leia.Value) (bool, string) {
	if value.Kind() == leia.KindString {
		dec := json.NewDecoder(strings.NewReader(value.AsString()))
		dec.UseNumber()
		var raw any
		if err := dec.Decode(&raw); err != nil {
			return false, "value is not valid JSON: " + err.Error()
		}
		value = FromGo(normalizeNumbers(raw, 0))
	}
	if schema.Table() == nil {
		return false, "schema must be a table example or JSON schema"
	}
	if value.Table() == nil {
		return false, "value must decode to a table"
	}
	if !looksLikeJSONSchema(schema) {
		if why := shapeMismatch(schema, value, "", 0); why != "" {
			return false, "structured output does not match the output shape: " + why
		}
		return true, ""
	}
	doc := openObjects(ToGo(Schema(schema)), 0)
	sch, err := jsonschema.Compile(doc)
	if err != nil {
		return false, "schema does not compile: " + err.Error()
	}
	inst := arraysWhereExpected(ToGo(value), doc, 0)
	if err := sch.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return false, validationMessage(ve)
		}
		return false, err.Error()
	}
	return true, ""
}

// normalizeNumbers turns json.Numbers into int64 (integral) or float64.
func normalizeNumbers(v any, depth int) any {
	if depth > maxSchemaDepth*4 {
		return nil
	}
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = normalizeNumbers(x[i], depth+1)
		}
	case map[string]any:
		for k := range x {
			x[k] = normalizeNumbers(x[k], depth+1)
		}
	}
	return v
}

// openObjects drops additionalProperties: false (see the family doc).
func openObjects(v any, depth int) any {
	if depth > maxSchemaDepth*4 {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if b, ok := x["additionalProperties"].(bool); ok && !b {
			delete(x, "additionalProperties")
		}
		for k, e := range x {
			x[k] = openObjects(e, depth+1)
		}
	case []any:
		for i, e := range x {
			x[i] = openObjects(e, depth+1)
		}
	}
	return v
}

// arraysWhereExpected turns empty objects into empty arrays where the
// schema (through properties and items) expects an array: Leia has one
// empty table for both.
func arraysWhereExpected(v, schema any, depth int) any {
	if depth > maxSchemaDepth*4 {
		return v
	}
	s, _ := schema.(map[string]any)
	if s == nil {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 && s["type"] == "array" {
			return []any{}
		}
		props, _ := s["properties"].(map[string]any)
		for k, e := range x {
			if ps, ok := props[k]; ok {
				x[k] = arraysWhereExpected(e, ps, depth+1)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = arraysWhereExpected(e, s["items"], depth+1)
		}
	}
	return v
}

// validationMessage describes the first leaf error of a validation.
func validationMessage(ve *jsonschema.ValidationError) string {
	for i := 0; i < maxSchemaDepth && len(ve.Causes) > 0; i++ {
		ve = ve.Causes[0]
	}
	path := instancePath(ve.InstanceLocation)
	switch ve.Keyword {
	case "required":
		missing := ""
		if len(ve.Missing) > 0 {
			missing = ve.Missing[0]
		}
		if path != "" {
			missing = path + "." + missing
		}
		return fmt.Sprintf("structured output missing field %q", missing)
	case "type":
		return fmt.Sprintf("structured output field %q has type %s, want %s", path, ve.Got, strings.Join(ve.Want, " or "))
	case "enum", "const":
		return fmt.Sprintf("structured output field %q is not one of the allowed values", path)
	}
	return fmt.Sprintf("structured output field %q: %s", path, ve.Message)
}

// instancePath renders a JSON pointer's tokens as a.b[2] (list indexes
// 1-based, as Leia counts).
func instancePath(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		if n, err := strconv.Atoi(t); err == nil && n >= 0 && t == strconv.Itoa(n) {
			fmt.Fprintf(&b, "[%d]", n+1)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

// schemaFamily is the llm module's natives from this file (see families).
func schemaFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	m["schema"] = func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if len(a) < 1 {
			return nil, errors.New("bad argument #1 to 'llm.schema' (schema spec expected)")
		}
		return t.Ret1(Schema(a[0])), nil
	}
	info := func(name string) leia.NativeFunc {
		return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if len(a) < 1 {
				return nil, fmt.Errorf("bad argument #1 to 'llm.%s' (schema spec expected)", name)
			}
			return t.Ret1(SchemaInfo(a[0])), nil
		}
	}
	m["schema_info"], m["schemaInfo"] = info("schema_info"), info("schemaInfo")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		v, err := OutputSchema(a)
		if err != nil {
			return nil, err
		}
		return t.Ret1(v), nil
	}, "output_schema")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if len(a) < 2 {
			return nil, errors.New("bad argument to 'llm.validate_output' (value, schema expected)")
		}
		ok, why := ValidateOutput(a[0], a[1])
		return t.Ret2(leia.Bool(ok), leia.String(why)), nil
	}, "validate_output")
	return m
}
