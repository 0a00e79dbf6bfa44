package harnlang

import (
	"context"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/lang/harn/builtins"
	"github.com/harnlang/harn-check/lang/harn/types"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
)

// SignatureHelp implements features.Features for calls of functions,
// pipelines and tools declared in the file or imported from a relative
// module (the declaration's signature with its doc comment), of every
// builtin of the standard library and builtin namespace member
// (`stream.map(`; the table's signature and doc), of the std/predicate
// builders and the HarnessLlm evaluation methods, and of the methods of
// built-in kinds (`xs.take(`: from the receiver's checked type and the
// builtin table), with the parameter the cursor is at.
func (f *Features) SignatureHelp(_ context.Context, s features.Snapshot, offset int) (*features.SignatureHelp, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil || offset < 0 || offset > len(s.Doc.Text) {
		return nil, nil
	}
	call, args := enclosingCall(tree, offset)
	if call == nil {
		return nil, nil
	}
	fn := call.ChildByFieldName("function")
	if fn == nil {
		return nil, nil
	}
	active := 0
	for i := uint(0); i < args.ChildCount(); i++ {
		c := args.Child(i)
		if c.Kind() == "," && int(c.StartByte()) < offset {
			active++
		}
	}
	if fn.Kind() == "member_expression" {
		if b := namespaceMember(fn, f.names.Index(tree, s.Doc.Text), s.Doc.Text); b != nil {
			return builtinCallSignature(b, active), nil
		}
		if b := kindMember(s, tree, fn); b != nil && !b.Property {
			return builtinCallSignature(b, active), nil
		}
		// The evaluation methods of HarnessLlm, by their unique names.
		prop := fn.ChildByFieldName("property")
		if prop == nil {
			return nil, nil
		}
		name := prop.Utf8Text(s.Doc.Text)
		switch name {
		case stdlib.MethodEvaluate, stdlib.MethodEvaluatePredicate, stdlib.MethodEvaluateRequest, stdlib.MethodEstimateTokens:
			if t, ok := stdlib.HarnessLlm().Member(name); ok {
				if ft, ok := t.(*types.Func); ok {
					return builtinSignature("llm."+name, ft, "", active), nil
				}
			}
		}
		return nil, nil
	}
	if fn.Kind() != "identifier" {
		return nil, nil
	}
	ix := f.names.Index(tree, s.Doc.Text)
	d := ix.ResolveUse(nodeSpan(fn))
	if d == nil {
		if b := builtins.Lookup(fn.Utf8Text(s.Doc.Text)); b != nil && b.Namespace == "" {
			return builtinCallSignature(b, active), nil
		}
		return nil, nil
	}
	if d.Kind == kindImport && d.Module == stdlib.PredicateModule {
		if ft, ok := stdlib.Predicate().Functions[d.Name]; ok {
			return builtinSignature(d.Name, ft, "from `"+stdlib.PredicateModule+"`", active), nil
		}
		return nil, nil
	}
	src, declTree, declSpan := s.Doc.Text, tree, d.Span
	doc := d.Doc
	if d.Kind == kindImport {
		loc, ok := f.importTarget(s, d.Module, d.Name)
		if !ok {
			return nil, nil
		}
		other, err := s.Workspace.ReadFile(loc.Path)
		if err != nil {
			return nil, nil
		}
		t := binding.ParseTree(other, nil)
		if t == nil {
			return nil, nil
		}
		defer t.Close()
		oix := f.names.Index(t, other)
		od := oix.DefAtName(loc.Span)
		if od == nil {
			return nil, nil
		}
		src, declTree, declSpan, doc = other, t, od.Span, od.Doc
	}
	name := declTree.RootNode().NamedDescendantForByteRange(uint(declSpan.Start), uint(declSpan.End))
	if name == nil || name.Parent() == nil {
		return nil, nil
	}
	decl := name.Parent()
	params := decl.ChildByFieldName("parameters")
	if params == nil {
		return nil, nil
	}
	header := names.HeaderSpan(decl, src)
	sig := features.Signature{Label: oneLine(string(src[header.Start:header.End])), Documentation: doc}
	rest := -1
	for i := uint(0); i < params.NamedChildCount(); i++ {
		p := params.NamedChild(i)
		if k := p.Kind(); k != "parameter" && k != "rest_parameter" {
			continue
		}
		if p.Kind() == "rest_parameter" {
			rest = len(sig.Parameters)
		}
		sig.Parameters = append(sig.Parameters, features.Parameter{Label: oneLine(p.Utf8Text(src))})
	}
	if rest >= 0 && active > rest {
		active = rest
	}
	return &features.SignatureHelp{Signatures: []features.Signature{sig}, ActiveParameter: active}, nil
}

// enclosingCall returns the innermost call whose argument list holds
// offset (after its "(", up to and including the position before its ")";
// to the end of an unclosed list), and that argument list.
func enclosingCall(tree *sitter.Tree, offset int) (*sitter.Node, *sitter.Node) {
	n := tree.RootNode().DescendantForByteRange(uint(max(offset-1, 0)), uint(max(offset-1, 0)))
	for ; n != nil; n = n.Parent() {
		if n.Kind() != "arguments" {
			continue
		}
		sp := nodeSpan(n)
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

// builtinSignature is the signature of a function the checker's standard
// library describes (a std/predicate builder, a HarnessLlm method).
func builtinSignature(name string, ft *types.Func, doc string, active int) *features.SignatureHelp {
	sig := features.Signature{Documentation: doc}
	var labels []string
	for i, p := range ft.Params {
		l := p.Name
		if p.Optional {
			l += "?"
		}
		l += ": " + p.Type.String()
		if ft.Variadic && i == len(ft.Params)-1 {
			l = "..." + l
		}
		labels = append(labels, l)
		sig.Parameters = append(sig.Parameters, features.Parameter{Label: l})
	}
	sig.Label = name + "(" + strings.Join(labels, ", ") + ")"
	if ft.Result != nil {
		sig.Label += " -> " + ft.Result.String()
	}
	if n := len(ft.Params); ft.Variadic && n > 0 && active >= n {
		active = n - 1
	}
	return &features.SignatureHelp{Signatures: []features.Signature{sig}, ActiveParameter: active}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
