package leia

import (
	"fmt"
	"sort"
)

// soa is structure-of-arrays column data: soa.zip({name: list, ...})
// makes a set of equally long columns (typically array.f64/i64 lists);
// filter, gather, mask, sum, countWhere, sumWhere and affineMany work a
// column at a time in Go.

type soaInfo struct{ n int }

func soaCols(v Value, name string) (*Table, int, error) {
	t := v.Table()
	if t == nil {
		return nil, 0, fmt.Errorf("%s: columns expected, got %s", name, v.TypeName())
	}
	if t.meta != nil {
		if u := t.meta.GetStr("__soa").Userdata(); u != nil {
			if info, ok := u.Value.(soaInfo); ok {
				return t, info.n, nil
			}
		}
	}
	n := -1
	var err error
	t.Iter(func(k, c Value) bool {
		ct := c.Table()
		if k.k != KindString || ct == nil {
			return true
		}
		if n >= 0 && ct.Len() != n {
			err = fmt.Errorf("%s: column %s has %d rows, want %d", name, k.AsString(), ct.Len(), n)
			return false
		}
		n = ct.Len()
		return true
	})
	if n < 0 {
		n = 0
	}
	return t, n, err
}

func newSoa(cols map[string][]Value, elem map[string]string, n int) Value {
	t := NewTable(0, len(cols))
	names := make([]string, 0, len(cols))
	for k := range cols {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		c := &Table{arr: cols[k], ext: elemExt(elem[k])}
		t.SetStr(k, TableValue(c))
	}
	meta := NewTable(0, 1)
	meta.SetStr("__soa", UserdataValue(&Userdata{Value: soaInfo{n: n}}))
	t.meta = meta
	return TableValue(t)
}

func soaColumn(t *Table, col, name string) (*Table, error) {
	c := t.GetStr(col).Table()
	if c == nil {
		return nil, fmt.Errorf("%s: no column '%s'", name, col)
	}
	return c, nil
}

func boolMask(v Value, n int, name string) ([]Value, error) {
	m := v.Table()
	if m == nil || m.Len() != n {
		return nil, fmt.Errorf("%s: mask must be a list of %d booleans", name, n)
	}
	return m.arr, nil
}

