package leia

import (
	"fmt"
	"sort"
	"strings"
)

// q.query(columns, plan) runs a query plan over soa columns and returns
// the result rows as a list of tables. The plan's fields:
//
//	where     a mask (list of booleans) or {column, op, value}, or a list
//	          of such conditions (all must hold)
//	by        group columns (a name or a list of names)
//	select    output name -> a column name, a constant, or {op, a, b} with
//	          op one of + - * / and a, b column names or numbers
//	aggregate output name -> sum | count | min | max | avg | first | last
//	          (per group with by, over all rows without it)
//	order_by  a list of {column, desc}; limit the number of rows kept
//
// Without select every column is projected.

type qExpr struct {
	col   []Value
	konst Value
	op    string
	a, b  *qExpr
}

func (e *qExpr) eval(t *Thread, i int) Value {
	switch {
	case e.col != nil:
		return e.col[i]
	case e.op != "":
		x, y := e.a.eval(t, i), e.b.eval(t, i)
		switch e.op {
		case "+":
			return t.arith(opAdd, x, y, -1)
		case "-":
			return t.arith(opSub, x, y, -1)
		case "*":
			return t.arith(opMul, x, y, -1)
		case "/":
			return t.arith(opDiv, x, y, -1)
		}
	}
	return e.konst
}

func qCompile(src *Table, v Value) (*qExpr, error) {
	switch v.k {
	case KindString:
		c := src.GetStr(v.AsString()).Table()
		if c == nil {
			return nil, fmt.Errorf("q.query: no column '%s'", v.AsString())
		}
		return &qExpr{col: c.arr}, nil
	case KindTable:
		t := v.Table()
		if t.Len() != 3 || t.arr[0].k != KindString {
			return nil, fmt.Errorf("q.query: an expression is {op, a, b}")
		}
		op := t.arr[0].AsString()
		if !strings.Contains("+-*/", op) || len(op) != 1 {
			return nil, fmt.Errorf("q.query: unknown operator '%s'", op)
		}
		a, err := qCompile(src, t.arr[1])
		if err != nil {
			return nil, err
		}
		b, err := qCompile(src, t.arr[2])
		if err != nil {
			return nil, err
		}
		return &qExpr{op: op, a: a, b: b}, nil
	}
	return &qExpr{konst: v}, nil
}

func qWhere(t *Thread, src *Table, n int, w Value) ([]bool, error) {
	keep := make([]bool, n)
	for i := range keep {
		keep[i] = true
	}
	wt := w.Table()
	if wt == nil {
		return keep, nil
	}
	var conds []*Table
	switch {
	case wt.GetStr("column").k != KindNil:
		conds = append(conds, wt)
	case wt.Len() > 0 && wt.arr[0].k == KindTable:
		for _, c := range wt.arr {
			conds = append(conds, c.Table())
		}
	default: // a mask
		if wt.Len() != n {
			return nil, fmt.Errorf("q.query: where mask has %d entries for %d rows", wt.Len(), n)
		}
		for i, m := range wt.arr {
			keep[i] = m.Truthy()
		}
		return keep, nil
	}
	for _, c := range conds {
		col := src.GetStr(c.GetStr("column").AsString()).Table()
		if col == nil {
			return nil, fmt.Errorf("q.query: no column '%s'", c.GetStr("column").AsString())
		}
		op := c.GetStr("op").AsString()
		if op == "" {
			op = "=="
		}
		val := c.GetStr("value")
		for i := 0; i < n; i++ {
			if !keep[i] {
				continue
			}
			ok, err := compareOp(t, col.arr[i], op, val)
			if err != nil {
				return nil, err
			}
			keep[i] = ok
		}
	}
	return keep, nil
}

