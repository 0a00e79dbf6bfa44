package harn

import (
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// bindFn binds the names of a destructuring pattern to parts of a value.
type bindFn func(f *frame, v Value) error

// bindPattern declares the pattern's names in the current block and
// compiles the binding (let/var/for destructuring). A missing dict key or
// list element binds nil, or the default when one is written.
func (c *compiler) bindPattern(p ast.Pattern, mutable bool, s *site) bindFn {
	if !c.enter(p.Pos()) {
		return func(*frame, Value) error { return nil }
	}
	defer c.leave()
	switch p := p.(type) {
	case *ast.Ident:
		if p.Name == "_" {
			return func(*frame, Value) error { return nil }
		}
		store := storeLocal(c.declare(p.Name, mutable))
		return func(f *frame, v Value) error { store(f, v); return nil }
	case *ast.WildcardPattern:
		return func(*frame, Value) error { return nil }
	case *ast.DictPattern:
		type entry struct {
			key  string
			def  evalFn
			bind bindFn
		}
		var entries []entry
		for _, e := range p.Entries {
			en := entry{key: e.Key}
			if e.Default != nil {
				en.def = c.expr(e.Default)
			}
			if e.Pattern == nil {
				if e.Key == "_" {
					en.bind = func(*frame, Value) error { return nil }
				} else {
					store := storeLocal(c.declare(e.Key, mutable))
					en.bind = func(f *frame, v Value) error { store(f, v); return nil }
				}
			} else {
				en.bind = c.bindPattern(e.Pattern, mutable, s)
			}
			entries = append(entries, en)
		}
		var rest func(*frame, Value)
		if p.Rest != nil && p.Rest.Name != "_" {
			rest = storeLocal(c.declare(p.Rest.Name, mutable))
		}
		return func(f *frame, v Value) error {
			get := func(k string) Value { return Nil }
			switch v.k {
			case KindDict:
				d := v.r.(*Dict)
				get = func(k string) Value { x, _ := d.Get(k); return x }
			case KindStruct, KindPair, KindEnum, KindObject:
				get = func(k string) Value { x, _ := getProperty(v, k, true); return share(x) }
			default:
				return s.wrap(typeError("dict destructuring requires a dict value"))
			}
			for _, en := range entries {
				x := get(en.key)
				if x.k == KindNil && en.def != nil {
					d, err := en.def(f)
					if err != nil {
						return err
					}
					x = d
				}
				if err := en.bind(f, x); err != nil {
					return err
				}
			}
			if rest != nil {
				r := NewDict(0)
				if v.k == KindDict {
					taken := map[string]bool{}
					for _, en := range entries {
						taken[en.key] = true
					}
					for k, x := range v.r.(*Dict).m {
						if !taken[k] {
							r.Set(k, share(x))
						}
					}
				}
				rest(f, DictValue(r))
			}
			return nil
		}
	case *ast.ListPattern:
		type elem struct {
			def  evalFn
			bind bindFn
		}
		var elems []elem
		for _, e := range p.Elements {
			el := elem{bind: c.bindPattern(e.Pattern, mutable, s)}
			if e.Default != nil {
				el.def = c.expr(e.Default)
			}
			elems = append(elems, el)
		}
		var rest func(*frame, Value)
		if p.Rest != nil && p.Rest.Name != "_" {
			rest = storeLocal(c.declare(p.Rest.Name, mutable))
		}
		return func(f *frame, v Value) error {
			var items []Value
			switch v.k {
			case KindList:
				items = v.r.(*List).items
			case KindPair:
				pp := v.r.(*Pair)
				items = []Value{pp.First, pp.Second}
			case KindRange, KindSet:
				xs, err := spreadItems(v)
				if err != nil {
					return s.wrap(err)
				}
				items = xs
			default:
				return s.wrap(typeError("list destructuring requires a list value"))
			}
			for i, el := range elems {
				var x Value
				if i < len(items) {
					x = share(items[i])
				}
				if x.k == KindNil && el.def != nil {
					d, err := el.def(f)
					if err != nil {
						return err
					}
					x = d
				}
				if err := el.bind(f, x); err != nil {
					return err
				}
			}
			if rest != nil {
				var r []Value
				if len(items) > len(elems) {
					r = append(r, items[len(elems):]...)
					for _, x := range r {
						share(x)
					}
				}
				rest(f, NewListValue(r))
			}
			return nil
		}
	case *ast.PairPattern:
		first, second := c.bindPattern(p.First, mutable, s), c.bindPattern(p.Second, mutable, s)
		return func(f *frame, v Value) error {
			a, b, ok := pairParts(v)
			if !ok {
				return s.wrap(typeError("pair destructuring requires a pair, got %s", v.TypeName()))
			}
			if err := first(f, a); err != nil {
				return err
			}
			return second(f, b)
		}
	}
	c.fail(p.Pos(), "this pattern cannot be used in a binding")
	return func(*frame, Value) error { return nil }
}

// pairParts splits a pair, a {key, value} entry or a two-element list.
func pairParts(v Value) (Value, Value, bool) {
	switch v.k {
	case KindPair:
		p := v.r.(*Pair)
		return share(p.First), share(p.Second), true
	case KindDict:
		d := v.r.(*Dict)
		k, ok1 := d.Get("key")
		x, ok2 := d.Get("value")
		if ok1 && ok2 && d.Len() == 2 {
			return k, x, true
		}
	case KindList:
		items := v.r.(*List).items
		if len(items) == 2 {
			return share(items[0]), share(items[1]), true
		}
	}
	return Nil, Nil, false
}

// matchFn tests a value against a match pattern, binding on success.
type matchFn func(f *frame, v Value) (bool, error)

// matchPattern compiles a match-arm pattern; names it binds are declared
// in the current (arm) block.
func (c *compiler) matchPattern(p ast.Pattern) matchFn {
	if !c.enter(p.Pos()) {
		return func(*frame, Value) (bool, error) { return false, nil }
	}
	defer c.leave()
	switch p := p.(type) {
	case *ast.WildcardPattern:
		return func(*frame, Value) (bool, error) { return true, nil }
	case *ast.Ident:
		if p.Name == "_" {
			return func(*frame, Value) (bool, error) { return true, nil }
		}
		store := storeLocal(c.declare(p.Name, true))
		return func(f *frame, v Value) (bool, error) { store(f, share(v)); return true, nil }
	case *ast.LiteralPattern:
		lit := c.borrow(p.Value)
		return func(f *frame, v Value) (bool, error) {
			x, err := lit(f)
			if err != nil {
				return false, err
			}
			return Equal(v, x), nil
		}
	case *ast.OrPattern:
		alts := make([]matchFn, len(p.Alternatives))
		for i, a := range p.Alternatives {
			alts[i] = c.matchPattern(a)
		}
		return func(f *frame, v Value) (bool, error) {
			for _, a := range alts {
				ok, err := a(f, v)
				if err != nil || ok {
					return ok, err
				}
			}
			return false, nil
		}
	case *ast.DictPattern:
		type entry struct {
			key string
			m   matchFn
			def evalFn
		}
		var entries []entry
		for _, e := range p.Entries {
			en := entry{key: e.Key}
			if e.Pattern == nil {
				en.m = c.matchPattern(&ast.Ident{Span: e.KeySpan, Name: e.Key})
			} else {
				en.m = c.matchPattern(e.Pattern)
			}
			if e.Default != nil {
				en.def = c.expr(e.Default)
			}
			entries = append(entries, en)
		}
		var rest func(*frame, Value)
		if p.Rest != nil && p.Rest.Name != "_" {
			rest = storeLocal(c.declare(p.Rest.Name, true))
		}
		return func(f *frame, v Value) (bool, error) {
			if v.k != KindDict && v.k != KindStruct {
				return false, nil
			}
			for _, en := range entries {
				x, _ := getProperty(v, en.key, true)
				if x.k == KindNil && en.def != nil {
					d, err := en.def(f)
					if err != nil {
						return false, err
					}
					x = d
				}
				ok, err := en.m(f, x)
				if err != nil || !ok {
					return false, err
				}
			}
			if rest != nil {
				r := NewDict(0)
				if v.k == KindDict {
					taken := map[string]bool{}
					for _, en := range entries {
						taken[en.key] = true
					}
					for k, x := range v.r.(*Dict).m {
						if !taken[k] {
							r.Set(k, share(x))
						}
					}
				}
				rest(f, DictValue(r))
			}
			return true, nil
		}
	case *ast.ListPattern:
		elems := make([]matchFn, len(p.Elements))
		defs := make([]evalFn, len(p.Elements))
		for i, e := range p.Elements {
			elems[i] = c.matchPattern(e.Pattern)
			if e.Default != nil {
				defs[i] = c.expr(e.Default)
			}
		}
		hasRest := p.Rest != nil
		var rest func(*frame, Value)
		if p.Rest != nil && p.Rest.Name != "_" {
			rest = storeLocal(c.declare(p.Rest.Name, true))
		}
		return func(f *frame, v Value) (bool, error) {
			if v.k != KindList {
				return false, nil
			}
			items := v.r.(*List).items
			if len(items) < len(elems) && !hasDefaults(defs[len(items):]) || !hasRest && len(items) > len(elems) {
				return false, nil
			}
			for i, m := range elems {
				var x Value
				if i < len(items) {
					x = items[i]
				} else if defs[i] != nil {
					d, err := defs[i](f)
					if err != nil {
						return false, err
					}
					x = d
				}
				ok, err := m(f, x)
				if err != nil || !ok {
					return false, err
				}
			}
			if rest != nil {
				var r []Value
				if len(items) > len(elems) {
					r = append(r, items[len(elems):]...)
				}
				rest(f, NewListValue(r))
			}
			return true, nil
		}
	case *ast.PairPattern:
		first, second := c.matchPattern(p.First), c.matchPattern(p.Second)
		return func(f *frame, v Value) (bool, error) {
			a, b, ok := pairParts(v)
			if !ok {
				return false, nil
			}
			if ok, err := first(f, a); err != nil || !ok {
				return false, err
			}
			return second(f, b)
		}
	case *ast.VariantPattern:
		enum := ""
		if p.Enum != nil {
			enum = p.Enum.Name
		}
		variant := p.Variant.Name
		args := make([]matchFn, len(p.Args))
		for i, a := range p.Args {
			args[i] = c.matchPattern(a)
		}
		return func(f *frame, v Value) (bool, error) {
			if v.k != KindEnum {
				return false, nil
			}
			e := v.r.(*EnumValue)
			if e.Variant != variant || enum != "" && e.Enum != enum {
				return false, nil
			}
			for i, m := range args {
				var x Value
				if i < len(e.Fields) {
					x = e.Fields[i]
				}
				ok, err := m(f, x)
				if err != nil || !ok {
					return false, err
				}
			}
			return true, nil
		}
	}
	c.fail(p.Pos(), "unsupported pattern %T", p)
	return func(*frame, Value) (bool, error) { return false, nil }
}

func hasDefaults(defs []evalFn) bool {
	for _, d := range defs {
		if d == nil {
			return false
		}
	}
	return true
}
