package leialang

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/lang/leia/stdlib"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
)

// builtinOf returns the predeclared function, module or value a name or
// `module.member` node denotes (lang/leia/stdlib), or nil: a name the file
// declares, or a module name a local shadows, is not a builtin.
func builtinOf(ix *names.Index, n *sitter.Node, src []byte) *stdlib.Entry {
	switch n.Kind() {
	case "identifier":
		if p := n.Parent(); p != nil && p.Kind() == "field_expression" {
			if f := p.ChildByFieldName("field"); f != nil && f.Id() == n.Id() {
				return builtinOf(ix, p, src)
			}
		}
		sp := names.NodeSpan(n)
		if ix.DefAtName(sp) != nil {
			return nil
		}
		if r, ok := ix.RefAt(sp); ok && ix.Resolve(r) != nil {
			return nil
		}
		return stdlib.Lookup(n.Utf8Text(src))
	case "field_expression":
		obj, field := n.ChildByFieldName("object"), n.ChildByFieldName("field")
		if obj == nil || field == nil || obj.Kind() != "identifier" {
			return nil
		}
		mod := builtinOf(ix, obj, src)
		if mod == nil || mod.Kind != stdlib.Module {
			return nil
		}
		return mod.Member(field.Utf8Text(src))
	}
	return nil
}

// builtinHover is the hover text of a predeclared entry: its signature
// (or kind), the doc, and where it exists.
func builtinHover(e *stdlib.Entry) string {
	var head string
	switch e.Kind {
	case stdlib.Function:
		head = e.Signature()
	case stdlib.Module:
		head = "module " + e.Name
	default:
		head = e.Name
	}
	var b strings.Builder
	b.WriteString("```leia\n" + head + "\n```")
	if e.Doc != "" {
		b.WriteString("\n\n" + e.Doc)
	}
	if e.Scope == stdlib.EvaluateOnly {
		b.WriteString("\n\nAvailable inside evaluate blocks only.")
	}
	if e.Unimplemented != "" {
		b.WriteString("\n\nNot provided by harn-check's runtime: " + e.Unimplemented + ".")
	}
	return b.String()
}

// builtinSignature is the signature help of a predeclared function, the
// active parameter held at a variadic one; nil when its parameters are
// not recorded.
func builtinSignature(e *stdlib.Entry, active int) *features.SignatureHelp {
	if e.Kind != stdlib.Function || e.Unknown {
		return nil
	}
	sig := features.Signature{Label: e.Signature(), Documentation: e.Doc}
	for i, p := range e.Params {
		sig.Parameters = append(sig.Parameters, features.Parameter{Label: p.String()})
		if p.Variadic && active > i {
			active = i
		}
	}
	return &features.SignatureHelp{Signatures: []features.Signature{sig}, ActiveParameter: active}
}
