package leia

import (
	"math"
	"strconv"
	"strings"
)

// Numbers: integers are int64 and floats float64. Integer +, -, * that
// overflow give the float result instead of wrapping (Leia promotes);
// / and ** always give floats; % is floored; // does not exist.

// FormatNumber is tostring for numbers: integers in decimal, floats as
// Lua's %.14g with ".0" added when the result looks integral, and
// "NaN", "+Inf", "-Inf".
func FormatNumber(v Value) string {
	if v.k == KindInt {
		return strconv.FormatInt(int64(v.n), 10)
	}
	return formatFloat(v.AsFloat())
}

func formatFloat(f float64) string {
	switch {
	case f != f:
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	s := strconv.FormatFloat(f, 'g', 14, 64)
	if strings.ContainsAny(s, "e") {
		// Go writes e+06; Lua writes e+06 too, but strip Go's extra
		// precision artefacts are not possible here; keep as is.
		return s
	}
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// parseNumber converts a numeric string (Lua syntax: decimal or hex
// integers and floats, surrounding space allowed) to a number.
func parseNumber(s string) (Value, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Nil, false
	}
	neg := false
	body := s
	if body[0] == '-' || body[0] == '+' {
		neg = body[0] == '-'
		body = body[1:]
	}
	if len(body) > 1 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X') {
		hex := body[2:]
		if hex == "" {
			return Nil, false
		}
		if !strings.ContainsAny(hex, ".pP") {
			var u uint64
			for i := 0; i < len(hex); i++ {
				d := hexDigit(hex[i])
				if d < 0 {
					return Nil, false
				}
				u = u<<4 | uint64(d) // wraps like Lua
			}
			i := int64(u)
			if neg {
				i = -i
			}
			return Int(i), true
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return Nil, false
		}
		return Float(f), true
	}
	if body == "" {
		return Nil, false
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			// allow inf/nan spellings only through tonumber's strictness: no
			return Nil, false
		}
	}
	if !strings.ContainsAny(body, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return Int(i), true
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return Float(f), true
		}
		return Nil, false
	}
	return Float(f), true
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// toNumber converts numbers and numeric strings.
func toNumber(v Value) (Value, bool) {
	switch v.k {
	case KindInt, KindFloat:
		return v, true
	case KindString:
		return parseNumber(v.AsString())
	}
	return Nil, false
}

// toInteger converts a number (or numeric string) with an exact integer
// value to int64.
func toInteger(v Value) (int64, bool) {
	switch v.k {
	case KindInt:
		return int64(v.n), true
	case KindFloat:
		f := v.AsFloat()
		if f == math.Trunc(f) && f >= -9.223372036854775808e18 && f < 9.223372036854775808e18 {
			return int64(f), true
		}
		return 0, false
	case KindString:
		if n, ok := parseNumber(v.AsString()); ok {
			return toInteger(n)
		}
	}
	return 0, false
}

func addInts(a, b int64) Value {
	r := a + b
	if (a >= 0) == (b >= 0) && (r >= 0) != (a >= 0) {
		return Float(float64(a) + float64(b))
	}
	return Int(r)
}

func subInts(a, b int64) Value {
	r := a - b
	if (a >= 0) != (b >= 0) && (r >= 0) != (a >= 0) {
		return Float(float64(a) - float64(b))
	}
	return Int(r)
}

func mulInts(a, b int64) Value {
	r := a * b
	if a != 0 && (r/a != b || (a == -1 && b == math.MinInt64)) {
		return Float(float64(a) * float64(b))
	}
	return Int(r)
}

// modInts is floored integer modulo; b != 0.
func modInts(a, b int64) int64 {
	if b == -1 {
		return 0
	}
	m := a % b
	if m != 0 && (m^b) < 0 {
		m += b
	}
	return m
}

func modFloats(a, b float64) float64 {
	if math.IsInf(b, 0) && !math.IsNaN(a) && !math.IsInf(a, 0) {
		if (a >= 0) == (b > 0) {
			return a
		}
		return b
	}
	m := math.Mod(a, b)
	if m != 0 && (m < 0) != (b < 0) {
		m += b
	}
	return m
}

// arithOp identifies a binary arithmetic operator.
type arithOp uint8

const (
	opAdd arithOp = iota
	opSub
	opMul
	opDiv
	opMod
	opPow
	opBand
	opBor
	opBxor
	opShl
	opShr
	opBandNot
)

var arithNames = [...]string{"__add", "__sub", "__mul", "__div", "__mod", "__pow", "__band", "__bor", "__bxor", "__shl", "__shr", "__bandnot"}
var arithSymbols = [...]string{"+", "-", "*", "/", "%", "**", "&", "|", "^", "<<", ">>", "&^"}

// rawArith applies op to two numbers (already converted). ok is false for
// integer modulo by zero, which is an error.
func rawArith(op arithOp, a, b Value) (Value, bool) {
	if a.k == KindInt && b.k == KindInt {
		x, y := int64(a.n), int64(b.n)
		switch op {
		case opAdd:
			return addInts(x, y), true
		case opSub:
			return subInts(x, y), true
		case opMul:
			return mulInts(x, y), true
		case opMod:
			if y == 0 {
				return Nil, false
			}
			return Int(modInts(x, y)), true
		case opDiv:
			return Float(float64(x) / float64(y)), true
		case opPow:
			return Float(math.Pow(float64(x), float64(y))), true
		}
	}
	x, y := a.AsFloat(), b.AsFloat()
	switch op {
	case opAdd:
		return Float(x + y), true
	case opSub:
		return Float(x - y), true
	case opMul:
		return Float(x * y), true
	case opDiv:
		return Float(x / y), true
	case opMod:
		return Float(modFloats(x, y)), true
	case opPow:
		return Float(math.Pow(x, y)), true
	}
	return Nil, false
}

// toBitInt converts for bitwise operators: tonumber, then truncation
// toward zero to int64.
func toBitInt(v Value) (int64, bool) {
	n, ok := toNumber(v)
	if !ok {
		return 0, false
	}
	if n.k == KindInt {
		return int64(n.n), true
	}
	f := n.AsFloat()
	if f != f || math.IsInf(f, 0) {
		return 0, false
	}
	t := math.Trunc(f)
	if t >= 9.223372036854775808e18 || t < -9.223372036854775808e18 {
		return 0, false
	}
	return int64(t), true
}

func shiftLeft(x, n int64) int64 {
	if n <= -64 || n >= 64 {
		return 0
	}
	if n >= 0 {
		return int64(uint64(x) << uint(n))
	}
	return int64(uint64(x) >> uint(-n))
}
