package leialang

import (
	"context"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// SignatureHelp implements features.Features for calls of functions
// declared in the file, by `func name(params)` or `name := func(params)`:
// the signature with the comment above the declaration, and the parameter
// the cursor is at (a variadic parameter stays active past its position);
// and for Leia's predeclared functions and standard-library members
// (print, os.getenv, llm.turn), the signature and doc of lang/leia/stdlib.
// Methods and imported functions get nothing.
func (f *Features) SignatureHelp(_ context.Context, s features.Snapshot, offset int) (*features.SignatureHelp, error) {
	ix := f.index(s)
	if ix == nil || offset < 0 || offset > len(s.Doc.Text) {
		return nil, nil
	}
	tree := s.Doc.Tree.(*tsquery.Tree).T
	call, args := enclosingCall(tree, offset)
	if call == nil {
		return nil, nil
	}
	fn := call.ChildByFieldName("function")
	if fn == nil {
		return nil, nil
	}
	if e := builtinOf(ix, fn, s.Doc.Text); e != nil {
		return builtinSignature(e, activeArg(args, offset)), nil
	}
	if fn.Kind() != "identifier" {
		return nil, nil
	}
	d := ix.ResolveUse(names.NodeSpan(fn))
	if d == nil {
		return nil, nil
	}
	params := parametersOf(tree, d)
	if params == nil {
		return nil, nil
	}
	src := s.Doc.Text
	sig := features.Signature{Documentation: d.Doc}
	var labels []string
	variadic := -1
	for i := uint(0); i < params.NamedChildCount(); i++ {
		p := params.NamedChild(i)
		if p.Kind() == "variadic_parameter" {
			variadic = len(labels)
		} else if p.Kind() != "identifier" {
			continue
		}
		l := strings.Join(strings.Fields(p.Utf8Text(src)), "")
		labels = append(labels, l)
		sig.Parameters = append(sig.Parameters, features.Parameter{Label: l})
	}
	sig.Label = "func " + d.Name + "(" + strings.Join(labels, ", ") + ")"
	active := activeArg(args, offset)
	if variadic >= 0 && active > variadic {
		active = variadic
	}
	return &features.SignatureHelp{Signatures: []features.Signature{sig}, ActiveParameter: active}, nil
}

// activeArg is the index of the argument at offset: the commas before it.
func activeArg(args *sitter.Node, offset int) int {
	active := 0
	for i := uint(0); i < args.ChildCount(); i++ {
		if c := args.Child(i); c.Kind() == "," && int(c.StartByte()) < offset {
			active++
		}
	}
	return active
}

// parametersOf returns the parameter list of the function d declares: a
// function declaration's, or that of the function literal assigned to d
// by a short variable declaration (the literal at d's position on the
// right).
func parametersOf(tree *sitter.Tree, d *names.Def) *sitter.Node {
	name := tree.RootNode().NamedDescendantForByteRange(uint(d.Span.Start), uint(d.Span.End))
	if name == nil || name.Parent() == nil {
		return nil
	}
	p := name.Parent()
	switch p.Kind() {
	case "function_declaration":
		return p.ChildByFieldName("parameters")
	case "expression_list":
		decl := p.Parent()
		if decl == nil || decl.Kind() != "short_var_declaration" {
			return nil
		}
		right := decl.ChildByFieldName("right")
		if right == nil {
			return nil
		}
		var i uint
		for ; i < p.NamedChildCount(); i++ {
			if p.NamedChild(i).StartByte() == name.StartByte() {
				break
			}
		}
		if i >= right.NamedChildCount() {
			return nil
		}
		if lit := right.NamedChild(i); lit.Kind() == "function_literal" {
			return lit.ChildByFieldName("parameters")
		}
	}
	return nil
}

// enclosingCall returns the innermost call whose argument list holds
// offset (after its "(", up to its ")"; to the end of an unclosed list),
// and that argument list.
func enclosingCall(tree *sitter.Tree, offset int) (*sitter.Node, *sitter.Node) {
	at := uint(max(offset-1, 0))
	for n := tree.RootNode().DescendantForByteRange(at, at); n != nil; n = n.Parent() {
		if n.Kind() != "arguments" {
			continue
		}
		sp := names.NodeSpan(n)
		if offset > sp.Start && (offset < sp.End || offset == sp.End && !closed(n)) {
			if p := n.Parent(); p != nil && p.Kind() == "call_expression" {
				return p, n
			}
		}
	}
	return nil, nil
}

// closed reports whether an argument list ends with its ")".
func closed(args *sitter.Node) bool {
	if c := args.ChildCount(); c > 0 {
		last := args.Child(c - 1)
		return last.Kind() == ")" && !last.IsMissing()
	}
	return false
}
