package harn

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Embedded standard modules (`import "std/math"`), implemented natively.
// Each module is a set of builtins exported under their names; a module
// this runtime does not provide is an import error saying so.

type stdFn = func(c *Call, args []Value) (Value, error)

func installStd(lib *Library) {
	for spec, build := range map[string]func() map[string]stdFn{
		"std/math":        stdMath,
		"std/json":        stdJSON,
		"std/schema":      stdSchema,
		"std/collections": stdCollections,
	} {
		lib.StdModule(spec, build())
	}
}

func (in *Interp) stdModule(spec string) (*module, error) {
	if m, ok := in.registeredStdModule(spec); ok {
		return m, nil
	}
	return nil, fmt.Errorf("not available in this runtime: module %s (provided: %s)", spec, strings.Join(in.lib.StdModules(), ", "))
}

// numbers reads a list of numbers for a std/math function.
func numbers(c *Call, v Value, label string) ([]float64, error) {
	items, err := c.th.collect(v)
	if err != nil {
		return nil, throwValue(Str(label + " must be a list of numbers"))
	}
	out := make([]float64, len(items))
	for i, x := range items {
		f, ok := x.Number()
		if !ok {
			return nil, throwValue(Str(fmt.Sprintf("%s[%d] must be a number", label, i)))
		}
		out[i] = f
	}
	return out, nil
}

func floats(xs []float64) Value {
	out := make([]Value, len(xs))
	for i, x := range xs {
		out[i] = Float(x)
	}
	return NewListValue(out)
}

func num(v Value, label string) (float64, error) {
	f, ok := v.Number()
	if !ok {
		return 0, throwValue(Str(label + " must be a number"))
	}
	return f, nil
}

