package leia

// The testkit module: assertions, deep equality, value inspection and
// memory snapshots for tests written in Leia.

import (
	"fmt"
	goruntime "runtime"
	"strings"
)

// openTestkit installs testkit: small helpers for self-checking programs.
func openTestkit(in *Interp) {
	newModule(in, "testkit", map[string]NativeFunc{
		"inspect": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(String(inspectValue(t, Arg(a, 0), 0))), nil
		},
		"equal": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(Bool(deepEqual(t, Arg(a, 0), Arg(a, 1), 0))), nil
		},
		"assertEqual": func(t *Thread, a []Value) ([]Value, error) {
			if !deepEqual(t, Arg(a, 0), Arg(a, 1), 0) {
				msg := fmt.Sprintf("expected %s, got %s", inspectValue(t, Arg(a, 1), 0), inspectValue(t, Arg(a, 0), 0))
				if m := Arg(a, 2); m.k == KindString {
					msg = m.AsString() + ": " + msg
				}
				return nil, ScriptError(String(msg))
			}
			return nil, nil
		},
		// protect calls f with the arguments and reports the outcome as
		// a table {ok, n, values} or {ok = false, error}.
		"protect": func(t *Thread, a []Value) ([]Value, error) {
			r := NewTable(0, 4)
			rest := append([]Value(nil), a[min(1, len(a)):]...)
			var rets []Value
			if e := t.protect(func() { rets = t.callAt(Arg(a, 0), rest, -1) }); e != nil {
				r.SetStr("ok", False)
				r.SetStr("error", e.Value)
				return t.Ret1(TableValue(r)), nil
			}
			r.SetStr("ok", True)
			r.SetStr("n", Int(int64(len(rets))))
			r.SetStr("values", TableValue(NewList(rets...)))
			return t.Ret1(TableValue(r)), nil
		},
		"typeOf": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(String(Arg(a, 0).TypeName())), nil
		},
		"value": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(TableValue(describeValue(t, Arg(a, 0)))), nil
		},
		"sameFunction": func(t *Thread, a []Value) ([]Value, error) {
			x, y := Arg(a, 0), Arg(a, 1)
			return t.Ret1(Bool(x.IsFunction() && y.IsFunction() && RawEqual(x, y))), nil
		},
		"functionInfo": func(t *Thread, a []Value) ([]Value, error) {
			f := Arg(a, 0)
			if !f.IsFunction() {
				return nil, typeError(0, "functionInfo", "function", f)
			}
			return t.Ret1(TableValue(debugFuncInfo(f))), nil
		},
		// snapshot, memory, diff and checkMemory report the Go heap.
		"snapshot": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(TableValue(memoryTable())), nil
		},
		"memory": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(TableValue(memoryTable())), nil
		},
		"diff": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(TableValue(memoryDiff(Arg(a, 0).Table(), memoryTable()))), nil
		},
		// checkMemory(before [, {collect, maxGrowthKB}]) reports whether
		// the heap grew by at most maxGrowthKB (default 64 MiB) since
		// before.
		"checkMemory": func(t *Thread, a []Value) ([]Value, error) {
			opts := Arg(a, 1).Table()
			limit := 64.0 * 1024
			if opts != nil {
				if opts.GetStr("collect").Truthy() {
					goruntime.GC()
				}
				if v := opts.GetStr("maxGrowthKB"); v.IsNumber() {
					limit = v.AsFloat()
				}
			}
			d := memoryDiff(Arg(a, 0).Table(), memoryTable())
			ok := d.GetStr("allocKB").AsFloat() <= limit
			d.SetStr("ok", Bool(ok))
			d.SetStr("limitKB", Float(limit))
			return t.Ret2(Bool(ok), TableValue(d)), nil
		},
	})
}

func memoryTable() *Table {
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	r := NewTable(0, 6)
	r.SetStr("allocKB", Float(float64(ms.HeapAlloc)/1024))
	r.SetStr("totalAllocKB", Float(float64(ms.TotalAlloc)/1024))
	r.SetStr("sysKB", Float(float64(ms.Sys)/1024))
	r.SetStr("objects", Int(int64(ms.HeapObjects)))
	r.SetStr("numGC", Int(int64(ms.NumGC)))
	r.SetStr("goroutines", Int(int64(goruntime.NumGoroutine())))
	return r
}

// memoryDiff is now minus before, field by field (before may be nil).
func memoryDiff(before, now *Table) *Table {
	r := NewTable(0, 6)
	now.Iter(func(k, v Value) bool {
		var b Value
		if before != nil {
			b = before.Get(k)
		}
		if !b.IsNumber() {
			b = Int(0)
		}
		if v.k == KindInt && b.k == KindInt {
			r.Set(k, Int(v.AsInt()-b.AsInt()))
		} else {
			r.Set(k, Float(v.AsFloat()-b.AsFloat()))
		}
		return true
	})
	return r
}

// describeValue is the table debug.value and testkit.value give.
func describeValue(t *Thread, v Value) *Table {
	r := NewTable(0, 5)
	r.SetStr("type", String(v.TypeName()))
	r.SetStr("truthy", Bool(v.Truthy()))
	r.SetStr("text", String(inspectValue(t, v, 0)))
	switch v.k {
	case KindTable:
		r.SetStr("length", Int(int64(v.Table().Len())))
		r.SetStr("len", Int(int64(v.Table().Len())))
	case KindString:
		r.SetStr("length", Int(int64(len(v.AsString()))))
		r.SetStr("len", Int(int64(len(v.AsString()))))
	}
	return r
}

// deepEqual compares tables by contents (depth-bounded).
func deepEqual(t *Thread, a, b Value, depth int) bool {
	if RawEqual(a, b) {
		return true
	}
	ta, tb := a.Table(), b.Table()
	if ta == nil || tb == nil || depth > 100 {
		return false
	}
	same := true
	n := 0
	ta.Iter(func(k, v Value) bool {
		n++
		t.charge(1, -1)
		if !deepEqual(t, v, tb.Get(k), depth+1) {
			same = false
			return false
		}
		return true
	})
	if !same {
		return false
	}
	m := 0
	tb.Iter(func(_, _ Value) bool { m++; return true })
	return n == m
}

// inspectValue renders a value as source-like text (depth-bounded).
func inspectValue(t *Thread, v Value, depth int) string {
	switch v.k {
	case KindString:
		return quoteString(v)
	case KindTable:
		if depth > 8 {
			return "{...}"
		}
		var parts []string
		v.Table().Iter(func(k, x Value) bool {
			if t != nil {
				t.charge(1, -1)
			}
			if len(parts) >= 200 {
				parts = append(parts, "...")
				return false
			}
			ks := "[" + inspectValue(t, k, depth+1) + "]"
			if k.k == KindString && isIdent(k.AsString()) {
				ks = k.AsString()
			}
			parts = append(parts, ks+": "+inspectValue(t, x, depth+1))
			return true
		})
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return FormatValuePlain(v)
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isalpha(c) || c == '_' || i > 0 && isdigit(c)) {
			return false
		}
	}
	return true
}
