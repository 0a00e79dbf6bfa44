package harn

import (
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// accessor is one step of an assignment path: `.name` or `[index]`.
type accessor struct {
	name  string
	index evalFn // nil for .name
}

// assign compiles `target op= value`. A path target (`x.a[i] = v`)
// updates the variable's value copy-on-write: containers nobody else
// owns are updated in place, shared ones are copied first, so other
// owners never see the change (Harn values are values).
func (c *compiler) assign(s *ast.Assign) evalFn {
	st := c.here(s.Span)
	val := c.expr(s.Value)
	var op func(a, b Value) (Value, error)
	switch s.Op {
	case ast.AssignAdd:
		op = Add
	case ast.AssignSub:
		op = Sub
	case ast.AssignMul:
		op = Mul
	case ast.AssignDiv:
		op = opDiv
	case ast.AssignMod:
		op = opMod
	}
	// Unwind the target into a root name and a path.
	var path []accessor
	t := s.Target
	for {
		switch x := t.(type) {
		case *ast.Paren:
			t = x.X
			continue
		case *ast.Member:
			path = append([]accessor{{name: x.Name.Name}}, path...)
			t = x.X
			continue
		case *ast.Index:
			path = append([]accessor{{index: c.borrow(x.Index)}}, path...)
			t = x.X
			continue
		}
		break
	}
	id, ok := t.(*ast.Ident)
	if !ok {
		c.fail(s.Target.Pos(), "cannot assign to this expression")
		return nil
	}
	l := c.lookup(id.Name)
	if l == nil {
		name := id.Name
		return func(*frame) (Value, error) {
			return Nil, st.wrap(plainError("Undefined variable: " + name))
		}
	}
	if !l.mutable {
		name := id.Name
		return func(*frame) (Value, error) {
			return Nil, st.wrap(plainError("Cannot assign to immutable binding: " + name))
		}
	}
	read := readLocal(l, false)
	store := storeLocal(l)
	if len(path) == 0 {
		if op == nil {
			if l.global < 0 && !l.cell {
				slot := l.slot
				return func(f *frame) (Value, error) {
					v, err := val(f)
					if err != nil {
						return Nil, err
					}
					f.slots[slot] = v
					return Nil, nil
				}
			}
			return func(f *frame) (Value, error) {
				v, err := val(f)
				if err != nil {
					return Nil, err
				}
				store(f, v)
				return Nil, nil
			}
		}
		isAdd := s.Op == ast.AssignAdd
		return func(f *frame) (Value, error) {
			cur, err := read(f)
			if err != nil {
				return Nil, err
			}
			v, err := val(f)
			if err != nil {
				return Nil, err
			}
			if isAdd && cur.k == KindInt && v.k == KindInt {
				store(f, Value{k: KindInt, n: cur.n + v.n})
				return Nil, nil
			}
			if isAdd && cur.k == KindList && v.k == KindList {
				// xs += [..] appends like push.
				l := cur.r.(*List)
				for _, x := range v.r.(*List).items {
					l = l.Push(share(x))
				}
				store(f, ListValue(l))
				return Nil, nil
			}
			r, err := op(cur, v)
			if err == nil {
				err = f.th.grew(r)
			}
			if err != nil {
				return Nil, st.wrap(err)
			}
			store(f, r)
			return Nil, nil
		}
	}
	return func(f *frame) (Value, error) {
		// Evaluate the indices first, left to right, then the value.
		keys := make([]Value, len(path))
		for i, a := range path {
			if a.index != nil {
				k, err := a.index(f)
				if err != nil {
					return Nil, err
				}
				keys[i] = k
			} else {
				keys[i] = Str(a.name)
			}
		}
		v, err := val(f)
		if err != nil {
			return Nil, err
		}
		root, err := read(f)
		if err != nil {
			return Nil, err
		}
		if op != nil {
			cur, err := getPath(root, path, keys)
			if err != nil {
				return Nil, st.wrap(err)
			}
			v, err = op(cur, v)
			if err == nil {
				err = f.th.grew(v)
			}
			if err != nil {
				return Nil, st.wrap(err)
			}
		}
		nr, err := setPath(root, path, keys, v, 0)
		if err != nil {
			return Nil, st.wrap(err)
		}
		store(f, nr)
		return Nil, nil
	}
}

func getPath(v Value, path []accessor, keys []Value) (Value, error) {
	for i, a := range path {
		var err error
		if a.index != nil {
			v, err = indexValue(v, keys[i])
		} else {
			v, err = getProperty(v, a.name, false)
		}
		if err != nil {
			return Nil, err
		}
	}
	return v, nil
}

// setPath returns container with the value at path replaced by v.
func setPath(container Value, path []accessor, keys []Value, v Value, depth int) (Value, error) {
	if depth > maxValueDepth {
		return Nil, runtimeError("assignment path too deep")
	}
	key := keys[0]
	if len(path) > 1 {
		child, err := childFor(container, path[0], key)
		if err != nil {
			return Nil, err
		}
		if ownedElsewhere(container) {
			// The container will be copied, and the child with it: the
			// other owner still holds the child, so it must be copied too.
			share(child)
		}
		nv, err := setPath(child, path[1:], keys[1:], v, depth+1)
		if err != nil {
			return Nil, err
		}
		v = nv
	}
	return setChild(container, path[0], key, v)
}

// childFor reads the element an assignment path goes through, unmarked:
// it is about to be replaced, not shared.
func childFor(container Value, a accessor, key Value) (Value, error) {
	switch container.k {
	case KindDict:
		k := keyString(key)
		x, _ := container.r.(*Dict).raw(k)
		return x, nil
	case KindList:
		if key.k != KindInt {
			return Nil, typeError("list index must be an int, got %s", key.TypeName())
		}
		items := container.r.(*List).items
		i := int64(key.n)
		if i < 0 {
			i += int64(len(items))
		}
		if i < 0 || i >= int64(len(items)) {
			return Nil, runtimeError("Index %d out of bounds for list of length %d", int64(key.n), len(items))
		}
		return items[i], nil
	case KindStruct:
		s := container.r.(*StructValue)
		if i, ok := s.Type.index[keyString(key)]; ok {
			return s.Fields[i], nil
		}
		return Nil, nil
	}
	if a.index != nil {
		return Nil, typeError("cannot index into %s", container.TypeName())
	}
	return Nil, typeError("cannot set property `%s` on %s", a.name, container.TypeName())
}

func keyString(k Value) string {
	if k.k == KindString {
		return k.r.(string)
	}
	return Display(k)
}

func setChild(container Value, a accessor, key, v Value) (Value, error) {
	switch container.k {
	case KindDict:
		d := container.r.(*Dict).writable()
		d.Set(keyString(key), v)
		return DictValue(d), nil
	case KindList:
		if key.k != KindInt {
			return Nil, typeError("list index must be an int, got %s", key.TypeName())
		}
		l := container.r.(*List)
		i := int64(key.n)
		if i < 0 {
			i += int64(len(l.items))
		}
		if i < 0 || i >= int64(len(l.items)) {
			return Nil, runtimeError("Index %d out of bounds for list of length %d", int64(key.n), len(l.items))
		}
		w := l.writable()
		w.items[i] = v
		return ListValue(w), nil
	case KindStruct:
		s := container.r.(*StructValue)
		i, ok := s.Type.index[keyString(key)]
		if !ok {
			return Nil, typeError("struct %s has no field `%s`", s.Type.name, keyString(key))
		}
		w := s.writable()
		w.Fields[i] = v
		return Value{k: KindStruct, r: w}, nil
	}
	if a.index != nil {
		return Nil, typeError("cannot index into %s", container.TypeName())
	}
	return Nil, typeError("cannot set property `%s` on %s", a.name, container.TypeName())
}

// ownedElsewhere reports whether an update of container must copy it.
func ownedElsewhere(v Value) bool {
	switch v.k {
	case KindList:
		l := v.r.(*List)
		return l.shared || l.b != nil
	case KindDict:
		return v.r.(*Dict).shared
	case KindStruct:
		return v.r.(*StructValue).shared
	}
	return false
}
