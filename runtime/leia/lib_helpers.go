package leia

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Go-style helpers of the string and table modules: padding, trimming,
// replaceAll, numeric checks; map/filter/reduce, fromArray, flatten,
// indexOf, merge, count, unique, reverse, slice, zip, toArray.

func openHelpers(in *Interp) {
	s := in.lib("string")
	reg := func(t *Table, name string, fn NativeFunc) { t.SetStr(name, NewNative(name, fn)) }
	// trimmer registers trimLeft or trimRight: white space, or the
	// characters of a second argument when it is a string.
	trimmer := func(name string, cut func(s, chars string) string) {
		sp := specOf("string." + name)
		reg(s, name, func(t *Thread, a []Value) ([]Value, error) {
			var str string
			var chars Value
			if err := sp.unpack(a, &str, &chars); err != nil {
				return nil, err
			}
			if chars.k == KindString {
				return t.Ret1(String(cut(str, chars.AsString()))), nil
			}
			return t.Ret1(String(cut(str, " \t\r\n\v\f"))), nil
		})
	}
	trimmer("trimLeft", strings.TrimLeft)
	trimmer("trimRight", strings.TrimRight)
	// strFn registers a function of strings to a string.
	strFn := func(name string, f func(args []string) string, n int) {
		sp := specOf("string." + name)
		reg(s, name, func(t *Thread, a []Value) ([]Value, error) {
			strs := make([]string, n)
			dst := make([]any, n)
			for i := range strs {
				dst[i] = &strs[i]
			}
			if err := sp.unpack(a, dst...); err != nil {
				return nil, err
			}
			return t.Ret1(String(f(strs))), nil
		})
	}
	strFn("trimPrefix", func(x []string) string { return strings.TrimPrefix(x[0], x[1]) }, 2)
	strFn("trimSuffix", func(x []string) string { return strings.TrimSuffix(x[0], x[1]) }, 2)
	strFn("replaceAll", func(x []string) string { return strings.ReplaceAll(x[0], x[1], x[2]) }, 3)
	pad := func(name string, left bool) NativeFunc {
		sp := specOf("string." + name)
		return func(t *Thread, a []Value) ([]Value, error) {
			var str string
			var width int64
			fill := " "
			if err := sp.unpack(a, &str, &width, &fill); err != nil {
				return nil, err
			}
			if fill == "" {
				fill = " "
			}
			n := int(width) - utf8.RuneCountInString(str)
			if n <= 0 {
				return t.Ret1(String(str)), nil
			}
			if width > int64(t.in.maxString) {
				return nil, fmt.Errorf("%s: width too large", name)
			}
			t.allocBytes(width*int64(len(fill)), -1)
			padding := strings.Repeat(fill, n/utf8.RuneCountInString(fill)+1)
			padding = string([]rune(padding)[:n])
			if left {
				return t.Ret1(String(padding + str)), nil
			}
			return t.Ret1(String(str + padding)), nil
		}
	}
	reg(s, "padLeft", pad("padLeft", true))
	reg(s, "padRight", pad("padRight", false))
	numericSpec := specOf("string.isNumeric")
	reg(s, "isNumeric", func(t *Thread, a []Value) ([]Value, error) {
		var str string
		if err := numericSpec.unpack(a, &str); err != nil {
			return nil, err
		}
		_, ok := parseNumber(str)
		return t.Ret1(Bool(ok && strings.TrimSpace(str) == str)), nil
	})

	tb := in.lib("table")
	listArg := func(a []Value, name string) (*Table, error) { return CheckTable(a, 0, name) }
	fnArg := func(a []Value, i int, name string) (Value, error) { return CheckFunction(a, i, name) }
	reg(tb, "map", func(t *Thread, a []Value) ([]Value, error) {
		l, err := listArg(a, "map")
		if err != nil {
			return nil, err
		}
		f, err := fnArg(a, 1, "map")
		if err != nil {
			return nil, err
		}
		out := NewTable(l.Len(), 0)
		var ferr error
		l.Iter(func(k, v Value) bool {
			out.Set(k, t.Call1(f, v, k))
			return true
		})
		return t.Ret1(TableValue(out)), ferr
	})
	reg(tb, "filter", func(t *Thread, a []Value) ([]Value, error) {
		l, err := listArg(a, "filter")
		if err != nil {
			return nil, err
		}
		f, err := fnArg(a, 1, "filter")
		if err != nil {
			return nil, err
		}
		out := NewTable(0, 0)
		for i, v := range append([]Value(nil), l.arr...) {
			if t.Call1(f, v, Int(int64(i+1))).Truthy() {
				out.Append(v)
			}
		}
		return t.Ret1(TableValue(out)), nil
	})
	reg(tb, "reduce", func(t *Thread, a []Value) ([]Value, error) {
		l, err := listArg(a, "reduce")
		if err != nil {
			return nil, err
		}
		f, err := fnArg(a, 1, "reduce")
		if err != nil {
			return nil, err
		}
		acc := Arg(a, 2)
		items := append([]Value(nil), l.arr...)
		start := 0
		if len(a) < 3 && len(items) > 0 {
			acc, start = items[0], 1
		}
		for i := start; i < len(items); i++ {
			acc = t.Call1(f, acc, items[i], Int(int64(i+1)))
		}
		return t.Ret1(acc), nil
	})
	reg(tb, "fromArray", func(t *Thread, a []Value) ([]Value, error) {
		l, err := listArg(a, "fromArray")
		if err != nil {
			return nil, err
		}
		f, err := fnArg(a, 1, "fromArray")
		if err != nil {
			return nil, err
		}
		out := NewTable(0, l.Len())
		for _, v := range append([]Value(nil), l.arr...) {
			k := t.Call1(f, v)
			if k.k != KindNil {
				t.rawSet(out, k, v, -1)
			}
		}
		return t.Ret1(TableValue(out)), nil
	})
	reg(tb, "flatten", func(t *Thread, a []Value) ([]Value, error) {
		l, err := listArg(a, "flatten")
		if err != nil {
			return nil, err
		}
		depth, err := OptInt(a, 1, "flatten", 1<<30)
		if err != nil {
			return nil, err
		}
		out := NewTable(l.Len(), 0)
		var walk func(x *Table, d int64, level int) error
		walk = func(x *Table, d int64, level int) error {
			if level > 200 {
				return fmt.Errorf("flatten: nesting too deep")
			}
			for _, v := range x.arr {
				if vt := v.Table(); vt != nil && d > 0 {
					if err := walk(vt, d-1, level+1); err != nil {
						return err
					}
				} else {
					out.Append(v)
				}
			}
			return nil
		}
		if err := walk(l, depth, 0); err != nil {
			return nil, err
		}
		return t.Ret1(TableValue(out)), nil
	})
	reg(tb, "indexOf", func(t *Thread, a []Value) ([]Value, error) {
		l, err := listArg(a, "indexOf")
		if err != nil {
			return nil, err
		}
		for i, v := range l.arr {
			if t.equal(v, Arg(a, 1)) {
				return t.Ret1(Int(int64(i + 1))), nil
			}
		}
		return t.Ret1(Nil), nil
	})
	reg(tb, "merge", func(t *Thread, a []Value) ([]Value, error) {
		out := NewTable(0, 0)
		for i := range a {
			src, err := CheckTable(a, i, "merge")
			if err != nil {
				return nil, err
			}
			src.Iter(func(k, v Value) bool {
				if k.k == KindInt && int64(k.n) >= 1 && int(k.n) <= src.Len() && i > 0 {
					out.Append(v)
				} else {
					out.Set(k, v)
				}
				return true
			})
		}
		return t.Ret1(TableValue(out)), nil
	})
	reg(tb, "count", func(t *Thread, a []Value) ([]Value, error) {
		l, err := listArg(a, "count")
		if err != nil {
			return nil, err
		}
		n := 0
		f := Arg(a, 1)
		l.Iter(func(_, v Value) bool {
			if f.k == KindNil || (f.IsFunction() && t.Call1(f, v).Truthy()) || (!f.IsFunction() && t.equal(v, f)) {
				n++
			}
			return true
		})
		return t.Ret1(Int(int64(n))), nil
	})
	reg(tb, "unique", func(t *Thread, a []Value) ([]Value, error) {
		l, err := listArg(a, "unique")
		if err != nil {
			return nil, err
		}
		seen := NewTable(0, l.Len())
		out := NewTable(l.Len(), 0)
		for _, v := range l.arr {
			if v.k != KindNil && seen.Get(v).k == KindNil {
				seen.Set(v, True)
				out.Append(v)
			}
		}
		return t.Ret1(TableValue(out)), nil
	})
	reg(tb, "reverse", func(t *Thread, a []Value) ([]Value, error) {
		l, err := listArg(a, "reverse")
		if err != nil {
			return nil, err
		}
		out := NewTable(l.Len(), 0)
		for i := len(l.arr) - 1; i >= 0; i-- {
			out.arr = append(out.arr, l.arr[i])
		}
		return t.Ret1(TableValue(out)), nil
	})
	reg(tb, "slice", func(t *Thread, a []Value) ([]Value, error) {
		l, err := listArg(a, "slice")
		if err != nil {
			return nil, err
		}
		i, err := OptInt(a, 1, "slice", 1)
		if err != nil {
			return nil, err
		}
		j, err := OptInt(a, 2, "slice", int64(l.Len()))
		if err != nil {
			return nil, err
		}
		n := int64(l.Len())
		if i < 0 {
			i = n + i + 1
		}
		if j < 0 {
			j = n + j + 1
		}
		i, j = max(i, 1), min(j, n)
		out := NewTable(0, 0)
		for k := i; k <= j; k++ {
			out.Append(l.arr[k-1])
		}
		return t.Ret1(TableValue(out)), nil
	})
	reg(tb, "zip", func(t *Thread, a []Value) ([]Value, error) {
		n := -1
		var lists []*Table
		for i := range a {
			l, err := CheckTable(a, i, "zip")
			if err != nil {
				return nil, err
			}
			lists = append(lists, l)
			if n < 0 || l.Len() < n {
				n = l.Len()
			}
		}
		out := NewTable(max(n, 0), 0)
		for i := 0; i < n; i++ {
			row := NewTable(len(lists), 0)
			for _, l := range lists {
				row.Append(l.arr[i])
			}
			out.Append(TableValue(row))
		}
		return t.Ret1(TableValue(out)), nil
	})
	reg(tb, "toArray", func(t *Thread, a []Value) ([]Value, error) {
		l, err := listArg(a, "toArray")
		if err != nil {
			return nil, err
		}
		out := NewTable(l.Len(), 0)
		l.Iter(func(_, v Value) bool { out.Append(v); return true })
		return t.Ret1(TableValue(out)), nil
	})
	reg(tb, "maxn", func(t *Thread, a []Value) ([]Value, error) {
		l, err := listArg(a, "maxn")
		if err != nil {
			return nil, err
		}
		best := Value(Int(0))
		l.Iter(func(k, _ Value) bool {
			if k.IsNumber() && numLess(best, k) {
				best = k
			}
			return true
		})
		return t.Ret1(best), nil
	})
}
