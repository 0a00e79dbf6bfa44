package harn

import (
	"math"
	"time"
)

// The stream namespace: lazy operators over anything iterable (lists,
// iterators, generators, streams, channels), returning iterators.
// stream.collect, stream.fold and stream.first drain them. merge and race
// poll their sources without blocking on any one of them, so a channel
// with nothing in it does not hold up a ready one; interleave takes
// strictly in turn.

// tryNext pulls a value without waiting: pending is true when the source
// has nothing ready yet but is not exhausted (an empty open channel).
// Sources that cannot wait answer as Next does.
func (it *Iter) tryNext() (v Value, ok, pending bool, err error) {
	if it.done {
		return Nil, false, false, nil
	}
	if it.try == nil {
		v, ok, err = it.Next()
		return v, ok, false, err
	}
	v, ok, pending, err = it.try()
	if err != nil || (!ok && !pending) {
		it.done = true
	}
	return v, ok, pending, err
}

// streamArg lifts argument i into an iterator.
func streamArg(c *Call, args []Value, i int) (*Iter, error) {
	if i >= len(args) {
		return nil, typeError("%s: missing argument %d", c.Name, i+1)
	}
	return c.th.toIter(args[i])
}

// mapped is an iterator whose values come from inner through f; f may drop
// a value (keep false) or end the stream (stop true).
func mapped(inner *Iter, f func(v Value) (out Value, keep, stop bool, err error)) *Iter {
	it := &Iter{}
	it.next = func() (Value, bool, error) {
		for {
			v, ok, err := inner.Next()
			if err != nil || !ok {
				return Nil, false, err
			}
			out, keep, stop, err := f(v)
			if err != nil || stop {
				return Nil, false, err
			}
			if keep {
				return out, true, nil
			}
		}
	}
	it.try = func() (Value, bool, bool, error) {
		for {
			v, ok, pending, err := inner.tryNext()
			if err != nil || !ok {
				return Nil, false, pending, err
			}
			out, keep, stop, err := f(v)
			if err != nil || stop {
				return Nil, false, false, err
			}
			if keep {
				return out, true, false, nil
			}
		}
	}
	return it
}

// pollWait pauses a polling operator briefly, letting other tasks run.
func pollWait(c *Call) error {
	c.th.block(func() { time.Sleep(time.Millisecond) })
	return c.th.checkLimits()
}

func sourcesArg(c *Call, args []Value, min int) ([]*Iter, error) {
	if len(args) < min {
		if min == 1 {
			return nil, typeError("%s: expected at least one stream", c.Name)
		}
		return nil, typeError("%s: expected at least %d streams", c.Name, min)
	}
	out := make([]*Iter, len(args))
	for i := range args {
		it, err := c.th.toIter(args[i])
		if err != nil {
			return nil, err
		}
		out[i] = it
	}
	return out, nil
}

