package harn

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/harnlang/harn-check/internal/benchprog"
	"github.com/harnlang/harn-check/runtime/execution"
	"github.com/harnlang/harn-check/runtime/host"
)

// The comparison benchmarks run the same algorithm as a Harn program on
// this interpreter and as a Lua program on github.com/yuin/gopher-lua, in
// one process and one run, so their ratio is meaningful (BENCHMARKS.md).
// Each program's main returns a checksum both sides must agree on. The
// Harn side is written the way Harn is written: lists grow with push,
// structs are values (a method returns a new one), closures capture by
// value, so where Lua mutates in place Harn builds a new value.
//
// A program too slow for every test run has a quick variant (the same
// program on smaller inputs) that TestComparisonChecksums runs instead.
type harnComparison struct {
	name      string
	harn, lua string
	want      int64
	quick     *harnComparison
}

var harnComparisons = []harnComparison{
	{"fib", `fn fib(n) {
  if n < 2 {
    return n
  }
  return fib(n - 1) + fib(n - 2)
}

fn main() {
  return fib(25)
}
`, `local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
return fib(25)`, 75025, nil},
	{"loops", `fn main() {
  var s = 0
  for i in 1 to 300000 {
    if i % 3 == 0 {
      s = s + i
    } else {
      s = s - 1
    }
  }
  var n = 0
  while n < 100000 {
    n = n + 1
  }
  return s + n
}
`, `local s = 0
for i = 1, 300000 do
    if i % 3 == 0 then s = s + i else s = s - 1 end
end
local n = 0
while n < 100000 do n = n + 1 end
return s + n`, 15000050000, nil},
	{"string_build", `fn main() {
  var s = ""
  for i in 1 to 2000 {
    s = s + "x"
  }
  var parts = []
  for i in 1 to 20000 {
    parts = parts.push(to_string(i))
  }
  let joined = join(parts, ",")
  return len(s) + len(joined)
}
`, `local s = ""
for i = 1, 2000 do s = s .. "x" end
local parts = {}
for i = 1, 20000 do parts[#parts + 1] = tostring(i) end
local joined = table.concat(parts, ",")
return #s + #joined`, 110893, nil},
	{"list_dict_churn", `fn main() {
  var total = 0
  for r in 1 to 200 {
    var xs = []
    for i in 1 to 200 {
      xs = xs.push(i)
    }
    var d = {}
    for i in 1 to 200 {
      d["k" + to_string(i % 20)] = i
    }
    var i = 199
    while i >= 0 {
      total = total + xs[i]
      xs[i] = nil
      i = i - 1
    }
  }
  return total
}
`, `local total = 0
for r = 1, 200 do
    local t = {}
    for i = 1, 200 do t[i] = i end
    local d = {}
    for i = 1, 200 do d["k" .. (i % 20)] = i end
    for i = 200, 1, -1 do total = total + t[i]; t[i] = nil end
end
return total`, 200 * 20100, nil},
	{"closures", `fn make(k) {
  return { x -> x + k }
}

fn main() {
  var total = 0
  for i in 1 to 100000 {
    let f = make(i)
    total = total + f(1)
  }
  let inc = { x -> x + 1 }
  var count = 0
  for i in 1 to 200000 {
    count = inc(count)
  }
  return total + count
}
`, `local function make(k) return function(x) return x + k end end
local total = 0
for i = 1, 100000 do
    local f = make(i)
    total = total + f(1)
end
local inc = function(x) return x + 1 end
local count = 0
for i = 1, 200000 do count = inc(count) end
return total + count`, 5000050000 + 100000 + 200000, nil},
	{"method_calls", `struct Point {
  x: int
  y: int
}

impl Point {
  fn moved(self, dx) {
    return Point {x: self.x + dx, y: self.y}
  }

  fn sum(self) {
    return self.x + self.y
  }
}

fn main() {
  var p = Point {x: 0, y: 1}
  var total = 0
  for i in 1 to 200000 {
    p = p.moved(1)
    total = total + p.sum()
  }
  return total
}
`, `local Point = {}
Point.__index = Point
function Point.new(x, y) return setmetatable({x = x, y = y}, Point) end
function Point.move(self, dx) self.x = self.x + dx return self end
function Point.sum(self) return self.x + self.y end
local p = Point.new(0, 1)
local total = 0
for i = 1, 200000 do
    p:move(1)
    total = total + p:sum()
end
return total`, 20000100000 + 200000, nil},
	withQuick(sortComparison(1000000, 200000, 3222136579), sortComparison(10000, 2000, 3233107476)),
	withQuick(recursionComparison(9000, 250), recursionComparison(9000, 5)),
}

// sortComparison and recursionComparison are the workloads of
// internal/benchprog (shared with the Leia and whole-process suites).
func sortComparison(n, m int, want int64) harnComparison {
	return harnComparison{name: "sort", want: want,
		harn: benchprog.Sort(benchprog.Harn, n, m, false), lua: benchprog.Sort(benchprog.Lua, n, m, false)}
}

func recursionComparison(depth, rounds int) harnComparison {
	return harnComparison{name: fmt.Sprintf("recursion_%d", depth), want: int64(depth) * int64(rounds),
		harn: benchprog.Recursion(benchprog.Harn, depth, rounds, false), lua: benchprog.Recursion(benchprog.Lua, depth, rounds, false)}
}

func withQuick(c, quick harnComparison) harnComparison {
	c.quick = &quick
	return c
}

