package leia

import (
	"fmt"
	"math"
)

// Argument helpers for natives. Their errors read like Lua's:
// "bad argument #1 to 'insert' (table expected, got nil)".

// Arg returns args[i] or nil.
func Arg(args []Value, i int) Value {
	if i < len(args) {
		return args[i]
	}
	return Nil
}

// ArgError builds a "bad argument" error.
func ArgError(i int, fname, msg string) error {
	return fmt.Errorf("bad argument #%d to '%s' (%s)", i+1, fname, msg)
}

func typeError(i int, fname, want string, got Value) error {
	g := got.TypeName()
	if got.k == KindNil {
		g = "no value"
		return ArgError(i, fname, want+" expected, got "+g)
	}
	return ArgError(i, fname, want+" expected, got "+g)
}

// CheckTable returns args[i] as a table.
func CheckTable(args []Value, i int, fname string) (*Table, error) {
	t := Arg(args, i).Table()
	if t == nil {
		return nil, typeError(i, fname, "table", Arg(args, i))
	}
	return t, nil
}

// CheckInt returns args[i] as an integer (numbers with an exact integer
// value and numeric strings are accepted).
func CheckInt(args []Value, i int, fname string) (int64, error) {
	v := Arg(args, i)
	if v.k == KindInt {
		return int64(v.n), nil
	}
	n, ok := toInteger(v)
	if !ok {
		if _, isNum := toNumber(v); isNum {
			return 0, ArgError(i, fname, "number has no integer representation")
		}
		return 0, typeError(i, fname, "number", v)
	}
	return n, nil
}

// OptInt is CheckInt with a default for nil.
func OptInt(args []Value, i int, fname string, def int64) (int64, error) {
	if Arg(args, i).k == KindNil {
		return def, nil
	}
	return CheckInt(args, i, fname)
}

// CheckNumber returns args[i] as a number value (int or float).
func CheckNumber(args []Value, i int, fname string) (Value, error) {
	v := Arg(args, i)
	if v.k == KindInt || v.k == KindFloat {
		return v, nil
	}
	n, ok := toNumber(v)
	if !ok {
		return Nil, typeError(i, fname, "number", v)
	}
	return n, nil
}

// CheckFloat returns args[i] as a float64.
func CheckFloat(args []Value, i int, fname string) (float64, error) {
	n, err := CheckNumber(args, i, fname)
	return n.AsFloat(), err
}

// OptFloat is CheckFloat with a default for nil.
func OptFloat(args []Value, i int, fname string, def float64) (float64, error) {
	if Arg(args, i).k == KindNil {
		return def, nil
	}
	return CheckFloat(args, i, fname)
}

// CheckString returns args[i] as a string; numbers are converted.
func CheckString(args []Value, i int, fname string) (string, error) {
	v := Arg(args, i)
	switch v.k {
	case KindString:
		return v.AsString(), nil
	case KindInt, KindFloat:
		return FormatNumber(v), nil
	}
	return "", typeError(i, fname, "string", v)
}

// OptString is CheckString with a default for nil.
func OptString(args []Value, i int, fname, def string) (string, error) {
	if Arg(args, i).k == KindNil {
		return def, nil
	}
	return CheckString(args, i, fname)
}

// CheckFunction returns args[i] if it is callable.
func CheckFunction(args []Value, i int, fname string) (Value, error) {
	v := Arg(args, i)
	if !v.IsFunction() {
		return Nil, typeError(i, fname, "function", v)
	}
	return v, nil
}

// FromGo converts common Go values to Leia values: nil, bool, integers,
// floats, string, []byte, []any, map[string]any, Value and error
// (its message). Other types become userdata.
func FromGo(x any) Value {
	switch x := x.(type) {
	case nil:
		return Nil
	case Value:
		return x
	case bool:
		return Bool(x)
	case int:
		return Int(int64(x))
	case int64:
		return Int(x)
	case int32:
		return Int(int64(x))
	case uint32:
		return Int(int64(x))
	case uint64:
		if x > math.MaxInt64 {
			return Float(float64(x))
		}
		return Int(int64(x))
	case float64:
		return Float(x)
	case float32:
		return Float(float64(x))
	case string:
		return String(x)
	case []byte:
		return String(string(x))
	case []any:
		t := NewTable(len(x), 0)
		for _, e := range x {
			t.arr = append(t.arr, FromGo(e))
		}
		t.trim()
		return TableValue(t)
	case []string:
		t := NewTable(len(x), 0)
		for _, e := range x {
			t.arr = append(t.arr, String(e))
		}
		return TableValue(t)
	case map[string]any:
		t := NewTable(0, len(x))
		for _, k := range sortedKeys(x) {
			t.SetStr(k, FromGo(x[k]))
		}
		return TableValue(t)
	case *Table:
		return TableValue(x)
	case error:
		return String(x.Error())
	}
	return UserdataValue(&Userdata{Value: x})
}
