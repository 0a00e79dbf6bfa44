package leia

import "fmt"

// The matrix module: dense float64 matrices held in Go memory.
//
// matrix.dense(rows, cols [, fill]) makes one; matrix.getf(m, i, j) and
// matrix.setf(m, i, j, x) read and write element (i, j), 0-based (a
// single index is the 0-based row-major position). Scripts may also
// write m[i][j] (rows are 0-based views), m.rows, m.cols and #m (rows).

type denseMatrix struct {
	rows, cols int64
	data       []float64
}

const maxMatrixElems = 1 << 26

func openMatrix(in *Interp) {
	meta := matrixMeta()
	newModule(in, "matrix", map[string]NativeFunc{
		"dense": func(t *Thread, a []Value) ([]Value, error) {
			r, rok := toInteger(Arg(a, 0))
			c, cok := toInteger(Arg(a, 1))
			if !rok || !cok || r < 0 || c < 0 {
				return nil, fmt.Errorf("matrix.dense: dimensions must be non-negative integers")
			}
			if c != 0 && r > maxMatrixElems/c {
				return nil, fmt.Errorf("matrix.dense: %dx%d matrix is too large", r, c)
			}
			m := &denseMatrix{rows: r, cols: c, data: make([]float64, r*c)}
			if v := Arg(a, 2); v.k != KindNil {
				if !v.IsNumber() {
					return nil, fmt.Errorf("matrix.dense: fill value must be numeric")
				}
				f := v.AsFloat()
				for i := range m.data {
					m.data[i] = f
				}
			}
			return t.Ret1(UserdataValue(&Userdata{Value: m, Meta: meta, TypeName: "matrix"})), nil
		},
		"getf": func(t *Thread, a []Value) ([]Value, error) {
			m, i, err := matrixIndex(a, "getf", len(a) >= 3)
			if err != nil {
				return nil, err
			}
			return t.Ret1(Float(m.data[i])), nil
		},
		"setf": func(t *Thread, a []Value) ([]Value, error) {
			m, i, err := matrixIndex(a, "setf", len(a) >= 4)
			if err != nil {
				return nil, err
			}
			v := a[len(a)-1]
			if !v.IsNumber() {
				return nil, fmt.Errorf("matrix.setf: matrix values must be numeric, got %s", v.TypeName())
			}
			m.data[i] = v.AsFloat()
			return nil, nil
		},
		"rows": func(t *Thread, a []Value) ([]Value, error) {
			m, err := matrixArg(a, "rows")
			if err != nil {
				return nil, err
			}
			return t.Ret1(Int(m.rows)), nil
		},
		"cols": func(t *Thread, a []Value) ([]Value, error) {
			m, err := matrixArg(a, "cols")
			if err != nil {
				return nil, err
			}
			return t.Ret1(Int(m.cols)), nil
		},
	})
}

func matrixArg(a []Value, name string) (*denseMatrix, error) {
	if u := Arg(a, 0).Userdata(); u != nil {
		if m, ok := u.Value.(*denseMatrix); ok {
			return m, nil
		}
	}
	return nil, typeError(0, name, "matrix", Arg(a, 0))
}

// matrixIndex reads (m, i, j) or (m, flat) and returns the position in
// m.data.
func matrixIndex(a []Value, name string, pair bool) (*denseMatrix, int64, error) {
	m, err := matrixArg(a, name)
	if err != nil {
		return nil, 0, err
	}
	i, iok := toInteger(Arg(a, 1))
	if !pair {
		if !iok {
			return nil, 0, fmt.Errorf("matrix.%s: matrix indices must be integers", name)
		}
		if i < 0 || i >= int64(len(m.data)) {
			return nil, 0, fmt.Errorf("matrix.%s: index %d out of range for a %dx%d matrix", name, i, m.rows, m.cols)
		}
		return m, i, nil
	}
	j, jok := toInteger(Arg(a, 2))
	if !iok || !jok {
		return nil, 0, fmt.Errorf("matrix.%s: matrix indices must be integers", name)
	}
	if i < 0 || i >= m.rows || j < 0 || j >= m.cols {
		return nil, 0, fmt.Errorf("matrix.%s: index (%d, %d) out of range for a %dx%d matrix", name, i, j, m.rows, m.cols)
	}
	return m, i*m.cols + j, nil
}

