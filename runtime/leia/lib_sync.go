package leia

import (
	"fmt"
	"sync"
	"time"
)

// sync and context: helpers for goroutines. All waits release the
// interpreter lock and take part in deadlock detection, like channel
// operations.

// waitFor blocks until c is closed (or the run stops or ends); what names
// the operation for a deadlock report.
func (th *Thread) waitFor(c <-chan struct{}, what string, pos int32) {
	select {
	case <-c:
		return
	default:
	}
	s := &th.in.sched
	w := s.block(th, false, what, pos)
	var err error
	select {
	case <-c:
	case <-th.run.Done():
		err = errRunDone
	}
	s.unblock(th, w)
	th.checkWaitErr(err, pos)
}

// object makes a table of methods; each method may be called as o.m(...)
// or o:m(...).
func object(methods map[string]NativeFunc) *Table {
	o := NewTable(0, len(methods))
	for _, name := range sortedKeys(methods) {
		f := methods[name]
		o.SetStr(name, NewNative(name, func(t *Thread, a []Value) ([]Value, error) {
			if len(a) > 0 && a[0].Table() == o {
				a = a[1:]
			}
			return f(t, a)
		}))
	}
	return o
}

func openSync(in *Interp) {
	newModule(in, "sync", map[string]NativeFunc{
		"mutex":     func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(TableValue(newMutex())), nil },
		"waitgroup": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(TableValue(newWaitGroup())), nil },
		"once": func(t *Thread, a []Value) ([]Value, error) {
			done := false
			return t.Ret1(TableValue(object(map[string]NativeFunc{
				"do": func(t *Thread, a []Value) ([]Value, error) {
					if done {
						return nil, nil
					}
					done = true
					f, err := CheckFunction(a, 0, "do")
					if err != nil {
						return nil, err
					}
					t.Call(f)
					return nil, nil
				},
			}))), nil
		},
		"group": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(TableValue(newGroup(t))), nil },
	})
	m := in.lib("sync")
	m.SetStr("waitGroup", m.GetStr("waitgroup"))
	openContext(in)
}

func newMutex() *Table {
	var mu sync.Mutex
	held := make(chan struct{}, 1)
	return object(map[string]NativeFunc{
		"lock": func(t *Thread, a []Value) ([]Value, error) {
			for {
				select {
				case held <- struct{}{}:
					return nil, nil
				default:
				}
				mu.Lock()
				wait := make(chan struct{})
				go func() { held <- struct{}{}; <-held; close(wait) }()
				mu.Unlock()
				t.waitFor(wait, "mutex lock", -1)
			}
		},
		"unlock": func(t *Thread, a []Value) ([]Value, error) {
			select {
			case <-held:
				return nil, nil
			default:
				return nil, fmt.Errorf("unlock of unlocked mutex")
			}
		},
		"tryLock": func(t *Thread, a []Value) ([]Value, error) {
			select {
			case held <- struct{}{}:
				return t.Ret1(True), nil
			default:
				return t.Ret1(False), nil
			}
		},
	})
}

func newWaitGroup() *Table {
	count := int64(0)
	zero := make(chan struct{})
	close(zero)
	add := func(n int64) error {
		if count == 0 && n > 0 {
			zero = make(chan struct{})
		}
		count += n
		if count < 0 {
			return fmt.Errorf("negative waitgroup counter")
		}
		if count == 0 {
			close(zero)
		}
		return nil
	}
	return object(map[string]NativeFunc{
		"add": func(t *Thread, a []Value) ([]Value, error) {
			n, err := OptInt(a, 0, "add", 1)
			if err != nil {
				return nil, err
			}
			return nil, add(n)
		},
		"done": func(t *Thread, a []Value) ([]Value, error) { return nil, add(-1) },
		"wait": func(t *Thread, a []Value) ([]Value, error) {
			t.waitFor(zero, "waitgroup wait", -1)
			return nil, nil
		},
	})
}

