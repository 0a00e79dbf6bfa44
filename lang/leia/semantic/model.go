package semantic

import (
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/model"
)

// Model exports what the resolver learnt as the file's semantic model:
// every binding with a declaring identifier (with its static type when
// the checker knows it: bindingType), the identifiers that read or assign
// one, and the scopes the bindings live in. The predeclared
// names (Globals) and the locals a legacy agent flow receives from its
// fields (no identifier declares them) are not in it.
func (f *Facts) Model() *model.Model {
	if f == nil {
		return nil
	}
	b := model.NewBuilder()
	scopes := map[*Scope]int32{}
	var scopeOf func(s *Scope) int32
	scopeOf = func(s *Scope) int32 {
		if s == nil {
			return -1
		}
		if i, ok := scopes[s]; ok {
			return i
		}
		parent := scopeOf(s.Parent)
		var sp diagnostics.Span
		if s.Node != nil {
			sp = span(s.Node.Pos())
		}
		i := b.Scope(sp, parent)
		scopes[s] = i
		return i
	}
	defs := make(map[*Binding]int32, len(f.Bindings))
	for _, bd := range f.Bindings {
		if bd.Ident == nil {
			continue
		}
		defs[bd] = b.Def(model.Def{Name: bd.Name, Kind: bd.Kind.String(), Span: span(bd.Ident.Span), Scope: scopeOf(bd.Scope), Type: f.bindingType(bd)})
	}
	for id, bd := range f.Uses {
		if d, ok := defs[bd]; ok {
			b.Use(span(id.Span), d)
		}
	}
	return b.Model()
}

func span(s ast.Span) diagnostics.Span { return diagnostics.Span{Start: s.Start, End: s.End} }

// bindingType is the static type of a binding (TypeOf its value) when
// the checker knows it: a function declaration, or a variable or constant
// declared with one value and never assigned; "" otherwise.
func (f *Facts) bindingType(b *Binding) string {
	switch {
	case b.Kind == Func:
		return FunctionKind.String()
	case (b.Kind == Var || b.Kind == Const) && b.Value != nil && b.Writes == 0:
		if t := f.TypeOf(b.Value); t.Kind != UnknownKind {
			return t.Kind.String()
		}
	}
	return ""
}
