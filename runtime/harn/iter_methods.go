package harn

// lazyIter wraps a next function as an iterator value.
func lazyIter(next func() (Value, bool, error)) (Value, error) {
	return iterValue(&Iter{next: next}), nil
}

// drainIter feeds the rest of it to f until f says stop or fails.
func drainIter(it *Iter, f func(Value) (bool, error)) error {
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

// The lazy combinators and the sinks of Iter: the table's iter entries.

func iterIter(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	return iterValue(it), nil
}

func iterNext(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	v, ok, err := it.Next()
	if err != nil {
		return Nil, err
	}
	return nextRecord(v, ok), nil
}

func iterMap(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	return lazyIter(func() (Value, bool, error) {
		v, ok, err := it.Next()
		if !ok || err != nil {
			return Nil, false, err
		}
		r, err := th.call1(fn, v)
		return r, err == nil, err
	})
}

func iterFilter(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	return lazyIter(func() (Value, bool, error) {
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
}

func iterFlatMap(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	var inner *Iter
	return lazyIter(func() (Value, bool, error) {
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
}

func iterTake(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	n := IntArg(fn, 0)
	return lazyIter(func() (Value, bool, error) {
		if n <= 0 {
			return Nil, false, nil
		}
		n--
		return it.Next()
	})
}

func iterSkip(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	n := IntArg(fn, 0)
	return lazyIter(func() (Value, bool, error) {
		for ; n > 0; n-- {
			if _, ok, err := it.Next(); !ok || err != nil {
				return Nil, false, err
			}
		}
		return it.Next()
	})
}

func iterTakeWhile(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	stopped := false
	return lazyIter(func() (Value, bool, error) {
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
}

func iterSkipWhile(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	skipping := true
	return lazyIter(func() (Value, bool, error) {
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
}

func iterZip(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	other, err := th.toIter(fn)
	if err != nil {
		return Nil, err
	}
	return lazyIter(func() (Value, bool, error) {
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
}

func iterEnumerate(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	i := int64(0)
	return lazyIter(func() (Value, bool, error) {
		v, ok, err := it.Next()
		if !ok || err != nil {
			return Nil, false, err
		}
		i++
		return Value{k: KindPair, r: &Pair{First: Int(i - 1), Second: v}}, true, nil
	})
}

func iterChain(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	other, err := th.toIter(fn)
	if err != nil {
		return Nil, err
	}
	first := true
	return lazyIter(func() (Value, bool, error) {
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
}

func iterChunks(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	n := max(IntArg(fn, 1), 1)
	return lazyIter(func() (Value, bool, error) {
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
}

func iterWindows(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	n := max(IntArg(fn, 1), 1)
	var win []Value
	return lazyIter(func() (Value, bool, error) {
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

func iterToList(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	var out []Value
	err := drainIter(it, func(v Value) (bool, error) {
		if len(out) >= maxCollect {
			return false, runtimeError("iterator produced more than %d values", maxCollect)
		}
		out = append(out, v)
		return true, nil
	})
	return NewListValue(out), err
}

func iterToSet(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	s := NewSet(nil)
	err := drainIter(it, func(v Value) (bool, error) { s.add(v); return true, nil })
	return Value{k: KindSet, r: s}, err
}

func iterToDict(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	d := NewDict(0)
	err := drainIter(it, func(v Value) (bool, error) {
		a, b, ok := pairParts(v)
		if !ok {
			return false, typeError("to_dict needs pairs, got %s", v.TypeName())
		}
		d.Set(keyString(a), b)
		return true, nil
	})
	return DictValue(d), err
}

func iterCount(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	n := int64(0)
	err := drainIter(it, func(Value) (bool, error) { n++; return true, nil })
	return Int(n), err
}

func iterSum(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	var items []Value
	err := drainIter(it, func(v Value) (bool, error) { items = append(items, v); return true, nil })
	return Sum(items), err
}

func iterMin(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	var best Value
	have := false
	err := drainIter(it, func(v Value) (bool, error) {
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
}

func iterReduce(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	acc := Arg(args, 0)
	f := Arg(args, 1)
	err := drainIter(it, func(v Value) (bool, error) {
		r, err := th.callValue(f, []Value{acc, v})
		acc = r
		return true, err
	})
	return acc, err
}

func iterFirst(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	v, _, err := it.Next()
	return v, err
}

func iterLast(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	var last Value
	err := drainIter(it, func(v Value) (bool, error) { last = v; return true, nil })
	return last, err
}

func iterAny(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	var found Value
	res := name == "all"
	err := drainIter(it, func(v Value) (bool, error) {
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
}

func iterForEach(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	err := drainIter(it, func(v Value) (bool, error) {
		_, err := th.call1(fn, v)
		return true, err
	})
	return Nil, err
}

func iterJoin(th *thread, recv Value, name string, args []Value) (Value, error) {
	it := recv.r.(*Iter)
	fn := Arg(args, 0)
	var parts []byte
	sep := Display(fn)
	if len(args) == 0 {
		sep = ""
	}
	first := true
	err := drainIter(it, func(v Value) (bool, error) {
		if !first {
			parts = append(parts, sep...)
		}
		first = false
		parts = append(parts, Display(v)...)
		return true, nil
	})
	return Str(string(parts)), err
}
