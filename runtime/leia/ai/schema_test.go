package ai

import (
	"strings"
	"testing"
)

func TestSchemaNormalization(t *testing.T) {
	cases := []struct{ name, expr, want string }{
		{"lightweight object", `llm.schema({name: {type: "string", description: "Display name"}, score: "number", nickname: "string?", tags: ["string"]})`,
			`{"additionalProperties":false,"properties":{"name":{"description":"Display name","type":"string"},"nickname":{"type":"string"},"score":{"type":"number"},"tags":{"items":{"type":"string"},"type":"array"}},"required":["name","score","tags"],"type":"object"}`},
		{"required keeps declaration order", `llm.schema({finding: "string", owner: "string", confidence: "number"}).required`,
			`["finding","owner","confidence"]`},
		{"type spellings", `llm.schema({a: "int", b: "bool", c: "float", d: "list", e: "table", f: "whatever"})`,
			`{"additionalProperties":false,"properties":{"a":{"type":"integer"},"b":{"type":"boolean"},"c":{"type":"number"},"d":{"type":"array"},"e":{"additionalProperties":false,"properties":{},"required":{},"type":"object"},"f":{"type":"string"}},"required":["a","b","c","d","e","f"],"type":"object"}`},
		{"JSON Schema passes through, objects closed", `llm.schema({type: "object", properties: {x: {type: "integer", minimum: 1}}, required: ["x"]})`,
			`{"additionalProperties":false,"properties":{"x":{"minimum":1,"type":"integer"}},"required":["x"],"type":"object"}`},
		{"explicit additionalProperties kept", `llm.schema({type: "object", properties: {}, additionalProperties: true})`,
			`{"additionalProperties":true,"properties":{},"type":"object"}`},
		{"fields descriptor", `llm.schema({fields: {a: "string", b: {type: "number", optional: true}}})`,
			`{"additionalProperties":false,"properties":{"a":{"type":"string"},"b":{"type":"number"}},"required":["a"],"type":"object"}`},
		{"list of objects", `llm.schema([{id: "string"}])`,
			`{"items":{"type":"object"},"type":"array"}`},
		{"primitives", `[llm.schema("integer"), llm.schema(3), llm.schema(true)]`,
			`[{"type":"integer"},{"type":"number"},{"type":"boolean"}]`},
		{"enum and format descriptors", `llm.schema({risk: {type: "string", enum: ["low", "high"]}, at: {type: "string", format: "date-time", required: false}})`,
			`{"additionalProperties":false,"properties":{"at":{"format":"date-time","type":"string"},"risk":{"enum":["low","high"],"type":"string"}},"required":["risk"],"type":"object"}`},
		{"schema_info", `llm.schema_info({a: "string"}).kind .. "|" .. llm.schemaInfo("number").json_schema.type`, `"object|number"`},
		{"output_schema strict by default", `llm.output_schema("contact", {name: "string"})`,
			`{"json_schema":{"name":"contact","schema":{"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"},"strict":true},"type":"json_schema"}`},
		{"output_schema options", `llm.outputSchema({name: "string"}, {name: "alt", strict: false}).json_schema.name .. tostring(llm.output_schema({a: "string"}, {strict: false}).json_schema.strict)`,
			`"altfalse"`},
		{"output_schema single argument", `llm.output_schema("string").json_schema.name`, `"output"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustRun3(t, "print(json.encode("+c.expr+"))", answers())
			if got := strings.TrimSpace(r.out); got != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestValidateOutput(t *testing.T) {
	schemaSrc := `
contact := llm.schema({name: "string", score: "number", nickname: "string?", tags: ["string"], level: {type: "string", enum: ["a", "b"]}})
`
	cases := []struct{ name, call, ok, msg string }{
		{"valid JSON text", `llm.validate_output("{\"name\":\"Ada\",\"score\":1.5,\"tags\":[\"x\"],\"level\":\"a\"}", contact)`, "true", ""},
		{"extra fields are tolerated", `llm.validate_output({name: "Ada", score: 1, tags: [], level: "b", extra: true}, contact)`, "true", ""},
		{"empty table is an empty array", `llm.validate_output({name: "Ada", score: 1, tags: {}, level: "b"}, contact)`, "true", ""},
		{"missing field", `llm.validate_output({score: 1, tags: [], level: "a"}, contact)`, "false", `structured output missing field "name"`},
		{"wrong type", `llm.validate_output({name: 3, score: 1, tags: [], level: "a"}, contact)`, "false", `structured output field "name" has type number, want string`},
		{"enum", `llm.validate_output({name: "x", score: 1, tags: [], level: "z"}, contact)`, "false", `structured output field "level" is not one of the allowed values`},
		{"array item path is 1-based", `llm.validate_output({name: "x", score: 1, tags: ["a", 2], level: "a"}, contact)`, "false", `structured output field "tags[2]" has type number, want string`},
		{"nested missing field", `llm.validate_output({o: {}}, {type: "object", properties: {o: {type: "object", properties: {id: {type: "string"}}, required: ["id"]}}})`, "false", `structured output missing field "o.id"`},
		{"integer", `llm.validate_output({n: 1.5}, {type: "object", properties: {n: {type: "integer"}}})`, "false", `structured output field "n" has type number, want integer`},
		{"keywords beyond type are enforced", `llm.validate_output({n: 0}, {type: "object", properties: {n: {type: "integer", minimum: 1}}})`, "false", `structured output field "n": minimum: got 0, want 1`},
		{"invalid JSON", `llm.validate_output("{not json", contact)`, "false", "value is not valid JSON: "},
		{"schema must be a table", `llm.validate_output({}, "string")`, "false", "schema must be a table example or JSON schema"},
		{"value must be a table", `llm.validate_output("3", contact)`, "false", "value must decode to a table"},
		{"example shape", `llm.validate_output("{\"decision\":\"go\",\"risk\":\"low\"}", {decision: "short decision", risk: "medium"})`, "true", ""},
		{"example shape mismatch", `llm.validateOutput({decision: 1}, {decision: "short decision"})`, "false", "structured output does not match the output shape: decision must be a string"},
		{"external refs are not loaded", `llm.validate_output({a: 1}, {type: "object", ["$ref"]: "http://example.com/s.json"})`, "false", "schema does not compile: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustRun3(t, schemaSrc+"ok, msg := "+c.call+"\nprint(tostring(ok))\nprint(msg)", answers())
			lines := r.lines()
			if len(lines) < 1 || lines[0] != c.ok {
				t.Fatalf("ok = %q, want %s (output %q)", lines, c.ok, r.out)
			}
			msg := ""
			if len(lines) > 1 {
				msg = strings.Join(lines[1:], "\n")
			}
			if c.msg == "" && msg != "" || c.msg != "" && !strings.HasPrefix(msg, c.msg) {
				t.Fatalf("message = %q, want prefix %q", msg, c.msg)
			}
		})
	}
	r := run3(t, `llm.validate_output({})`, answers())
	if r.err == nil || !strings.Contains(r.err.Error(), "(value, schema expected)") {
		t.Fatalf("one argument: %v", r.err)
	}
}
