package infer

import (
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/lang/harn/types"
	"github.com/harnlang/harn-check/lang/model"
)

var basicTypes = map[string]types.Type{
	"int": types.IntType, "float": types.FloatType, "string": types.StringType, "bool": types.BoolType,
	"nil": types.NilType, "any": types.AnyType, "unknown": types.UnknownType, "never": types.NeverType,
	"bytes": types.BytesType,
}

// convType turns an annotation into a type. Unknown names are gradual
// (any): the checker reports only what is certain.
func (c *checker) convType(t ast.Type, tparams map[string]int32) types.Type {
	switch t := t.(type) {
	case nil:
		return types.AnyType
	case *ast.NamedType:
		name := nameOf(t.Name)
		if d, ok := tparams[name]; ok {
			if c.rec != nil {
				c.rec.Use(analysis.Span(t.Name.Span), d)
			}
			return types.AnyType
		}
		if b, ok := basicTypes[name]; ok && len(t.Args) == 0 {
			return b
		}
		args := make([]types.Type, len(t.Args))
		for i, a := range t.Args {
			args[i] = c.convType(a, tparams)
		}
		switch name {
		case "list":
			if len(args) == 1 {
				return &types.List{Elem: args[0]}
			}
			return &types.List{Elem: types.AnyType, Bare: true}
		case "dict":
			if len(args) == 2 {
				return &types.Dict{Key: args[0], Value: args[1]}
			}
			return &types.Dict{Key: types.AnyType, Value: types.AnyType, Bare: true}
		case "tuple":
			return &types.Tuple{Elems: args}
		case "closure":
			return &types.Func{Result: types.AnyType, Variadic: true, Params: []types.Param{{Name: "args", Type: types.AnyType, Optional: true}}}
		case "Stream", "stream", "Generator", "generator":
			// What a `gen fn` (Stream) or a function that yields
			// (Generator) returns: distinct handles.
			n := strings.ToUpper(name[:1]) + name[1:]
			if len(args) > 0 {
				parts := make([]string, len(args))
				for i, a := range args {
					parts[i] = types.Describe(a)
				}
				n += "<" + strings.Join(parts, ", ") + ">"
			}
			return &types.Capability{Name: n}
		case "Harness":
			return stdlib.Harness()
		case "HarnessLlm":
			return stdlib.HarnessLlm()
		}
		if a, ok := c.aliases[name]; ok {
			c.useType(t.Name, a)
			return a
		}
		if a, ok := stdlib.Predicate().Types[name]; ok {
			return a
		}
		return types.AnyType
	case *ast.ListType:
		return &types.List{Elem: c.convType(t.Element, tparams)}
	case *ast.ShapeType:
		rec := &types.Record{}
		for _, f := range t.Fields {
			rec.Fields = append(rec.Fields, types.Field{Name: f.Name, Type: c.convType(f.Type, tparams), Optional: f.Optional})
		}
		return rec
	case *ast.UnionType:
		ms := make([]types.Type, len(t.Members))
		for i, m := range t.Members {
			ms[i] = c.convType(m, tparams)
		}
		if max := c.cfg.Limits.UnionMembers; len(ms) > max {
			c.limitHit(limits.CodeUnion, t.Span, fmt.Sprintf("this union has %d members, more than the limit of %d: it is checked as the base type of its members", len(ms), max),
				fmt.Sprintf("keep generated labels as data (a dict), or raise the limit with --%s", limits.FlagUnionMembers))
			return widenMembers(ms)
		}
		return types.NewUnion(ms...)
	case *ast.OptionalType:
		return types.Optional(c.convType(t.Type, tparams))
	case *ast.LiteralType:
		switch v := t.Value.(type) {
		case *ast.StringLit:
			if s, ok := v.Value(); ok {
				return types.StringLit(s)
			}
			return types.StringType
		case *ast.IntLit:
			if t.Negative {
				return types.IntLit(-v.Value)
			}
			return types.IntLit(v.Value)
		case *ast.BoolLit:
			return &types.Literal{Value: v.Value}
		case *ast.NilLit:
			return types.NilType
		}
		return types.AnyType
	case *ast.FuncType:
		f := &types.Func{Result: types.AnyType}
		for i, p := range t.Params {
			f.Params = append(f.Params, types.Param{Name: "p" + string(rune('0'+i%10)), Type: c.convType(p, tparams)})
		}
		if t.Result != nil {
			f.Result = c.convType(t.Result, tparams)
		}
		return f
	}
	return types.AnyType
}

// widen turns literal types into their base types (the type of a mutable
// binding initialised with a literal), keeping literal unions that were
// declared.
func widen(t types.Type) types.Type {
	if l, ok := t.(*types.Literal); ok {
		return l.Base()
	}
	return t
}

// widenMembers is the union of the members' base types (a literal's base,
// other members unchanged): what a union too large to check member by
// member is checked as.
func widenMembers(ms []types.Type) types.Type { return types.WidenMembers(ms) }

// limitHit records a limit reached at span.
func (c *checker) limitHit(code string, span ast.Span, msg, help string) {
	c.facts.LimitHits = append(c.facts.LimitHits, analysis.LimitHit{Code: code, Span: span, Message: msg, Help: help})
}

// defType records in the semantic model the declaration of the type name
// a at span (kind "type", or "import" for a type an import brings); top
// marks a name of the module's top level.
func (c *checker) defType(a *types.Alias, name string, span ast.Span, kind, module string, top bool) {
	if c.rec == nil || a == nil || span.End <= span.Start {
		return
	}
	sc := int32(-1)
	if top {
		sc = 0
	}
	c.typeDefs[a] = c.rec.Def(model.Def{Name: name, Kind: kind, Span: analysis.Span(span), Module: module, Scope: sc})
}

// useType records in the semantic model that the identifier id names the
// type a.
func (c *checker) useType(id *ast.Ident, a *types.Alias) {
	if c.rec == nil || id == nil {
		return
	}
	if d, ok := c.typeDefs[a]; ok {
		c.rec.Use(analysis.Span(id.Span), d)
	}
}

// hasName reports whether the type parameters tps declare name.
func hasName(tps map[string]int32, name string) bool {
	_, ok := tps[name]
	return ok
}
