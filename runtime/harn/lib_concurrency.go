package harn

// Concurrency builtins: tasks, channels and atomics.

func installConcurrency(lib *Library) {
	lib.Builtin("await", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		if v.k != KindTask {
			return v, nil
		}
		return c.th.await(v.r.(*Task))
	})
	lib.Builtin("cancel", func(c *Call, args []Value) (Value, error) {
		if v := Arg(args, 0); v.k == KindTask {
			v.r.(*Task).cancel()
		}
		return Nil, nil
	})
	lib.Builtin("cancel_graceful", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		if v.k != KindTask {
			return Nil, nil
		}
		t := v.r.(*Task)
		t.cancel()
		r, err := c.th.await(t)
		if err != nil {
			if e, ok := catchable(err); ok {
				return resultErr(e.Value), nil
			}
			return Nil, err
		}
		return resultOkRaw(r), nil
	})
	lib.Builtin("is_cancelled", func(c *Call, args []Value) (Value, error) {
		t := c.th.task
		return Bool(t.stopAsked.Load() || (t.ctx != nil && t.ctx.Err() != nil)), nil
	})
	lib.Builtin("spawn", func(c *Call, args []Value) (Value, error) {
		fn, err := argCallable(c, args, 0)
		if err != nil {
			return Nil, err
		}
		t, err := c.th.spawnTask(c.th.task.childID("spawn"), "spawn", "", func(th *thread) (Value, error) { return th.callValue(fn, nil) })
		if err != nil {
			return Nil, err
		}
		return Value{k: KindTask, r: t}, nil
	})
	lib.Builtin("channel", func(c *Call, args []Value) (Value, error) {
		name := "default"
		capacity := int64(256)
		for i, a := range args {
			switch {
			case a.k == KindString && i == 0:
				name = a.r.(string)
			case a.k == KindInt:
				capacity = int64(a.n)
			}
		}
		return Value{k: KindChannel, r: newChannel(name, int(max(capacity, 1)))}, nil
	})
	chanArg := func(c *Call, args []Value) (*Channel, error) {
		v := Arg(args, 0)
		if v.k != KindChannel {
			return nil, throwValue(Str(c.Name + ": first argument must be a channel"))
		}
		return v.r.(*Channel), nil
	}
	lib.Builtin("send", func(c *Call, args []Value) (Value, error) {
		ch, err := chanArg(c, args)
		if err != nil {
			return Nil, err
		}
		ok, err := ch.send(c.th, Arg(args, 1))
		return Bool(ok), err
	})
	lib.Builtin("receive", func(c *Call, args []Value) (Value, error) {
		ch, err := chanArg(c, args)
		if err != nil {
			return Nil, err
		}
		v, _, err := ch.recv(c.th)
		return v, err
	})
	lib.Builtin("try_receive", func(c *Call, args []Value) (Value, error) {
		ch, err := chanArg(c, args)
		if err != nil {
			return Nil, err
		}
		v, _, _, _ := ch.tryRecv()
		return v, nil
	})
	lib.Builtin("close_channel", func(c *Call, args []Value) (Value, error) {
		ch, err := chanArg(c, args)
		if err != nil {
			return Nil, err
		}
		ch.close()
		return Nil, nil
	})
	lib.Builtin("atomic", func(c *Call, args []Value) (Value, error) {
		a := &Atomic{}
		switch v := Arg(args, 0); v.k {
		case KindInt:
			a.v = int64(v.n)
		case KindFloat:
			a.v = int64(v.AsFloat())
		case KindBool:
			a.v = int64(v.n)
		}
		return Value{k: KindAtomic, r: a}, nil
	})
	atom := func(args []Value) *Atomic {
		if v := Arg(args, 0); v.k == KindAtomic {
			return v.r.(*Atomic)
		}
		return nil
	}
	lib.Builtin("atomic_get", func(c *Call, args []Value) (Value, error) {
		if a := atom(args); a != nil {
			return Int(a.load()), nil
		}
		return Nil, nil
	})
	lib.Builtin("atomic_set", func(c *Call, args []Value) (Value, error) {
		a := atom(args)
		if a == nil || Arg(args, 1).k != KindInt {
			return Nil, nil
		}
		a.mu.Lock()
		old := a.v
		a.v = int64(args[1].n)
		a.mu.Unlock()
		return Int(old), nil
	})
	lib.Builtin("atomic_add", func(c *Call, args []Value) (Value, error) {
		a := atom(args)
		if a == nil || Arg(args, 1).k != KindInt {
			return Nil, nil
		}
		a.mu.Lock()
		old := a.v
		a.v += int64(args[1].n)
		a.mu.Unlock()
		return Int(old), nil
	})
	lib.Builtin("atomic_cas", func(c *Call, args []Value) (Value, error) {
		a := atom(args)
		if a == nil || Arg(args, 1).k != KindInt || Arg(args, 2).k != KindInt {
			return False, nil
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.v != int64(args[1].n) {
			return False, nil
		}
		a.v = int64(args[2].n)
		return True, nil
	})
}
