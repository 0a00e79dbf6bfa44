package leia

import (
	"fmt"
	"strings"
)

func openTable(in *Interp) {
	t := in.moduleTable("table", 16)
	reg := func(name string, fn NativeFunc) { t.SetStr(name, NewNative(name, fn)) }
	reg("insert", tableInsert)
	reg("remove", tableRemove)
	reg("concat", tableConcat)
	reg("sort", tableSort)
	reg("unpack", tableUnpack)
	reg("pack", func(th *Thread, a []Value) ([]Value, error) {
		tb := NewList(a...)
		for i, v := range a {
			if v.k == KindNil {
				continue
			}
			tb.SetInt(int64(i+1), v)
		}
		tb.SetStr("n", Int(int64(len(a))))
		return th.Ret1(TableValue(tb)), nil
	})
	reg("move", tableMove)
	reg("spread", tableUnpack)
	clearSpec := specOf("table.clear")
	reg("clear", func(th *Thread, a []Value) ([]Value, error) {
		var tb *Table
		if err := clearSpec.unpack(a, &tb); err != nil {
			return nil, err
		}
		meta := tb.meta
		*tb = Table{meta: meta}
		return nil, nil
	})
	keysSpec := specOf("table.keys")
	reg("keys", func(th *Thread, a []Value) ([]Value, error) {
		var tb *Table
		if err := keysSpec.unpack(a, &tb); err != nil {
			return nil, err
		}
		out := NewTable(tb.Len()+tb.HashLen(), 0)
		tb.Iter(func(k, _ Value) bool { out.Append(k); return true })
		return th.Ret1(TableValue(out)), nil
	})
	valuesSpec := specOf("table.values")
	reg("values", func(th *Thread, a []Value) ([]Value, error) {
		var tb *Table
		if err := valuesSpec.unpack(a, &tb); err != nil {
			return nil, err
		}
		out := NewTable(tb.Len()+tb.HashLen(), 0)
		tb.Iter(func(_, v Value) bool { out.Append(v); return true })
		return th.Ret1(TableValue(out)), nil
	})
	containsSpec := specOf("table.contains")
	reg("contains", func(th *Thread, a []Value) ([]Value, error) {
		var tb *Table
		if err := containsSpec.unpack(a, &tb); err != nil {
			return nil, err
		}
		found := false
		x := Arg(a, 1)
		tb.Iter(func(_, v Value) bool {
			if RawEqual(v, x) {
				found = true
				return false
			}
			return true
		})
		return th.Ret1(Bool(found)), nil
	})
	copySpec := specOf("table.copy")
	reg("copy", func(th *Thread, a []Value) ([]Value, error) {
		var tb *Table
		if err := copySpec.unpack(a, &tb); err != nil {
			return nil, err
		}
		out := NewTable(tb.Len(), tb.HashLen())
		tb.Iter(func(k, v Value) bool { out.Set(k, v); return true })
		return th.Ret1(TableValue(out)), nil
	})
	in.registerLib("table", t)
}

func tableInsert(t *Thread, a []Value) ([]Value, error) {
	tb, err := CheckTable(a, 0, "insert")
	if err != nil {
		return nil, err
	}
	n := int64(tb.Len())
	if tb.meta != nil {
		n = t.Len(a[0])
	}
	switch len(a) {
	case 2:
		if tb.meta == nil {
			if a[1].k != KindNil {
				t.allocBytes(tb.Growth(Int(n+1)), -1)
			}
			tb.Append(a[1])
		} else {
			t.SetIndex(a[0], Int(n+1), a[1])
		}
		return nil, nil
	case 3:
		pos, err := CheckInt(a, 1, "insert")
		if err != nil {
			return nil, err
		}
		if pos < 1 || pos > n+1 {
			return nil, ArgError(1, "insert", "position out of bounds")
		}
		if tb.meta == nil && n == int64(tb.Len()) {
			tb.Insert(int(pos), a[2])
			return nil, nil
		}
		for i := n; i >= pos; i-- {
			t.SetIndex(a[0], Int(i+1), t.Index(a[0], Int(i)))
		}
		t.SetIndex(a[0], Int(pos), a[2])
		return nil, nil
	}
	return nil, fmt.Errorf("wrong number of arguments to 'insert'")
}

func tableRemove(t *Thread, a []Value) ([]Value, error) {
	tb, err := CheckTable(a, 0, "remove")
	if err != nil {
		return nil, err
	}
	n := int64(tb.Len())
	if tb.meta != nil {
		n = t.Len(a[0])
	}
	pos := n
	if len(a) > 1 {
		pos, err = CheckInt(a, 1, "remove")
		if err != nil {
			return nil, err
		}
		if n+1 == pos {
			v := t.Index(a[0], Int(pos))
			t.SetIndex(a[0], Int(pos), Nil)
			return t.Ret1(v), nil
		}
		if n > 0 && (pos < 1 || pos > n+1) {
			return nil, ArgError(1, "remove", "position out of bounds")
		}
		if n == 0 && pos != 0 && pos != n {
			return nil, ArgError(1, "remove", "position out of bounds")
		}
	}
	if n == 0 {
		v := t.Index(a[0], Int(pos))
		t.SetIndex(a[0], Int(pos), Nil)
		return t.Ret1(v), nil
	}
	if tb.meta == nil && n == int64(tb.Len()) && pos >= 1 && pos <= n {
		return t.Ret1(tb.Remove(int(pos))), nil
	}
	v := t.Index(a[0], Int(pos))
	for ; pos < n; pos++ {
		t.SetIndex(a[0], Int(pos), t.Index(a[0], Int(pos+1)))
	}
	t.SetIndex(a[0], Int(pos), Nil)
	return t.Ret1(v), nil
}

