package infer

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/builtins"
	"github.com/harnlang/harn-check/lang/harn/types"
)

// receiverKind names the builtin table's receiver kind of a value of
// type t, with the kind's type parameters bound: T the element type of a
// list, V the value type of a dict (any for a record, whose fields
// differ). "" when t is no built-in kind the checker can tell (any, a
// union of kinds). Sets, iterators and Results are the nominal handles
// set(...), iter(...) and Ok(...)/Err(...) return; their element and
// payload types are not modelled.
func receiverKind(t types.Type) (string, map[string]types.Type) {
	switch u := types.Unalias(widen(types.Unalias(t))).(type) {
	case *types.List:
		return "list", map[string]types.Type{"T": u.Elem}
	case *types.Dict:
		return "dict", map[string]types.Type{"V": u.Value}
	case *types.Record:
		return "dict", nil
	case *types.Basic:
		if u.Kind == types.String {
			return "string", nil
		}
	case *types.Capability:
		switch u.Name {
		case "channel", "set", "iter", "Result":
			return u.Name, nil
		}
	case *types.Union:
		for _, m := range u.Members {
			if !types.IsBasic(widen(types.Unalias(m)), types.String) {
				return "", nil
			}
		}
		return "string", nil
	}
	return "", nil
}

// MethodKind names the builtin table's receiver kind whose methods and
// properties a value of type t has ("string", "list", "dict", ...), as
// the checker types them; "" when it types none.
func MethodKind(t types.Type) string {
	kind, _ := receiverKind(t)
	return kind
}

// builtinProperty types a property of a built-in kind (`xs.count`,
// `xs.first`) from the builtin table; any for anything else.
func builtinProperty(t types.Type, name string) types.Type {
	kind, bind := receiverKind(t)
	p := builtins.LookupProperty(kind, name)
	if p == nil {
		return types.AnyType
	}
	return p.Instantiate(func(n string) types.Type { return bind[n] }).Result
}

// builtinMethod types `recv.name(args)` on a value of a built-in kind
// from the builtin table: the entry's signature with the receiver's
// element types bound, and a callback's result type bound where a
// parameter's result is a type parameter (`xs.map(f)` is a list of f's
// results). The call is recorded, so that its arguments are checked
// like a builtin's. A method the table does not list is any (on a dict
// it may be a function stored under that key).
func (c *checker) builtinMethod(e *ast.Call, recv types.Type, name string, args []types.Type) types.Type {
	kind, bind := receiverKind(recv)
	if kind == "" {
		return types.AnyType
	}
	m := builtins.LookupMethod(kind, name)
	if m == nil {
		return types.AnyType
	}
	if bind == nil {
		bind = map[string]types.Type{}
	}
	for i, p := range m.Signature().Params {
		pf, ok := p.Type.(*types.Func)
		if !ok || i >= len(args) || args[i] == nil {
			continue
		}
		tp, ok := builtins.IsTypeParam(pf.Result)
		if !ok || bind[tp] != nil {
			continue
		}
		if af, ok := types.Unalias(args[i]).(*types.Func); ok && af.Result != nil && !types.IsGradual(af.Result) {
			bind[tp] = widen(af.Result)
		}
	}
	sig := m.Instantiate(func(n string) types.Type { return bind[n] })
	c.facts.Calls = append(c.facts.Calls, analysis.Call{Node: e, Name: m.Name, Sig: sig, Args: args, Builtin: true, Method: true})
	return sig.Result
}
