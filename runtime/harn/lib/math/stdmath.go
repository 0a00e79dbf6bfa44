package math

import (
	"fmt"
	"math"
	"sort"

	"github.com/harnlang/harn-check/runtime/harn"
)

// std/math, the math module written in Go (`import "std/math"`).

// numbers reads a list of numbers for a std/math function.
func numbers(c *harn.Call, v harn.Value, label string) ([]float64, error) {
	items, err := c.Collect(v)
	if err != nil {
		return nil, harn.ThrowValue(harn.Str(label + " must be a list of numbers"))
	}
	out := make([]float64, len(items))
	for i, x := range items {
		f, ok := x.Number()
		if !ok {
			return nil, harn.ThrowValue(harn.Str(fmt.Sprintf("%s[%d] must be a number", label, i)))
		}
		out[i] = f
	}
	return out, nil
}

func floats(xs []float64) harn.Value {
	out := make([]harn.Value, len(xs))
	for i, x := range xs {
		out[i] = harn.Float(x)
	}
	return harn.NewListValue(out)
}

func num(v harn.Value, label string) (float64, error) {
	f, ok := v.Number()
	if !ok {
		return 0, harn.ThrowValue(harn.Str(label + " must be a number"))
	}
	return f, nil
}

func stdMath() map[string]harn.BuiltinFunc {
	list := func(f func(c *harn.Call, xs []float64, args []harn.Value) (harn.Value, error)) harn.BuiltinFunc {
		return func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			xs, err := numbers(c, harn.Arg(args, 0), "items")
			if err != nil {
				return harn.Nil, err
			}
			return f(c, xs, args)
		}
	}
	nonEmpty := func(xs []float64) error {
		if len(xs) == 0 {
			return harn.ThrowValue(harn.Str("items must not be empty"))
		}
		return nil
	}
	variance := func(xs []float64, sample bool) float64 {
		m := mean(xs)
		var ss float64
		for _, x := range xs {
			ss += (x - m) * (x - m)
		}
		n := float64(len(xs))
		if sample && n > 1 {
			return ss / (n - 1)
		}
		return ss / n
	}
	// sampleOK refuses a sample statistic (n-1 in the denominator) over
	// fewer than two values, naming the statistic as upstream does.
	sampleOK := func(stat string, xs []float64, sample bool) error {
		if sample && len(xs) < 2 {
			return harn.ThrowValue(harn.Str("sample " + stat + " requires at least 2 values"))
		}
		return nil
	}
	// paired reads covariance's and correlation's xs and ys: non-empty
	// lists of numbers of one length.
	paired := func(c *harn.Call, args []harn.Value) ([]float64, []float64, error) {
		xs, err := numbers(c, harn.Arg(args, 0), "xs")
		if err != nil {
			return nil, nil, err
		}
		ys, err := numbers(c, harn.Arg(args, 1), "ys")
		if err != nil {
			return nil, nil, err
		}
		switch {
		case len(xs) == 0:
			return nil, nil, harn.ThrowValue(harn.Str("xs must not be empty"))
		case len(ys) == 0:
			return nil, nil, harn.ThrowValue(harn.Str("ys must not be empty"))
		case len(xs) != len(ys):
			return nil, nil, harn.ThrowValue(harn.Str("xs and ys must have the same length"))
		}
		return xs, ys, nil
	}
	vec2 := func(c *harn.Call, args []harn.Value) ([]float64, []float64, error) {
		a, err := numbers(c, harn.Arg(args, 0), "a")
		if err != nil {
			return nil, nil, err
		}
		b, err := numbers(c, harn.Arg(args, 1), "b")
		if err != nil {
			return nil, nil, err
		}
		if len(a) != len(b) {
			return nil, nil, harn.ThrowValue(harn.Str("vectors must have the same length"))
		}
		return a, b, nil
	}
	score := func(c *harn.Call, items []harn.Value, fn harn.Value) ([]float64, error) {
		out := make([]float64, len(items))
		for i, x := range items {
			v := x
			if fn.Callable() {
				r, err := c.Invoke(fn, x)
				if err != nil {
					return nil, err
				}
				v = r
			}
			f, ok := v.Number()
			if !ok {
				return nil, harn.ThrowValue(harn.Str("scores must be numbers"))
			}
			out[i] = f
		}
		return out, nil
	}
	argsort := func(c *harn.Call, args []harn.Value, desc bool) ([]int, []harn.Value, error) {
		items, err := c.Collect(harn.Arg(args, 0))
		if err != nil {
			return nil, nil, err
		}
		fn := harn.Arg(args, 1)
		if !desc {
			fn = harn.Arg(args, 1)
		}
		sc, err := score(c, items, fn)
		if err != nil {
			return nil, nil, err
		}
		idx := make([]int, len(items))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool {
			if desc {
				return sc[idx[a]] > sc[idx[b]]
			}
			return sc[idx[a]] < sc[idx[b]]
		})
		return idx, items, nil
	}
	return map[string]harn.BuiltinFunc{
		"clamp": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			v, lo, hi := harn.Arg(args, 0), harn.Arg(args, 1), harn.Arg(args, 2)
			if x, _ := harn.Compare(v, lo); x < 0 {
				return lo, nil
			}
			if x, _ := harn.Compare(v, hi); x > 0 {
				return hi, nil
			}
			return v, nil
		},
		"lerp": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			// a + (b - a) * t with the language's arithmetic, so ints stay
			// ints when t is an int.
			d, err := harn.Sub(harn.Arg(args, 1), harn.Arg(args, 0))
			if err != nil {
				return harn.Nil, err
			}
			if d, err = harn.Mul(d, harn.Arg(args, 2)); err != nil {
				return harn.Nil, err
			}
			return harn.Add(harn.Arg(args, 0), d)
		},
		"map_range": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			v, _ := harn.Arg(args, 0).Number()
			il, _ := harn.Arg(args, 1).Number()
			ih, _ := harn.Arg(args, 2).Number()
			ol, _ := harn.Arg(args, 3).Number()
			oh, _ := harn.Arg(args, 4).Number()
			if ih == il {
				return harn.Nil, harn.ThrowValue(harn.Str("input range must not be empty"))
			}
			return harn.Float(ol + (v-il)/(ih-il)*(oh-ol)), nil
		},
		"deg_to_rad": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			d, err := num(harn.Arg(args, 0), "degrees")
			return harn.Float(d * math.Pi / 180), err
		},
		"rad_to_deg": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			r, err := num(harn.Arg(args, 0), "radians")
			return harn.Float(r * 180 / math.Pi), err
		},
		"sum": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			items, err := c.Collect(harn.Arg(args, 0))
			if err != nil {
				return harn.Nil, err
			}
			return harn.Sum(items), nil
		},
		"avg": list(func(c *harn.Call, xs []float64, _ []harn.Value) (harn.Value, error) {
			if len(xs) == 0 {
				return harn.Float(0), nil
			}
			return harn.Float(mean(xs)), nil
		}),
		"mean": list(func(c *harn.Call, xs []float64, _ []harn.Value) (harn.Value, error) {
			if err := nonEmpty(xs); err != nil {
				return harn.Nil, err
			}
			return harn.Float(mean(xs)), nil
		}),
		"median": list(func(c *harn.Call, xs []float64, args []harn.Value) (harn.Value, error) {
			if err := nonEmpty(xs); err != nil {
				return harn.Nil, err
			}
			s := append([]float64(nil), xs...)
			sort.Float64s(s)
			n := len(s)
			if n%2 == 1 {
				// The middle element itself (an int stays an int).
				items, _ := c.Collect(harn.Arg(args, 0))
				for _, v := range items {
					if f, _ := v.Number(); f == s[n/2] {
						return v, nil
					}
				}
			}
			return harn.Float((s[n/2-1] + s[n/2]) / 2), nil
		}),
		"percentile": list(func(c *harn.Call, xs []float64, args []harn.Value) (harn.Value, error) {
			if err := nonEmpty(xs); err != nil {
				return harn.Nil, err
			}
			p, err := num(harn.Arg(args, 1), "p")
			if err != nil {
				return harn.Nil, err
			}
			if p < 0 || p > 100 {
				return harn.Nil, harn.ThrowValue(harn.Str("percentile must be between 0 and 100"))
			}
			s := append([]float64(nil), xs...)
			sort.Float64s(s)
			rank := p / 100 * float64(len(s)-1)
			lo := int(math.Floor(rank))
			hi := min(lo+1, len(s)-1)
			return harn.Float(s[lo] + (rank-float64(lo))*(s[hi]-s[lo])), nil
		}),
		"variance": list(func(c *harn.Call, xs []float64, args []harn.Value) (harn.Value, error) {
			if err := nonEmpty(xs); err != nil {
				return harn.Nil, err
			}
			if err := sampleOK("variance", xs, harn.Arg(args, 1).Truthy()); err != nil {
				return harn.Nil, err
			}
			return harn.Float(variance(xs, harn.Arg(args, 1).Truthy())), nil
		}),
		"stddev": list(func(c *harn.Call, xs []float64, args []harn.Value) (harn.Value, error) {
			if err := nonEmpty(xs); err != nil {
				return harn.Nil, err
			}
			if err := sampleOK("variance", xs, harn.Arg(args, 1).Truthy()); err != nil {
				return harn.Nil, err
			}
			return harn.Float(math.Sqrt(variance(xs, harn.Arg(args, 1).Truthy()))), nil
		}),
		"minmax_scale": list(func(c *harn.Call, xs []float64, _ []harn.Value) (harn.Value, error) {
			if len(xs) == 0 {
				return harn.NewListValue(nil), nil
			}
			lo, hi := xs[0], xs[0]
			for _, x := range xs {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
			out := make([]float64, len(xs))
			for i, x := range xs {
				if hi > lo {
					out[i] = (x - lo) / (hi - lo)
				}
			}
			return floats(out), nil
		}),
		"zscore": list(func(c *harn.Call, xs []float64, args []harn.Value) (harn.Value, error) {
			if len(xs) == 0 {
				return harn.NewListValue(nil), nil
			}
			m, sd := mean(xs), math.Sqrt(variance(xs, harn.Arg(args, 1).Truthy()))
			out := make([]float64, len(xs))
			for i, x := range xs {
				if sd > 0 {
					out[i] = (x - m) / sd
				}
			}
			return floats(out), nil
		}),
		"weighted_mean": list(func(c *harn.Call, xs []float64, args []harn.Value) (harn.Value, error) {
			ws, err := numbers(c, harn.Arg(args, 1), "weights")
			if err != nil {
				return harn.Nil, err
			}
			if len(ws) != len(xs) {
				return harn.Nil, harn.ThrowValue(harn.Str("items and weights must have the same length"))
			}
			var num, den float64
			for i := range xs {
				num += xs[i] * ws[i]
				den += ws[i]
			}
			if den <= 0 {
				return harn.Nil, harn.ThrowValue(harn.Str("weights must sum to a positive value"))
			}
			return harn.Float(num / den), nil
		}),
		"weighted_choice": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			items, err := c.Collect(harn.Arg(args, 0))
			if err != nil || len(items) == 0 {
				return harn.Nil, harn.ThrowValue(harn.Str("items must not be empty"))
			}
			ws := make([]float64, len(items))
			for i := range ws {
				ws[i] = 1
			}
			if w := harn.Arg(args, 1); w.Kind() != harn.KindNil {
				if ws, err = numbers(c, w, "weights"); err != nil {
					return harn.Nil, err
				}
			}
			var total float64
			for _, w := range ws {
				total += w
			}
			if total <= 0 {
				return harn.Nil, harn.ThrowValue(harn.Str("weights must sum to a positive value"))
			}
			r := c.Interp().Host().Float64() * total
			for i, w := range ws {
				if r < w {
					return items[i], nil
				}
				r -= w
			}
			return items[len(items)-1], nil
		},
		"softmax": list(func(c *harn.Call, xs []float64, args []harn.Value) (harn.Value, error) {
			t := 1.0
			if v := harn.Arg(args, 1); v.Kind() != harn.KindNil {
				var err error
				if t, err = num(v, "temperature"); err != nil {
					return harn.Nil, err
				}
			}
			if t <= 0 {
				return harn.Nil, harn.ThrowValue(harn.Str("temperature must be greater than 0"))
			}
			if len(xs) == 0 {
				return harn.NewListValue(nil), nil
			}
			mx := xs[0]
			for _, x := range xs {
				mx = math.Max(mx, x)
			}
			out := make([]float64, len(xs))
			var sum float64
			for i, x := range xs {
				out[i] = math.Exp((x - mx) / t)
				sum += out[i]
			}
			for i := range out {
				out[i] /= sum
			}
			return floats(out), nil
		}),
		"argsort": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			idx, _, err := argsort(c, args, false)
			if err != nil {
				return harn.Nil, err
			}
			out := make([]harn.Value, len(idx))
			for i, j := range idx {
				out[i] = harn.Int(int64(j))
			}
			return harn.NewListValue(out), nil
		},
		"top_k": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			k := harn.IntArg(harn.Arg(args, 1), 0)
			idx, items, err := argsort(c, []harn.Value{harn.Arg(args, 0), harn.Arg(args, 2)}, true)
			if err != nil {
				return harn.Nil, err
			}
			k = max(0, min(k, int64(len(idx))))
			out := make([]harn.Value, k)
			for i := int64(0); i < k; i++ {
				out[i] = items[idx[i]]
			}
			return harn.NewListValue(out), nil
		},
		"normal_pdf": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			x, mu, sigma, err := normalArgs(args)
			if err != nil {
				return harn.Nil, err
			}
			z := (x - mu) / sigma
			return harn.Float(math.Exp(-0.5*z*z) / (sigma * math.Sqrt(2*math.Pi))), nil
		},
		"normal_cdf": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			x, mu, sigma, err := normalArgs(args)
			if err != nil {
				return harn.Nil, err
			}
			return harn.Float(0.5 * (1 + math.Erf((x-mu)/(sigma*math.Sqrt2)))), nil
		},
		"normal_quantile": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			p, mu, sigma, err := normalArgs(args)
			if err != nil {
				return harn.Nil, err
			}
			if p <= 0 || p >= 1 {
				return harn.Nil, harn.ThrowValue(harn.Str("probability must be between 0 and 1 (exclusive)"))
			}
			return harn.Float(mu + sigma*math.Sqrt2*math.Erfinv(2*p-1)), nil
		},
		"dot": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			a, b, err := vec2(c, args)
			if err != nil {
				return harn.Nil, err
			}
			var s float64
			for i := range a {
				s += a[i] * b[i]
			}
			return harn.Float(s), nil
		},
		"vector_norm": list(func(c *harn.Call, xs []float64, _ []harn.Value) (harn.Value, error) {
			var s float64
			for _, x := range xs {
				s += x * x
			}
			return harn.Float(math.Sqrt(s)), nil
		}),
		"vector_normalize": list(func(c *harn.Call, xs []float64, _ []harn.Value) (harn.Value, error) {
			var s float64
			for _, x := range xs {
				s += x * x
			}
			n := math.Sqrt(s)
			if n == 0 {
				return harn.Nil, harn.ThrowValue(harn.Str("cannot normalize a zero vector"))
			}
			out := make([]float64, len(xs))
			for i, x := range xs {
				out[i] = x / n
			}
			return floats(out), nil
		}),
		"cosine_similarity": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			a, b, err := vec2(c, args)
			if err != nil {
				return harn.Nil, err
			}
			var d, na, nb float64
			for i := range a {
				d += a[i] * b[i]
				na += a[i] * a[i]
				nb += b[i] * b[i]
			}
			if na == 0 || nb == 0 {
				return harn.Nil, harn.ThrowValue(harn.Str("cosine similarity requires non-zero vectors"))
			}
			return harn.Float(d / (math.Sqrt(na) * math.Sqrt(nb))), nil
		},
		"euclidean_distance": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			a, b, err := vec2(c, args)
			if err != nil {
				return harn.Nil, err
			}
			var s float64
			for i := range a {
				s += (a[i] - b[i]) * (a[i] - b[i])
			}
			return harn.Float(math.Sqrt(s)), nil
		},
		"manhattan_distance": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			a, b, err := vec2(c, args)
			if err != nil {
				return harn.Nil, err
			}
			var s float64
			for i := range a {
				s += math.Abs(a[i] - b[i])
			}
			return harn.Float(s), nil
		},
		"chebyshev_distance": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			a, b, err := vec2(c, args)
			if err != nil {
				return harn.Nil, err
			}
			var s float64
			for i := range a {
				s = math.Max(s, math.Abs(a[i]-b[i]))
			}
			return harn.Float(s), nil
		},
		"covariance": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			a, b, err := paired(c, args)
			if err != nil {
				return harn.Nil, err
			}
			s := harn.Arg(args, 2).Truthy()
			if err := sampleOK("covariance", a, s); err != nil {
				return harn.Nil, err
			}
			return harn.Float(covariance(a, b, s)), nil
		},
		"correlation": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			a, b, err := paired(c, args)
			if err != nil {
				return harn.Nil, err
			}
			s := harn.Arg(args, 2).Truthy()
			if err := sampleOK("correlation", a, s); err != nil {
				return harn.Nil, err
			}
			d := math.Sqrt(variance(a, s) * variance(b, s))
			if d == 0 {
				return harn.Nil, harn.ThrowValue(harn.Str("correlation requires non-constant inputs"))
			}
			return harn.Float(covariance(a, b, s) / d), nil
		},
		"moving_avg": list(func(c *harn.Call, xs []float64, args []harn.Value) (harn.Value, error) {
			if err := nonEmpty(xs); err != nil {
				return harn.Nil, err
			}
			wf, err := num(harn.Arg(args, 1), "window")
			if err != nil {
				return harn.Nil, err
			}
			switch {
			case wf != math.Floor(wf):
				return harn.Nil, harn.ThrowValue(harn.Str("window must be an integer"))
			case wf < 1:
				return harn.Nil, harn.ThrowValue(harn.Str("window must be at least 1"))
			case wf > float64(len(xs)):
				return harn.Nil, harn.ThrowValue(harn.Str("window must not exceed the number of items"))
			}
			w := int(wf)
			var out []float64
			for i := 0; i+w <= len(xs); i++ {
				out = append(out, mean(xs[i:i+w]))
			}
			return floats(out), nil
		}),
		"ema": list(func(c *harn.Call, xs []float64, args []harn.Value) (harn.Value, error) {
			a, err := num(harn.Arg(args, 1), "alpha")
			if err != nil {
				return harn.Nil, err
			}
			out := make([]float64, len(xs))
			for i, x := range xs {
				if i == 0 {
					out[i] = x
				} else {
					out[i] = a*x + (1-a)*out[i-1]
				}
			}
			return floats(out), nil
		}),
		"kmeans": stdKMeans,
	}
}

