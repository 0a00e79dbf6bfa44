package builtins

import (
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/lang/harn/types"
)

// opaque are runtime kinds the checker does not model: any to the
// checker, kept by name for display. (Handles the checker does tell
// apart, such as channel, are `type name = opaque` in the spec.)
var opaque = map[string]bool{
	"stream": true, "generator": true,
	"Option": true, "Pair": true, "Schema": true, "mutex": true,
}

var basics = map[string]types.Type{
	"int": types.IntType, "float": types.FloatType, "string": types.StringType, "bool": types.BoolType,
	"nil": types.NilType, "any": types.AnyType, "unknown": types.UnknownType, "never": types.NeverType,
	"bytes": types.BytesType,
	// Durations are integers of milliseconds to the checker.
	"duration": types.IntType,
}

// TypeModule is the Module of the named types the table defines (agent,
// tool_registry, ...), so that they never collide with a program's own.
const TypeModule = "builtin"

// defineType reads `name = T` or `name = opaque`: a named record or
// dict shape, or a nominal runtime handle (a channel, an atomic cell)
// that only values of the same kind are assignable to.
func (t *table) defineType(s string) error {
	name, rest, ok := strings.Cut(s, "=")
	name, rest = strings.TrimSpace(name), strings.TrimSpace(rest)
	if !ok || !isName(name) || rest == "" {
		return fmt.Errorf("type definition needs `type name = Type`")
	}
	if t.named[name] != nil || basics[name] != nil || opaque[name] {
		return fmt.Errorf("type %s defined twice", name)
	}
	if rest == "opaque" {
		t.named[name] = &types.Capability{Name: name}
		return nil
	}
	target, err := t.parseType(rest, false)
	if err != nil {
		return fmt.Errorf("type %s: %v", name, err)
	}
	t.named[name] = &types.Alias{Name: name, Module: TypeModule, Target: target}
	return nil
}

// NamedType returns a type the table defines by name (agent,
// tool_registry, channel, ...), or nil.
func NamedType(name string) types.Type { return get().named[name] }

// parseType reads a type written in the spec; member makes a single
// capital letter a type parameter (in a method or property entry).
func (t *table) parseType(s string, member bool) (types.Type, error) {
	p := &typeParser{s: s, named: t.named, params: member}
	res, err := p.union()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q in type %q", p.s[p.i:], s)
	}
	return res, nil
}

type typeParser struct {
	// params makes a single capital letter a type parameter of a
	// method (see TypeParam) instead of any.
	params bool
	s      string
	i      int
	depth  int
	named  map[string]types.Type
}

func (p *typeParser) space() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *typeParser) eat(tok string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *typeParser) union() (types.Type, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 32 {
		return nil, fmt.Errorf("type nested too deeply")
	}
	var ms []types.Type
	for {
		t, err := p.postfix()
		if err != nil {
			return nil, err
		}
		ms = append(ms, t)
		if !p.eat("|") {
			break
		}
	}
	if len(ms) == 1 {
		return ms[0], nil // kept as written: a type parameter is not folded into any
	}
	for _, m := range ms {
		if _, ok := IsTypeParam(m); ok {
			// Kept unnormalised until Instantiate binds the parameter
			// (NewUnion would fold it into any).
			return &types.Union{Members: ms}, nil
		}
	}
	return types.NewUnion(ms...), nil
}

func (p *typeParser) postfix() (types.Type, error) {
	t, err := p.primary()
	if err != nil {
		return nil, err
	}
	if p.eat("?") {
		return types.Optional(t), nil
	}
	return t, nil
}

func (p *typeParser) name() string {
	p.space()
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' && p.i > start {
			p.i++
			continue
		}
		break
	}
	return p.s[start:p.i]
}

func (p *typeParser) primary() (types.Type, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("type expected in %q", p.s)
	}
	switch p.s[p.i] {
	case '"':
		end := strings.IndexByte(p.s[p.i+1:], '"')
		if end < 0 {
			return nil, fmt.Errorf("unterminated string literal type in %q", p.s)
		}
		lit := p.s[p.i+1 : p.i+1+end]
		p.i += end + 2
		return types.StringLit(lit), nil
	case '(':
		p.i++
		t, err := p.union()
		if err != nil {
			return nil, err
		}
		if !p.eat(")") {
			return nil, fmt.Errorf("missing ) in %q", p.s)
		}
		return t, nil
	case '{':
		p.i++
		rec := &types.Record{}
		for !p.eat("}") {
			if p.eat("...") {
				rec.Open = true
				if !p.eat("}") {
					return nil, fmt.Errorf("`...` must end a shape in %q", p.s)
				}
				break
			}
			fname := p.name()
			if fname == "" {
				return nil, fmt.Errorf("field name expected in %q", p.s)
			}
			opt := p.eat("?")
			if !p.eat(":") {
				return nil, fmt.Errorf("field %s needs a type in %q", fname, p.s)
			}
			ft, err := p.union()
			if err != nil {
				return nil, err
			}
			rec.Fields = append(rec.Fields, types.Field{Name: fname, Type: ft, Optional: opt})
			if !p.eat(",") {
				if !p.eat("}") {
					return nil, fmt.Errorf("missing } in %q", p.s)
				}
				break
			}
		}
		return rec, nil
	}
	n := p.name()
	if n == "" {
		return nil, fmt.Errorf("type expected at %q", p.s[p.i:])
	}
	if n == "fn" {
		if !p.eat("(") {
			return nil, fmt.Errorf("fn type needs parameters in %q", p.s)
		}
		f := &types.Func{Result: types.AnyType}
		for !p.eat(")") {
			pt, err := p.union()
			if err != nil {
				return nil, err
			}
			f.Params = append(f.Params, types.Param{Name: fmt.Sprintf("p%d", len(f.Params)), Type: pt})
			if !p.eat(",") {
				if !p.eat(")") {
					return nil, fmt.Errorf("missing ) in %q", p.s)
				}
				break
			}
		}
		if p.eat("->") {
			rt, err := p.postfix()
			if err != nil {
				return nil, err
			}
			f.Result = rt
		}
		return f, nil
	}
	var args []types.Type
	if p.eat("<") {
		for {
			a, err := p.union()
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			if p.eat(">") {
				break
			}
			if !p.eat(",") {
				return nil, fmt.Errorf("missing > in %q", p.s)
			}
		}
	}
	switch {
	case n == "list" && len(args) == 0:
		return &types.List{Elem: types.AnyType, Bare: true}, nil
	case n == "list" && len(args) == 1:
		return &types.List{Elem: args[0]}, nil
	case n == "dict" && len(args) == 0:
		return &types.Dict{Key: types.AnyType, Value: types.AnyType, Bare: true}, nil
	case n == "dict" && len(args) == 2:
		return &types.Dict{Key: args[0], Value: args[1]}, nil
	case n == "closure" && len(args) == 0:
		return &types.Func{Result: types.AnyType, Variadic: true, Params: []types.Param{{Name: "args", Type: types.AnyType, Optional: true}}}, nil
	case opaque[n]:
		return types.AnyType, nil
	case len(n) == 1 && n[0] >= 'A' && n[0] <= 'Z' && len(args) == 0:
		if p.params {
			return TypeParam(n), nil
		}
		return types.AnyType, nil // a type parameter
	}
	if b, ok := basics[n]; ok && len(args) == 0 {
		return b, nil
	}
	if nt, ok := p.named[n]; ok && len(args) == 0 {
		return nt, nil
	}
	return nil, fmt.Errorf("unknown type %s", n)
}
