package leia

// The rand module: pseudo-random draws and list helpers from a generator
// seeded from the clock (rand.seed makes a run repeatable).

import (
	mrand "math/rand/v2"
	"time"
)

// openRand installs rand: a seedable generator (rand.seed makes runs
// repeatable) with integer, float, boolean, normal and exponential draws
// and list helpers.
func openRand(in *Interp) {
	rng := mrand.New(mrand.NewPCG(uint64(time.Now().UnixNano()), 7))
	list := func(a []Value, name string) (*Table, error) { return CheckTable(a, 0, name) }
	newModule(in, "rand", map[string]NativeFunc{
		"seed": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckInt(a, 0, "seed")
			if err != nil {
				return nil, err
			}
			rng = mrand.New(mrand.NewPCG(uint64(s), 7))
			return nil, nil
		},
		"float": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Float(rng.Float64())), nil },
		"bool":  func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Bool(rng.IntN(2) == 1)), nil },
		"int": func(t *Thread, a []Value) ([]Value, error) {
			switch {
			case len(a) == 0:
				return t.Ret1(Int(rng.Int64())), nil
			case len(a) >= 2:
				lo, err := CheckInt(a, 0, "int")
				if err != nil {
					return nil, err
				}
				hi, err := CheckInt(a, 1, "int")
				if err != nil {
					return nil, err
				}
				if hi < lo {
					return nil, ArgError(1, "int", "interval is empty")
				}
				return t.Ret1(Int(lo + int64(rng.Uint64N(uint64(hi-lo)+1)))), nil
			}
			n, err := CheckInt(a, 0, "int")
			if err != nil {
				return nil, err
			}
			if n <= 0 {
				return nil, ArgError(0, "int", "n must be positive")
			}
			return t.Ret1(Int(rng.Int64N(n))), nil
		},
		"normal": func(t *Thread, a []Value) ([]Value, error) {
			mean, err := OptFloat(a, 0, "normal", 0)
			if err != nil {
				return nil, err
			}
			std, err := OptFloat(a, 1, "normal", 1)
			if err != nil {
				return nil, err
			}
			if std < 0 {
				return nil, ArgError(1, "normal", "standard deviation must be non-negative")
			}
			return t.Ret1(Float(mean + rng.NormFloat64()*std)), nil
		},
		"exp": func(t *Thread, a []Value) ([]Value, error) {
			rate, err := OptFloat(a, 0, "exp", 1)
			if err != nil {
				return nil, err
			}
			if rate <= 0 {
				return nil, ArgError(0, "exp", "rate must be positive")
			}
			return t.Ret1(Float(rng.ExpFloat64() / rate)), nil
		},
		"choice": func(t *Thread, a []Value) ([]Value, error) {
			l, err := list(a, "choice")
			if err != nil {
				return nil, err
			}
			if l.Len() == 0 {
				return t.Ret1(Nil), nil
			}
			return t.Ret1(l.arr[rng.IntN(l.Len())]), nil
		},
		"shuffle": func(t *Thread, a []Value) ([]Value, error) {
			l, err := list(a, "shuffle")
			if err != nil {
				return nil, err
			}
			rng.Shuffle(len(l.arr), func(i, j int) { l.arr[i], l.arr[j] = l.arr[j], l.arr[i] })
			return t.Ret1(a[0]), nil
		},
		"sample": func(t *Thread, a []Value) ([]Value, error) {
			l, err := list(a, "sample")
			if err != nil {
				return nil, err
			}
			k, err := CheckInt(a, 1, "sample")
			if err != nil {
				return nil, err
			}
			if k < 0 {
				return nil, ArgError(1, "sample", "count must be non-negative")
			}
			idx := rng.Perm(l.Len())
			if int(k) < len(idx) {
				idx = idx[:k]
			}
			out := NewTable(len(idx), 0)
			for _, i := range idx {
				out.Append(l.arr[i])
			}
			return t.Ret1(TableValue(out)), nil
		},
		"weighted": func(t *Thread, a []Value) ([]Value, error) {
			items, err := CheckTable(a, 0, "weighted")
			if err != nil {
				return nil, err
			}
			ws, err := CheckTable(a, 1, "weighted")
			if err != nil {
				return nil, err
			}
			if items.Len() == 0 {
				return t.Ret1(Nil), nil
			}
			if ws.Len() != items.Len() {
				return nil, ArgError(1, "weighted", "one weight per item expected")
			}
			total := 0.0
			for _, w := range ws.arr {
				x, ok := toNumber(w)
				if !ok || x.AsFloat() < 0 {
					return nil, ArgError(1, "weighted", "weights must be non-negative numbers")
				}
				total += x.AsFloat()
			}
			if total <= 0 {
				return nil, ArgError(1, "weighted", "weights must not all be zero")
			}
			r := rng.Float64() * total
			for i, w := range ws.arr {
				r -= w.AsFloat()
				if r < 0 {
					return t.Ret1(items.arr[i]), nil
				}
			}
			return t.Ret1(items.arr[len(items.arr)-1]), nil
		},
		"bytes": func(t *Thread, a []Value) ([]Value, error) {
			n, err := CheckInt(a, 0, "bytes")
			if err != nil {
				return nil, err
			}
			if n < 0 || n > 1<<20 {
				return nil, ArgError(0, "bytes", "size out of range")
			}
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			return t.Ret1(String(string(b))), nil
		},
		"uuid": func(t *Thread, a []Value) ([]Value, error) {
			var b [16]byte
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			return t.Ret1(String(formatUUID(b))), nil
		},
	})
}
