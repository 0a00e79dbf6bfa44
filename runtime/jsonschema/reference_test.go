package jsonschema

import (
	"fmt"
	"strings"
	"testing"

	reference "github.com/santhosh-tekuri/jsonschema/v6"
)

// The reference implementation (github.com/santhosh-tekuri/jsonschema,
// which this package replaced in the binaries, kept here as a test
// dependency) must give the same verdict on every schema both compile.

func referenceVerdict(schema, instance string) (valid, compiled bool) {
	doc, err := reference.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		return false, false
	}
	c := reference.NewCompiler()
	c.UseLoader(refuse{})
	if err := c.AddResource("mem:///schema.json", doc); err != nil {
		return false, false
	}
	s, err := c.Compile("mem:///schema.json")
	if err != nil {
		return false, false
	}
	inst, err := reference.UnmarshalJSON(strings.NewReader(instance))
	if err != nil {
		return false, false
	}
	return s.Validate(inst) == nil, true
}

type refuse struct{}

func (refuse) Load(url string) (any, error) { return nil, fmt.Errorf("not loaded: %s", url) }

var referenceCases = []struct{ schema, instance string }{
	{`{"type": "object", "properties": {"a": {"type": "integer", "minimum": 1}}, "required": ["a"]}`, `{"a": 0}`},
	{`{"type": "object", "properties": {"a": {"type": "integer", "minimum": 1}}, "required": ["a"]}`, `{"a": 1.0}`},
	{`{"type": "object", "additionalProperties": false, "properties": {"a": {}}}`, `{"a": 1, "b": 2}`},
	{`{"type": "array", "items": {"type": "string"}, "minItems": 2, "uniqueItems": true}`, `["a", "a"]`},
	{`{"type": "array", "prefixItems": [{"type": "integer"}], "items": false}`, `[1, 2]`},
	{`{"$defs": {"n": {"type": "number", "multipleOf": 0.01}}, "$ref": "#/$defs/n"}`, `19.99`},
	{`{"$defs": {"n": {"type": "number", "multipleOf": 0.01}}, "$ref": "#/$defs/n"}`, `19.999`},
	{`{"oneOf": [{"type": "string"}, {"maxLength": 3}]}`, `"ab"`},
	{`{"anyOf": [{"type": "string"}, {"type": "null"}]}`, `null`},
	{`{"not": {"enum": [1, "a", null]}}`, `1.0`},
	{`{"if": {"properties": {"k": {"const": "x"}}}, "then": {"required": ["x"]}, "else": {"required": ["y"]}}`, `{"k": "x", "y": 1}`},
	{`{"properties": {"a": true}, "unevaluatedProperties": false, "allOf": [{"properties": {"b": true}}]}`, `{"a": 1, "b": 2, "c": 3}`},
	{`{"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3}`, `[1, "x", 2]`},
	{`{"dependentRequired": {"a": ["b"]}, "propertyNames": {"pattern": "^[a-z]+$"}}`, `{"a": 1, "B": 2}`},
	{`{"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}], "additionalItems": {"type": "integer"}}`, `["a", 1, "b"]`},
	{`{"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 5, "exclusiveMaximum": true}`, `5`},
	{`{"type": 12}`, `{}`},
	{`{"$ref": "#/nowhere"}`, `{}`},
	{`{"pattern": "("}`, `"x"`},
	{`{"minLength": -1}`, `"x"`},
	{`{"type": "string", "maxLength": 2}`, `"héé"`},
	{`{"enum": [{"a": [1, 2]}]}`, `{"a": [1.0, 2]}`},
}

func TestAgreesWithReference(t *testing.T) {
	for _, c := range referenceCases {
		refValid, refCompiled := referenceVerdict(c.schema, c.instance)
		s, err := CompileJSON([]byte(c.schema))
		if (err == nil) != refCompiled {
			t.Errorf("%s: compiled = %v (%v), reference compiled = %v", c.schema, err == nil, err, refCompiled)
			continue
		}
		if err != nil {
			continue
		}
		v, err := DecodeJSON([]byte(c.instance))
		if err != nil {
			t.Fatal(err)
		}
		verr := s.Validate(v)
		if (verr == nil) != refValid {
			t.Errorf("%s on %s: valid = %v (%v), reference valid = %v", c.schema, c.instance, verr == nil, verr, refValid)
		}
	}
}

// FuzzAgreesWithReference: on any schema both implementations compile,
// the verdicts agree; ours never panics.
func FuzzAgreesWithReference(f *testing.F) {
	for _, c := range referenceCases {
		f.Add(c.schema, c.instance)
	}
	f.Fuzz(func(t *testing.T, schema, instance string) {
		s, err := CompileJSON([]byte(schema))
		if err != nil {
			return
		}
		v, err := DecodeJSON([]byte(instance))
		if err != nil {
			return
		}
		verr := s.Validate(v)
		if strings.Contains(schema, "format") || strings.Contains(schema, "$schema") || strings.Contains(schema, "Ref") ||
			strings.Contains(schema, "$id") || strings.Contains(schema, "pattern") || strings.Contains(schema, "$ref") {
			return // annotations, drafts, ids, regular-expression dialects and references differ in known ways
		}
		refValid, refCompiled := referenceVerdict(schema, instance)
		if refCompiled && refValid != (verr == nil) {
			t.Fatalf("schema %s, instance %s: valid = %v (%v), reference valid = %v", schema, instance, verr == nil, verr, refValid)
		}
	})
}
