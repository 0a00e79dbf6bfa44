package rhai

import (
	"math"
	"strings"
)

func (it *interp) unary(op string, v Value, pos int) (Value, error) {
	switch op {
	case "-":
		switch t := v.(type) {
		case int64:
			if t == math.MinInt64 {
				return nil, it.errf(ErrRuntime, pos, "Negation overflow: -%d", t)
			}
			return -t, nil
		case float64:
			return -t, nil
		}
	case "+":
		switch v.(type) {
		case int64, float64:
			return v, nil
		}
	case "!":
		if b, ok := v.(bool); ok {
			return !b, nil
		}
		return nil, it.errf(ErrRuntime, pos, "Data type incorrect: %s (expecting bool)", TypeName(v))
	}
	return nil, it.errf(ErrRuntime, pos, "Function not found: %s", signature(op, []Value{v}))
}

func (it *interp) binaryExpr(x *binaryExpr) (Value, error) {
	switch x.op {
	case "&&", "||":
		l, err := it.cond(x.l)
		if err != nil {
			return nil, err
		}
		if l == (x.op == "||") {
			return l, nil
		}
		return it.cond(x.r)
	case "??":
		l, err := it.eval(x.l)
		if err != nil {
			return nil, err
		}
		if _, ok := l.(Unit); !ok {
			return l, nil
		}
		return it.eval(x.r)
	}
	l, err := it.eval(x.l)
	if err != nil {
		return nil, err
	}
	r, err := it.eval(x.r)
	if err != nil {
		return nil, err
	}
	// Comparing or searching containers is linear in their size.
	it.ops += int64((sizeHint(l) + sizeHint(r)) >> elemShift)
	switch x.op {
	case "in":
		return it.contains(r, l, x.pos)
	case "!in":
		v, err := it.contains(r, l, x.pos)
		if err != nil {
			return nil, err
		}
		return !v.(bool), nil
	}
	return it.binary(x.op, l, r, x.pos)
}

// contains is the `in` operator: item in container.
func (it *interp) contains(container, item Value, pos int) (Value, error) {
	switch c := container.(type) {
	case string:
		if err := it.charge(len(c), pos); err != nil {
			return nil, err
		}
		switch i := item.(type) {
		case string:
			return strings.Contains(c, i), nil
		case rune:
			return strings.ContainsRune(c, i), nil
		}
	case *Array:
		for _, x := range c.Items {
			if equal(x, item, 0) {
				return true, nil
			}
		}
		return false, nil
	case *Map:
		switch i := item.(type) {
		case string:
			_, ok := c.m[i]
			return ok, nil
		case rune:
			_, ok := c.m[string(i)]
			return ok, nil
		}
	case Range:
		if i, ok := item.(int64); ok {
			return c.contains(i), nil
		}
	}
	return nil, it.errf(ErrRuntime, pos, "Function not found: %s", signature("contains", []Value{container, item}))
}

func arithName(op string) string {
	switch op {
	case "+":
		return "Addition"
	case "-":
		return "Subtraction"
	case "*":
		return "Multiplication"
	case "/":
		return "Division"
	case "%":
		return "Modulo"
	case "**":
		return "Exponentiation"
	case "<<":
		return "Left-shift"
	case ">>":
		return "Right-shift"
	}
	return op
}

func (it *interp) intOp(op string, a, b int64, pos int) (Value, error) {
	overflow := func() (Value, error) {
		return nil, it.errf(ErrRuntime, pos, "%s overflow: %d %s %d", arithName(op), a, op, b)
	}
	switch op {
	case "+":
		s := a + b
		if (s > a) != (b > 0) {
			return overflow()
		}
		return s, nil
	case "-":
		s := a - b
		if (s < a) != (b > 0) {
			return overflow()
		}
		return s, nil
	case "*":
		if a == 0 || b == 0 {
			return int64(0), nil
		}
		c := a * b
		if c/b != a || a == -1 && b == math.MinInt64 || b == -1 && a == math.MinInt64 {
			return overflow()
		}
		return a * b, nil
	case "/", "%":
		if b == 0 {
			return nil, it.errf(ErrRuntime, pos, "Division by zero: %d %s %d", a, op, b)
		}
		if a == math.MinInt64 && b == -1 {
			return overflow()
		}
		if op == "/" {
			return a / b, nil
		}
		return a % b, nil
	case "**":
		if b < 0 {
			return nil, it.errf(ErrRuntime, pos, "Integer raised to a negative index: %d ** %d", a, b)
		}
		r := int64(1)
		for i := int64(0); i < b; i++ {
			n, err := it.intOp("*", r, a, pos)
			if err != nil {
				return overflow()
			}
			r = n.(int64)
			if r == 0 || r == 1 && a == 1 {
				break
			}
			if i > 64 && (a == 1 || a == -1) {
				if a == -1 && b%2 == 1 {
					return int64(-1), nil
				}
				return int64(1), nil
			}
		}
		return r, nil
	case "<<", ">>":
		if b < 0 || b >= 64 {
			return overflow()
		}
		if op == "<<" {
			return a << uint(b), nil
		}
		return a >> uint(b), nil
	case "&":
		return a & b, nil
	case "|":
		return a | b, nil
	case "^":
		return a ^ b, nil
	}
	return nil, errNoOp
}

