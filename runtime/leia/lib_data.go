package leia

import (
	"fmt"
	"sort"
)

// data: typed columns and data frames. data.f64(list), data.i64,
// data.bool, data.strings, data.symbols and the temporal kinds (date,
// month, datetime, timestamp, timespan, minute, second, time: kept as
// their text) make columns; data.null marks a missing value.
// data.frame({name: column}) checks the columns have one length and
// gives a frame: frame.len, frame.schema {names (sorted), kinds},
// frame.columns and each column as a field, frame:row(i) and
// frame:gather(rows).

var dataNull = UserdataValue(&Userdata{Value: "data.null", TypeName: "null"})

var dataKinds = map[string]string{
	"f64": "f64", "i64": "i64", "bool": "bool", "strings": "string", "symbols": "symbol",
	"date": "date", "month": "month", "datetime": "datetime", "timestamp": "timestamp",
	"timespan": "timespan", "minute": "minute", "second": "second", "time": "time",
}

func dataColumn(t *Thread, fn, kind string, src *Table) (*Table, error) {
	col := &Table{ext: elemExt(kind)}
	for i, v := range src.arr {
		if RawEqual(v, dataNull) || v.k == KindNil {
			col.arr = append(col.arr, dataNull)
			continue
		}
		var ok bool
		switch kind {
		case "f64":
			var n Value
			n, ok = toNumber(v)
			v = Float(n.AsFloat())
		case "i64":
			var n int64
			n, ok = toInteger(v)
			v = Int(n)
		case "bool":
			ok = v.k == KindBool
		default:
			ok = v.k == KindString
		}
		if !ok {
			return nil, fmt.Errorf("data.%s: element %d is a %s, not a %s", fn, i+1, v.TypeName(), kind)
		}
		col.arr = append(col.arr, v)
	}
	return col, nil
}

func openData(in *Interp) {
	funcs := map[string]NativeFunc{}
	for fn, kind := range dataKinds {
		fn, kind := fn, kind
		funcs[fn] = func(t *Thread, a []Value) ([]Value, error) {
			src, err := CheckTable(a, 0, fn)
			if err != nil {
				return nil, err
			}
			col, err := dataColumn(t, fn, kind, src)
			if err != nil {
				return nil, err
			}
			return t.Ret1(TableValue(col)), nil
		}
	}
	methods := NewTable(0, 2)
	frameMeta := NewTable(0, 2)
	frameMeta.SetStr("__index", TableValue(methods))
	frameMeta.SetStr("__name", String("frame"))
	var makeFrame func(cols map[string]*Table) (Value, error)
	makeFrame = func(cols map[string]*Table) (Value, error) {
		names := make([]string, 0, len(cols))
		for n := range cols {
			names = append(names, n)
		}
		sort.Strings(names)
		n := -1
		for _, name := range names {
			l := cols[name].Len()
			if n >= 0 && l != n {
				return Nil, fmt.Errorf("data.frame: column %q length %d differs from column %q length %d", name, l, names[0], n)
			}
			n = l
		}
		if n < 0 {
			n = 0
		}
		f := NewTable(0, len(names)+3)
		columns := NewTable(0, len(names))
		kinds := NewTable(0, len(names))
		nameList := NewTable(len(names), 0)
		for _, name := range names {
			c := TableValue(cols[name])
			columns.SetStr(name, c)
			f.SetStr(name, c)
			kind := cols[name].ElemType()
			if kind == "" {
				kind = "any"
			}
			kinds.SetStr(name, String(kind))
			nameList.Append(String(name))
		}
		schema := NewTable(0, 2)
		schema.SetStr("names", TableValue(nameList))
		schema.SetStr("kinds", TableValue(kinds))
		f.SetStr("len", Int(int64(n)))
		f.SetStr("schema", TableValue(schema))
		f.SetStr("columns", TableValue(columns))
		f.meta = frameMeta
		return TableValue(f), nil
	}
	frameCols := func(v Value, name string) (map[string]*Table, int, error) {
		f := v.Table()
		if f == nil || f.meta != frameMeta {
			return nil, 0, typeError(0, name, "frame", v)
		}
		out := map[string]*Table{}
		f.GetStr("columns").Table().Iter(func(k, c Value) bool {
			out[k.AsString()] = c.Table()
			return true
		})
		n, _ := toInteger(f.GetStr("len"))
		return out, int(n), nil
	}
	methods.SetStr("row", NewNative("row", func(t *Thread, a []Value) ([]Value, error) {
		cols, n, err := frameCols(Arg(a, 0), "row")
		if err != nil {
			return nil, err
		}
		i, err := CheckInt(a, 1, "row")
		if err != nil {
			return nil, err
		}
		if i < 1 || i > int64(n) {
			return nil, ArgError(1, "row", fmt.Sprintf("row %d out of range 1..%d", i, n))
		}
		r := NewTable(0, len(cols))
		for name, c := range cols {
			r.SetStr(name, c.arr[i-1])
		}
		return t.Ret1(TableValue(r)), nil
	}))
	methods.SetStr("gather", NewNative("gather", func(t *Thread, a []Value) ([]Value, error) {
		cols, n, err := frameCols(Arg(a, 0), "gather")
		if err != nil {
			return nil, err
		}
		idx, err := CheckTable(a, 1, "gather")
		if err != nil {
			return nil, err
		}
		out := map[string]*Table{}
		for name, c := range cols {
			nc := &Table{ext: elemExt(c.ElemType())}
			for _, iv := range idx.arr {
				i, ok := toInteger(iv)
				if !ok || i < 1 || i > int64(n) {
					return nil, fmt.Errorf("gather: row %s out of range 1..%d", FormatValuePlain(iv), n)
				}
				nc.arr = append(nc.arr, c.arr[i-1])
			}
			out[name] = nc
		}
		v, err := makeFrame(out)
		return t.Ret1(v), err
	}))
	funcs["frame"] = func(t *Thread, a []Value) ([]Value, error) {
		src, err := CheckTable(a, 0, "frame")
		if err != nil {
			return nil, err
		}
		cols := map[string]*Table{}
		var bad error
		src.Iter(func(k, c Value) bool {
			ct := c.Table()
			if k.k != KindString || ct == nil {
				bad = fmt.Errorf("data.frame: columns must be named lists")
				return false
			}
			cols[k.AsString()] = ct
			return true
		})
		if bad != nil {
			return nil, bad
		}
		v, err := makeFrame(cols)
		return t.Ret1(v), err
	}
	m := newModule(in, "data", funcs)
	m.SetStr("null", dataNull)
}
