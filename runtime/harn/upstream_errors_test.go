package harn

import (
	"strings"
	"testing"
)

// TestUpstreamErrorTexts pins the run-time errors whose words upstream
// Harn's conformance `.error` files match: each program must fail with a
// message containing want, and the near-miss programs beside them (a var
// assigned, a window that fits) must still run.
// Programs run unchecked here, as with --no-check.
func TestUpstreamErrorTexts(t *testing.T) {
	cases := []struct {
		name, src, want string // want "" means the program runs
	}{
		{"let assigned", "let x = 1\nx = 2\n", "Cannot assign to immutable binding: x"},
		{"let compound", "let x = 1\nx += 2\n", "Cannot assign to immutable binding: x"},
		{"let in pipeline", "pipeline p(task) {\n  let n = 1\n  n = 3\n}\n", "Cannot assign to immutable binding: n"},
		{"let captured", "let n = 1\nfn f() { n = 2 }\nf()\n", "Cannot assign to immutable binding: n"},
		{"let destructured", "let {a} = {a: 1}\na = 2\n", "Cannot assign to immutable binding: a"},
		{"var assigned", "var x = 1\nx = 2\nx += 1\nlog(x)\n", ""},
		// Upstream's VM writes a field back through the binding, so a let
		// refuses it too.
		{"let field written", "let p = {a: 1}\np.a = 2\n", "Cannot assign to immutable binding: p"},
		{"var field written", "var p = {a: 1}\np.a = 2\nlog(p.a)\n", ""},
		{"json_validate required", `json_validate({name: "a"}, {type: "dict", required: ["name", "age"]})`, "missing required key 'age'"},
		{"json_validate type", `json_validate(42, {type: "string"})`, "expected type 'string', got 'int'"},
		{"json_validate ok", `log(json_validate("a", {type: "string"}))`, ""},
		{"moving_avg window too wide", "import \"std/math\"\nmoving_avg([1, 2], 3)\n", "window must not exceed the number of items"},
		{"moving_avg window zero", "import \"std/math\"\nmoving_avg([1, 2], 0)\n", "window must be at least 1"},
		{"moving_avg window fits", "import \"std/math\"\nlog(moving_avg([1, 2], 2))\n", ""},
		{"sample variance of one", "import \"std/math\"\nvariance([1], true)\n", "sample variance requires at least 2 values"},
		{"sample stddev of one", "import \"std/math\"\nstddev([1], true)\n", "sample variance requires at least 2 values"},
		{"population variance of one", "import \"std/math\"\nlog(variance([1]))\n", ""},
		{"softmax zero temperature", "import \"std/math\"\nsoftmax([1, 2, 3], 0)\n", "temperature must be greater than 0"},
		{"softmax default temperature", "import \"std/math\"\nlog(len(softmax([1, 2])))\n", ""},
		{"covariance lengths", "import \"std/math\"\ncovariance([1, 2], [1])\n", "xs and ys must have the same length"},
		{"sample covariance of one", "import \"std/math\"\ncovariance([1], [2], true)\n", "sample covariance requires at least 2 values"},
		{"correlation constant", "import \"std/math\"\ncorrelation([1, 1, 1], [1, 2, 3])\n", "correlation requires non-constant inputs"},
		{"dot lengths", "import \"std/math\"\ndot([1, 2], [1, 2, 3])\n", "vectors must have the same length"},
		{"kmeans dimensions", "import \"std/math\"\nkmeans([[1, 2], [3]], 1)\n", "all points must have the same dimension"},
		{"kmeans k zero", "import \"std/math\"\nkmeans([[1, 2]], 0)\n", "k must be at least 1"},
		{"kmeans k too big", "import \"std/math\"\nkmeans([[1, 2]], 2)\n", "k must not exceed the number of points"},
		{"percentile range", "import \"std/math\"\npercentile([1, 2, 3], 101)\n", "percentile must be between 0 and 100"},
		{"weighted_choice zero", "import \"std/math\"\nweighted_choice([\"a\", \"b\"], [0, 0])\n", "weights must sum to a positive value"},
		{"weighted_mean zero", "import \"std/math\"\nweighted_mean([1, 2], [0, 0])\n", "weights must sum to a positive value"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runSource(t, tc.src, runOpts{})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("want a clean run, got %v (output %q)", err, out)
				}
				return
			}
			if err == nil {
				t.Fatalf("want an error containing %q, the program ran (output %q)", tc.want, out)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not contain %q", err.Error(), tc.want)
			}
		})
	}
}
