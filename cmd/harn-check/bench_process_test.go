package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/harnlang/harn-check/internal/benchprog"
	"github.com/harnlang/harn-check/internal/gencorpus"
)

// TestProcessBenchmarks is the whole-process half of the comparison with
// gopher-lua (BENCHMARKS.md, "Whole processes"): start-up, sorting and
// deep recursion as a user runs them, `harn-check run FILE` against
// gopher-lua v1.1.2 running the same algorithm (testdata/luarun, which
// opens the standard libraries as glua does). Both binaries are built
// fresh; the two commands alternate, which goes first changing round by
// round, so both see the same load; each row gives median wall times, the
// median of the per-round ratios and the peak RSS of each side (the
// largest of the rounds). Both sides must print the same checksum.
//
// The last row is the checker's peak memory (checkPeakMemory).
//
// It runs only with HARN_BENCH_PROCESS=1 (one row:
// -run TestProcessBenchmarks/sort) and asserts nothing about speed or
// memory.
func TestProcessBenchmarks(t *testing.T) {
	if os.Getenv("HARN_BENCH_PROCESS") != "1" {
		t.Skip("set HARN_BENCH_PROCESS=1 to measure whole processes against gopher-lua")
	}
	dir := t.TempDir()
	ours := filepath.Join(dir, "harn-check")
	ref := filepath.Join(dir, "luarun")
	for _, b := range [][2]string{{ours, "."}, {ref, "./testdata/luarun"}} {
		if out, err := exec.Command("go", "build", "-o", b[0], b[1]).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	type row struct {
		name   string
		ours   []string
		lua    []string
		rounds int
	}
	var rows []row
	for _, lang := range []benchprog.Lang{benchprog.Harn, benchprog.Leia} {
		ext := string(lang)
		hello := write("hello."+ext, benchprog.Hello(lang))
		helloLua := write("hello.lua", benchprog.Hello(benchprog.Lua))
		sortSrc := write("sort."+ext, benchprog.Sort(lang, 1000000, 200000, true))
		sortLua := write("sort.lua", benchprog.Sort(benchprog.Lua, 1000000, 200000, true))
		rec := write("recursion_9000."+ext, benchprog.Recursion(lang, 9000, 250, true))
		recLua := write("recursion_9000.lua", benchprog.Recursion(benchprog.Lua, 9000, 250, true))
		deepStack := "-callstack=200000"
		rows = append(rows,
			row{"hello_no_check/" + ext, []string{"run", "--no-check", hello}, []string{helloLua}, 21},
			row{"hello_checked/" + ext, []string{"run", hello}, []string{helloLua}, 21},
			row{"sort/" + ext, []string{"run", "--no-check", sortSrc}, []string{sortLua}, 5},
			row{"recursion_9000/" + ext, []string{"run", "--no-check", rec}, []string{deepStack, recLua}, 5},
		)
		// 100,000 nested calls under main: over the default depth
		// limit, raised as gopher-lua's call stack is.
		deep := write("recursion_100000."+ext, benchprog.Recursion(lang, 100000, 20, true))
		deepLua := write("recursion_100000.lua", benchprog.Recursion(benchprog.Lua, 100000, 20, true))
		rows = append(rows, row{"recursion_100000/" + ext, []string{"run", "--no-check", "--max-depth", "200000", deep}, []string{deepStack, deepLua}, 5})
	}
	t.Log("| workload | ours wall ms | gopher-lua wall ms | wall ratio | ours CPU ms | gopher-lua CPU ms | CPU ratio | ours peak MiB | gopher-lua peak MiB |")
	defer checkPeakMemory(t, ours, dir)
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			a := exec.Command(ours, r.ours...)
			b := exec.Command(ref, r.lua...)
			a.Dir, b.Dir = dir, dir
			res := alternate(t, a, b, r.rounds)
			t.Logf("| %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f | %.0f | %.0f |", r.name,
				median(res.aWall), median(res.bWall), median(res.ratios),
				median(res.aCPU), median(res.bCPU), median(res.cpuRatios), res.aPeak, res.bPeak)
		})
	}
}

