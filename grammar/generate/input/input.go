// Package input is the grammar.json model shared by every stage of the
// parser generator: the rule tree exactly as tree-sitter's DSL writes it,
// with the grammar's top-level lists, decoded in declaration order.
//
// It knows nothing of lexing or LR construction; later stages read it.
package input

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// RuleType is the "type" of a grammar.json rule node.
type RuleType string

// The rule node types of grammar.json.
const (
	Blank          RuleType = "BLANK"
	String         RuleType = "STRING"
	Pattern        RuleType = "PATTERN"
	Symbol         RuleType = "SYMBOL"
	Seq            RuleType = "SEQ"
	Choice         RuleType = "CHOICE"
	Repeat         RuleType = "REPEAT"
	Repeat1        RuleType = "REPEAT1"
	Field          RuleType = "FIELD"
	Alias          RuleType = "ALIAS"
	Prec           RuleType = "PREC"
	PrecLeft       RuleType = "PREC_LEFT"
	PrecRight      RuleType = "PREC_RIGHT"
	PrecDynamic    RuleType = "PREC_DYNAMIC"
	Token          RuleType = "TOKEN"
	ImmediateToken RuleType = "IMMEDIATE_TOKEN"
	Reserved       RuleType = "RESERVED"
)

// Precedence is the value of a PREC* node: an integer or a named level.
type Precedence struct {
	// IsName reports whether the precedence is a named level (Name) rather
	// than an integer (Int).
	IsName bool
	Int    int
	Name   string
}

// String renders the precedence as the grammar author wrote it.
func (p Precedence) String() string {
	if p.IsName {
		return fmt.Sprintf("%q", p.Name)
	}
	return fmt.Sprint(p.Int)
}

// Rule is one node of a grammar.json rule tree. Which fields are set
// depends on Type:
//
//	STRING, PATTERN      Value (PATTERN also Flags)
//	SYMBOL               Name
//	SEQ, CHOICE          Members
//	REPEAT, REPEAT1, TOKEN, IMMEDIATE_TOKEN  Content
//	FIELD                Name, Content
//	ALIAS                Value, Named, Content
//	PREC*, PREC_DYNAMIC  Prec, Content
//	RESERVED             ContextName, Content
type Rule struct {
	Type        RuleType
	Value       string
	Flags       string
	Name        string
	Named       bool
	Prec        Precedence
	ContextName string
	Members     []*Rule
	Content     *Rule
}

// NamedRule is a rule definition with its name, in declaration order.
type NamedRule struct {
	Name string
	Rule *Rule
}

// Grammar is a decoded grammar.json. Rules keeps declaration order; the
// first rule is the start rule.
type Grammar struct {
	Name        string
	Inherits    string
	Word        string
	Rules       []NamedRule
	Extras      []*Rule
	Conflicts   [][]string
	Precedences [][]*Rule // each entry a STRING (named level) or SYMBOL
	Externals   []*Rule
	Inline      []string
	Supertypes  []string
	Reserved    []NamedReservedSet
	// HasExtras reports whether the "extras" key was present; when absent
	// the default extras ([PATTERN "\s"]) apply.
	HasExtras bool
}

// NamedReservedSet is one entry of the "reserved" object, in order.
type NamedReservedSet struct {
	Name  string
	Rules []*Rule
}

// Rule returns the definition of the named rule, or nil.
func (g *Grammar) Rule(name string) *Rule {
	for _, r := range g.Rules {
		if r.Name == name {
			return r.Rule
		}
	}
	return nil
}

// Parse decodes grammar.json text. Errors name the JSON path of the
// offending node.
func Parse(data []byte) (*Grammar, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("grammar.json: %w", err)
	}
	g := &Grammar{}
	if err := decodeString(raw, "name", &g.Name); err != nil {
		return nil, err
	}
	if g.Name == "" {
		return nil, fmt.Errorf("grammar.json: missing \"name\"")
	}
	if err := decodeString(raw, "inherits", &g.Inherits); err != nil {
		return nil, err
	}
	if err := decodeString(raw, "word", &g.Word); err != nil {
		return nil, err
	}
	rules, ok := raw["rules"]
	if !ok {
		return nil, fmt.Errorf("grammar.json: missing \"rules\"")
	}
	keys, values, err := orderedObject(rules)
	if err != nil {
		return nil, fmt.Errorf("grammar.json: rules: %w", err)
	}
	for i, k := range keys {
		r, err := decodeRule(values[i], "rules."+k)
		if err != nil {
			return nil, err
		}
		g.Rules = append(g.Rules, NamedRule{Name: k, Rule: r})
	}
	if len(g.Rules) == 0 {
		return nil, fmt.Errorf("grammar.json: \"rules\" is empty")
	}
	if v, ok := raw["extras"]; ok {
		g.HasExtras = true
		if g.Extras, err = decodeRuleList(v, "extras"); err != nil {
			return nil, err
		}
	}
	if v, ok := raw["externals"]; ok {
		if g.Externals, err = decodeRuleList(v, "externals"); err != nil {
			return nil, err
		}
	}
	if v, ok := raw["precedences"]; ok {
		var lists []json.RawMessage
		if err := json.Unmarshal(v, &lists); err != nil {
			return nil, fmt.Errorf("grammar.json: precedences: %w", err)
		}
		for i, l := range lists {
			rs, err := decodeRuleList(l, fmt.Sprintf("precedences[%d]", i))
			if err != nil {
				return nil, err
			}
			g.Precedences = append(g.Precedences, rs)
		}
	}
	for _, key := range []string{"conflicts"} {
		if v, ok := raw[key]; ok {
			if err := json.Unmarshal(v, &g.Conflicts); err != nil {
				return nil, fmt.Errorf("grammar.json: %s: %w", key, err)
			}
		}
	}
	if v, ok := raw["inline"]; ok {
		if err := json.Unmarshal(v, &g.Inline); err != nil {
			return nil, fmt.Errorf("grammar.json: inline: %w", err)
		}
	}
	if v, ok := raw["supertypes"]; ok {
		if err := json.Unmarshal(v, &g.Supertypes); err != nil {
			return nil, fmt.Errorf("grammar.json: supertypes: %w", err)
		}
	}
	if v, ok := raw["reserved"]; ok {
		keys, values, err := orderedObject(v)
		if err != nil {
			return nil, fmt.Errorf("grammar.json: reserved: %w", err)
		}
		for i, k := range keys {
			rs, err := decodeRuleList(values[i], "reserved."+k)
			if err != nil {
				return nil, err
			}
			g.Reserved = append(g.Reserved, NamedReservedSet{Name: k, Rules: rs})
		}
	}
	return g, nil
}

