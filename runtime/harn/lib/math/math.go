package math

import (
	"math"
	"sort"

	"github.com/harnlang/harn-check/runtime/harn"
)

// Math builtins.

func install(lib *harn.Library) {
	lib.StdModule("std/math", stdMath())
	f1 := func(name string, f func(float64) float64) {
		spec := harn.ArgsOf(name)
		lib.Leaf(name, func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			var x float64
			if err := spec.Unpack(c, args, &x); err != nil {
				return harn.Nil, err
			}
			return harn.Float(f(x)), nil
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
	atan2Args := harn.ArgsOf("atan2")
	lib.Leaf("atan2", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		var y, x float64
		if err := atan2Args.Unpack(c, args, &y, &x); err != nil {
			return harn.Nil, err
		}
		return harn.Float(math.Atan2(y, x)), nil
	})
	toIntFn := func(name string, f func(float64) float64) {
		spec := harn.ArgsOf(name)
		lib.Leaf(name, func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			if v := harn.Arg(args, 0); v.Kind() == harn.KindInt {
				return v, nil
			}
			var x float64
			if err := spec.Unpack(c, args, &x); err != nil {
				return harn.Nil, err
			}
			r := f(x)
			if math.IsNaN(r) || math.IsInf(r, 0) || math.Abs(r) > 9.2e18 {
				return harn.Float(r), nil
			}
			return harn.Int(int64(r)), nil
		})
	}
	toIntFn("floor", math.Floor)
	toIntFn("ceil", math.Ceil)
	toIntFn("round", func(x float64) float64 { return math.Round(x) })
	lib.Leaf("abs", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		v := harn.Arg(args, 0)
		switch v.Kind() {
		case harn.KindInt:
			n := v.AsInt()
			if n < 0 {
				n = -n
			}
			return harn.Int(n), nil
		case harn.KindFloat:
			return harn.Float(math.Abs(v.AsFloat())), nil
		}
		return harn.Nil, harn.Errorf("Type error: abs: expected a number, got %s", v.TypeName())
	})
	signArgs := harn.ArgsOf("sign")
	lib.Leaf("sign", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		var x float64
		if err := signArgs.Unpack(c, args, &x); err != nil {
			return harn.Nil, err
		}
		switch {
		case x > 0:
			return harn.Int(1), nil
		case x < 0:
			return harn.Int(-1), nil
		}
		return harn.Int(0), nil
	})
	lib.Leaf("pow", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		return harn.Pow(harn.Arg(args, 0), harn.Arg(args, 1))
	})
	minmax := func(name string, want int) {
		lib.Builtin(name, func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			items := args
			if len(args) == 1 {
				xs, err := c.Collect(args[0])
				if err != nil {
					return harn.Nil, err
				}
				items = xs
			}
			if len(items) == 0 {
				return harn.Nil, nil
			}
			best := items[0]
			for _, x := range items[1:] {
				cmp, ok := harn.Compare(x, best)
				if !ok {
					return harn.Nil, harn.Errorf("Type error: %s: cannot compare %s with %s", name, x.TypeName(), best.TypeName())
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
	lib.Leaf("is_nan", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		x, _ := harn.Arg(args, 0).Number()
		return harn.Bool(math.IsNaN(x)), nil
	})
	lib.Leaf("is_infinite", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		x, _ := harn.Arg(args, 0).Number()
		return harn.Bool(math.IsInf(x, 0)), nil
	})
	stats := func(name string, f func(xs []float64, args []harn.Value) (harn.Value, error)) {
		lib.Builtin(name, func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			items, err := c.Collect(harn.Arg(args, 0))
			if err != nil {
				return harn.Nil, err
			}
			xs := make([]float64, 0, len(items))
			for _, x := range items {
				f, ok := x.Number()
				if !ok {
					return harn.Nil, harn.Errorf("Type error: %s: expected numbers, got %s", name, x.TypeName())
				}
				xs = append(xs, f)
			}
			if len(xs) == 0 {
				return harn.Nil, nil
			}
			return f(xs, args)
		})
	}
	stats("mean", func(xs []float64, _ []harn.Value) (harn.Value, error) { return harn.Float(mean(xs)), nil })
	stats("median", func(xs []float64, _ []harn.Value) (harn.Value, error) {
		s := append([]float64(nil), xs...)
		sort.Float64s(s)
		n := len(s)
		if n%2 == 1 {
			return harn.Float(s[n/2]), nil
		}
		return harn.Float((s[n/2-1] + s[n/2]) / 2), nil
	})
	variance := func(xs []float64, args []harn.Value) float64 {
		m := mean(xs)
		var ss float64
		for _, x := range xs {
			ss += (x - m) * (x - m)
		}
		n := float64(len(xs))
		if harn.Arg(args, 1).Truthy() && n > 1 {
			return ss / (n - 1)
		}
		return ss / n
	}
	stats("variance", func(xs []float64, args []harn.Value) (harn.Value, error) { return harn.Float(variance(xs, args)), nil })
	stats("stddev", func(xs []float64, args []harn.Value) (harn.Value, error) {
		return harn.Float(math.Sqrt(variance(xs, args))), nil
	})
	stats("percentile", func(xs []float64, args []harn.Value) (harn.Value, error) {
		p, _ := harn.Arg(args, 1).Number()
		s := append([]float64(nil), xs...)
		sort.Float64s(s)
		if p <= 0 {
			return harn.Float(s[0]), nil
		}
		if p >= 100 {
			return harn.Float(s[len(s)-1]), nil
		}
		rank := p / 100 * float64(len(s)-1)
		lo := int(math.Floor(rank))
		frac := rank - float64(lo)
		if lo+1 >= len(s) {
			return harn.Float(s[lo]), nil
		}
		return harn.Float(s[lo] + frac*(s[lo+1]-s[lo])), nil
	})
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