var concatSpec, moveSpec, sortSpec = specOf("table.concat"), specOf("table.move"), specOf("table.sort")

func tableConcat(t *Thread, a []Value) ([]Value, error) {
	var tb *Table
	if err := concatSpec.unpack(a, &tb); err != nil {
		return nil, err
	}
	sep, i, j := "", int64(1), int64(tb.Len())
	if err := concatSpec.unpack(a, &tb, &sep, &i, &j); err != nil {
		return nil, err
	}
	var b strings.Builder
	charged := 0
	for k := i; k <= j; k++ {
		if (k-i)%1024 == 1023 {
			t.charge(1024, -1)
		}
		v := tb.GetInt(k)
		if v.k != KindString && !v.IsNumber() {
			return nil, fmt.Errorf("invalid value (at index %d) in table for 'concat'", k)
		}
		b.WriteString(concatPiece(v))
		if k < j {
			b.WriteString(sep)
		}
		if b.Len() > t.in.maxString {
			return nil, fmt.Errorf("resulting string too large")
		}
		if grown := b.Len() - charged; grown >= 1<<16 {
			t.allocBytes(int64(grown), -1)
			charged = b.Len()
		}
	}
	return t.Ret1(String(b.String())), nil
}

func tableUnpack(t *Thread, a []Value) ([]Value, error) {
	v := Arg(a, 0)
	tb := v.Table()
	if tb == nil {
		return nil, typeError(0, "unpack", "table", v)
	}
	i, err := OptInt(a, 1, "unpack", 1)
	if err != nil {
		return nil, err
	}
	var j int64
	if Arg(a, 2).k == KindNil {
		j = int64(tb.Len())
		if tb.meta != nil {
			j = t.Len(v)
		}
	} else if j, err = CheckInt(a, 2, "unpack"); err != nil {
		return nil, err
	}
	if i > j {
		return nil, nil
	}
	if j-i >= 1<<20 {
		return nil, fmt.Errorf("too many results to unpack")
	}
	out := make([]Value, 0, j-i+1)
	for k := i; k <= j; k++ {
		if tb.meta == nil {
			out = append(out, tb.GetInt(k))
		} else {
			out = append(out, t.Index(v, Int(k)))
		}
	}
	return out, nil
}

func tableMove(t *Thread, a []Value) ([]Value, error) {
	var src, into *Table
	var f, e, tpos int64
	if err := moveSpec.unpack(a, &src, &f, &e, &tpos, &into); err != nil {
		return nil, err
	}
	dst := a[0]
	if into != nil {
		dst = a[4]
	}
	if e >= f {
		if e-f >= 1<<26 {
			return nil, ArgError(2, "move", "too many elements to move")
		}
		if tpos > e || tpos <= f || !RawEqual(dst, a[0]) {
			for i := int64(0); i <= e-f; i++ {
				t.SetIndex(dst, Int(tpos+i), t.Index(a[0], Int(f+i)))
			}
		} else {
			for i := e - f; i >= 0; i-- {
				t.SetIndex(dst, Int(tpos+i), t.Index(a[0], Int(f+i)))
			}
		}
	}
	return t.Ret1(dst), nil
}

func tableSort(t *Thread, a []Value) (rets []Value, err error) {
	var tb *Table
	cmp := Nil
	if err := sortSpec.unpack(a, &tb, &cmp); err != nil {
		return nil, err
	}
	n := tb.Len()
	// a table with metamethods or with its sequence outside the array
	// part is read and written through index/newindex (like Lua's sort)
	generic := tb.meta != nil || n > len(tb.arr)
	if generic {
		ln := t.Len(a[0])
		if ln < 2 {
			return nil, nil
		}
		if ln > 1<<28 {
			return nil, ArgError(0, "sort", "array too big")
		}
		n = int(ln)
	}
	vals := make([]Value, n)
	if generic {
		for i := range vals {
			vals[i] = t.Index(a[0], Int(int64(i+1)))
		}
	} else {
		copy(vals, tb.arr)
	}
	if cmp.k == KindNil {
		t.sortNatural(vals, false)
	} else {
		t.sortWith(vals, cmp)
	}
	if generic {
		for i, v := range vals {
			t.SetIndex(a[0], Int(int64(i+1)), v)
		}
		return nil, nil
	}
	// the table may have been changed by the comparator; write back
	// what fits
	for i := 0; i < n && i < len(tb.arr); i++ {
		tb.arr[i] = vals[i]
	}
	return nil, nil
}
