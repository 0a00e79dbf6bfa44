// Package benchprog holds the benchmark programs that are measured against
// gopher-lua: the same algorithm written in Harn, Leia and Lua, sized by
// parameters, so the in-process comparison suites of runtime/harn and
// runtime/leia and the whole-process suite of cmd/harn-check run one
// definition of each workload (BENCHMARKS.md).
//
// Every program ends by returning (Leia, Lua) or having main return
// (Harn) an integer checksum that the three versions agree on; a whole
// process prints it. Numbers stay below 2^53, so gopher-lua's float64
// numbers compute them exactly.
package benchprog

import "fmt"

// Lang is a language a program is written in.
type Lang string

// The languages of the programs.
const (
	Harn Lang = "harn"
	Leia Lang = "leia"
	Lua  Lang = "lua"
)

// Sort fills an array with n pseudo-random integers (the Park-Miller
// generator, exact in float64), sorts it in the language's order, then
// sorts m small integers with a comparator (descending); the checksum
// adds the first, middle and last elements of the first and the ends of
// the second. main prints the checksum when print is set.
func Sort(lang Lang, n, m int, print bool) string {
	switch lang {
	case Harn:
		return harnMain(fmt.Sprintf(`  var xs = []
  var x = 1
  for i in 1 to %[1]d {
    x = (x * 16807) %% 2147483647
    xs = xs.push(x)
  }
  let s = xs.sort()
  var ys = []
  for i in 1 to %[2]d {
    x = (x * 16807) %% 2147483647
    ys = ys.push(x %% 1000)
  }
  let t = ys.sort({ a, b -> a > b })
  let sum = s[0] + s[%[3]d] + s[%[1]d - 1] + t[0] + t[%[2]d - 1]
`, n, m, n/2), print)
	case Leia:
		return ret(fmt.Sprintf(`xs := {}
x := 1
for i := 1; i <= %[1]d; i++ { x = (x * 16807) %% 2147483647; xs[i] = x }
table.sort(xs)
ys := {}
for i := 1; i <= %[2]d; i++ { x = (x * 16807) %% 2147483647; ys[i] = x %% 1000 }
table.sort(ys, func(a, b) { return a > b })
sum := xs[1] + xs[%[3]d + 1] + xs[%[1]d] + ys[1] + ys[%[2]d]
`, n, m, n/2), print)
	default:
		return ret(fmt.Sprintf(`local xs = {}
local x = 1
for i = 1, %[1]d do x = (x * 16807) %% 2147483647; xs[i] = x end
table.sort(xs)
local ys = {}
for i = 1, %[2]d do x = (x * 16807) %% 2147483647; ys[i] = x %% 1000 end
table.sort(ys, function(a, b) return a > b end)
local sum = xs[1] + xs[%[3]d + 1] + xs[%[1]d] + ys[1] + ys[%[2]d]
`, n, m, n/2), print)
	}
}

// Recursion recurses depth deep through a call that is not a tail call,
// rounds times; the checksum is depth·rounds.
func Recursion(lang Lang, depth, rounds int, print bool) string {
	switch lang {
	case Harn:
		return `fn down(n) {
  if n == 0 {
    return 0
  }
  return down(n - 1) + 1
}

` + harnMain(fmt.Sprintf(`  var sum = 0
  for i in 1 to %d {
    sum = sum + down(%d)
  }
`, rounds, depth), print)
	case Leia:
		return ret(fmt.Sprintf(`func down(n) { if n == 0 { return 0 }; return down(n - 1) + 1 }
sum := 0
for i := 1; i <= %d; i++ { sum = sum + down(%d) }
`, rounds, depth), print)
	default:
		return ret(fmt.Sprintf(`local function down(n) if n == 0 then return 0 end return down(n - 1) + 1 end
local sum = 0
for i = 1, %d do sum = sum + down(%d) end
`, rounds, depth), print)
	}
}

// Hello prints one line: the cost of starting a process and running a
// program that does nothing else.
func Hello(lang Lang) string {
	switch lang {
	case Harn:
		return "println(\"hello\")\n"
	default:
		return "print(\"hello\")\n"
	}
}

// harnMain wraps body (which sets sum) in Harn's main, which prints the
// checksum when print is set and returns it otherwise.
func harnMain(body string, print bool) string {
	end := "  return sum\n"
	if print {
		end = "  println(sum)\n"
	}
	return "fn main() {\n" + body + end + "}\n"
}

// ret ends a Leia or Lua chunk (whose body sets sum) by returning the
// checksum, printing it first when print is set.
func ret(body string, print bool) string {
	if print {
		body += "print(sum)\n"
	}
	return body + "return sum\n"
}