// harnProgram is a comparison program loaded once: its top level has run
// and main can be called again and again on the same interpreter.
type harnProgram struct {
	in    *Interp
	th    *thread
	entry *Closure
}

func loadHarn(tb testing.TB, name, src string) *harnProgram {
	tb.Helper()
	dir := tb.TempDir()
	path := filepath.Join(dir, name+".harn")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		tb.Fatal(err)
	}
	h, err := host.New(host.Config{Root: dir, Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { h.Close() })
	in, err := New(Options{Host: h, Library: testLibrary(tb)})
	if err != nil {
		tb.Fatal(err)
	}
	// The limits a command-line run has: steps are counted and the heap
	// is watched, as in harn-check run.
	in.run = execution.Start(context.Background(), execution.Defaults())
	tb.Cleanup(in.run.End)
	m, err := in.load(path, []byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	th := in.newThread(in.run.Context(), in.rootTask())
	in.run.Turn().Acquire(nil)
	tb.Cleanup(in.run.Turn().Release)
	if err := th.initModule(m); err != nil {
		tb.Fatal(err)
	}
	entry, _ := in.entry(m)
	if entry == nil {
		tb.Fatalf("%s: no main", name)
	}
	return &harnProgram{in: in, th: th, entry: entry}
}

func (p *harnProgram) run(tb testing.TB) int64 {
	v, err := p.th.callClosure(p.entry, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return int64(v.n)
}

// newLua gives gopher-lua a registry large enough for the programs
// (table.concat of 20,000 strings overflows its default) and a call
// stack deep enough for the recursion programs.
func newLua() *lua.LState {
	return lua.NewState(lua.Options{RegistrySize: 256 * 1024, RegistryMaxSize: 4 * 1024 * 1024, CallStackSize: 200000})
}

func runLua(tb testing.TB, L *lua.LState, fn *lua.LFunction) int64 {
	L.Push(fn)
	if err := L.PCall(0, 1, nil); err != nil {
		tb.Fatal(err)
	}
	v := L.Get(-1)
	L.Pop(1)
	n, _ := v.(lua.LNumber)
	return int64(n)
}

func BenchmarkCompare(b *testing.B) {
	for _, c := range harnComparisons {
		b.Run(c.name+"/harn", func(b *testing.B) {
			p := loadHarn(b, c.name, c.harn)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if got := p.run(b); got != c.want {
					b.Fatalf("checksum %d, want %d", got, c.want)
				}
			}
		})
		b.Run(c.name+"/gopherlua", func(b *testing.B) {
			L := newLua()
			defer L.Close()
			fn, err := L.LoadString(c.lua)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if got := runLua(b, L, fn); got != c.want {
					b.Fatalf("gopher-lua checksum %d, want %d", got, c.want)
				}
			}
		})
	}
}

// TestComparisonChecksums keeps the benchmark programs honest in every
// test run: both interpreters compute the documented checksum.
func TestComparisonChecksums(t *testing.T) {
	for _, c := range harnComparisons {
		if c.quick != nil {
			c = *c.quick
		}
		if got := loadHarn(t, c.name, c.harn).run(t); got != c.want {
			t.Errorf("%s: harn checksum %d, want %d", c.name, got, c.want)
		}
		L := newLua()
		fn, err := L.LoadString(c.lua)
		if err != nil {
			t.Fatal(err)
		}
		if got := runLua(t, L, fn); got != c.want {
			t.Errorf("%s: gopher-lua checksum %d, want %d", c.name, got, c.want)
		}
		L.Close()
	}
}

// TestCompareRatios prints the Harn/gopher-lua time ratio of each
// comparison program, alternating which side goes first round by round so
// both see the same machine load (the table in BENCHMARKS.md): the median
// times, the median of the per-round ratios and the ratio of the best
// times. It runs only with HARN_BENCH_COMPARE=1 (one program:
// -run TestCompareRatios/sort) and asserts nothing about speed.
func TestCompareRatios(t *testing.T) {
	if os.Getenv("HARN_BENCH_COMPARE") != "1" {
		t.Skip("set HARN_BENCH_COMPARE=1 to measure the ratios against gopher-lua")
	}
	const rounds = 9
	t.Log("| program | Harn median ms | gopher-lua median ms | ratio (median) | ratio (best) |")
	for _, c := range harnComparisons {
		t.Run(c.name, func(t *testing.T) {
			p := loadHarn(t, c.name, c.harn)
			L := newLua()
			defer L.Close()
			fn, err := L.LoadString(c.lua)
			if err != nil {
				t.Fatal(err)
			}
			timeHarn := func() time.Duration {
				start := time.Now()
				p.run(t)
				return time.Since(start)
			}
			timeLua := func() time.Duration {
				start := time.Now()
				runLua(t, L, fn)
				return time.Since(start)
			}
			timeHarn() // warm up both
			timeLua()
			var hs, ls, ratios []float64
			for r := 0; r < rounds; r++ {
				var h, l time.Duration
				if r%2 == 0 {
					h, l = timeHarn(), timeLua()
				} else {
					l, h = timeLua(), timeHarn()
				}
				hs = append(hs, float64(h.Microseconds())/1000)
				ls = append(ls, float64(l.Microseconds())/1000)
				ratios = append(ratios, float64(h)/float64(l))
			}
			sort.Float64s(hs)
			sort.Float64s(ls)
			sort.Float64s(ratios)
			t.Logf("| %s | %.1f | %.1f | %.2f | %.2f |", c.name, hs[rounds/2], ls[rounds/2], ratios[rounds/2], hs[0]/ls[0])
		})
	}
}