type noOp struct{}

func (noOp) Error() string { return "no operator" }

var errNoOp error = noOp{}

func floatOp(op string, a, b float64) (Value, bool) {
	switch op {
	case "+":
		return a + b, true
	case "-":
		return a - b, true
	case "*":
		return a * b, true
	case "/":
		return a / b, true
	case "%":
		return math.Mod(a, b), true
	case "**":
		return math.Pow(a, b), true
	}
	return nil, false
}

func compareOrdered[T int64 | float64 | string | rune](op string, a, b T) (Value, bool) {
	switch op {
	case "==":
		return a == b, true
	case "!=":
		return a != b, true
	case "<":
		return a < b, true
	case "<=":
		return a <= b, true
	case ">":
		return a > b, true
	case ">=":
		return a >= b, true
	}
	return nil, false
}

// binary applies a non-short-circuit binary operator.
func (it *interp) binary(op string, a, b Value, pos int) (Value, error) {
	switch op {
	case "==":
		return equal(a, b, 0), nil
	case "!=":
		return !equal(a, b, 0), nil
	}
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			if v, ok := compareOrdered(op, x, y); ok {
				return v, nil
			}
			if op == ".." || op == "..=" {
				return Range{Start: x, End: y, Inclusive: op == "..="}, nil
			}
			v, err := it.intOp(op, x, y, pos)
			if err != errNoOp {
				return v, err
			}
		case float64:
			if v, ok := compareOrdered(op, float64(x), y); ok {
				return v, nil
			}
			if v, ok := floatOp(op, float64(x), y); ok {
				return v, nil
			}
		}
	case float64:
		var y float64
		switch t := b.(type) {
		case int64:
			y = float64(t)
		case float64:
			y = t
		default:
			goto other
		}
		if v, ok := compareOrdered(op, x, y); ok {
			return v, nil
		}
		if v, ok := floatOp(op, x, y); ok {
			return v, nil
		}
	case bool:
		if y, ok := b.(bool); ok {
			switch op {
			case "&":
				return x && y, nil
			case "|":
				return x || y, nil
			case "^":
				return x != y, nil
			}
		}
	case string:
		switch y := b.(type) {
		case string:
			if v, ok := compareOrdered(op, x, y); ok {
				return v, nil
			}
		case rune:
			if v, ok := compareOrdered(op, x, string(y)); ok {
				return v, nil
			}
		}
	case rune:
		switch y := b.(type) {
		case rune:
			if v, ok := compareOrdered(op, x, y); ok {
				return v, nil
			}
		case string:
			if v, ok := compareOrdered(op, string(x), y); ok {
				return v, nil
			}
		}
	}
other:
	switch op {
	case "<", "<=", ">", ">=":
		// Different types never compare.
		return false, nil
	case "+":
		_, as := a.(string)
		_, bs := b.(string)
		_, ac := a.(rune)
		_, bc := b.(rune)
		if as || bs || ac && bc {
			// The length is charged and checked before the string is
			// built: a concatenation must not allocate past the limit.
			sa, sb := ToString(a), ToString(b)
			if err := it.growString(len(sa)+len(sb), pos); err != nil {
				return nil, err
			}
			return sa + sb, nil
		}
		if x, ok := a.(*Array); ok {
			if y, ok := b.(*Array); ok {
				if err := it.growArray(len(x.Items)+len(y.Items), pos); err != nil {
					return nil, err
				}
				out := &Array{Items: make([]Value, 0, len(x.Items)+len(y.Items))}
				for _, v := range x.Items {
					out.Items = append(out.Items, share(v))
				}
				for _, v := range y.Items {
					out.Items = append(out.Items, share(v))
				}
				return out, it.checkSize(out, pos)
			}
		}
		if x, ok := a.(*Map); ok {
			if y, ok := b.(*Map); ok {
				out := it.ownM(x)
				out.szOK = false
				for k, v := range y.m {
					out.m[k] = share(v)
				}
				return out, it.checkSize(out, pos)
			}
		}
	}
	return nil, it.errf(ErrRuntime, pos, "Function not found: %s", signature(op, []Value{a, b}))
}