func openQuery(in *Interp) {
	q := newModule(in, "q", map[string]NativeFunc{
		"query": func(t *Thread, a []Value) ([]Value, error) {
			src, n, err := soaCols(Arg(a, 0), "query")
			if err != nil {
				return nil, err
			}
			plan := Arg(a, 1).Table()
			if plan == nil {
				plan = NewTable(0, 0)
			}
			keep, err := qWhere(t, src, n, plan.GetStr("where"))
			if err != nil {
				return nil, err
			}
			// output columns
			type outCol struct {
				name string
				expr *qExpr
				agg  string
			}
			var outs []outCol
			if sel := plan.GetStr("select").Table(); sel != nil {
				var names []string
				sel.Iter(func(k, _ Value) bool { names = append(names, k.AsString()); return true })
				sort.Strings(names)
				for _, name := range names {
					e, err := qCompile(src, sel.GetStr(name))
					if err != nil {
						return nil, err
					}
					outs = append(outs, outCol{name: name, expr: e})
				}
			} else {
				src.Iter(func(k, c Value) bool {
					if ct := c.Table(); ct != nil && k.k == KindString {
						outs = append(outs, outCol{name: k.AsString(), expr: &qExpr{col: ct.arr}})
					}
					return true
				})
			}
			aggs := plan.GetStr("aggregate").Table()
			for i := range outs {
				if aggs != nil {
					outs[i].agg = aggs.GetStr(outs[i].name).AsString()
				}
			}
			var by []string
			switch b := plan.GetStr("by"); b.k {
			case KindString:
				by = []string{b.AsString()}
			case KindTable:
				for _, v := range b.Table().arr {
					by = append(by, v.AsString())
				}
			}
			byCols := make([][]Value, len(by))
			for i, name := range by {
				c := src.GetStr(name).Table()
				if c == nil {
					return nil, fmt.Errorf("q.query: no column '%s'", name)
				}
				byCols[i] = c.arr
			}
			grouped := len(by) > 0 || aggs != nil
			var rows []*Table
			if !grouped {
				for i := 0; i < n; i++ {
					if !keep[i] {
						continue
					}
					r := NewTable(0, len(outs))
					for _, o := range outs {
						r.SetStr(o.name, o.expr.eval(t, i))
					}
					rows = append(rows, r)
				}
			} else {
				type group struct {
					key   []Value
					accs  []Value
					count int
				}
				var order []*group
				index := map[string]*group{}
				var kb strings.Builder
				for i := 0; i < n; i++ {
					if !keep[i] {
						continue
					}
					kb.Reset()
					for _, c := range byCols {
						kb.WriteString(c[i].TypeName())
						kb.WriteByte(':')
						kb.WriteString(FormatValuePlain(c[i]))
						kb.WriteByte(0)
					}
					g := index[kb.String()]
					if g == nil {
						g = &group{accs: make([]Value, len(outs))}
						for _, c := range byCols {
							g.key = append(g.key, c[i])
						}
						index[kb.String()] = g
						order = append(order, g)
					}
					g.count++
					for j, o := range outs {
						v := o.expr.eval(t, i)
						acc := g.accs[j]
						switch o.agg {
						case "sum", "avg":
							if g.count == 1 {
								acc = v
							} else {
								acc = t.arith(opAdd, acc, v, -1)
							}
						case "count":
							acc = Int(int64(g.count))
						case "min":
							if g.count == 1 || t.less(v, acc, -1) {
								acc = v
							}
						case "max":
							if g.count == 1 || t.less(acc, v, -1) {
								acc = v
							}
						case "last":
							acc = v
						default: // first
							if g.count == 1 {
								acc = v
							}
						}
						g.accs[j] = acc
					}
				}
				for _, g := range order {
					r := NewTable(0, len(outs)+len(by))
					for i, name := range by {
						r.SetStr(name, g.key[i])
					}
					for j, o := range outs {
						v := g.accs[j]
						if o.agg == "avg" {
							v = t.arith(opDiv, v, Int(int64(g.count)), -1)
						}
						r.SetStr(o.name, v)
					}
					rows = append(rows, r)
				}
			}
			if ob := plan.GetStr("order_by").Table(); ob != nil {
				type key struct {
					col  string
					desc bool
				}
				var keys []key
				for _, k := range ob.arr {
					switch k.k {
					case KindString:
						keys = append(keys, key{col: k.AsString()})
					case KindTable:
						keys = append(keys, key{col: k.Table().GetStr("column").AsString(), desc: k.Table().GetStr("desc").Truthy()})
					}
				}
				sort.SliceStable(rows, func(i, j int) bool {
					for _, k := range keys {
						x, y := rows[i].GetStr(k.col), rows[j].GetStr(k.col)
						if t.equal(x, y) {
							continue
						}
						if k.desc {
							return t.less(y, x, -1)
						}
						return t.less(x, y, -1)
					}
					return false
				})
			}
			if lim, ok := toInteger(plan.GetStr("limit")); ok && lim >= 0 && int(lim) < len(rows) {
				rows = rows[:lim]
			}
			out := NewTable(len(rows), 0)
			for _, r := range rows {
				out.Append(TableValue(r))
			}
			return t.Ret1(TableValue(out)), nil
		},
	})
	_ = q
}
