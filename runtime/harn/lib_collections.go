package harn

// Collection builtins: dict views, list helpers and set operations as
// free functions.

func installCollections(lib *Library) {
	lib.Builtin("keys", func(c *Call, args []Value) (Value, error) { return dictView(c, args, "keys") })
	lib.Builtin("values", func(c *Call, args []Value) (Value, error) { return dictView(c, args, "values") })
	lib.Builtin("entries", func(c *Call, args []Value) (Value, error) { return dictView(c, args, "entries") })
	listFn := func(name, method string) {
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			v := Arg(args, 0)
			if v.k != KindList {
				items, err := c.th.collect(v)
				if err != nil {
					return Nil, typeError("%s: expected a list, got %s", name, v.TypeName())
				}
				v = NewListValue(items)
			}
			return c.th.kindMethod("list", v, method, args[min(1, len(args)):])
		})
	}
	listFn("chunk", "chunk")
	listFn("window", "window")
	listFn("flat_map", "flat_map")
	listFn("group_by", "group_by")
	lib.Builtin("partition", func(c *Call, args []Value) (Value, error) {
		r, err := c.th.kindMethod("list", Arg(args, 0), "partition", args[min(1, len(args)):])
		if err != nil || r.k != KindList {
			return r, err
		}
		parts := r.r.(*List).items
		d := NewDict(2)
		d.Set("match", parts[0])
		d.Set("no_match", parts[1])
		return DictValue(d), nil
	})
	lib.Builtin("dedup_by", func(c *Call, args []Value) (Value, error) {
		v, fn := Arg(args, 0), Arg(args, 1)
		if v.k != KindList {
			return Nil, typeError("dedup_by: expected a list, got %s", v.TypeName())
		}
		seen := map[string]bool{}
		var out []Value
		for _, x := range v.r.(*List).items {
			k, err := c.th.call1(fn, share(x))
			if err != nil {
				return Nil, err
			}
			if h := hashKey(k); !seen[h] {
				seen[h] = true
				out = append(out, share(x))
			}
		}
		return NewListValue(out), nil
	})
	setFn := func(name, method string) {
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			s := Arg(args, 0)
			if s.k != KindSet {
				items, err := c.th.collect(s)
				if err != nil {
					return Nil, typeError("%s: expected a set, got %s", name, s.TypeName())
				}
				s = Value{k: KindSet, r: NewSet(items)}
			}
			return c.th.kindMethod("set", s, method, args[min(1, len(args)):])
		})
	}
	setFn("set_add", "add")
	setFn("set_remove", "remove")
	setFn("set_contains", "contains")
	setFn("set_union", "union")
	setFn("set_intersect", "intersect")
	setFn("set_difference", "difference")
	setFn("set_symmetric_difference", "symmetric_difference")
	setFn("set_is_subset", "is_subset")
	setFn("set_is_superset", "is_superset")
	setFn("set_is_disjoint", "is_disjoint")
	lib.Builtin("hash_value", func(c *Call, args []Value) (Value, error) {
		return Int(int64(fnv64(hashKey(Arg(args, 0))))), nil
	})
	lib.Builtin("addr_of", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		if id := identity(v); id != 0 && v.k != KindString {
			return Str(v.TypeName() + "@0x" + formatHex(uint64(id))), nil
		}
		return Str(v.TypeName() + "@" + Display(v)), nil
	})
}

func dictView(c *Call, args []Value, method string) (Value, error) {
	v := Arg(args, 0)
	switch v.k {
	case KindDict:
		return c.th.kindMethod("dict", v, method, nil)
	case KindStruct:
		s := v.r.(*StructValue)
		d := NewDict(len(s.Fields))
		for i, n := range s.Type.fields {
			d.Set(n, share(s.Fields[i]))
		}
		return c.th.kindMethod("dict", DictValue(d), method, nil)
	case KindNil:
		return NewListValue(nil), nil
	}
	return Nil, typeError("%s: expected a dict, got %s", method, v.TypeName())
}

func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h & (1<<63 - 1)
}

func formatHex(n uint64) string {
	const digits = "0123456789abcdef"
	if n == 0 {
		return "0"
	}
	var b [16]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = digits[n&15]
		n >>= 4
	}
	return string(b[i:])
}
