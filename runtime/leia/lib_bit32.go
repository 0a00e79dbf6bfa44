package leia

import "fmt"

// bit32 is Lua 5.2's 32-bit bitwise library: arguments are taken modulo
// 2^32 and results are unsigned.
func openBit32(in *Interp) {
	b := in.moduleTable("bit32", 16)
	reg := func(name string, fn NativeFunc) { b.SetStr(name, NewNative(name, fn)) }
	arg := func(a []Value, i int, name string) (uint32, error) {
		v := Arg(a, i)
		n, ok := toNumber(v)
		if !ok {
			return 0, typeError(i, name, "number", v)
		}
		if n.k == KindInt {
			return uint32(int64(n.n)), nil
		}
		f := n.AsFloat()
		if f != f || f > 9.2e18 || f < -9.2e18 {
			return 0, ArgError(i, name, "number has no integer representation")
		}
		return uint32(int64(f)), nil
	}
	fold := func(name string, init uint32, op func(x, y uint32) uint32) {
		reg(name, func(t *Thread, a []Value) ([]Value, error) {
			r := init
			for i := range a {
				x, err := arg(a, i, name)
				if err != nil {
					return nil, err
				}
				r = op(r, x)
			}
			return t.Ret1(Int(int64(r))), nil
		})
	}
	fold("band", 0xFFFFFFFF, func(x, y uint32) uint32 { return x & y })
	fold("bor", 0, func(x, y uint32) uint32 { return x | y })
	fold("bxor", 0, func(x, y uint32) uint32 { return x ^ y })
	reg("btest", func(t *Thread, a []Value) ([]Value, error) {
		r := uint32(0xFFFFFFFF)
		for i := range a {
			x, err := arg(a, i, "btest")
			if err != nil {
				return nil, err
			}
			r &= x
		}
		return t.Ret1(Bool(r != 0)), nil
	})
	reg("bnot", func(t *Thread, a []Value) ([]Value, error) {
		x, err := arg(a, 0, "bnot")
		return t.Ret1(Int(int64(^x))), err
	})
	shift := func(x uint32, n int64) uint32 {
		if n <= -32 || n >= 32 {
			return 0
		}
		if n >= 0 {
			return x << uint(n)
		}
		return x >> uint(-n)
	}
	two := func(name string, f func(x uint32, n int64) uint32) {
		reg(name, func(t *Thread, a []Value) ([]Value, error) {
			x, err := arg(a, 0, name)
			if err != nil {
				return nil, err
			}
			n, err := CheckInt(a, 1, name)
			if err != nil {
				return nil, err
			}
			return t.Ret1(Int(int64(f(x, n)))), nil
		})
	}
	two("lshift", shift)
	two("rshift", func(x uint32, n int64) uint32 { return shift(x, -n) })
	two("arshift", func(x uint32, n int64) uint32 {
		if n < 0 {
			return shift(x, -n)
		}
		if n >= 32 {
			if int32(x) < 0 {
				return 0xFFFFFFFF
			}
			return 0
		}
		return uint32(int32(x) >> uint(n))
	})
	two("lrotate", func(x uint32, n int64) uint32 {
		n &= 31
		return x<<uint(n) | x>>uint((32-n)&31)
	})
	two("rrotate", func(x uint32, n int64) uint32 {
		n = (-n) & 31
		return x<<uint(n) | x>>uint((32-n)&31)
	})
	fieldArgs := func(a []Value, i int, name string) (int64, int64, error) {
		f, err := CheckInt(a, i, name)
		if err != nil {
			return 0, 0, err
		}
		w, err := OptInt(a, i+1, name, 1)
		if err != nil {
			return 0, 0, err
		}
		if f < 0 {
			return 0, 0, ArgError(i, name, "field cannot be negative")
		}
		if w <= 0 {
			return 0, 0, ArgError(i+1, name, "width must be positive")
		}
		if f+w > 32 {
			return 0, 0, fmt.Errorf("trying to access non-existent bits")
		}
		return f, w, nil
	}
	reg("extract", func(t *Thread, a []Value) ([]Value, error) {
		x, err := arg(a, 0, "extract")
		if err != nil {
			return nil, err
		}
		f, w, err := fieldArgs(a, 1, "extract")
		if err != nil {
			return nil, err
		}
		mask := uint32((uint64(1) << uint(w)) - 1)
		return t.Ret1(Int(int64((x >> uint(f)) & mask))), nil
	})
	reg("replace", func(t *Thread, a []Value) ([]Value, error) {
		x, err := arg(a, 0, "replace")
		if err != nil {
			return nil, err
		}
		v, err := arg(a, 1, "replace")
		if err != nil {
			return nil, err
		}
		f, w, err := fieldArgs(a, 2, "replace")
		if err != nil {
			return nil, err
		}
		mask := uint32((uint64(1) << uint(w)) - 1)
		r := (x &^ (mask << uint(f))) | ((v & mask) << uint(f))
		return t.Ret1(Int(int64(r))), nil
	})
	in.registerLib("bit32", b)
}
