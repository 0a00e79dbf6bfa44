package harn

// iterMethod implements the lazy combinators and the sinks of Iter.
func (th *thread) iterMethod(it *Iter, name string, args []Value) (Value, error) {
	fn := arg(args, 0)
	lazy := func(next func() (Value, bool, error)) (Value, error) {
		return iterValue(&Iter{next: next}), nil
	}
	switch name {
	case "iter":
		return iterValue(it), nil
	case "next":
		v, ok, err := it.Next()
		if err != nil {
			return Nil, err
		}
		return nextRecord(v, ok), nil
	case "map":
		return lazy(func() (Value, bool, error) {
			v, ok, err := it.Next()
			if !ok || err != nil {
				return Nil, false, err
			}
			r, err := th.call1(fn, v)
			return r, err == nil, err
		})
	case "filter":
		return lazy(func() (Value, bool, error) {
			for {
				v, ok, err := it.Next()
				if !ok || err != nil {
					return Nil, false, err
				}
				r, err := th.call1(fn, v)
				if err != nil {
					return Nil, false, err
				}
				if r.Truthy() {
					return v, true, nil
				}
			}
		})
	case "flat_map":
		var inner *Iter
		return lazy(func() (Value, bool, error) {
			for {
				if inner != nil {
					v, ok, err := inner.Next()
					if err != nil {
						return Nil, false, err
					}
					if ok {
						return v, true, nil
					}
					inner = nil
				}
				v, ok, err := it.Next()
				if !ok || err != nil {
					return Nil, false, err
				}
				r, err := th.call1(fn, v)
				if err != nil {
					return Nil, false, err
				}
				switch r.k {
				case KindList, KindIter, KindSet, KindRange, KindGenerator, KindStream:
					inner, err = th.toIter(r)
					if err != nil {
						return Nil, false, err
					}
				default:
					return r, true, nil
				}
			}
		})
	case "take":
		n := intArg(fn, 0)
		return lazy(func() (Value, bool, error) {
			if n <= 0 {
				return Nil, false, nil
			}
			n--
			return it.Next()
		})
	case "skip":
		n := intArg(fn, 0)
		return lazy(func() (Value, bool, error) {
			for ; n > 0; n-- {
				if _, ok, err := it.Next(); !ok || err != nil {
					return Nil, false, err
				}
			}
			return it.Next()
		})
	case "take_while":
		stopped := false
		return lazy(func() (Value, bool, error) {
			if stopped {
				return Nil, false, nil
			}
			v, ok, err := it.Next()
			if !ok || err != nil {
				return Nil, false, err
			}
			r, err := th.call1(fn, v)
			if err != nil {
				return Nil, false, err
			}
			if !r.Truthy() {
				stopped = true
				return Nil, false, nil
			}
			return v, true, nil
		})
	case "skip_while":
		skipping := true
		return lazy(func() (Value, bool, error) {
			for {
				v, ok, err := it.Next()
				if !ok || err != nil {
					return Nil, false, err
				}
				if !skipping {
					return v, true, nil
				}
				r, err := th.call1(fn, v)
				if err != nil {
					return Nil, false, err
				}
				if !r.Truthy() {
					skipping = false
					return v, true, nil
				}
			}
		})
	case "zip":
		other, err := th.toIter(fn)
		if err != nil {
			return Nil, err
		}
		return lazy(func() (Value, bool, error) {
			a, ok, err := it.Next()
			if !ok || err != nil {
				return Nil, false, err
			}
			b, ok, err := other.Next()
			if !ok || err != nil {
				return Nil, false, err
			}
			return Value{k: KindPair, r: &Pair{First: a, Second: b}}, true, nil
		})
	case "enumerate":
		i := int64(0)
		return lazy(func() (Value, bool, error) {
			v, ok, err := it.Next()
			if !ok || err != nil {
				return Nil, false, err
			}
			i++
			return Value{k: KindPair, r: &Pair{First: Int(i - 1), Second: v}}, true, nil
		})
	case "chain":
		other, err := th.toIter(fn)
		if err != nil {
			return Nil, err
		}
		first := true
		return lazy(func() (Value, bool, error) {
			if first {
				v, ok, err := it.Next()
				if err != nil {
					return Nil, false, err
				}
				if ok {
					return v, true, nil
				}
				first = false
			}
			return other.Next()
		})
	case "chunks":
		n := max(intArg(fn, 1), 1)
		return lazy(func() (Value, bool, error) {
			var chunk []Value
			for int64(len(chunk)) < n {
				v, ok, err := it.Next()
				if err != nil {
					return Nil, false, err
				}
				if !ok {
					break
				}
				chunk = append(chunk, v)
			}
			if len(chunk) == 0 {
				return Nil, false, nil
			}
			return NewListValue(chunk), true, nil
		})
	case "windows":
		n := max(intArg(fn, 1), 1)
		var win []Value
		return lazy(func() (Value, bool, error) {
			for int64(len(win)) < n {
				v, ok, err := it.Next()
				if !ok || err != nil {
					return Nil, false, err
				}
				win = append(win, v)
			}
			out := append([]Value(nil), win...)
			win = win[1:]
			return NewListValue(out), true, nil
		})
	}
	// Sinks drain the iterator.
	drain := func(f func(Value) (bool, error)) error {
		for {
			v, ok, err := it.Next()
			if err != nil || !ok {
				return err
			}
			more, err := f(v)
			if err != nil || !more {
				return err
			}
		}
	}
	switch name {
	case "to_list", "collect":
		var out []Value
		err := drain(func(v Value) (bool, error) {
			if len(out) >= maxCollect {
				return false, runtimeError("iterator produced more than %d values", maxCollect)
			}
			out = append(out, v)
			return true, nil
		})
		return NewListValue(out), err
	case "to_set":
		s := NewSet(nil)
		err := drain(func(v Value) (bool, error) { s.add(v); return true, nil })
		return Value{k: KindSet, r: s}, err
	case "to_dict":
		d := NewDict(0)
		err := drain(func(v Value) (bool, error) {
			a, b, ok := pairParts(v)
			if !ok {
				return false, typeError("to_dict needs pairs, got %s", v.TypeName())
			}
			d.Set(keyString(a), b)
			return true, nil
		})
		return DictValue(d), err
	case "count":
		n := int64(0)
		err := drain(func(Value) (bool, error) { n++; return true, nil })
		return Int(n), err
	case "sum":
		var items []Value
		err := drain(func(v Value) (bool, error) { items = append(items, v); return true, nil })
		return sumValues(items), err
	case "min", "max":
		var best Value
		have := false
		err := drain(func(v Value) (bool, error) {
			if !have {
				best, have = v, true
				return true, nil
			}
			c, _ := Compare(v, best)
			if name == "min" && c < 0 || name == "max" && c > 0 {
				best = v
			}
			return true, nil
		})
		return best, err
	case "reduce", "fold":
		acc := arg(args, 0)
		f := arg(args, 1)
		err := drain(func(v Value) (bool, error) {
			r, err := th.callValue(f, []Value{acc, v})
			acc = r
			return true, err
		})
		return acc, err
	case "first":
		v, _, err := it.Next()
		return v, err
	case "last":
		var last Value
		err := drain(func(v Value) (bool, error) { last = v; return true, nil })
		return last, err
	case "any", "all", "find":
		var found Value
		res := name == "all"
		err := drain(func(v Value) (bool, error) {
			r, err := th.call1(fn, v)
			if err != nil {
				return false, err
			}
			switch name {
			case "any":
				if r.Truthy() {
					res = true
					return false, nil
				}
			case "all":
				if !r.Truthy() {
					res = false
					return false, nil
				}
			case "find":
				if r.Truthy() {
					found = v
					return false, nil
				}
			}
			return true, nil
		})
		if name == "find" {
			return found, err
		}
		return Bool(res), err
	case "for_each":
		err := drain(func(v Value) (bool, error) {
			_, err := th.call1(fn, v)
			return true, err
		})
		return Nil, err
	case "join":
		var parts []byte
		sep := Display(fn)
		if len(args) == 0 {
			sep = ""
		}
		first := true
		err := drain(func(v Value) (bool, error) {
			if !first {
				parts = append(parts, sep...)
			}
			first = false
			parts = append(parts, Display(v)...)
			return true, nil
		})
		return Str(string(parts)), err
	}
	return Nil, nil
}
