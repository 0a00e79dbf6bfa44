package jsonschema

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
)

// toFloat reads a JSON number in any of the Go forms it may take.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil || isRangeErr(err)
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint64:
		return float64(x), true
	}
	return 0, false
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// toRat reads a JSON number exactly (for multipleOf).
func toRat(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(string(x))
		return r, ok
	case int:
		return new(big.Rat).SetInt64(int64(x)), true
	case int64:
		return new(big.Rat).SetInt64(x), true
	case int32:
		return new(big.Rat).SetInt64(int64(x)), true
	case uint64:
		return new(big.Rat).SetUint64(x), true
	}
	f, ok := toFloat(v)
	if !ok || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, false
	}
	return new(big.Rat).SetFloat64(f), true
}

func isNumber(v any) bool {
	_, ok := toFloat(v)
	return ok
}

// isInteger: a number with no fractional part (1.0 is an integer).
func isInteger(v any) bool {
	switch x := v.(type) {
	case int, int64, int32, uint64:
		return true
	case json.Number:
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return true
		}
		r, ok := toRat(x)
		return ok && r.IsInt()
	}
	f, ok := toFloat(v)
	return ok && !math.IsInf(f, 0) && f == math.Trunc(f)
}

// typeName is the JSON type of a value ("integer" for integral numbers).
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	if isNumber(v) {
		if isInteger(v) {
			return "integer"
		}
		return "number"
	}
	return "unknown"
}

// equal is JSON equality: numbers by value (1 equals 1.0), objects by
// their members, arrays element by element.
func equal(a, b any) bool {
	if isNumber(a) && isNumber(b) {
		x, ok1 := toRat(a)
		y, ok2 := toRat(b)
		if ok1 && ok2 {
			return x.Cmp(y) == 0
		}
		fa, _ := toFloat(a)
		fb, _ := toFloat(b)
		return fa == fb
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	}
	return false
}