// newGroup is an error group: start(fn, args...) runs fn(ctx, args...) in
// a goroutine; wait() returns ok, the first error and the failure count.
func newGroup(t *Thread) *Table {
	wg := newWaitGroup()
	add := wg.GetStr("add").Native().Fn
	done := wg.GetStr("done").Native().Fn
	wait := wg.GetStr("wait").Native().Fn
	ctx := newContext(t.in, nil, 0)
	var firstErr Value
	failures := int64(0)
	return object(map[string]NativeFunc{
		"start": func(t *Thread, a []Value) ([]Value, error) {
			f, err := CheckFunction(a, 0, "start")
			if err != nil {
				return nil, err
			}
			args := append([]Value{TableValue(ctx.table)}, a[1:]...)
			add(t, nil)
			wrapped := NewNative("group task", func(t *Thread, _ []Value) ([]Value, error) {
				defer done(t, nil)
				if _, e := t.PCall(f, args...); e != nil {
					failures++
					if firstErr.k == KindNil {
						firstErr = e.Value
					}
					ctx.cancel()
				}
				return nil, nil
			})
			t.spawn(wrapped, nil, -1)
			return nil, nil
		},
		"wait": func(t *Thread, a []Value) ([]Value, error) {
			wait(t, nil)
			return []Value{Bool(failures == 0), firstErr, Int(failures)}, nil
		},
		"cancel": func(t *Thread, a []Value) ([]Value, error) { ctx.cancel(); return nil, nil },
	})
}

// leiaContext is a cancellation context: ctx.done is a channel closed on
// cancel (or when the deadline passes), ctx.err() says why.
type leiaContext struct {
	table  *Table
	done   *Channel
	once   sync.Once
	reason string
}

func (c *leiaContext) cancelWith(reason string) {
	c.once.Do(func() {
		c.reason = reason
		c.done.closed.Store(true)
		close(c.done.c)
	})
}

func (c *leiaContext) cancel() { c.cancelWith("cancelled") }

func newContext(in *Interp, parent *leiaContext, timeout time.Duration) *leiaContext {
	c := &leiaContext{done: NewChannel(0)}
	c.table = object(map[string]NativeFunc{
		"err": func(t *Thread, a []Value) ([]Value, error) {
			if c.reason == "" {
				return t.Ret1(Nil), nil
			}
			return t.Ret1(String(c.reason)), nil
		},
		"cancel": func(t *Thread, a []Value) ([]Value, error) { c.cancel(); return nil, nil },
		"cancelled": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(Bool(c.done.closed.Load())), nil
		},
	})
	c.table.SetStr("done", channelValue(c.done))
	if parent != nil {
		go func() {
			select {
			case <-parent.done.c:
				c.cancelWith(parent.reason)
			case <-c.done.c:
			}
		}()
	}
	if timeout > 0 {
		// A pending timer may wake a task: no deadlock meanwhile.
		tr := in.run.Tracker()
		tr.Hold()
		time.AfterFunc(timeout, func() {
			c.cancelWith("deadline exceeded")
			tr.Unhold()
		})
	}
	return c
}

func openContext(in *Interp) {
	parentOf := func(a []Value) *leiaContext {
		if t := Arg(a, 0).Table(); t != nil {
			if u := t.GetStr("__ctx").Userdata(); u != nil {
				if c, ok := u.Value.(*leiaContext); ok {
					return c
				}
			}
		}
		return nil
	}
	mk := func(t *Thread, parent *leiaContext, d time.Duration) []Value {
		c := newContext(t.in, parent, d)
		c.table.SetStr("__ctx", UserdataValue(&Userdata{Value: c}))
		return []Value{TableValue(c.table), NewNative("cancel", func(t *Thread, a []Value) ([]Value, error) {
			c.cancel()
			return nil, nil
		})}
	}
	newModule(in, "context", map[string]NativeFunc{
		"background": func(t *Thread, a []Value) ([]Value, error) { return mk(t, nil, 0)[:1], nil },
		"withCancel": func(t *Thread, a []Value) ([]Value, error) { return mk(t, parentOf(a), 0), nil },
		"withTimeout": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckFloat(a, 1, "withTimeout")
			if len(a) == 1 {
				s, err = CheckFloat(a, 0, "withTimeout")
			}
			if err != nil {
				return nil, err
			}
			return mk(t, parentOf(a), secondsDuration(s)), nil
		},
	})
}
