package leia

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// queryRef is one name a query uses: a node type, an anonymous node or a
// field, with the node it appears under ("" at the top level, "_" for a
// wildcard parent).
type queryRef struct {
	kind   string // "node", "anon" or "field"
	name   string
	parent string
	line   int
}

type queryTok struct {
	text string
	line int
}

func queryTokens(src string) ([]queryTok, error) {
	var toks []queryTok
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
			toks = append(toks, queryTok{string(c), line})
			i++
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				if j < len(src) && src[j] == '\n' {
					return nil, fmt.Errorf("line %d: newline in string", line)
				}
				j++
			}
			if j >= len(src) {
				return nil, fmt.Errorf("line %d: unterminated string", line)
			}
			toks = append(toks, queryTok{src[i : j+1], line})
			i = j + 1
		default:
			j := i
			for j < len(src) && strings.IndexByte("()[]\" \t\r\n;", src[j]) < 0 {
				j++
			}
			toks = append(toks, queryTok{src[i:j], line})
			i = j
		}
	}
	return toks, nil
}

// queryRefs parses a query file and returns every node type, anonymous
// node and field it names, skipping predicate arguments.
func queryRefs(src string) ([]queryRef, error) {
	toks, err := queryTokens(src)
	if err != nil {
		return nil, err
	}
	var refs []queryRef
	pos := 0
	peek := func() string {
		if pos < len(toks) {
			return toks[pos].text
		}
		return ""
	}
	var pattern func(parent string) error
	// suffixes consumes captures and quantifiers after a pattern.
	suffixes := func() {
		for pos < len(toks) {
			t := peek()
			if strings.HasPrefix(t, "@") || t == "*" || t == "+" || t == "?" {
				pos++
				continue
			}
			return
		}
	}
	pattern = func(parent string) error {
		if pos >= len(toks) {
			return fmt.Errorf("unexpected end of query")
		}
		tok := toks[pos]
		switch {
		case tok.text == "[":
			pos++
			for peek() != "]" {
				if pos >= len(toks) {
					return fmt.Errorf("line %d: unclosed [", tok.line)
				}
				if err := pattern(parent); err != nil {
					return err
				}
			}
			pos++
		case strings.HasPrefix(tok.text, "\""):
			refs = append(refs, queryRef{"anon", strings.Trim(tok.text, "\""), parent, tok.line})
			pos++
		case tok.text == "_":
			pos++
		case tok.text == "(":
			pos++
			next := peek()
			switch {
			case strings.HasPrefix(next, "#"):
				depth := 1
				for depth > 0 {
					pos++
					if pos >= len(toks) {
						return fmt.Errorf("line %d: unclosed predicate", tok.line)
					}
					switch peek() {
					case "(":
						depth++
					case ")":
						depth--
					}
				}
				pos++
				return nil
			case next == "(" || next == "[" || strings.HasPrefix(next, "\""):
				for peek() != ")" {
					if pos >= len(toks) {
						return fmt.Errorf("line %d: unclosed group", tok.line)
					}
					if err := pattern(parent); err != nil {
						return err
					}
				}
				pos++
			default:
				node := next
				pos++
				if node != "_" {
					for _, part := range strings.Split(node, "/") {
						refs = append(refs, queryRef{"node", part, parent, tok.line})
					}
				}
				self := node
				if i := strings.Index(node, "/"); i >= 0 {
					self = node[i+1:]
				}
				for peek() != ")" {
					if pos >= len(toks) {
						return fmt.Errorf("line %d: unclosed (%s", tok.line, node)
					}
					t := toks[pos]
					switch {
					case strings.HasSuffix(t.text, ":"):
						refs = append(refs, queryRef{"field", strings.TrimSuffix(t.text, ":"), self, t.line})
						pos++
						if err := pattern(self); err != nil {
							return err
						}
					case strings.HasPrefix(t.text, "!"):
						refs = append(refs, queryRef{"field", strings.TrimPrefix(t.text, "!"), self, t.line})
						pos++
					case t.text == ".":
						pos++
					default:
						if err := pattern(self); err != nil {
							return err
						}
					}
				}
				pos++
			}
		default:
			return fmt.Errorf("line %d: unexpected %q", tok.line, tok.text)
		}
		suffixes()
		return nil
	}
	for pos < len(toks) {
		if err := pattern(""); err != nil {
			return nil, err
		}
	}
	return refs, nil
}

// TestQueriesUseGrammarNames checks every query file: each node type,
// anonymous node and field it names exists in the grammar, and each field
// is one its parent node type can carry.
func TestQueriesUseGrammarNames(t *testing.T) {
	v := loadVocab(t)
	files, err := filepath.Glob(filepath.Join("queries", "*.scm"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"highlights.scm": false, "locals.scm": false, "folds.scm": false, "indents.scm": false, "injections.scm": false}
	for _, f := range files {
		want[filepath.Base(f)] = true
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		refs, err := queryRefs(string(src))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(refs) == 0 {
			t.Errorf("%s: names no nodes", f)
		}
		for _, r := range refs {
			at := fmt.Sprintf("%s:%d", f, r.line)
			switch r.kind {
			case "node":
				if !v.named[r.name] && !v.supertypes[r.name] && r.name != "MISSING" {
					t.Errorf("%s: unknown node type %q", at, r.name)
				}
			case "anon":
				if !v.anonymous[r.name] {
					t.Errorf("%s: the grammar has no anonymous node %q", at, r.name)
				}
			case "field":
				if r.parent == "_" || v.supertypes[r.parent] {
					if !v.allFields[r.name] {
						t.Errorf("%s: unknown field %q", at, r.name)
					}
				} else if !v.nodeFields(r.parent)[r.name] {
					t.Errorf("%s: %s has no field %q", at, r.parent, r.name)
				}
			}
		}
	}
	for name, found := range want {
		if !found {
			t.Errorf("queries/%s is missing", name)
		}
	}
}

// TestQueryRefsFindMistakes proves the checker reads what it must: node
// types (including supertype/subtype pairs), anonymous nodes, fields with
// their parents, and skips predicate arguments.
func TestQueryRefsFindMistakes(t *testing.T) {
	src := `; comment (not_a_node)
((pair key: (identifier) @k !value) (#eq? @k "(fake)"))
[ "if" (_expression/binary_expression) ] @x
(_ body: (block))
(call_expression function: [(identifier) (field_expression field: (identifier))]* @f)`
	refs, err := queryRefs(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range refs {
		got = append(got, fmt.Sprintf("%s:%s<%s", r.kind, r.name, r.parent))
	}
	want := "node:pair< field:key<pair node:identifier<pair field:value<pair anon:if< node:_expression< node:binary_expression< field:body<_ node:block<_ node:call_expression< field:function<call_expression node:identifier<call_expression node:field_expression<call_expression field:field<field_expression node:identifier<field_expression"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("refs =\n%s\nwant\n%s", s, want)
	}
	for _, bad := range []string{"(pair", "[ (a)", "(#eq? @x", `"open`, ")"} {
		if _, err := queryRefs(bad); err == nil {
			t.Errorf("queryRefs(%q) succeeded", bad)
		}
	}
}
