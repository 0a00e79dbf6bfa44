package effects

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/lint/internal/syntax"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// UntypedDictAccess is the untyped-dict-access rule.
var UntypedDictAccess = &analysis.Rule{
	Name:  "untyped-dict-access",
	Doc:   analysis.ExtractDoc(doc, "untyped-dict-access"),
	Codes: []string{"HARN-LNT-029"},
	Run:   untypedDictAccess,
}

// boundary reports upstream's builtins whose result is outside data of
// no declared shape.
func boundary(name string) bool {
	switch name {
	case "json_parse", "json_extract", "yaml_parse", "toml_parse",
		"llm_call", "llm_completion",
		"http_get", "http_post", "http_put", "http_patch", "http_delete",
		"http_request", "http_session_request",
		"sse_receive", "sse_server_mock_receive", "sse_server_response", "sse_server_status",
		"websocket_accept", "websocket_receive", "host_call", "mcp_call":
		return true
	}
	return false
}

func untypedDictAccess(p *analysis.Pass) {
	syntax.Walk(p.File, func(n ast.Node, stack []ast.Node) bool {
		var x ast.Expr
		var what string
		switch n := n.(type) {
		case *ast.Member:
			if len(stack) > 0 {
				if c, ok := stack[len(stack)-1].(*ast.Call); ok && c.Func == ast.Expr(n) {
					return true // a method call, not a field read
				}
			}
			x, what = n.X, "field"
		case *ast.Index:
			x, what = n.X, "index"
		default:
			return true
		}
		c, ok := x.(*ast.Call)
		if !ok || !boundary(syntax.Callee(c)) {
			return true
		}
		d := p.Diag(diagnostics.SourceLint, "HARN-LNT-029", n.Pos(), "%s read on the raw result of `%s()`, whose shape nothing has checked", what, syntax.Callee(c))
		d.Help = "bind the result and validate it first (schema_expect, or a binding with a declared type)"
		p.Report(d)
		return true
	})
}
