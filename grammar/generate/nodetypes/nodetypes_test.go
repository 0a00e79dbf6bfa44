package nodetypes

import (
	"encoding/json"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

const grammar = `{
  "name": "t",
  "supertypes": ["_expression"],
  "extras": [{"type": "PATTERN", "value": "\\s"}, {"type": "SYMBOL", "name": "comment"}],
  "rules": {
    "program": {"type": "REPEAT", "content": {"type": "SYMBOL", "name": "_statement"}},
    "_statement": {"type": "SEQ", "members": [{"type": "SYMBOL", "name": "_expression"}, {"type": "STRING", "value": ";"}]},
    "_expression": {"type": "CHOICE", "members": [{"type": "SYMBOL", "name": "call"}, {"type": "SYMBOL", "name": "name"}]},
    "call": {"type": "SEQ", "members": [
      {"type": "FIELD", "name": "function", "content": {"type": "SYMBOL", "name": "name"}},
      {"type": "STRING", "value": "("},
      {"type": "REPEAT", "content": {"type": "FIELD", "name": "argument", "content": {"type": "SYMBOL", "name": "_expression"}}},
      {"type": "STRING", "value": ")"}]},
    "name": {"type": "PATTERN", "value": "[a-z]+"},
    "comment": {"type": "PATTERN", "value": "#.*"}
  }
}`

type field struct {
	Multiple bool `json:"multiple"`
	Required bool `json:"required"`
	Types    []struct {
		Type  string `json:"type"`
		Named bool   `json:"named"`
	} `json:"types"`
}

type node struct {
	Type     string           `json:"type"`
	Named    bool             `json:"named"`
	Root     bool             `json:"root"`
	Extra    bool             `json:"extra"`
	Fields   map[string]field `json:"fields"`
	Children *field           `json:"children"`
	Subtypes []struct {
		Type string `json:"type"`
	} `json:"subtypes"`
}

func TestNodeTypes(t *testing.T) {
	in, err := input.Parse([]byte(grammar))
	if err != nil {
		t.Fatal(err)
	}
	g, err := prepare.Prepare(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := JSON(g)
	if err != nil {
		t.Fatal(err)
	}
	var nodes []node
	if err := json.Unmarshal(out, &nodes); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, out)
	}
	var order []string
	byType := map[string]node{}
	for _, n := range nodes {
		order = append(order, n.Type)
		byType[n.Type] = n
	}
	// Supertypes first, then nodes with structure, then leaves, each by name.
	want := []string{"_expression", "call", "program", "(", ")", ";", "comment", "name"}
	if len(order) != len(want) {
		t.Fatalf("types %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("types %v, want %v", order, want)
		}
	}
	if s := byType["_expression"].Subtypes; len(s) != 2 || s[0].Type != "call" || s[1].Type != "name" {
		t.Errorf("subtypes %+v", s)
	}
	call := byType["call"]
	if f := call.Fields["function"]; !f.Required || f.Multiple || f.Types[0].Type != "name" {
		t.Errorf("function field %+v", f)
	}
	if f := call.Fields["argument"]; f.Required || !f.Multiple || f.Types[0].Type != "_expression" {
		t.Errorf("argument field %+v", f)
	}
	if call.Children != nil {
		t.Errorf("call has no unnamed-field children, got %+v", call.Children)
	}
	p := byType["program"]
	if !p.Root || p.Children == nil || p.Children.Required || !p.Children.Multiple || p.Children.Types[0].Type != "_expression" {
		t.Errorf("program %+v", p)
	}
	if !byType["comment"].Extra || byType["name"].Extra {
		t.Error("only comment is an extra")
	}
	if byType["("].Named || !byType["name"].Named {
		t.Error("named flags wrong")
	}
}

// A supertype that is also inlined still gets its node-types entry, and
// fields of that type list the supertype, not its members.
func TestInlinedSupertype(t *testing.T) {
	src := `{"name":"t","extras":[],"supertypes":["_value"],"inline":["_value"],"rules":{
	  "pair": {"type":"SEQ","members":[{"type":"STRING","value":"("},{"type":"FIELD","name":"v","content":{"type":"SYMBOL","name":"_value"}},{"type":"STRING","value":")"}]},
	  "_value": {"type":"CHOICE","members":[{"type":"SYMBOL","name":"num"},{"type":"SYMBOL","name":"word"}]},
	  "num": {"type":"PATTERN","value":"[0-9]+"},
	  "word": {"type":"PATTERN","value":"[a-z]+"}}}`
	in, err := input.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	g, err := prepare.Prepare(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := JSON(g)
	if err != nil {
		t.Fatal(err)
	}
	var nodes []node
	if err := json.Unmarshal(out, &nodes); err != nil {
		t.Fatal(err)
	}
	if nodes[0].Type != "_value" || len(nodes[0].Subtypes) != 2 {
		t.Fatalf("first entry %+v, want the _value supertype with two subtypes", nodes[0])
	}
	for _, n := range nodes {
		if n.Type == "pair" {
			f := n.Fields["v"]
			if len(f.Types) != 1 || f.Types[0].Type != "_value" {
				t.Errorf("field v types %+v, want [_value]", f.Types)
			}
		}
	}
}
