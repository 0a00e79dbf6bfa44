package jsonschema

import (
	"errors"
	"strings"
	"testing"
)

func TestCompileErrors(t *testing.T) {
	cases := []struct{ schema, want string }{
		{`{"type": 12}`, `type must be a type name`},
		{`{"properties": {"a": {"type": "strin"}}}`, `invalid schema at "/properties/a": type "strin" is not a JSON Schema type`},
		{`{"$ref": "other.json"}`, `is outside this schema (external schemas are not loaded)`},
		{`{"$ref": "file:///etc/passwd"}`, `external schemas are not loaded`},
		{`{"$ref": "https://json-schema.org/draft/2020-12/schema"}`, `external schemas are not loaded`},
		{`{"$ref": "#/$defs/missing"}`, `points at nothing`},
		{`{"pattern": "(a"}`, `pattern "(a"`},
		{`{"minItems": 1.5}`, `minItems must be a non-negative integer`},
		{`{"allOf": []}`, `allOf must be a non-empty array`},
		{`{"items": 3}`, `a schema must be an object or a boolean`},
		{`[1]`, `a schema must be an object or a boolean`},
		{`{"a": 1} x`, `not JSON`},
	}
	for _, c := range cases {
		_, err := CompileJSON([]byte(c.schema))
		var ce *CompileError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want a CompileError containing %q", c.schema, err, c.want)
		}
	}
}

// TestValidationErrorTree pins what callers read from a failure: the
// leaf's keyword, instance location, missing names and types.
func TestValidationErrorTree(t *testing.T) {
	s, err := CompileJSON([]byte(`{"type": "object", "properties": {
		"o": {"type": "object", "required": ["id"]},
		"tags": {"type": "array", "items": {"type": "string"}},
		"n": {"minimum": 1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		instance, keyword, loc, message string
	}{
		{`{"o": {}}`, "required", "o", `missing property "id"`},
		{`{"tags": ["a", 2]}`, "type", "tags/1", "got number, want string"},
		{`{"n": 0}`, "minimum", "n", "minimum: got 0, want 1"},
		{`{"n": 0.5}`, "minimum", "n", "minimum: got 0.5, want 1"},
	}
	for _, c := range cases {
		v, err := DecodeJSON([]byte(c.instance))
		if err != nil {
			t.Fatal(err)
		}
		err = s.Validate(v)
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("%s: err = %v, want a ValidationError", c.instance, err)
		}
		for len(ve.Causes) > 0 {
			ve = ve.Causes[0]
		}
		if ve.Keyword != c.keyword || strings.Join(ve.InstanceLocation, "/") != c.loc || ve.Message != c.message {
			t.Errorf("%s: leaf {%s %q %q}, want {%s %q %q}", c.instance, ve.Keyword, ve.InstanceLocation, ve.Message, c.keyword, c.loc, c.message)
		}
		if !strings.Contains(err.Error(), "at '/"+c.loc+"': "+c.message) {
			t.Errorf("%s: Error() = %q", c.instance, err.Error())
		}
	}
}

// TestGoValues: values built in Go (as the Leia runtime builds them), not
// decoded from text, validate the same.
func TestGoValues(t *testing.T) {
	s, err := Compile(map[string]any{"type": "object", "properties": map[string]any{
		"n": map[string]any{"type": "integer", "maximum": int64(3)}, "f": map[string]any{"multipleOf": 0.5}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(map[string]any{"n": int64(3), "f": 1.5}); err != nil {
		t.Errorf("valid value: %v", err)
	}
	if err := s.Validate(map[string]any{"n": 4}); err == nil {
		t.Error("n = 4 over the maximum passed")
	}
	if err := s.Validate(map[string]any{"f": 1.25}); err == nil {
		t.Error("f = 1.25 not a multiple of 0.5 passed")
	}
}

// TestCyclicRefTerminates: a schema that refers to itself without
// consuming input is cut off with an error, not a stack overflow.
func TestCyclicRefTerminates(t *testing.T) {
	s, err := CompileJSON([]byte(`{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(map[string]any{}); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("err = %v, want the depth bound", err)
	}
	deep := `{"items": `
	s, err = CompileJSON([]byte(strings.Repeat(deep, MaxDepth+2) + "{}" + strings.Repeat("}", MaxDepth+2)))
	if err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("a schema nested %d deep: err = %v, want the depth bound", MaxDepth+2, err)
	}
	_ = s
}
