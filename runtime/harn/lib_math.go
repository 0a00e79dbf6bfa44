package harn

import (
	"math"
	"sort"
)

// Math builtins.

func installMath(lib *Library) {
	f1 := func(name string, f func(float64) float64) {
		spec := ArgsOf(name)
		lib.Leaf(name, func(c *Call, args []Value) (Value, error) {
			var x float64
			if err := spec.Unpack(c, args, &x); err != nil {
				return Nil, err
			}
			return Float(f(x)), nil
		})
	}
	f1("sqrt", math.Sqrt)
	f1("sin", math.Sin)
	f1("cos", math.Cos)
	f1("tan", math.Tan)
	f1("asin", math.Asin)
	f1("acos", math.Acos)
	f1("atan", math.Atan)
	f1("ln", math.Log)
	f1("log2", math.Log2)
	f1("log10", math.Log10)
	f1("exp", math.Exp)
	atan2Args := ArgsOf("atan2")
	lib.Leaf("atan2", func(c *Call, args []Value) (Value, error) {
		var y, x float64
		if err := atan2Args.Unpack(c, args, &y, &x); err != nil {
			return Nil, err
		}
		return Float(math.Atan2(y, x)), nil
	})
	toIntFn := func(name string, f func(float64) float64) {
		spec := ArgsOf(name)
		lib.Leaf(name, func(c *Call, args []Value) (Value, error) {
			if v := Arg(args, 0); v.k == KindInt {
				return v, nil
			}
			var x float64
			if err := spec.Unpack(c, args, &x); err != nil {
				return Nil, err
			}
			r := f(x)
			if math.IsNaN(r) || math.IsInf(r, 0) || math.Abs(r) > 9.2e18 {
				return Float(r), nil
			}
			return Int(int64(r)), nil
		})
	}
	toIntFn("floor", math.Floor)
	toIntFn("ceil", math.Ceil)
	toIntFn("round", func(x float64) float64 { return math.Round(x) })
	lib.Leaf("abs", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		switch v.k {
		case KindInt:
			n := int64(v.n)
			if n < 0 {
				n = -n
			}
			return Int(n), nil
		case KindFloat:
			return Float(math.Abs(v.AsFloat())), nil
		}
		return Nil, typeError("abs: expected a number, got %s", v.TypeName())
	})
	signArgs := ArgsOf("sign")
	lib.Leaf("sign", func(c *Call, args []Value) (Value, error) {
		var x float64
		if err := signArgs.Unpack(c, args, &x); err != nil {
			return Nil, err
		}
		switch {
		case x > 0:
			return Int(1), nil
		case x < 0:
			return Int(-1), nil
		}
		return Int(0), nil
	})
	lib.Leaf("pow", func(c *Call, args []Value) (Value, error) { return opPow(Arg(args, 0), Arg(args, 1)) })
	minmax := func(name string, want int) {
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			items := args
			if len(args) == 1 {
				xs, err := c.th.collect(args[0])
				if err != nil {
					return Nil, err
				}
				items = xs
			}
			if len(items) == 0 {
				return Nil, nil
			}
			best := items[0]
			for _, x := range items[1:] {
				cmp, ok := Compare(x, best)
				if !ok {
					return Nil, typeError("%s: cannot compare %s with %s", name, x.TypeName(), best.TypeName())
				}
				if cmp == want {
					best = x
				}
			}
			return best, nil
		})
	}
	minmax("min", -1)
	minmax("max", 1)
	lib.Leaf("is_nan", func(c *Call, args []Value) (Value, error) {
		x, _ := Arg(args, 0).Number()
		return Bool(math.IsNaN(x)), nil
	})
	lib.Leaf("is_infinite", func(c *Call, args []Value) (Value, error) {
		x, _ := Arg(args, 0).Number()
		return Bool(math.IsInf(x, 0)), nil
	})
	stats := func(name string, f func(xs []float64, args []Value) (Value, error)) {
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			items, err := c.th.collect(Arg(args, 0))
			if err != nil {
				return Nil, err
			}
			xs := make([]float64, 0, len(items))
			for _, x := range items {
				f, ok := x.Number()
				if !ok {
					return Nil, typeError("%s: expected numbers, got %s", name, x.TypeName())
				}
				xs = append(xs, f)
			}
			if len(xs) == 0 {
				return Nil, nil
			}
			return f(xs, args)
		})
	}
	stats("mean", func(xs []float64, _ []Value) (Value, error) { return Float(mean(xs)), nil })
	stats("median", func(xs []float64, _ []Value) (Value, error) {
		s := append([]float64(nil), xs...)
		sort.Float64s(s)
		n := len(s)
		if n%2 == 1 {
			return Float(s[n/2]), nil
		}
		return Float((s[n/2-1] + s[n/2]) / 2), nil
	})
	variance := func(xs []float64, args []Value) float64 {
		m := mean(xs)
		var ss float64
		for _, x := range xs {
			ss += (x - m) * (x - m)
		}
		n := float64(len(xs))
		if Arg(args, 1).Truthy() && n > 1 {
			return ss / (n - 1)
		}
		return ss / n
	}
	stats("variance", func(xs []float64, args []Value) (Value, error) { return Float(variance(xs, args)), nil })
	stats("stddev", func(xs []float64, args []Value) (Value, error) { return Float(math.Sqrt(variance(xs, args))), nil })
	stats("percentile", func(xs []float64, args []Value) (Value, error) {
		p, _ := Arg(args, 1).Number()
		s := append([]float64(nil), xs...)
		sort.Float64s(s)
		if p <= 0 {
			return Float(s[0]), nil
		}
		if p >= 100 {
			return Float(s[len(s)-1]), nil
		}
		rank := p / 100 * float64(len(s)-1)
		lo := int(math.Floor(rank))
		frac := rank - float64(lo)
		if lo+1 >= len(s) {
			return Float(s[lo]), nil
		}
		return Float(s[lo] + frac*(s[lo+1]-s[lo])), nil
	})
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