func covariance(a, b []float64, sample bool) float64 {
	ma, mb := mean(a), mean(b)
	var s float64
	for i := range a {
		s += (a[i] - ma) * (b[i] - mb)
	}
	n := float64(len(a))
	if sample && n > 1 {
		return s / (n - 1)
	}
	return s / n
}

func normalArgs(args []harn.Value) (x, mu, sigma float64, err error) {
	if x, err = num(harn.Arg(args, 0), "x"); err != nil {
		return
	}
	sigma = 1
	if v := harn.Arg(args, 1); v.Kind() != harn.KindNil {
		if mu, err = num(v, "mean"); err != nil {
			return
		}
	}
	if v := harn.Arg(args, 2); v.Kind() != harn.KindNil {
		if sigma, err = num(v, "stddev"); err != nil {
			return
		}
	}
	if sigma <= 0 {
		err = harn.ThrowValue(harn.Str("stddev must be positive"))
	}
	return
}

// stdKMeans is Lloyd's algorithm seeded with the first point and then,
// repeatedly, the point farthest from the chosen centroids; an emptied
// cluster is reseeded with the worst-fitting point.
func stdKMeans(c *harn.Call, args []harn.Value) (harn.Value, error) {
	items, err := c.Collect(harn.Arg(args, 0))
	if err != nil {
		return harn.Nil, harn.ThrowValue(harn.Str("points must be a list"))
	}
	if len(items) == 0 {
		return harn.Nil, harn.ThrowValue(harn.Str("points must not be empty"))
	}
	pts := make([][]float64, len(items))
	for i, it := range items {
		if pts[i], err = numbers(c, it, "point"); err != nil {
			return harn.Nil, err
		}
		switch {
		case len(pts[i]) == 0:
			return harn.Nil, harn.ThrowValue(harn.Str("points must have at least one dimension"))
		case len(pts[i]) != len(pts[0]):
			return harn.Nil, harn.ThrowValue(harn.Str("all points must have the same dimension"))
		}
	}
	k := int(harn.IntArg(harn.Arg(args, 1), 0))
	switch {
	case k < 1:
		return harn.Nil, harn.ThrowValue(harn.Str("k must be at least 1"))
	case k > len(pts):
		return harn.Nil, harn.ThrowValue(harn.Str("k must not exceed the number of points"))
	}
	maxIter := 100
	if o := harn.Arg(args, 2); o.Kind() == harn.KindDict {
		if m := harn.OptInt(o.AsDict(), "max_iterations"); m != nil && *m > 0 {
			maxIter = int(*m)
		}
	}
	dims := len(pts[0])
	dist := func(a, b []float64) float64 {
		var s float64
		for i := range a {
			s += (a[i] - b[i]) * (a[i] - b[i])
		}
		return s
	}
	nearest := func(p []float64, cs [][]float64) (int, float64) {
		best, bd := 0, dist(p, cs[0])
		for i := 1; i < len(cs); i++ {
			if d := dist(p, cs[i]); d < bd {
				best, bd = i, d
			}
		}
		return best, bd
	}
	cents := [][]float64{append([]float64(nil), pts[0]...)}
	for len(cents) < k {
		far, fd := 0, -1.0
		for i, p := range pts {
			if _, d := nearest(p, cents); d > fd {
				far, fd = i, d
			}
		}
		cents = append(cents, append([]float64(nil), pts[far]...))
	}
	var assign []int
	var counts []int
	var inertia float64
	iterations, converged := 0, false
	for iterations < maxIter {
		next := make([]int, len(pts))
		errs := make([]float64, len(pts))
		inertia = 0
		for i, p := range pts {
			next[i], errs[i] = nearest(p, cents)
			inertia += errs[i]
		}
		sums := make([][]float64, k)
		counts = make([]int, k)
		for j := range sums {
			sums[j] = make([]float64, dims)
		}
		for i, p := range pts {
			counts[next[i]]++
			for d := range p {
				sums[next[i]][d] += p[d]
			}
		}
		for j := range cents {
			if counts[j] == 0 {
				worst := 0
				for i := range errs {
					if errs[i] > errs[worst] {
						worst = i
					}
				}
				cents[j] = append([]float64(nil), pts[worst]...)
				continue
			}
			for d := range sums[j] {
				cents[j][d] = sums[j][d] / float64(counts[j])
			}
		}
		iterations++
		same := assign != nil && len(assign) == len(next)
		for i := range next {
			same = same && assign[i] == next[i]
		}
		assign = next
		if same {
			converged = true
			break
		}
	}
	if !converged {
		counts = make([]int, k)
		inertia = 0
		for i, p := range pts {
			var d float64
			assign[i], d = nearest(p, cents)
			inertia += d
			counts[assign[i]]++
		}
	}
	res := harn.NewDict(6)
	cv := make([]harn.Value, k)
	for j, ce := range cents {
		cv[j] = floats(ce)
	}
	res.Set("centroids", harn.NewListValue(cv))
	av := make([]harn.Value, len(assign))
	for i, a := range assign {
		av[i] = harn.Int(int64(a))
	}
	res.Set("assignments", harn.NewListValue(av))
	cnt := make([]harn.Value, k)
	for j, n := range counts {
		cnt[j] = harn.Int(int64(n))
	}
	res.Set("counts", harn.NewListValue(cnt))
	res.Set("iterations", harn.Int(int64(iterations)))
	res.Set("converged", harn.Bool(converged))
	res.Set("inertia", harn.Float(inertia))
	return harn.DictValue(res), nil
}