// checkPeakMemory is the suite's peak-memory row for the checker (issue
// 31: checking 30,000 files under 160 MiB): `harn-check check --no-cache`
// over the generated corpus (internal/gencorpus, laid out as its Write
// does), three runs, median wall and CPU ms and the largest peak RSS.
// HARN_BENCH_CHECK_FILES sets the number of files (default 30,000; 0
// skips the row). gopher-lua has nothing to compare it with.
func checkPeakMemory(t *testing.T, ours, dir string) {
	n := 30000
	if v := os.Getenv("HARN_BENCH_CHECK_FILES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatalf("HARN_BENCH_CHECK_FILES=%q: %v", v, err)
		}
	}
	if n <= 0 {
		return
	}
	name := fmt.Sprintf("check_%d/harn", n)
	t.Run(name, func(t *testing.T) {
		corpus := filepath.Join(dir, "corpus")
		if err := gencorpus.Write(corpus, ".harn", gencorpus.Harn(n)); err != nil {
			t.Fatal(err)
		}
		gnuTime, _ := exec.LookPath("/usr/bin/time")
		peakFile := filepath.Join(t.TempDir(), "peak")
		var wall, cpu []float64
		peak := 0.0
		for i := 0; i < 3; i++ {
			c := exec.Command(ours, "check", "--no-cache", corpus)
			c.Dir = dir
			ms, cms, mib, _ := measure(t, c, gnuTime, peakFile)
			wall, cpu, peak = append(wall, ms), append(cpu, cms), max(peak, mib)
		}
		t.Logf("| %s | %.1f | | | %.1f | | | %.0f | |", name, median(wall), median(cpu), peak)
	})
}

// alternation is what alternate measured: per-round wall and CPU (user
// plus system) times in ms, their per-round ratios a/b, and each side's
// largest peak RSS in MiB.
type alternation struct {
	aWall, bWall, ratios  []float64
	aCPU, bCPU, cpuRatios []float64
	aPeak, bPeak          float64
}

// alternate runs a and b rounds times each after one warm-up each,
// alternating which goes first, and checks that they print the same.
func alternate(t *testing.T, a, b *exec.Cmd, rounds int) alternation {
	t.Helper()
	// The kernel's peak RSS of a child started by this (large) process
	// starts at this process's own RSS (the child shares its memory until
	// exec), so the child is started through GNU time, which is small,
	// and the peak it reports is used; without it, rusage is read.
	gnuTime, _ := exec.LookPath("/usr/bin/time")
	peakFile := filepath.Join(t.TempDir(), "peak")
	run := func(c *exec.Cmd) (ms, cpu, mib float64, out string) {
		return measure(t, c, gnuTime, peakFile)
	}
	_, _, _, outA := run(a)
	_, _, _, outB := run(b)
	if outA != outB {
		t.Fatalf("the two sides disagree:\n%s: %q\n%s: %q", strings.Join(a.Args, " "), outA, strings.Join(b.Args, " "), outB)
	}
	var res alternation
	for i := 0; i < rounds; i++ {
		var ams, acpu, amib, bms, bcpu, bmib float64
		if i%2 == 0 {
			ams, acpu, amib, _ = run(a)
			bms, bcpu, bmib, _ = run(b)
		} else {
			bms, bcpu, bmib, _ = run(b)
			ams, acpu, amib, _ = run(a)
		}
		res.aWall = append(res.aWall, ams)
		res.bWall = append(res.bWall, bms)
		res.ratios = append(res.ratios, ams/bms)
		res.aCPU = append(res.aCPU, acpu)
		res.bCPU = append(res.bCPU, bcpu)
		res.cpuRatios = append(res.cpuRatios, acpu/max(bcpu, 0.001))
		res.aPeak, res.bPeak = max(res.aPeak, amib), max(res.bPeak, bmib)
	}
	return res
}

// measure runs c to its end, through GNU time when gnuTime is set
// (which writes the peak RSS to peakFile): wall and CPU (user plus
// system) ms, peak RSS in MiB and what it printed. A failing command
// fails the test.
func measure(t *testing.T, c *exec.Cmd, gnuTime, peakFile string) (ms, cpu, mib float64, out string) {
	t.Helper()
	cmd := exec.Command(c.Path, c.Args[1:]...)
	if gnuTime != "" {
		cmd = exec.Command(gnuTime, append([]string{"-o", peakFile, "-f", "%M", c.Path}, c.Args[1:]...)...)
	}
	cmd.Dir = c.Dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	ms = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(c.Args, " "), err, stderr.Bytes())
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		mib = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	if gnuTime != "" {
		kib, err := os.ReadFile(peakFile)
		if err != nil {
			t.Fatal(err)
		}
		k, err := strconv.ParseFloat(strings.TrimSpace(string(kib)), 64)
		if err != nil {
			t.Fatalf("GNU time wrote %q", kib)
		}
		mib = k / 1024
	}
	cpu = float64((cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Microseconds()) / 1000
	return ms, cpu, mib, stdout.String()
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