func installStreams(lib *Library) {
	mapArgs := ArgsOf("stream.map")
	lib.Builtin("stream.map", func(c *Call, args []Value) (Value, error) {
		var inner *Iter
		var f Value
		if err := mapArgs.Unpack(c, args, &inner, &f); err != nil {
			return Nil, err
		}
		return iterValue(mapped(inner, func(v Value) (Value, bool, bool, error) {
			out, err := c.th.callValue(f, []Value{v})
			return out, true, false, err
		})), nil
	})
	filterArgs := ArgsOf("stream.filter")
	lib.Builtin("stream.filter", func(c *Call, args []Value) (Value, error) {
		var inner *Iter
		var f Value
		if err := filterArgs.Unpack(c, args, &inner, &f); err != nil {
			return Nil, err
		}
		return iterValue(mapped(inner, func(v Value) (Value, bool, bool, error) {
			keep, err := c.th.callValue(f, []Value{v})
			return v, keep.Truthy(), false, err
		})), nil
	})
	tapArgs := ArgsOf("stream.tap")
	lib.Builtin("stream.tap", func(c *Call, args []Value) (Value, error) {
		var inner *Iter
		var f Value
		if err := tapArgs.Unpack(c, args, &inner, &f); err != nil {
			return Nil, err
		}
		return iterValue(mapped(inner, func(v Value) (Value, bool, bool, error) {
			_, err := c.th.callValue(f, []Value{v})
			return v, true, false, err
		})), nil
	})
	scanArgs := ArgsOf("stream.scan")
	lib.Builtin("stream.scan", func(c *Call, args []Value) (Value, error) {
		var inner *Iter
		var acc, f Value
		if err := scanArgs.Unpack(c, args, &inner, &acc, &f); err != nil {
			return Nil, err
		}
		return iterValue(mapped(inner, func(v Value) (Value, bool, bool, error) {
			next, err := c.th.callValue(f, []Value{acc, v})
			acc = next
			return next, true, false, err
		})), nil
	})
	takeArgs := ArgsOf("stream.take")
	lib.Builtin("stream.take", func(c *Call, args []Value) (Value, error) {
		var inner *Iter
		if err := takeArgs.Unpack(c, args, &inner); err != nil {
			return Nil, err
		}
		n := Arg(args, 1)
		if n.k != KindInt || int64(n.n) < 0 {
			return Nil, typeError("stream.take: argument 2 must be a non-negative int, got %s", n.TypeName())
		}
		left := int64(n.n)
		it := &Iter{}
		it.next = func() (Value, bool, error) {
			if left <= 0 {
				return Nil, false, nil
			}
			v, ok, err := inner.Next()
			if ok {
				left--
			}
			return v, ok, err
		}
		return iterValue(it), nil
	})
	takeUntilArgs := ArgsOf("stream.take_until")
	lib.Builtin("stream.take_until", func(c *Call, args []Value) (Value, error) {
		var inner *Iter
		var f Value
		if err := takeUntilArgs.Unpack(c, args, &inner, &f); err != nil {
			return Nil, err
		}
		return iterValue(mapped(inner, func(v Value) (Value, bool, bool, error) {
			stop, err := c.th.callValue(f, []Value{v})
			return v, true, stop.Truthy(), err
		})), nil
	})
	lib.Builtin("stream.zip", func(c *Call, args []Value) (Value, error) {
		if len(args) != 2 {
			return Nil, typeError("stream.zip: expected 2 streams, got %d", len(args))
		}
		srcs, err := sourcesArg(c, args, 2)
		if err != nil {
			return Nil, err
		}
		return iterValue(&Iter{next: func() (Value, bool, error) {
			x, ok, err := srcs[0].Next()
			if err != nil || !ok {
				return Nil, false, err
			}
			y, ok, err := srcs[1].Next()
			if err != nil || !ok {
				return Nil, false, err
			}
			return Value{k: KindPair, r: &Pair{First: x, Second: y}}, true, nil
		}}), nil
	})
	lib.Builtin("stream.merge", func(c *Call, args []Value) (Value, error) {
		srcs, err := sourcesArg(c, args, 1)
		if err != nil {
			return Nil, err
		}
		cursor := 0
		return iterValue(&Iter{next: func() (Value, bool, error) {
			for {
				live := 0
				for off := range srcs {
					i := (cursor + off) % len(srcs)
					if srcs[i] == nil {
						continue
					}
					v, ok, pending, err := srcs[i].tryNext()
					if err != nil {
						return Nil, false, err
					}
					if ok {
						cursor = (i + 1) % len(srcs)
						return v, true, nil
					}
					if pending {
						live++
					} else {
						srcs[i] = nil
					}
				}
				if live == 0 {
					return Nil, false, nil
				}
				if err := pollWait(c); err != nil {
					return Nil, false, err
				}
			}
		}}), nil
	})
	lib.Builtin("stream.interleave", func(c *Call, args []Value) (Value, error) {
		srcs, err := sourcesArg(c, args, 2)
		if err != nil {
			return Nil, err
		}
		cursor := 0
		return iterValue(&Iter{next: func() (Value, bool, error) {
			for off := range srcs {
				i := (cursor + off) % len(srcs)
				if srcs[i] == nil {
					continue
				}
				v, ok, err := srcs[i].Next()
				if err != nil {
					return Nil, false, err
				}
				if ok {
					cursor = (i + 1) % len(srcs)
					return v, true, nil
				}
				srcs[i] = nil
			}
			return Nil, false, nil
		}}), nil
	})
	lib.Builtin("stream.race", func(c *Call, args []Value) (Value, error) {
		srcs, err := sourcesArg(c, args, 1)
		if err != nil {
			return Nil, err
		}
		var winner *Iter
		return iterValue(&Iter{next: func() (Value, bool, error) {
			if winner != nil {
				return winner.Next()
			}
			for {
				live := 0
				for i, s := range srcs {
					if s == nil {
						continue
					}
					v, ok, pending, err := s.tryNext()
					if err != nil {
						return Nil, false, err
					}
					if ok {
						winner, srcs = s, nil
						return v, true, nil
					}
					if pending {
						live++
					} else {
						srcs[i] = nil
					}
				}
				if live == 0 {
					return Nil, false, nil
				}
				if err := pollWait(c); err != nil {
					return Nil, false, err
				}
			}
		}}), nil
	})
	broadcastArgs := ArgsOf("stream.broadcast")
	lib.Builtin("stream.broadcast", func(c *Call, args []Value) (Value, error) {
		var src *Iter
		if err := broadcastArgs.Unpack(c, args, &src); err != nil {
			return Nil, err
		}
		n := Arg(args, 1)
		if n.k != KindInt || int64(n.n) <= 0 || int64(n.n) > 1<<16 {
			return Nil, typeError("stream.broadcast: argument 2 must be a positive int, got %s", Display(n))
		}
		// The branches share one buffer of what the source produced;
		// each reads it at its own pace.
		var buf []Value
		exhausted := false
		branches := make([]Value, int64(n.n))
		for b := range branches {
			idx := 0
			branches[b] = iterValue(&Iter{next: func() (Value, bool, error) {
				for {
					if idx < len(buf) {
						idx++
						return share(buf[idx-1]), true, nil
					}
					if exhausted {
						return Nil, false, nil
					}
					v, ok, err := src.Next()
					if err != nil {
						return Nil, false, err
					}
					if !ok {
						exhausted = true
						continue
					}
					if len(buf) >= maxListLen {
						return Nil, false, runtimeError("stream.broadcast: more than %d buffered values", maxListLen)
					}
					buf = append(buf, v)
				}
			}})
		}
		return NewListValue(branches), nil
	})
	throttleArgs := ArgsOf("stream.throttle")
	lib.Builtin("stream.throttle", func(c *Call, args []Value) (Value, error) {
		var inner *Iter
		if err := throttleArgs.Unpack(c, args, &inner); err != nil {
			return Nil, err
		}
		perSec, ok := Arg(args, 1).Number()
		if !ok || perSec <= 0 || math.IsInf(perSec, 0) || math.IsNaN(perSec) {
			return Nil, typeError("stream.throttle: argument 2 must be a positive finite number (values per second)")
		}
		interval := time.Duration(max(math.Ceil(1000/perSec), 1)) * time.Millisecond
		var readyAt time.Time
		return iterValue(&Iter{next: func() (Value, bool, error) {
			if wait := time.Until(readyAt); !readyAt.IsZero() && wait > 0 {
				if err := c.th.in.host.Sleep(c.th.ctx, wait); err != nil {
					return Nil, false, c.th.checkLimits()
				}
			}
			v, ok, err := inner.Next()
			if ok {
				readyAt = time.Now().Add(interval)
			}
			return v, ok, err
		}}), nil
	})
	debounceArgs := ArgsOf("stream.debounce")
	lib.Builtin("stream.debounce", func(c *Call, args []Value) (Value, error) {
		var inner *Iter
		if err := debounceArgs.Unpack(c, args, &inner); err != nil {
			return Nil, err
		}
		w := Arg(args, 1)
		ms, ok := DurationMillis(w)
		if !ok || ms < 0 {
			return Nil, typeError("stream.debounce: argument 2 must be a non-negative int, got %s", w.TypeName())
		}
		// Each pull takes the next value, waits out the quiet window, and
		// keeps the latest of whatever else is ready by then.
		return iterValue(&Iter{next: func() (Value, bool, error) {
			last, ok, err := inner.Next()
			if err != nil || !ok {
				return Nil, false, err
			}
			if ms > 0 {
				var serr error
				c.th.block(func() { serr = c.th.in.host.Sleep(c.th.ctx, time.Duration(ms)*time.Millisecond) })
				if serr != nil {
					return Nil, false, c.th.checkLimits()
				}
			}
			for {
				v, ok, pending, err := inner.tryNext()
				if err != nil {
					return Nil, false, err
				}
				if !ok || pending {
					return last, true, nil
				}
				last = v
			}
		}}), nil
	})
	collectArgs := ArgsOf("stream.collect")
	lib.Builtin("stream.collect", func(c *Call, args []Value) (Value, error) {
		var inner *Iter
		if err := collectArgs.Unpack(c, args, &inner); err != nil {
			return Nil, err
		}
		limit := int64(10_000)
		switch m := Arg(args, 1); m.k {
		case KindNil:
		case KindInt:
			if int64(m.n) < 0 {
				return Nil, typeError("stream.collect: max must be a non-negative int")
			}
			limit = int64(m.n)
		case KindDict:
			if x, ok := m.r.(*Dict).Get("max"); ok {
				if x.k != KindInt || int64(x.n) < 0 {
					return Nil, typeError("stream.collect: max must be a non-negative int, got %s", x.TypeName())
				}
				limit = int64(x.n)
			}
		default:
			return Nil, typeError("stream.collect: second argument must be max int or options dict, got %s", m.TypeName())
		}
		var out []Value
		for {
			v, ok, err := inner.Next()
			if err != nil {
				return Nil, err
			}
			if !ok {
				return NewListValue(out), nil
			}
			if int64(len(out)) >= limit {
				return Nil, runtimeError("stream.collect: max cap %d exceeded", limit)
			}
			out = append(out, v)
		}
	})
	foldArgs := ArgsOf("stream.fold")
	lib.Builtin("stream.fold", func(c *Call, args []Value) (Value, error) {
		var inner *Iter
		var acc, f Value
		if err := foldArgs.Unpack(c, args, &inner, &acc, &f); err != nil {
			return Nil, err
		}
		for {
			v, ok, err := inner.Next()
			if err != nil {
				return Nil, err
			}
			if !ok {
				return acc, nil
			}
			if acc, err = c.th.callValue(f, []Value{acc, v}); err != nil {
				return Nil, err
			}
		}
	})
	firstArgs := ArgsOf("stream.first")
	lib.Builtin("stream.first", func(c *Call, args []Value) (Value, error) {
		var inner *Iter
		if err := firstArgs.Unpack(c, args, &inner); err != nil {
			return Nil, err
		}
		v, _, err := inner.Next()
		return v, err
	})
}