func openSoa(in *Interp) {
	each := func(t *Table, f func(name string, c *Table)) {
		t.Iter(func(k, c Value) bool {
			if ct := c.Table(); k.k == KindString && ct != nil {
				f(k.AsString(), ct)
			}
			return true
		})
	}
	newModule(in, "soa", map[string]NativeFunc{
		"zip": func(t *Thread, a []Value) ([]Value, error) {
			src, n, err := soaCols(Arg(a, 0), "zip")
			if err != nil {
				return nil, err
			}
			cols := map[string][]Value{}
			elem := map[string]string{}
			each(src, func(name string, c *Table) { cols[name] = c.arr; elem[name] = c.ElemType() })
			return t.Ret1(newSoa(cols, elem, n)), nil
		},
		"len": func(t *Thread, a []Value) ([]Value, error) {
			_, n, err := soaCols(Arg(a, 0), "len")
			return t.Ret1(Int(int64(n))), err
		},
		"filter": func(t *Thread, a []Value) ([]Value, error) {
			src, n, err := soaCols(Arg(a, 0), "filter")
			if err != nil {
				return nil, err
			}
			mask, err := boolMask(Arg(a, 1), n, "filter")
			if err != nil {
				return nil, err
			}
			cols := map[string][]Value{}
			elem := map[string]string{}
			kept := 0
			for _, m := range mask {
				if m.Truthy() {
					kept++
				}
			}
			each(src, func(name string, c *Table) {
				out := make([]Value, 0, kept)
				for i, m := range mask {
					if m.Truthy() && i < len(c.arr) {
						out = append(out, c.arr[i])
					}
				}
				cols[name], elem[name] = out, c.ElemType()
			})
			return t.Ret1(newSoa(cols, elem, kept)), nil
		},
		"gather": func(t *Thread, a []Value) ([]Value, error) {
			src, n, err := soaCols(Arg(a, 0), "gather")
			if err != nil {
				return nil, err
			}
			idx := Arg(a, 1).Table()
			if idx == nil {
				return nil, ArgError(1, "gather", "list of row numbers expected")
			}
			for _, iv := range idx.arr {
				i, ok := toInteger(iv)
				if !ok || i < 1 || i > int64(n) {
					return nil, fmt.Errorf("gather: row %v out of range", FormatValuePlain(iv))
				}
			}
			cols := map[string][]Value{}
			elem := map[string]string{}
			each(src, func(name string, c *Table) {
				out := make([]Value, len(idx.arr))
				for j, iv := range idx.arr {
					i, _ := toInteger(iv)
					out[j] = c.arr[i-1]
				}
				cols[name], elem[name] = out, c.ElemType()
			})
			return t.Ret1(newSoa(cols, elem, len(idx.arr))), nil
		},
		"sum": func(t *Thread, a []Value) ([]Value, error) {
			src, _, err := soaCols(Arg(a, 0), "sum")
			if err != nil {
				return nil, err
			}
			name, err := CheckString(a, 1, "sum")
			if err != nil {
				return nil, err
			}
			c, err := soaColumn(src, name, "sum")
			if err != nil {
				return nil, err
			}
			return t.Ret1(sumValues(c.arr, nil)), nil
		},
		"mask": func(t *Thread, a []Value) ([]Value, error) {
			src, n, err := soaCols(Arg(a, 0), "mask")
			if err != nil {
				return nil, err
			}
			name, err := CheckString(a, 1, "mask")
			if err != nil {
				return nil, err
			}
			c, err := soaColumn(src, name, "mask")
			if err != nil {
				return nil, err
			}
			op, err := CheckString(a, 2, "mask")
			if err != nil {
				return nil, err
			}
			rhs := Arg(a, 3)
			var other []Value
			if rhs.k == KindString {
				oc, err := soaColumn(src, rhs.AsString(), "mask")
				if err != nil {
					return nil, err
				}
				other = oc.arr
			}
			out := &Table{arr: make([]Value, n), ext: elemExt("bool")}
			for i := 0; i < n && i < len(c.arr); i++ {
				r := rhs
				if other != nil {
					r = other[i]
				}
				ok, err := compareOp(t, c.arr[i], op, r)
				if err != nil {
					return nil, err
				}
				out.arr[i] = Bool(ok)
			}
			return t.Ret1(TableValue(out)), nil
		},
		"countWhere": func(t *Thread, a []Value) ([]Value, error) {
			_, n, err := soaCols(Arg(a, 0), "countWhere")
			if err != nil {
				return nil, err
			}
			mask, err := boolMask(Arg(a, 1), n, "countWhere")
			if err != nil {
				return nil, err
			}
			k := 0
			for _, m := range mask {
				if m.Truthy() {
					k++
				}
			}
			return t.Ret1(Int(int64(k))), nil
		},
		"sumWhere": func(t *Thread, a []Value) ([]Value, error) {
			src, n, err := soaCols(Arg(a, 0), "sumWhere")
			if err != nil {
				return nil, err
			}
			name, err := CheckString(a, 1, "sumWhere")
			if err != nil {
				return nil, err
			}
			c, err := soaColumn(src, name, "sumWhere")
			if err != nil {
				return nil, err
			}
			mask, err := boolMask(Arg(a, 2), n, "sumWhere")
			if err != nil {
				return nil, err
			}
			return t.Ret1(sumValues(c.arr, mask)), nil
		},
		// affineMany applies dst[i] = dst[i] + src[i] * scale + bias for
		// each {dst, src, scale, bias} term, in place.
		"affineMany": func(t *Thread, a []Value) ([]Value, error) {
			src, n, err := soaCols(Arg(a, 0), "affineMany")
			if err != nil {
				return nil, err
			}
			terms, err := CheckTable(a, 1, "affineMany")
			if err != nil {
				return nil, err
			}
			for _, tv := range terms.arr {
				term := tv.Table()
				if term == nil {
					return nil, fmt.Errorf("affineMany: terms must be tables")
				}
				dst, err := soaColumn(src, term.GetStr("dst").AsString(), "affineMany")
				if err != nil {
					return nil, err
				}
				from, err := soaColumn(src, term.GetStr("src").AsString(), "affineMany")
				if err != nil {
					return nil, err
				}
				scale, bias := term.GetStr("scale").AsFloat(), term.GetStr("bias").AsFloat()
				for i := 0; i < n && i < len(dst.arr) && i < len(from.arr); i++ {
					dst.arr[i] = Float(dst.arr[i].AsFloat() + from.arr[i].AsFloat()*scale + bias)
				}
			}
			return nil, nil
		},
	})
}

func sumValues(vs []Value, mask []Value) Value {
	isInt := true
	var si int64
	var sf float64
	for i, v := range vs {
		if mask != nil && !mask[i].Truthy() {
			continue
		}
		if v.k == KindInt && isInt {
			si += int64(v.n)
			continue
		}
		if isInt {
			sf = float64(si)
			isInt = false
		}
		sf += v.AsFloat()
	}
	if isInt {
		return Int(si)
	}
	return Float(sf)
}

func compareOp(t *Thread, a Value, op string, b Value) (bool, error) {
	switch op {
	case "==":
		return t.equal(a, b), nil
	case "!=", "~=":
		return !t.equal(a, b), nil
	case "<":
		return t.less(a, b, -1), nil
	case "<=":
		return t.lessEq(a, b, -1), nil
	case ">":
		return t.less(b, a, -1), nil
	case ">=":
		return t.lessEq(b, a, -1), nil
	}
	return false, fmt.Errorf("unknown comparison '%s'", op)
}