func decodeString(raw map[string]json.RawMessage, key string, dst *string) error {
	v, ok := raw[key]
	if !ok || string(v) == "null" {
		return nil
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return fmt.Errorf("grammar.json: %s: %w", key, err)
	}
	return nil
}

// orderedObject splits a JSON object into its keys and raw values, keeping
// the order of the source text.
func orderedObject(data json.RawMessage) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("expected an object")
	}
	var keys []string
	var values []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, nil, fmt.Errorf("expected an object key")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys = append(keys, key)
		values = append(values, v)
	}
	return keys, values, nil
}

func decodeRuleList(data json.RawMessage, path string) ([]*Rule, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, fmt.Errorf("grammar.json: %s: %w", path, err)
	}
	out := make([]*Rule, 0, len(items))
	for i, it := range items {
		r, err := decodeRule(it, fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

type rawRule struct {
	Type        RuleType          `json:"type"`
	Value       json.RawMessage   `json:"value"`
	Flags       string            `json:"flags"`
	Name        string            `json:"name"`
	Named       bool              `json:"named"`
	ContextName string            `json:"context_name"`
	Members     []json.RawMessage `json:"members"`
	Content     json.RawMessage   `json:"content"`
}

func decodeRule(data json.RawMessage, path string) (*Rule, error) {
	var rr rawRule
	if err := json.Unmarshal(data, &rr); err != nil {
		return nil, fmt.Errorf("grammar.json: %s: %w", path, err)
	}
	r := &Rule{Type: rr.Type, Flags: rr.Flags, Name: rr.Name, Named: rr.Named, ContextName: rr.ContextName}
	content := func() error {
		if len(rr.Content) == 0 {
			return fmt.Errorf("grammar.json: %s: %s rule without \"content\"", path, rr.Type)
		}
		c, err := decodeRule(rr.Content, path+".content")
		r.Content = c
		return err
	}
	str := func() error {
		if err := json.Unmarshal(rr.Value, &r.Value); err != nil {
			return fmt.Errorf("grammar.json: %s: %s rule needs a string \"value\"", path, rr.Type)
		}
		return nil
	}
	switch rr.Type {
	case Blank:
	case String, Pattern:
		if err := str(); err != nil {
			return nil, err
		}
	case Symbol:
		if r.Name == "" {
			return nil, fmt.Errorf("grammar.json: %s: SYMBOL without \"name\"", path)
		}
	case Seq, Choice:
		for i, m := range rr.Members {
			mr, err := decodeRule(m, fmt.Sprintf("%s.members[%d]", path, i))
			if err != nil {
				return nil, err
			}
			r.Members = append(r.Members, mr)
		}
	case Repeat, Repeat1, Token, ImmediateToken, Field, Reserved:
		if err := content(); err != nil {
			return nil, err
		}
	case Alias:
		if err := str(); err != nil {
			return nil, err
		}
		if err := content(); err != nil {
			return nil, err
		}
	case Prec, PrecLeft, PrecRight, PrecDynamic:
		var n json.Number
		if err := json.Unmarshal(rr.Value, &n); err == nil {
			v, err := n.Int64()
			if err != nil {
				return nil, fmt.Errorf("grammar.json: %s: precedence %s is not an integer", path, n)
			}
			r.Prec = Precedence{Int: int(v)}
		} else {
			var s string
			if err := json.Unmarshal(rr.Value, &s); err != nil || rr.Type == PrecDynamic {
				return nil, fmt.Errorf("grammar.json: %s: %s needs an integer%s \"value\"", path, rr.Type,
					map[bool]string{true: "", false: " or string"}[rr.Type == PrecDynamic])
			}
			r.Prec = Precedence{IsName: true, Name: s}
		}
		if err := content(); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("grammar.json: %s: unknown rule type %q", path, rr.Type)
	}
	return r, nil
}