// matrixMeta makes m.rows, m.cols, #m and m[i][j] work.
func matrixMeta() *Table {
	rowMeta := NewTable(0, 4)
	type rowView struct {
		m   *denseMatrix
		row int64
	}
	rowAt := func(a []Value) (*rowView, int64, bool) {
		rv, _ := Arg(a, 0).Userdata().Value.(*rowView)
		j, ok := toInteger(Arg(a, 1))
		if rv == nil || !ok || j < 0 || j >= rv.m.cols {
			return rv, 0, false
		}
		return rv, rv.row*rv.m.cols + j, true
	}
	rowMeta.SetStr("__index", NewNative("__index", func(t *Thread, a []Value) ([]Value, error) {
		rv, i, ok := rowAt(a)
		if !ok {
			return t.Ret1(Nil), nil
		}
		return t.Ret1(Float(rv.m.data[i])), nil
	}))
	rowMeta.SetStr("__newindex", NewNative("__newindex", func(t *Thread, a []Value) ([]Value, error) {
		rv, i, ok := rowAt(a)
		if rv == nil {
			return nil, nil
		}
		if !ok {
			return nil, fmt.Errorf("matrix row: column %s out of range for %d columns", FormatValuePlain(Arg(a, 1)), rv.m.cols)
		}
		if v := Arg(a, 2); !v.IsNumber() {
			return nil, fmt.Errorf("matrix values must be numeric, got %s", v.TypeName())
		}
		rv.m.data[i] = Arg(a, 2).AsFloat()
		return nil, nil
	}))
	rowMeta.SetStr("__len", NewNative("__len", func(t *Thread, a []Value) ([]Value, error) {
		rv, _ := Arg(a, 0).Userdata().Value.(*rowView)
		if rv == nil {
			return t.Ret1(Int(0)), nil
		}
		return t.Ret1(Int(rv.m.cols)), nil
	}))

	meta := NewTable(0, 4)
	meta.SetStr("__name", String("matrix"))
	meta.SetStr("__index", NewNative("__index", func(t *Thread, a []Value) ([]Value, error) {
		m, _ := Arg(a, 0).Userdata().Value.(*denseMatrix)
		if m == nil {
			return t.Ret1(Nil), nil
		}
		k := Arg(a, 1)
		if k.k == KindString {
			switch k.AsString() {
			case "rows":
				return t.Ret1(Int(m.rows)), nil
			case "cols":
				return t.Ret1(Int(m.cols)), nil
			}
			return t.Ret1(Nil), nil
		}
		i, ok := toInteger(k)
		if !ok || i < 0 || i >= m.rows {
			return t.Ret1(Nil), nil
		}
		return t.Ret1(UserdataValue(&Userdata{Value: &rowView{m: m, row: i}, Meta: rowMeta, TypeName: "matrix row"})), nil
	}))
	meta.SetStr("__len", NewNative("__len", func(t *Thread, a []Value) ([]Value, error) {
		m, _ := Arg(a, 0).Userdata().Value.(*denseMatrix)
		if m == nil {
			return t.Ret1(Int(0)), nil
		}
		return t.Ret1(Int(m.rows)), nil
	}))
	meta.SetStr("__tostring", NewNative("__tostring", func(t *Thread, a []Value) ([]Value, error) {
		m, _ := Arg(a, 0).Userdata().Value.(*denseMatrix)
		if m == nil {
			return t.Ret1(String("matrix")), nil
		}
		return t.Ret1(String(fmt.Sprintf("matrix(%dx%d)", m.rows, m.cols))), nil
	}))
	return meta
}
