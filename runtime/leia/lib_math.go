package leia

import (
	"errors"
	"math"
	"math/rand/v2"
)

func openMath(in *Interp) {
	m := in.moduleTable("math", 32)
	reg := func(name string, fn NativeFunc) { m.SetStr(name, NewNative(name, fn)) }
	f1 := func(name string, f func(float64) float64) {
		sp := specOf("math." + name)
		reg(name, func(t *Thread, a []Value) ([]Value, error) {
			var x float64
			if err := sp.unpack(a, &x); err != nil {
				return nil, err
			}
			return t.Ret1(Float(f(x))), nil
		})
	}
	f1("sin", math.Sin)
	f1("cos", math.Cos)
	f1("tan", math.Tan)
	f1("asin", math.Asin)
	f1("acos", math.Acos)
	f1("exp", math.Exp)
	f1("deg", func(x float64) float64 { return x * (180 / math.Pi) })
	f1("rad", func(x float64) float64 { return x * (math.Pi / 180) })
	frexpSpec := specOf("math.frexp")
	reg("frexp", func(t *Thread, a []Value) ([]Value, error) {
		var x Value
		if err := frexpSpec.unpack(a, &x); err != nil {
			return nil, err
		}
		m, e := math.Frexp(x.AsFloat())
		return t.Ret2(Float(m), Int(int64(e))), nil
	})
	ldexpSpec := specOf("math.ldexp")
	reg("ldexp", func(t *Thread, a []Value) ([]Value, error) {
		var m Value
		var e int64
		if err := ldexpSpec.unpack(a, &m, &e); err != nil {
			return nil, err
		}
		return t.Ret1(Float(math.Ldexp(m.AsFloat(), int(max(min(e, 1<<20), -(1<<20)))))), nil
	})
	f1("sqrt", math.Sqrt)
	f1("sinh", math.Sinh)
	f1("cosh", math.Cosh)
	f1("tanh", math.Tanh)
	f1("log10", math.Log10)
	f1("cbrt", math.Cbrt)
	atanSpec := specOf("math.atan")
	reg("atan", func(t *Thread, a []Value) ([]Value, error) {
		y, x := 0.0, 1.0
		if err := atanSpec.unpack(a, &y, &x); err != nil {
			return nil, err
		}
		return t.Ret1(Float(math.Atan2(y, x))), nil
	})
	atan2Spec := specOf("math.atan2")
	reg("atan2", func(t *Thread, a []Value) ([]Value, error) {
		y, x := 0.0, 1.0
		if err := atan2Spec.unpack(a, &y, &x); err != nil {
			return nil, err
		}
		return t.Ret1(Float(math.Atan2(y, x))), nil
	})
	reg("log", func(t *Thread, a []Value) ([]Value, error) {
		x, err := CheckFloat(a, 0, "log")
		if err != nil {
			return nil, err
		}
		if Arg(a, 1).k == KindNil {
			return t.Ret1(Float(math.Log(x))), nil
		}
		b, err := CheckFloat(a, 1, "log")
		if err != nil {
			return nil, err
		}
		switch b {
		case 2:
			return t.Ret1(Float(math.Log2(x))), nil
		case 10:
			return t.Ret1(Float(math.Log10(x))), nil
		}
		return t.Ret1(Float(math.Log(x) / math.Log(b))), nil
	})
	powSpec := specOf("math.pow")
	reg("pow", func(t *Thread, a []Value) ([]Value, error) {
		var x, y float64
		if err := powSpec.unpack(a, &x, &y); err != nil {
			return nil, err
		}
		return t.Ret1(Float(math.Pow(x, y))), nil
	})
	rounder := func(name string, f func(float64) float64) {
		sp := specOf("math." + name)
		reg(name, func(t *Thread, a []Value) ([]Value, error) {
			var v Value
			if err := sp.unpack(a, &v); err != nil {
				return nil, err
			}
			if v.k == KindInt {
				return t.Ret1(v), nil
			}
			r := f(v.AsFloat())
			if r >= -9.223372036854775808e18 && r < 9.223372036854775808e18 {
				return t.Ret1(Int(int64(r))), nil
			}
			return t.Ret1(Float(r)), nil
		})
	}
	rounder("floor", math.Floor)
	rounder("ceil", math.Ceil)
	reg("round", func(t *Thread, a []Value) ([]Value, error) {
		v, err := CheckNumber(a, 0, "round")
		if err != nil {
			return nil, err
		}
		if Arg(a, 1).k == KindNil {
			if v.k == KindInt {
				return t.Ret1(v), nil
			}
			r := math.Round(v.AsFloat())
			if r >= -9.223372036854775808e18 && r < 9.223372036854775808e18 {
				return t.Ret1(Int(int64(r))), nil
			}
			return t.Ret1(Float(r)), nil
		}
		d, err := CheckInt(a, 1, "round")
		if err != nil {
			return nil, err
		}
		if d > 300 || d < -300 {
			return nil, ArgError(1, "round", "digits out of range")
		}
		p := math.Pow(10, float64(d))
		return t.Ret1(Float(math.Round(v.AsFloat()*p) / p)), nil
	})
	nums := func(a []Value, n int, name string) ([]float64, error) {
		out := make([]float64, n)
		for i := range out {
			x, err := CheckFloat(a, i, name)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	reg("clamp", func(t *Thread, a []Value) ([]Value, error) {
		for i := 0; i < 3; i++ {
			if _, err := CheckNumber(a, i, "clamp"); err != nil {
				return nil, err
			}
		}
		x, _ := toNumber(a[0])
		lo, _ := toNumber(a[1])
		hi, _ := toNumber(a[2])
		if numLess(x, lo) {
			return t.Ret1(lo), nil
		}
		if numLess(hi, x) {
			return t.Ret1(hi), nil
		}
		return t.Ret1(x), nil
	})
	reg("lerp", func(t *Thread, a []Value) ([]Value, error) {
		x, err := nums(a, 3, "lerp")
		if err != nil {
			return nil, err
		}
		return t.Ret1(Float(x[0] + (x[1]-x[0])*x[2])), nil
	})
	signSpec := specOf("math.sign")
	reg("sign", func(t *Thread, a []Value) ([]Value, error) {
		var x float64
		if err := signSpec.unpack(a, &x); err != nil {
			return nil, err
		}
		switch {
		case x > 0:
			return t.Ret1(Int(1)), nil
		case x < 0:
			return t.Ret1(Int(-1)), nil
		}
		return t.Ret1(Int(0)), nil
	})
	floorDivSpec := specOf("math.floorDiv")
	reg("floorDiv", func(t *Thread, a []Value) ([]Value, error) {
		var x, y Value
		if err := floorDivSpec.unpack(a, &x, &y); err != nil {
			return nil, err
		}
		if y.AsFloat() == 0 {
			return nil, ArgError(1, "floorDiv", "division by zero")
		}
		if x.k == KindInt && y.k == KindInt {
			q := int64(x.n) / int64(y.n)
			if (int64(x.n)%int64(y.n) != 0) && ((int64(x.n) < 0) != (int64(y.n) < 0)) {
				q--
			}
			return t.Ret1(Int(q)), nil
		}
		r := math.Floor(x.AsFloat() / y.AsFloat())
		if r >= -9.2e18 && r <= 9.2e18 {
			return t.Ret1(Int(int64(r))), nil
		}
		return t.Ret1(Float(r)), nil
	})
	reg("hypot", func(t *Thread, a []Value) ([]Value, error) {
		x, err := nums(a, 2, "hypot")
		if err != nil {
			return nil, err
		}
		return t.Ret1(Float(math.Hypot(x[0], x[1]))), nil
	})
	isnanSpec := specOf("math.isnan")
	reg("isnan", func(t *Thread, a []Value) ([]Value, error) {
		var x float64
		if err := isnanSpec.unpack(a, &x); err != nil {
			return nil, err
		}
		return t.Ret1(Bool(math.IsNaN(x))), nil
	})
	isinfSpec := specOf("math.isinf")
	reg("isinf", func(t *Thread, a []Value) ([]Value, error) {
		var x float64
		if err := isinfSpec.unpack(a, &x); err != nil {
			return nil, err
		}
		return t.Ret1(Bool(math.IsInf(x, 0))), nil
	})
	rounder("trunc", math.Trunc)
	reg("abs", func(t *Thread, a []Value) ([]Value, error) {
		v, err := CheckNumber(a, 0, "abs")
		if err != nil {
			return nil, err
		}
		if v.k == KindInt {
			i := int64(v.n)
			if i < 0 {
				if i == math.MinInt64 {
					return t.Ret1(Float(-float64(i))), nil
				}
				i = -i
			}
			return t.Ret1(Int(i)), nil
		}
		return t.Ret1(Float(math.Abs(v.AsFloat()))), nil
	})
	minmax := func(name string, wantLess bool) {
		reg(name, func(t *Thread, a []Value) ([]Value, error) {
			best, err := CheckNumber(a, 0, name)
			if err != nil {
				return nil, err
			}
			for i := 1; i < len(a); i++ {
				v, err := CheckNumber(a, i, name)
				if err != nil {
					return nil, err
				}
				if numLess(v, best) == wantLess && !RawEqual(v, best) {
					best = v
				}
			}
			return t.Ret1(best), nil
		})
	}
	minmax("min", true)
	minmax("max", false)
	fmodSpec := specOf("math.fmod")
	reg("fmod", func(t *Thread, a []Value) ([]Value, error) {
		var x, y Value
		if err := fmodSpec.unpack(a, &x, &y); err != nil {
			return nil, err
		}
		if x.k == KindInt && y.k == KindInt {
			if int64(y.n) == 0 {
				return nil, ArgError(1, "fmod", "zero")
			}
			if int64(y.n) == -1 {
				return t.Ret1(Int(0)), nil
			}
			return t.Ret1(Int(int64(x.n) % int64(y.n))), nil
		}
		return t.Ret1(Float(math.Mod(x.AsFloat(), y.AsFloat()))), nil
	})
	modfSpec := specOf("math.modf")
	reg("modf", func(t *Thread, a []Value) ([]Value, error) {
		var x float64
		if err := modfSpec.unpack(a, &x); err != nil {
			return nil, err
		}
		if math.IsInf(x, 0) {
			return t.Ret2(Float(x), Float(0)), nil
		}
		ip, fp := math.Modf(x)
		iv := Float(ip)
		if ip >= -9.2e18 && ip <= 9.2e18 {
			iv = Float(ip)
		}
		return t.Ret2(iv, Float(fp)), nil
	})
	reg("tointeger", func(t *Thread, a []Value) ([]Value, error) {
		v := Arg(a, 0)
		if v.k == KindString {
			return t.Ret1(Nil), nil
		}
		if i, ok := toInteger(v); ok && v.IsNumber() {
			return t.Ret1(Int(i)), nil
		}
		return t.Ret1(Nil), nil
	})
	reg("type", func(t *Thread, a []Value) ([]Value, error) {
		if len(a) == 0 {
			return nil, ArgError(0, "type", "value expected")
		}
		switch a[0].k {
		case KindInt:
			return t.Ret1(String("integer")), nil
		case KindFloat:
			return t.Ret1(String("float")), nil
		}
		return t.Ret1(Nil), nil
	})
	ultSpec := specOf("math.ult")
	reg("ult", func(t *Thread, a []Value) ([]Value, error) {
		var x, y int64
		if err := ultSpec.unpack(a, &x, &y); err != nil {
			return nil, err
		}
		return t.Ret1(Bool(uint64(x) < uint64(y))), nil
	})
	rng := rand.New(rand.NewPCG(0x5eed, 0x1e1a))
	reg("random", func(t *Thread, a []Value) ([]Value, error) {
		if len(a) > 2 {
			return nil, errors.New("wrong number of arguments to 'random'")
		}
		switch len(a) {
		case 0:
			return t.Ret1(Float(rng.Float64())), nil
		case 1:
			m, err := CheckInt(a, 0, "random")
			if err != nil {
				return nil, err
			}
			if m == 0 {
				return t.Ret1(Int(rng.Int64())), nil
			}
			if m < 1 {
				return nil, ArgError(0, "random", "interval is empty")
			}
			return t.Ret1(Int(1 + rng.Int64N(m))), nil
		}
		lo, err := CheckInt(a, 0, "random")
		if err != nil {
			return nil, err
		}
		hi, err := CheckInt(a, 1, "random")
		if err != nil {
			return nil, err
		}
		if lo > hi {
			return nil, ArgError(1, "random", "interval is empty")
		}
		span := uint64(hi - lo)
		if span == math.MaxUint64 {
			return t.Ret1(Int(int64(rng.Uint64()))), nil
		}
		return t.Ret1(Int(lo + int64(rng.Uint64N(span+1)))), nil
	})
	// randomseed([x [, y]]) seeds the generator with (x, y) and returns
	// them; with no arguments it picks a random seed.
	reg("randomseed", func(t *Thread, a []Value) ([]Value, error) {
		var x, y int64
		if len(a) == 0 {
			x, y = rand.Int64(), rand.Int64()
		} else {
			var ok bool
			if x, ok = toIntegerOrFloor(Arg(a, 0)); !ok {
				return nil, typeError(0, "randomseed", "number", Arg(a, 0))
			}
			if len(a) > 1 {
				if y, ok = toIntegerOrFloor(Arg(a, 1)); !ok {
					return nil, typeError(1, "randomseed", "number", Arg(a, 1))
				}
			}
		}
		rng = rand.New(rand.NewPCG(uint64(x), uint64(y)))
		return t.Ret2(Int(x), Int(y)), nil
	})
	m.SetStr("pi", Float(math.Pi))
	m.SetStr("huge", Float(math.Inf(1)))
	m.SetStr("maxinteger", Int(math.MaxInt64))
	m.SetStr("mininteger", Int(math.MinInt64))
	m.SetStr("inf", Float(math.Inf(1)))
	m.SetStr("nan", Float(math.NaN()))
	in.registerLib("math", m)
}

// toIntegerOrFloor is v as an integer, floats truncated (for seeds).
func toIntegerOrFloor(v Value) (int64, bool) {
	if n, ok := toInteger(v); ok {
		return n, true
	}
	if f, ok := toNumber(v); ok {
		return int64(math.Float64bits(f.AsFloat())), true
	}
	return 0, false
}
