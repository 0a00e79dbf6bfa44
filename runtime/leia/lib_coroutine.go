package leia

import "fmt"

func openCoroutine(in *Interp) {
	c := in.moduleTable("coroutine", 8)
	reg := func(name string, fn NativeFunc) { c.SetStr(name, NewNative(name, fn)) }
	reg("create", func(t *Thread, a []Value) ([]Value, error) {
		f, err := CheckFunction(a, 0, "create")
		if err != nil {
			return nil, err
		}
		return t.Ret1(coroutineValue(newCoroutine(t.in, f))), nil
	})
	reg("resume", func(t *Thread, a []Value) ([]Value, error) {
		v := Arg(a, 0)
		if v.k != KindCoroutine {
			return nil, typeError(0, "resume", "coroutine", v)
		}
		rets, e := t.resume(v.coroutine(), a[1:])
		if e != nil {
			return t.Ret2(False, e.Value), nil
		}
		out := make([]Value, 0, len(rets)+1)
		out = append(out, True)
		return append(out, rets...), nil
	})
	reg("yield", func(t *Thread, a []Value) ([]Value, error) {
		if t.co == nil {
			return nil, fmt.Errorf("attempt to yield from outside a coroutine")
		}
		return t.yield(a), nil
	})
	reg("status", func(t *Thread, a []Value) ([]Value, error) {
		v := Arg(a, 0)
		if v.k != KindCoroutine {
			return nil, typeError(0, "status", "coroutine", v)
		}
		return t.Ret1(String(v.coroutine().status)), nil
	})
	reg("isyieldable", func(t *Thread, a []Value) ([]Value, error) {
		return t.Ret1(Bool(t.co != nil)), nil
	})
	reg("running", func(t *Thread, a []Value) ([]Value, error) {
		if t.co == nil {
			return t.Ret2(Nil, True), nil
		}
		return t.Ret2(coroutineValue(t.co), False), nil
	})
	reg("wrap", func(t *Thread, a []Value) ([]Value, error) {
		f, err := CheckFunction(a, 0, "wrap")
		if err != nil {
			return nil, err
		}
		co := newCoroutine(t.in, f)
		return t.Ret1(NewNative("wrapped coroutine", func(t *Thread, a []Value) ([]Value, error) {
			rets, e := t.resume(co, a)
			if e != nil {
				return nil, e
			}
			return rets, nil
		})), nil
	})
	reg("close", func(t *Thread, a []Value) ([]Value, error) {
		v := Arg(a, 0)
		if v.k != KindCoroutine {
			return nil, typeError(0, "close", "coroutine", v)
		}
		co := v.coroutine()
		switch co.status {
		case "suspended", "dead":
			co.kill()
			co.status = "dead"
			return t.Ret1(True), nil
		}
		return nil, fmt.Errorf("cannot close a %s coroutine", co.status)
	})
	in.registerLib("coroutine", c)
}
