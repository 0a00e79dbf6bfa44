package lsp

import (
	"encoding/json"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// MethodSyntaxTree is leia-lsp's own request for the syntax tree the
// server keeps for a document, as an S-expression (tree-sitter's form, the
// one `harn-check parse --sexp` prints): for looking at what the parser
// made of a buffer, and for tests that compare the incrementally reparsed
// tree with a fresh parse. Params: {"textDocument": {"uri": URI}}. Result:
// SyntaxTree, or null when the document's language keeps no tree.
const MethodSyntaxTree = "leia/syntaxTree"

// SyntaxTree is the result of MethodSyntaxTree.
type SyntaxTree struct {
	// Version is the document version the tree is of.
	Version int32 `json:"version"`
	// Sexp is the tree as an S-expression.
	Sexp string `json:"sexp"`
}

// sexper is a cache.Tree that prints itself.
type sexper interface{ Sexp() string }

func (s *Server) syntaxTree(g *glsp.Context) (any, error) {
	raw := g.Params
	var p struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || p.TextDocument.URI == "" {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "invalid params for " + MethodSyntaxTree + ": want {\"textDocument\": {\"uri\": ...}}"}
	}
	d := s.document(g, p.TextDocument.URI)
	if d == nil {
		return nil, invalidParams("document %s is not open", p.TextDocument.URI)
	}
	t, ok := d.Tree().(sexper)
	if !ok {
		return nil, nil
	}
	return SyntaxTree{Version: d.Version, Sexp: t.Sexp()}, nil
}
