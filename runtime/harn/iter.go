package harn

// Iter is a lazy, single-pass, fused iterator. next returns the next
// value, or ok false once exhausted (and forever after).
type Iter struct {
	next func() (v Value, ok bool, err error)
	// try, when set, pulls without waiting (see tryNext in lib_streams.go).
	try  func() (v Value, ok, pending bool, err error)
	done bool
}

// Next pulls one value.
func (it *Iter) Next() (Value, bool, error) {
	if it.done {
		return Nil, false, nil
	}
	v, ok, err := it.next()
	if err != nil || !ok {
		it.done = true
	}
	return v, ok, err
}

func (it *Iter) exhausted() bool { return it.done }

func iterValue(it *Iter) Value { return Value{k: KindIter, r: it} }

func sliceIter(items []Value) *Iter {
	i := 0
	return &Iter{next: func() (Value, bool, error) {
		if i >= len(items) {
			return Nil, false, nil
		}
		v := share(items[i])
		i++
		return v, true, nil
	}}
}

// toIter lifts an iterable into an Iter (a no-op for an Iter). Dicts
// yield Pair(key, value).
func (th *thread) toIter(v Value) (*Iter, error) {
	switch v.k {
	case KindIter:
		return v.r.(*Iter), nil
	case KindList:
		return sliceIter(v.r.(*List).items), nil
	case KindSet:
		return sliceIter(v.r.(*Set).items), nil
	case KindDict:
		d := v.r.(*Dict)
		keys := append([]string(nil), d.Keys()...)
		i := 0
		return &Iter{next: func() (Value, bool, error) {
			if i >= len(keys) {
				return Nil, false, nil
			}
			k := keys[i]
			i++
			x, _ := d.Get(k)
			return Value{k: KindPair, r: &Pair{First: Str(k), Second: x}}, true, nil
		}}, nil
	case KindString:
		rs := []rune(v.r.(string))
		i := 0
		return &Iter{next: func() (Value, bool, error) {
			if i >= len(rs) {
				return Nil, false, nil
			}
			i++
			return Str(string(rs[i-1])), true, nil
		}}, nil
	case KindRange:
		r := v.r.(*Range)
		n, i := r.Len(), int64(0)
		return &Iter{next: func() (Value, bool, error) {
			if i >= n {
				return Nil, false, nil
			}
			i++
			return Int(r.At(i - 1)), true, nil
		}}, nil
	case KindGenerator, KindStream:
		g := v.r.(*Generator)
		return &Iter{next: func() (Value, bool, error) { return g.resume(th) }}, nil
	case KindChannel:
		ch := v.r.(*Channel)
		return &Iter{next: func() (Value, bool, error) { return ch.recv(th) },
			try: func() (Value, bool, bool, error) {
				v, ok, closed, _ := ch.tryRecv()
				return v, ok, !ok && !closed, nil
			}}, nil
	case KindNil:
		return &Iter{next: func() (Value, bool, error) { return Nil, false, nil }}, nil
	}
	return nil, typeError("cannot iterate over %s", v.TypeName())
}

// iterate calls fn for each element of an iterable (for loops). Dicts
// yield {key, value} dicts when entries is set (a plain loop variable),
// pairs otherwise. An error from fn stops the loop and is returned.
func (th *thread) iterate(v Value, entries bool, fn func(Value) error) error {
	switch v.k {
	case KindList:
		for _, x := range v.r.(*List).items {
			if err := fn(share(x)); err != nil {
				return err
			}
		}
		return nil
	case KindRange:
		r := v.r.(*Range)
		n := r.Len()
		for i := int64(0); i < n; i++ {
			if err := fn(Int(r.At(i))); err != nil {
				return err
			}
		}
		return nil
	case KindDict:
		d := v.r.(*Dict)
		for _, k := range append([]string(nil), d.Keys()...) {
			x, _ := d.Get(k)
			var e Value
			if entries {
				ed := NewDict(2)
				ed.Set("key", Str(k))
				ed.Set("value", x)
				e = DictValue(ed)
			} else {
				e = Value{k: KindPair, r: &Pair{First: Str(k), Second: x}}
			}
			if err := fn(e); err != nil {
				return err
			}
		}
		return nil
	}
	it, err := th.toIter(v)
	if err != nil {
		return err
	}
	for {
		x, ok, err := it.Next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if err := fn(x); err != nil {
			return err
		}
	}
}

// collect drains an iterable into a slice.
func (th *thread) collect(v Value) ([]Value, error) {
	switch v.k {
	case KindList:
		return v.r.(*List).SharedItems(), nil
	}
	var out []Value
	err := th.iterate(v, false, func(x Value) error {
		if len(out) >= maxCollect {
			return runtimeError("iterator produced more than %d values", maxCollect)
		}
		out = append(out, x)
		return nil
	})
	return out, err
}

// maxCollect bounds materialising an iterator (an infinite generator
// collected into a list must fail, not exhaust memory).
const maxCollect = 50_000_000
