package harn

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nodeTypes is what the queries may name: named and anonymous node types,
// and the fields of each named type.
type nodeTypes struct {
	named     map[string]bool
	anonymous map[string]bool
	fields    map[string]map[string]bool
}

func loadNodeTypes(t *testing.T) *nodeTypes {
	t.Helper()
	_, out := load(t)
	var entries []struct {
		Type   string                     `json:"type"`
		Named  bool                       `json:"named"`
		Fields map[string]json.RawMessage `json:"fields"`
	}
	if err := json.Unmarshal(out.NodeTypesJSON, &entries); err != nil {
		t.Fatalf("node-types.json: %v", err)
	}
	nt := &nodeTypes{named: map[string]bool{}, anonymous: map[string]bool{}, fields: map[string]map[string]bool{}}
	for _, e := range entries {
		if !e.Named {
			nt.anonymous[e.Type] = true
			continue
		}
		nt.named[e.Type] = true
		nt.fields[e.Type] = map[string]bool{}
		for f := range e.Fields {
			nt.fields[e.Type][f] = true
		}
	}
	return nt
}

// queryToken is one lexical item of a query file.
type queryToken struct {
	text string
	line int
}

// tokenizeQuery splits a tree-sitter query into parentheses, brackets,
// strings, and words; comments are dropped.
func tokenizeQuery(src string) ([]queryToken, error) {
	var toks []queryToken
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.IndexByte("()[]", c) >= 0:
			toks = append(toks, queryToken{string(c), line})
			i++
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				if j < len(src) && src[j] == '\n' {
					return nil, fmt.Errorf("line %d: unterminated string", line)
				}
				j++
			}
			if j >= len(src) {
				return nil, fmt.Errorf("line %d: unterminated string", line)
			}
			toks = append(toks, queryToken{src[i : j+1], line})
			i = j + 1
		default:
			j := i
			for j < len(src) && strings.IndexByte(" \t\r\n()[]\";", src[j]) < 0 {
				j++
			}
			toks = append(toks, queryToken{src[i:j], line})
			i = j
		}
	}
	return toks, nil
}

// checkQuery reports every node type or field a query names that the
// grammar does not define, and fields used on a node type without them.
func checkQuery(src string, nt *nodeTypes) []string {
	toks, err := tokenizeQuery(src)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	type frame struct {
		node      string // node type of a `(` group, "" for `[` or predicates
		predicate bool
	}
	var stack []frame
	inPredicate := func() bool {
		for _, f := range stack {
			if f.predicate {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		switch {
		case tok.text == "(":
			if i+1 >= len(toks) {
				problems = append(problems, fmt.Sprintf("line %d: `(` at end of file", tok.line))
				continue
			}
			next := toks[i+1].text
			switch {
			case strings.HasPrefix(next, "#"):
				stack = append(stack, frame{predicate: true})
				i++
			case next == "(" || next == "[" || strings.HasPrefix(next, "\""):
				stack = append(stack, frame{})
			case next == "_" || next == "ERROR" || next == "MISSING":
				stack = append(stack, frame{})
				i++
			default:
				if !nt.named[next] {
					problems = append(problems, fmt.Sprintf("line %d: unknown node type %q", toks[i+1].line, next))
				}
				stack = append(stack, frame{node: next})
				i++
			}
		case tok.text == "[":
			stack = append(stack, frame{})
		case tok.text == ")" || tok.text == "]":
			if len(stack) == 0 {
				problems = append(problems, fmt.Sprintf("line %d: unbalanced %q", tok.line, tok.text))
				continue
			}
			stack = stack[:len(stack)-1]
		case strings.HasPrefix(tok.text, "\""):
			if inPredicate() {
				continue
			}
			name := strings.ReplaceAll(tok.text[1:len(tok.text)-1], `\"`, `"`)
			name = strings.ReplaceAll(name, `\\`, `\`)
			if !nt.anonymous[name] {
				problems = append(problems, fmt.Sprintf("line %d: unknown anonymous node %s", tok.line, tok.text))
			}
		case strings.HasSuffix(tok.text, ":") && !strings.HasPrefix(tok.text, "@"):
			field := strings.TrimSuffix(tok.text, ":")
			if len(stack) == 0 || stack[len(stack)-1].node == "" {
				problems = append(problems, fmt.Sprintf("line %d: field %q outside a node pattern", tok.line, field))
				continue
			}
			parent := stack[len(stack)-1].node
			if !nt.fields[parent][field] {
				problems = append(problems, fmt.Sprintf("line %d: node %q has no field %q", tok.line, parent, field))
			}
		}
	}
	if len(stack) != 0 {
		problems = append(problems, "unbalanced brackets at end of file")
	}
	return problems
}

// TestQueriesNameGrammarNodes checks that every node type, anonymous token
// and field named in queries/*.scm exists in the generated node-types.json.
func TestQueriesNameGrammarNodes(t *testing.T) {
	nt := loadNodeTypes(t)
	files, err := filepath.Glob(filepath.Join("queries", "*.scm"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no query files (%v)", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range checkQuery(string(src), nt) {
			t.Errorf("%s: %s", f, p)
		}
	}
}

// TestCheckQueryCatchesMistakes makes sure the checker above can fail.
func TestCheckQueryCatchesMistakes(t *testing.T) {
	nt := &nodeTypes{
		named:     map[string]bool{"call": true, "identifier": true},
		anonymous: map[string]bool{"fn": true},
		fields:    map[string]map[string]bool{"call": {"function": true}, "identifier": {}},
	}
	tests := []struct {
		query string
		bad   int
	}{
		{`(call function: (identifier) @f) "fn" @k`, 0},
		{`((identifier) @v (#eq? @v "nope"))`, 0},
		{`(callz) @x`, 1},
		{`(call callee: (identifier))`, 1},
		{`(identifier function: (call))`, 1},
		{`"fun" @k`, 1},
		{`[(call) (cal)] @x`, 1},
		{`(call`, 1},
	}
	for _, tt := range tests {
		if got := checkQuery(tt.query, nt); len(got) != tt.bad {
			t.Errorf("checkQuery(%q) = %v, want %d problems", tt.query, got, tt.bad)
		}
	}
}
