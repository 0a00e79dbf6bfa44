package harn

import (
	"math"
	"strings"

	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// Binary operators. Each returns a runtime error for operand types the
// operator does not accept (the checker reports most statically).

// Add is a + b as the + operator computes it (numbers, strings, lists,
// dicts, durations...); an operand it does not accept is a type error.
func Add(a, b Value) (Value, error) {
	switch {
	case a.k == KindInt && b.k == KindInt:
		return Value{k: KindInt, n: a.n + b.n}, nil
	case a.k == KindString && b.k == KindString:
		x, y := a.r.(string), b.r.(string)
		if len(x)+len(y) > MaxStringBytes {
			return Nil, runtimeError("string would exceed %d bytes", MaxStringBytes)
		}
		return Str(x + y), nil
	case a.k == KindFloat && b.k == KindFloat:
		return Float(a.AsFloat() + b.AsFloat()), nil
	case a.k == KindInt && b.k == KindFloat:
		return Float(float64(int64(a.n)) + b.AsFloat()), nil
	case a.k == KindFloat && b.k == KindInt:
		return Float(a.AsFloat() + float64(int64(b.n))), nil
	case a.k == KindList && b.k == KindList:
		x, y := a.r.(*List).items, b.r.(*List).items
		if len(x)+len(y) > maxListLen {
			return Nil, runtimeError("list would exceed %d elements", maxListLen)
		}
		items := make([]Value, 0, len(x)+len(y))
		items = append(items, x...)
		items = append(items, y...)
		for _, v := range items {
			share(v)
		}
		return NewListValue(items), nil
	case a.k == KindDict && b.k == KindDict:
		d := a.r.(*Dict).clone()
		for k, v := range b.r.(*Dict).m {
			d.Set(k, share(v))
		}
		return DictValue(d), nil
	case a.k == KindDuration && b.k == KindDuration:
		return DurationValue(int64(a.n) + int64(b.n)), nil
	}
	return Nil, typeError("Cannot add %s and %s", a.TypeName(), b.TypeName())
}

// Sub is a - b as the - operator computes it.
func Sub(a, b Value) (Value, error) {
	switch {
	case a.k == KindInt && b.k == KindInt:
		return Value{k: KindInt, n: a.n - b.n}, nil
	case a.k == KindFloat && b.k == KindFloat:
		return Float(a.AsFloat() - b.AsFloat()), nil
	case a.k == KindInt && b.k == KindFloat:
		return Float(float64(int64(a.n)) - b.AsFloat()), nil
	case a.k == KindFloat && b.k == KindInt:
		return Float(a.AsFloat() - float64(int64(b.n))), nil
	case a.k == KindDuration && b.k == KindDuration:
		return DurationValue(int64(a.n) - int64(b.n)), nil
	}
	return Nil, typeError("Cannot subtract %s from %s", b.TypeName(), a.TypeName())
}

// Mul is a * b as the * operator computes it.
func Mul(a, b Value) (Value, error) {
	switch {
	case a.k == KindInt && b.k == KindInt:
		return Int(int64(a.n) * int64(b.n)), nil
	case a.k == KindFloat && b.k == KindFloat:
		return Float(a.AsFloat() * b.AsFloat()), nil
	case a.k == KindInt && b.k == KindFloat:
		return Float(float64(int64(a.n)) * b.AsFloat()), nil
	case a.k == KindFloat && b.k == KindInt:
		return Float(a.AsFloat() * float64(int64(b.n))), nil
	case a.k == KindString && b.k == KindInt:
		return repeatString(a.r.(string), int64(b.n))
	case a.k == KindInt && b.k == KindString:
		return repeatString(b.r.(string), int64(a.n))
	}
	return Nil, typeError("Cannot multiply %s and %s", a.TypeName(), b.TypeName())
}

// MaxStringBytes and maxListLen bound strings and lists built by one
// operation (concatenation, repetition, padding), so a program doubling a
// value in a loop fails with an error instead of exhausting memory.
const (
	MaxStringBytes = 64 << 20
	maxListLen     = 8 << 20
)

func repeatString(s string, n int64) (Value, error) {
	if n <= 0 || s == "" {
		return Str(""), nil
	}
	if int64(len(s)) > MaxStringBytes/n {
		return Nil, runtimeError("string repetition would exceed %d bytes", MaxStringBytes)
	}
	return Str(strings.Repeat(s, int(n))), nil
}

// replaceAll is s with every old replaced by new, refused before it is
// built when it would exceed maxStringBytes.
func replaceAll(s, old, new string) (Value, error) {
	n := strings.Count(s, old)
	if int64(len(s))+int64(n)*int64(len(new)-len(old)) > MaxStringBytes {
		return Nil, runtimeError("string replacement would exceed %d bytes", MaxStringBytes)
	}
	return Str(strings.ReplaceAll(s, old, new)), nil
}

// join is the display forms of items joined by sep, charged to the run
// and refused before it is built when it would exceed maxStringBytes.
func (th *thread) join(items []Value, sep string) (Value, error) {
	parts := make([]string, len(items))
	total := 0
	for i, x := range items {
		if i%1024 == 1023 {
			if err := th.charge(1024); err != nil {
				return Nil, err
			}
		}
		s, err := th.display(x)
		if err != nil {
			return Nil, err
		}
		if total += len(s) + len(sep); total > MaxStringBytes {
			return Nil, runtimeError("joined string would exceed %d bytes", MaxStringBytes)
		}
		parts[i] = s
	}
	return Str(strings.Join(parts, sep)), nil
}

func opDiv(a, b Value) (Value, error) {
	switch {
	case a.k == KindInt && b.k == KindInt:
		y := int64(b.n)
		if y == 0 {
			return Nil, plainError("Division by zero")
		}
		x := int64(a.n)
		if y == -1 {
			return Int(-x), nil
		}
		return Int(x / y), nil
	case a.k == KindFloat && b.k == KindFloat:
		return Float(a.AsFloat() / b.AsFloat()), nil
	case a.k == KindInt && b.k == KindFloat:
		return Float(float64(int64(a.n)) / b.AsFloat()), nil
	case a.k == KindFloat && b.k == KindInt:
		return Float(a.AsFloat() / float64(int64(b.n))), nil
	}
	return Nil, runtimeError("Cannot divide %s by %s", a.TypeName(), b.TypeName())
}

func opMod(a, b Value) (Value, error) {
	if a.k == KindInt && b.k == KindInt {
		y := int64(b.n)
		if y == 0 {
			return Nil, plainError("Division by zero")
		}
		if y == -1 {
			return Int(0), nil
		}
		return Int(int64(a.n) % y), nil
	}
	x, ok1 := a.Number()
	y, ok2 := b.Number()
	if !ok1 || !ok2 {
		return Nil, runtimeError("Cannot modulo %s by %s", a.TypeName(), b.TypeName())
	}
	if y == 0 {
		return Nil, plainError("Division by zero")
	}
	return Float(math.Mod(x, y)), nil
}

// Pow is a ** b as the ** operator computes it.
func Pow(a, b Value) (Value, error) {
	switch {
	case a.k == KindInt && b.k == KindInt:
		base, exp := int64(a.n), int64(b.n)
		if exp >= 0 && exp <= math.MaxUint32 {
			r := int64(1)
			for e := exp; e > 0; e >>= 1 {
				if e&1 == 1 {
					r *= base
				}
				base *= base
			}
			return Int(r), nil
		}
		return Float(math.Pow(float64(base), float64(exp))), nil
	}
	x, ok1 := a.Number()
	y, ok2 := b.Number()
	if !ok1 || !ok2 {
		return Nil, typeError("Cannot exponentiate %s by %s", a.TypeName(), b.TypeName())
	}
	return Float(math.Pow(x, y)), nil
}

func opCompare(op ast.BinaryOp, a, b Value) (Value, error) {
	if a.k == KindInt && b.k == KindInt {
		x, y := int64(a.n), int64(b.n)
		switch op {
		case ast.Less:
			return Bool(x < y), nil
		case ast.Greater:
			return Bool(x > y), nil
		case ast.LessEq:
			return Bool(x <= y), nil
		default:
			return Bool(x >= y), nil
		}
	}
	if (a.k == KindFloat || b.k == KindFloat) && isNumber(a) && isNumber(b) {
		x, _ := a.Number()
		y, _ := b.Number()
		switch op {
		case ast.Less:
			return Bool(x < y), nil
		case ast.Greater:
			return Bool(x > y), nil
		case ast.LessEq:
			return Bool(x <= y), nil
		default:
			return Bool(x >= y), nil
		}
	}
	c, ok := Compare(a, b)
	if !ok {
		return Nil, typeError("Cannot compare %s with %s", a.TypeName(), b.TypeName())
	}
	switch op {
	case ast.Less:
		return Bool(c < 0), nil
	case ast.Greater:
		return Bool(c > 0), nil
	case ast.LessEq:
		return Bool(c <= 0), nil
	default:
		return Bool(c >= 0), nil
	}
}

func isNumber(v Value) bool { return v.k == KindInt || v.k == KindFloat }

// contains is `needle in haystack`.
func contains(haystack, needle Value) (bool, error) {
	switch haystack.k {
	case KindList:
		for _, x := range haystack.r.(*List).items {
			if Equal(x, needle) {
				return true, nil
			}
		}
		return false, nil
	case KindDict:
		if needle.k != KindString {
			return haystack.r.(*Dict).Has(Display(needle)), nil
		}
		return haystack.r.(*Dict).Has(needle.r.(string)), nil
	case KindString:
		if needle.k != KindString {
			return false, typeError("`in` on a string needs a string, got %s", needle.TypeName())
		}
		return strings.Contains(haystack.r.(string), needle.r.(string)), nil
	case KindSet:
		return haystack.r.(*Set).Has(needle), nil
	case KindRange:
		if needle.k != KindInt {
			return false, nil
		}
		r := haystack.r.(*Range)
		n := int64(needle.n)
		step := r.Step
		if step == 0 {
			step = 1
		}
		l := r.Len()
		if l == 0 {
			return false, nil
		}
		off := n - r.Start
		if off%step != 0 {
			return false, nil
		}
		i := off / step
		return i >= 0 && i < l, nil
	case KindNil:
		return false, nil
	}
	return false, typeError("`in` is not supported on %s", haystack.TypeName())
}