func stdMath() map[string]stdFn {
	list := func(f func(c *Call, xs []float64, args []Value) (Value, error)) stdFn {
		return func(c *Call, args []Value) (Value, error) {
			xs, err := numbers(c, Arg(args, 0), "items")
			if err != nil {
				return Nil, err
			}
			return f(c, xs, args)
		}
	}
	nonEmpty := func(xs []float64) error {
		if len(xs) == 0 {
			return throwValue(Str("items must not be empty"))
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
			return throwValue(Str("sample " + stat + " requires at least 2 values"))
		}
		return nil
	}
	// paired reads covariance's and correlation's xs and ys: non-empty
	// lists of numbers of one length.
	paired := func(c *Call, args []Value) ([]float64, []float64, error) {
		xs, err := numbers(c, Arg(args, 0), "xs")
		if err != nil {
			return nil, nil, err
		}
		ys, err := numbers(c, Arg(args, 1), "ys")
		if err != nil {
			return nil, nil, err
		}
		switch {
		case len(xs) == 0:
			return nil, nil, throwValue(Str("xs must not be empty"))
		case len(ys) == 0:
			return nil, nil, throwValue(Str("ys must not be empty"))
		case len(xs) != len(ys):
			return nil, nil, throwValue(Str("xs and ys must have the same length"))
		}
		return xs, ys, nil
	}
	vec2 := func(c *Call, args []Value) ([]float64, []float64, error) {
		a, err := numbers(c, Arg(args, 0), "a")
		if err != nil {
			return nil, nil, err
		}
		b, err := numbers(c, Arg(args, 1), "b")
		if err != nil {
			return nil, nil, err
		}
		if len(a) != len(b) {
			return nil, nil, throwValue(Str("vectors must have the same length"))
		}
		return a, b, nil
	}
	score := func(c *Call, items []Value, fn Value) ([]float64, error) {
		out := make([]float64, len(items))
		for i, x := range items {
			v := x
			if isCallable(fn) {
				r, err := c.th.call1(fn, x)
				if err != nil {
					return nil, err
				}
				v = r
			}
			f, ok := v.Number()
			if !ok {
				return nil, throwValue(Str("scores must be numbers"))
			}
			out[i] = f
		}
		return out, nil
	}
	argsort := func(c *Call, args []Value, desc bool) ([]int, []Value, error) {
		items, err := c.th.collect(Arg(args, 0))
		if err != nil {
			return nil, nil, err
		}
		fn := Arg(args, 1)
		if !desc {
			fn = Arg(args, 1)
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
	return map[string]stdFn{
		"clamp": func(c *Call, args []Value) (Value, error) {
			v, lo, hi := Arg(args, 0), Arg(args, 1), Arg(args, 2)
			if x, _ := Compare(v, lo); x < 0 {
				return lo, nil
			}
			if x, _ := Compare(v, hi); x > 0 {
				return hi, nil
			}
			return v, nil
		},
		"lerp": func(c *Call, args []Value) (Value, error) {
			// a + (b - a) * t with the language's arithmetic, so ints stay
			// ints when t is an int.
			d, err := opSub(Arg(args, 1), Arg(args, 0))
			if err != nil {
				return Nil, err
			}
			if d, err = opMul(d, Arg(args, 2)); err != nil {
				return Nil, err
			}
			return opAdd(Arg(args, 0), d)
		},
		"map_range": func(c *Call, args []Value) (Value, error) {
			v, _ := Arg(args, 0).Number()
			il, _ := Arg(args, 1).Number()
			ih, _ := Arg(args, 2).Number()
			ol, _ := Arg(args, 3).Number()
			oh, _ := Arg(args, 4).Number()
			if ih == il {
				return Nil, throwValue(Str("input range must not be empty"))
			}
			return Float(ol + (v-il)/(ih-il)*(oh-ol)), nil
		},
		"deg_to_rad": func(c *Call, args []Value) (Value, error) {
			d, err := num(Arg(args, 0), "degrees")
			return Float(d * math.Pi / 180), err
		},
		"rad_to_deg": func(c *Call, args []Value) (Value, error) {
			r, err := num(Arg(args, 0), "radians")
			return Float(r * 180 / math.Pi), err
		},
		"sum": func(c *Call, args []Value) (Value, error) {
			items, err := c.th.collect(Arg(args, 0))
			if err != nil {
				return Nil, err
			}
			return sumValues(items), nil
		},
		"avg": list(func(c *Call, xs []float64, _ []Value) (Value, error) {
			if len(xs) == 0 {
				return Float(0), nil
			}
			return Float(mean(xs)), nil
		}),
		"mean": list(func(c *Call, xs []float64, _ []Value) (Value, error) {
			if err := nonEmpty(xs); err != nil {
				return Nil, err
			}
			return Float(mean(xs)), nil
		}),
		"median": list(func(c *Call, xs []float64, args []Value) (Value, error) {
			if err := nonEmpty(xs); err != nil {
				return Nil, err
			}
			s := append([]float64(nil), xs...)
			sort.Float64s(s)
			n := len(s)
			if n%2 == 1 {
				// The middle element itself (an int stays an int).
				items, _ := c.th.collect(Arg(args, 0))
				for _, v := range items {
					if f, _ := v.Number(); f == s[n/2] {
						return v, nil
					}
				}
			}
			return Float((s[n/2-1] + s[n/2]) / 2), nil
		}),
		"percentile": list(func(c *Call, xs []float64, args []Value) (Value, error) {
			if err := nonEmpty(xs); err != nil {
				return Nil, err
			}
			p, err := num(Arg(args, 1), "p")
			if err != nil {
				return Nil, err
			}
			if p < 0 || p > 100 {
				return Nil, throwValue(Str("percentile must be between 0 and 100"))
			}
			s := append([]float64(nil), xs...)
			sort.Float64s(s)
			rank := p / 100 * float64(len(s)-1)
			lo := int(math.Floor(rank))
			hi := min(lo+1, len(s)-1)
			return Float(s[lo] + (rank-float64(lo))*(s[hi]-s[lo])), nil
		}),
		"variance": list(func(c *Call, xs []float64, args []Value) (Value, error) {
			if err := nonEmpty(xs); err != nil {
				return Nil, err
			}
			if err := sampleOK("variance", xs, Arg(args, 1).Truthy()); err != nil {
				return Nil, err
			}
			return Float(variance(xs, Arg(args, 1).Truthy())), nil
		}),
		"stddev": list(func(c *Call, xs []float64, args []Value) (Value, error) {
			if err := nonEmpty(xs); err != nil {
				return Nil, err
			}
			if err := sampleOK("variance", xs, Arg(args, 1).Truthy()); err != nil {
				return Nil, err
			}
			return Float(math.Sqrt(variance(xs, Arg(args, 1).Truthy()))), nil
		}),
		"minmax_scale": list(func(c *Call, xs []float64, _ []Value) (Value, error) {
			if len(xs) == 0 {
				return NewListValue(nil), nil
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
		"zscore": list(func(c *Call, xs []float64, args []Value) (Value, error) {
			if len(xs) == 0 {
				return NewListValue(nil), nil
			}
			m, sd := mean(xs), math.Sqrt(variance(xs, Arg(args, 1).Truthy()))
			out := make([]float64, len(xs))
			for i, x := range xs {
				if sd > 0 {
					out[i] = (x - m) / sd
				}
			}
			return floats(out), nil
		}),
		"weighted_mean": list(func(c *Call, xs []float64, args []Value) (Value, error) {
			ws, err := numbers(c, Arg(args, 1), "weights")
			if err != nil {
				return Nil, err
			}
			if len(ws) != len(xs) {
				return Nil, throwValue(Str("items and weights must have the same length"))
			}
			var num, den float64
			for i := range xs {
				num += xs[i] * ws[i]
				den += ws[i]
			}
			if den <= 0 {
				return Nil, throwValue(Str("weights must sum to a positive value"))
			}
			return Float(num / den), nil
		}),
		"weighted_choice": func(c *Call, args []Value) (Value, error) {
			items, err := c.th.collect(Arg(args, 0))
			if err != nil || len(items) == 0 {
				return Nil, throwValue(Str("items must not be empty"))
			}
			ws := make([]float64, len(items))
			for i := range ws {
				ws[i] = 1
			}
			if w := Arg(args, 1); w.k != KindNil {
				if ws, err = numbers(c, w, "weights"); err != nil {
					return Nil, err
				}
			}
			var total float64
			for _, w := range ws {
				total += w
			}
			if total <= 0 {
				return Nil, throwValue(Str("weights must sum to a positive value"))
			}
			r := c.th.in.host.Float64() * total
			for i, w := range ws {
				if r < w {
					return items[i], nil
				}
				r -= w
			}
			return items[len(items)-1], nil
		},
		"softmax": list(func(c *Call, xs []float64, args []Value) (Value, error) {
			t := 1.0
			if v := Arg(args, 1); v.k != KindNil {
				var err error
				if t, err = num(v, "temperature"); err != nil {
					return Nil, err
				}
			}
			if t <= 0 {
				return Nil, throwValue(Str("temperature must be greater than 0"))
			}
			if len(xs) == 0 {
				return NewListValue(nil), nil
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
		"argsort": func(c *Call, args []Value) (Value, error) {
			idx, _, err := argsort(c, args, false)
			if err != nil {
				return Nil, err
			}
			out := make([]Value, len(idx))
			for i, j := range idx {
				out[i] = Int(int64(j))
			}
			return NewListValue(out), nil
		},
		"top_k": func(c *Call, args []Value) (Value, error) {
			k := IntArg(Arg(args, 1), 0)
			idx, items, err := argsort(c, []Value{Arg(args, 0), Arg(args, 2)}, true)
			if err != nil {
				return Nil, err
			}
			k = clampInt(k, 0, int64(len(idx)))
			out := make([]Value, k)
			for i := int64(0); i < k; i++ {
				out[i] = items[idx[i]]
			}
			return NewListValue(out), nil
		},
		"normal_pdf": func(c *Call, args []Value) (Value, error) {
			x, mu, sigma, err := normalArgs(args)
			if err != nil {
				return Nil, err
			}
			z := (x - mu) / sigma
			return Float(math.Exp(-0.5*z*z) / (sigma * math.Sqrt(2*math.Pi))), nil
		},
		"normal_cdf": func(c *Call, args []Value) (Value, error) {
			x, mu, sigma, err := normalArgs(args)
			if err != nil {
				return Nil, err
			}
			return Float(0.5 * (1 + math.Erf((x-mu)/(sigma*math.Sqrt2)))), nil
		},
		"normal_quantile": func(c *Call, args []Value) (Value, error) {
			p, mu, sigma, err := normalArgs(args)
			if err != nil {
				return Nil, err
			}
			if p <= 0 || p >= 1 {
				return Nil, throwValue(Str("probability must be between 0 and 1 (exclusive)"))
			}
			return Float(mu + sigma*math.Sqrt2*math.Erfinv(2*p-1)), nil
		},
		"dot": func(c *Call, args []Value) (Value, error) {
			a, b, err := vec2(c, args)
			if err != nil {
				return Nil, err
			}
			var s float64
			for i := range a {
				s += a[i] * b[i]
			}
			return Float(s), nil
		},
		"vector_norm": list(func(c *Call, xs []float64, _ []Value) (Value, error) {
			var s float64
			for _, x := range xs {
				s += x * x
			}
			return Float(math.Sqrt(s)), nil
		}),
		"vector_normalize": list(func(c *Call, xs []float64, _ []Value) (Value, error) {
			var s float64
			for _, x := range xs {
				s += x * x
			}
			n := math.Sqrt(s)
			if n == 0 {
				return Nil, throwValue(Str("cannot normalize a zero vector"))
			}
			out := make([]float64, len(xs))
			for i, x := range xs {
				out[i] = x / n
			}
			return floats(out), nil
		}),
		"cosine_similarity": func(c *Call, args []Value) (Value, error) {
			a, b, err := vec2(c, args)
			if err != nil {
				return Nil, err
			}
			var d, na, nb float64
			for i := range a {
				d += a[i] * b[i]
				na += a[i] * a[i]
				nb += b[i] * b[i]
			}
			if na == 0 || nb == 0 {
				return Nil, throwValue(Str("cosine similarity requires non-zero vectors"))
			}
			return Float(d / (math.Sqrt(na) * math.Sqrt(nb))), nil
		},
		"euclidean_distance": func(c *Call, args []Value) (Value, error) {
			a, b, err := vec2(c, args)
			if err != nil {
				return Nil, err
			}
			var s float64
			for i := range a {
				s += (a[i] - b[i]) * (a[i] - b[i])
			}
			return Float(math.Sqrt(s)), nil
		},
		"manhattan_distance": func(c *Call, args []Value) (Value, error) {
			a, b, err := vec2(c, args)
			if err != nil {
				return Nil, err
			}
			var s float64
			for i := range a {
				s += math.Abs(a[i] - b[i])
			}
			return Float(s), nil
		},
		"chebyshev_distance": func(c *Call, args []Value) (Value, error) {
			a, b, err := vec2(c, args)
			if err != nil {
				return Nil, err
			}
			var s float64
			for i := range a {
				s = math.Max(s, math.Abs(a[i]-b[i]))
			}
			return Float(s), nil
		},
		"covariance": func(c *Call, args []Value) (Value, error) {
			a, b, err := paired(c, args)
			if err != nil {
				return Nil, err
			}
			s := Arg(args, 2).Truthy()
			if err := sampleOK("covariance", a, s); err != nil {
				return Nil, err
			}
			return Float(covariance(a, b, s)), nil
		},
		"correlation": func(c *Call, args []Value) (Value, error) {
			a, b, err := paired(c, args)
			if err != nil {
				return Nil, err
			}
			s := Arg(args, 2).Truthy()
			if err := sampleOK("correlation", a, s); err != nil {
				return Nil, err
			}
			d := math.Sqrt(variance(a, s) * variance(b, s))
			if d == 0 {
				return Nil, throwValue(Str("correlation requires non-constant inputs"))
			}
			return Float(covariance(a, b, s) / d), nil
		},
		"moving_avg": list(func(c *Call, xs []float64, args []Value) (Value, error) {
			if err := nonEmpty(xs); err != nil {
				return Nil, err
			}
			wf, err := num(Arg(args, 1), "window")
			if err != nil {
				return Nil, err
			}
			switch {
			case wf != math.Floor(wf):
				return Nil, throwValue(Str("window must be an integer"))
			case wf < 1:
				return Nil, throwValue(Str("window must be at least 1"))
			case wf > float64(len(xs)):
				return Nil, throwValue(Str("window must not exceed the number of items"))
			}
			w := int(wf)
			var out []float64
			for i := 0; i+w <= len(xs); i++ {
				out = append(out, mean(xs[i:i+w]))
			}
			return floats(out), nil
		}),
		"ema": list(func(c *Call, xs []float64, args []Value) (Value, error) {
			a, err := num(Arg(args, 1), "alpha")
			if err != nil {
				return Nil, err
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

func normalArgs(args []Value) (x, mu, sigma float64, err error) {
	if x, err = num(Arg(args, 0), "x"); err != nil {
		return
	}
	sigma = 1
	if v := Arg(args, 1); v.k != KindNil {
		if mu, err = num(v, "mean"); err != nil {
			return
		}
	}
	if v := Arg(args, 2); v.k != KindNil {
		if sigma, err = num(v, "stddev"); err != nil {
			return
		}
	}
	if sigma <= 0 {
		err = throwValue(Str("stddev must be positive"))
	}
	return
}

// stdKMeans is Lloyd's algorithm seeded with the first point and then,
// repeatedly, the point farthest from the chosen centroids; an emptied
// cluster is reseeded with the worst-fitting point.
func stdKMeans(c *Call, args []Value) (Value, error) {
	items, err := c.th.collect(Arg(args, 0))
	if err != nil {
		return Nil, throwValue(Str("points must be a list"))
	}
	if len(items) == 0 {
		return Nil, throwValue(Str("points must not be empty"))
	}
	pts := make([][]float64, len(items))
	for i, it := range items {
		if pts[i], err = numbers(c, it, "point"); err != nil {
			return Nil, err
		}
		switch {
		case len(pts[i]) == 0:
			return Nil, throwValue(Str("points must have at least one dimension"))
		case len(pts[i]) != len(pts[0]):
			return Nil, throwValue(Str("all points must have the same dimension"))
		}
	}
	k := int(IntArg(Arg(args, 1), 0))
	switch {
	case k < 1:
		return Nil, throwValue(Str("k must be at least 1"))
	case k > len(pts):
		return Nil, throwValue(Str("k must not exceed the number of points"))
	}
	maxIter := 100
	if o := Arg(args, 2); o.k == KindDict {
		if m := OptInt(o.r.(*Dict), "max_iterations"); m != nil && *m > 0 {
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
	res := NewDict(6)
	cv := make([]Value, k)
	for j, ce := range cents {
		cv[j] = floats(ce)
	}
	res.Set("centroids", NewListValue(cv))
	av := make([]Value, len(assign))
	for i, a := range assign {
		av[i] = Int(int64(a))
	}
	res.Set("assignments", NewListValue(av))
	cnt := make([]Value, k)
	for j, n := range counts {
		cnt[j] = Int(int64(n))
	}
	res.Set("counts", NewListValue(cnt))
	res.Set("iterations", Int(int64(iterations)))
	res.Set("converged", Bool(converged))
	res.Set("inertia", Float(inertia))
	return DictValue(res), nil
}

func stdJSON() map[string]stdFn {
	return map[string]stdFn{
		"pretty": func(c *Call, args []Value) (Value, error) {
			return c.stringifyJSON("json.pretty", Arg(args, 0))
		},
		"safe_parse": func(c *Call, args []Value) (Value, error) {
			v, err := ParseJSON(Display(Arg(args, 0)))
			if err != nil {
				return Nil, nil
			}
			return v, nil
		},
		"merge": func(c *Call, args []Value) (Value, error) { return opAdd(Arg(args, 0), Arg(args, 1)) },
		"pick": func(c *Call, args []Value) (Value, error) {
			d := Arg(args, 0)
			out := NewDict(0)
			keys, _ := c.th.collect(Arg(args, 1))
			for _, k := range keys {
				if v, _ := indexValue(d, k); v.k != KindNil {
					out.Set(keyString(k), share(v))
				}
			}
			return DictValue(out), nil
		},
		"omit": func(c *Call, args []Value) (Value, error) {
			d := Arg(args, 0)
			if d.k != KindDict {
				return Nil, typeError("omit: expected a dict")
			}
			out := d.r.(*Dict).clone()
			keys, _ := c.th.collect(Arg(args, 1))
			for _, k := range keys {
				out.Delete(keyString(k))
			}
			return DictValue(out), nil
		},
	}
}

func stdCollections() map[string]stdFn {
	return map[string]stdFn{
		"filter_nil": func(c *Call, args []Value) (Value, error) {
			d := Arg(args, 0)
			if d.k != KindDict {
				return Nil, typeError("filter_nil: expected a dict")
			}
			out := NewDict(0)
			for k, v := range d.r.(*Dict).m {
				if v.k == KindNil || v.k == KindString && (v.r.(string) == "" || v.r.(string) == "null") {
					continue
				}
				out.Set(k, share(v))
			}
			return DictValue(out), nil
		},
	}
}

func stdSchema() map[string]stdFn {
	lit := func(pairs ...any) stdFn {
		return func(c *Call, args []Value) (Value, error) {
			d := NewDict(len(pairs) / 2)
			for i := 0; i+1 < len(pairs); i += 2 {
				d.Set(pairs[i].(string), pairs[i+1].(Value))
			}
			return DictValue(d), nil
		}
	}
	extend := func(s Value, pairs ...any) Value {
		d := NewDict(0)
		if s.k == KindDict {
			d = s.r.(*Dict).clone()
		}
		for i := 0; i+1 < len(pairs); i += 2 {
			d.Set(pairs[i].(string), pairs[i+1].(Value))
		}
		return DictValue(d)
	}
	withOpts := func(v Value, o Value) Value {
		if o.k == KindDict {
			r, _ := opAdd(v, o)
			return r
		}
		return v
	}
	alias := func(name string) stdFn {
		return func(c *Call, args []Value) (Value, error) {
			b, _ := c.th.in.builtin(name)
			return b.Fn(&Call{th: c.th, Name: name}, args)
		}
	}
	return map[string]stdFn{
		"schema_any":    lit("type", Str("any")),
		"schema_string": lit("type", Str("string")),
		"schema_int":    lit("type", Str("int")),
		"schema_float":  lit("type", Str("float")),
		"schema_bool":   lit("type", Str("bool")),
		"schema_nil":    lit("type", Str("nil")),
		"schema_literal": func(c *Call, args []Value) (Value, error) {
			return extend(Nil, "const", Arg(args, 0)), nil
		},
		"schema_enum": func(c *Call, args []Value) (Value, error) { return extend(Nil, "enum", Arg(args, 0)), nil },
		"schema_list": func(c *Call, args []Value) (Value, error) {
			v := extend(Nil, "type", Str("list"))
			if it := Arg(args, 0); it.k != KindNil {
				v = extend(v, "items", it)
			}
			return withOpts(v, Arg(args, 1)), nil
		},
		"schema_array": func(c *Call, args []Value) (Value, error) {
			v := extend(Nil, "type", Str("list"))
			if it := Arg(args, 0); it.k != KindNil {
				v = extend(v, "items", it)
			}
			return withOpts(v, Arg(args, 1)), nil
		},
		"schema_dict": func(c *Call, args []Value) (Value, error) {
			v := extend(Nil, "type", Str("dict"))
			if it := Arg(args, 0); it.k != KindNil {
				v = extend(v, "additional_properties", it)
			}
			return withOpts(v, Arg(args, 1)), nil
		},
		"schema_field": func(c *Call, args []Value) (Value, error) {
			req := True
			if len(args) > 1 {
				req = Bool(args[1].Truthy())
			}
			return extend(Arg(args, 0), "required", req), nil
		},
		"schema_object": func(c *Call, args []Value) (Value, error) {
			fields := Arg(args, 0)
			if fields.k != KindDict {
				return Nil, typeError("schema_object: expected a dict of fields")
			}
			props := NewDict(0)
			var req []Value
			for _, k := range fields.r.(*Dict).Keys() {
				fs := fields.r.(*Dict).m[k]
				isReq := true
				if fs.k == KindDict {
					if r, ok := fs.r.(*Dict).Get("required"); ok && r.k == KindBool {
						isReq = r.AsBool()
					}
					d := fs.r.(*Dict).clone()
					d.Delete("required")
					fs = DictValue(d)
				}
				props.Set(k, fs)
				if isReq {
					req = append(req, Str(k))
				}
			}
			v := extend(Nil, "type", Str("dict"), "properties", DictValue(props))
			if len(req) > 0 {
				v = extend(v, "required", NewListValue(req))
			}
			return withOpts(v, Arg(args, 1)), nil
		},
		"schema_union":    func(c *Call, args []Value) (Value, error) { return extend(Nil, "union", Arg(args, 0)), nil },
		"schema_all_of":   func(c *Call, args []Value) (Value, error) { return extend(Nil, "all_of", Arg(args, 0)), nil },
		"schema_nullable": func(c *Call, args []Value) (Value, error) { return extend(Arg(args, 0), "nullable", True), nil },
		"schema_default": func(c *Call, args []Value) (Value, error) {
			return extend(Arg(args, 0), "default", Arg(args, 1), "required", False), nil
		},
		"schema_pick_keys":    alias("schema_pick"),
		"schema_omit_keys":    alias("schema_omit"),
		"schema_partial_deep": alias("schema_partial"),
		"schema_json":         alias("schema_to_json_schema"),
		"schema_openapi":      alias("schema_to_openapi_schema"),
		"from_json_schema":    alias("schema_from_json_schema"),
		"from_openapi_schema": alias("schema_from_openapi_schema"),
		"is_type":             alias("schema_is"),
		"get_typed_result":    alias("schema_parse"),
		"get_typed_value": func(c *Call, args []Value) (Value, error) {
			b, _ := c.th.in.builtin("schema_expect")
			return b.Fn(&Call{th: c.th, Name: "schema_expect"}, args)
		},
	}
}
