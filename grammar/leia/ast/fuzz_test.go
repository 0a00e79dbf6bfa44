package ast

import "testing"

// fuzzKinds and fuzzFields are the node types and fields of the Leia
// grammar (plus ERROR), so random trees exercise every lowering branch.
var fuzzKinds = []string{
	"source_file", "block", "expression_statement", "expression_list", "short_var_declaration",
	"assignment_statement", "compound_assignment", "inc_statement", "dec_statement", "send_statement",
	"const_declaration", "function_declaration", "if_statement", "elseif_clause", "else_clause",
	"for_statement", "for_clause", "range_clause", "select_statement", "communication_case",
	"receive_statement", "default_case", "return_statement", "break_statement", "continue_statement",
	"goto_statement", "label_statement", "go_statement", "defer_statement", "import_declaration",
	"import_spec", "evaluate_statement", "tool_declaration", "agent_declaration", "agent_defaults",
	"budget_statement", "identifier", "integer", "float", "duration", "true", "false", "nil",
	"vararg_expression", "chan", "string", "single_string", "raw_string", "fenced_string",
	"string_content", "escape_sequence", "interpolation", "template", "fenced_template",
	"template_content", "parenthesized_expression", "unary_expression", "binary_expression",
	"call_expression", "method_call_expression", "arguments", "index_expression", "field_expression",
	"function_literal", "parameters", "variadic_parameter", "table", "pair", "computed_pair", "list",
	"dense_array", "tagged_block", "tagged_string", "quote_block", "agent_expression", "comment",
	"directive", "ERROR",
}

var fuzzFields = []string{
	"", "left", "right", "operator", "operand", "channel", "value", "name", "parameters", "body",
	"condition", "consequence", "alternative", "clause", "initializer", "update", "communication",
	"values", "label", "call", "alias", "path", "config", "flow", "limits", "expression",
	"function", "arguments", "receiver", "method", "object", "index", "field", "key", "element",
	"size", "type", "tag", "bang",
}

// fuzzTree builds a tree from bytes: each node takes a kind, a child count
// and a field per child from the input.
func fuzzTree(data []byte) *fakeNode {
	pos := 0
	next := func() int {
		if pos >= len(data) {
			return 0
		}
		b := int(data[pos])
		pos++
		return b
	}
	var node func(depth int) *fakeNode
	node = func(depth int) *fakeNode {
		kind := fuzzKinds[next()%len(fuzzKinds)]
		n := next()
		if depth > 6 || n%5 == 0 || pos >= len(data) {
			leaf := L(kind, "t"+kind)
			if n%7 == 1 {
				leaf = Missing(kind)
			}
			if kind == "ERROR" {
				leaf.isErr = true
			}
			return leaf
		}
		var items []any
		for i := 0; i < n%4+1; i++ {
			f := fuzzFields[next()%len(fuzzFields)]
			child := node(depth + 1)
			if f == "" {
				items = append(items, child)
			} else {
				items = append(items, F(f, child))
			}
		}
		out := N(kind, items...)
		out.isErr = kind == "ERROR"
		return out
	}
	return N("source_file", node(0), node(0))
}

// FuzzLower lowers random trees: lowering must not panic and every span
// must stay inside the source.
func FuzzLower(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte("short_var_declaration tagged_block"))
	f.Add([]byte{4, 3, 1, 36, 9, 2, 45, 1, 3, 70, 2, 8, 74, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		root := fuzzTree(data)
		src := build(root)
		file := Lower(root, src)
		checkSpans(t, file, len(src))
		_ = Dump(file)
	})
}
