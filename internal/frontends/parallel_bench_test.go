package frontends

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/gencorpus"
	"github.com/harnlang/harn-check/internal/memlimit"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// benchFiles is the size of the parallel-checking corpus: 10,000 files
// by default (issue #19), fewer with HARN_BENCH_FILES for a quick look.
func benchFiles() int {
	if n, err := strconv.Atoi(os.Getenv("HARN_BENCH_FILES")); err == nil && n > 0 {
		return n
	}
	return 10000
}

// BenchmarkParallelCheck checks a generated corpus (10,000 files) with a
// cold cache, with one worker and with two, in the same iteration, and
// reports both times and their ratio (the speedup). The two reports must
// render byte for byte the same.
//
//	go test ./internal/frontends -run '^$' -bench ParallelCheck -benchtime 1x -count 3
func BenchmarkParallelCheck(b *testing.B) {
	// The run is measured as harn-check runs: under its soft memory limit
	// and GC target.
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	memlimit.Apply(memlimit.Default, memlimit.BatchGCPercent)
	memlimit.HeapFloor(memlimit.BatchHeapFloor, memlimit.BatchGCPercent)
	defer memlimit.HeapFloor(0, 0)
	n := benchFiles()
	dir := b.TempDir()
	if err := gencorpus.Write(dir, ".harn", gencorpus.Harn(n)); err != nil {
		b.Fatal(err)
	}
	var cpu [3]time.Duration
	run := func(workers int) ([]byte, time.Duration) {
		cache, err := checkcache.Open(filepath.Join(b.TempDir(), "cache"))
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		start, c0 := time.Now(), processCPU()
		r, err := Languages().CheckPaths([]string{dir}, driver.Options{Workers: workers, Cache: cache, Salt: "bench"})
		d := time.Since(start)
		cpu[workers] += processCPU() - c0
		if err != nil {
			b.Fatal(err)
		}
		if s := r.Summarize(); s.Files != n || s.Diagnostics != 0 {
			b.Fatalf("%+v", s)
		}
		return renderAll(b, r), d
	}
	// A first run reads every file into the page cache and initialises
	// the checker's tables; it is not measured.
	run(2)
	cpu = [3]time.Duration{}
	var one, two time.Duration
	for i := range b.N {
		var out1, out2 []byte
		var d1, d2 time.Duration
		// Alternate which goes first, so neither always runs on a
		// warmer machine.
		if i%2 == 0 {
			out1, d1 = run(1)
			out2, d2 = run(2)
		} else {
			out2, d2 = run(2)
			out1, d1 = run(1)
		}
		if !bytes.Equal(out1, out2) {
			b.Fatal("two workers printed other bytes than one")
		}
		one += d1
		two += d2
	}
	b.ReportMetric(one.Seconds()/float64(b.N), "s/1-worker")
	b.ReportMetric(two.Seconds()/float64(b.N), "s/2-workers")
	b.ReportMetric(one.Seconds()/two.Seconds(), "speedup")
	// CPU time of the whole process in each run: on a busy machine the
	// wall-time speedup says more about the other tenants than about the
	// checker, while equal CPU times say the second worker adds no work.
	b.ReportMetric(cpu[1].Seconds()/float64(b.N), "cpu-s/1-worker")
	b.ReportMetric(cpu[2].Seconds()/float64(b.N), "cpu-s/2-workers")
}

// processCPU returns the user and system CPU time of the process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// writeChain writes an import chain m0 -> m1 -> ... -> m(n-1) into dir.
func writeChain(b *testing.B, dir string, n int) {
	b.Helper()
	for i := range n {
		src := fmt.Sprintf("pub fn f%d() -> int { return %d }\n", i, i)
		if i < n-1 {
			src = fmt.Sprintf("import {f%d} from \"./m%d\"\n\npub fn f%d() -> int { return f%d() + 1 }\n", i+1, i+1, i, i+1)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("m%d.harn", i)), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// writeCycle writes n modules each importing the next, the last the first.
func writeCycle(b *testing.B, dir string, n int) {
	b.Helper()
	for i := range n {
		src := fmt.Sprintf("import {f%d} from \"./c%d\"\n\npub fn f%d() -> int { return 1 }\n", (i+1)%n, (i+1)%n, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("c%d.harn", i)), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImportChain checks a folder holding an import chain of 1,000
// to 10,000 modules (every file a checked file, every one importing the
// rest of the chain), and a 2,000-module import cycle, with one worker,
// without a cache and with a cold one (every entry and module record
// written), and reports the time per module: flat when the work is linear
// in the length of the chain.
//
//	go test ./internal/frontends -run '^$' -bench ImportChain -benchtime 1x -count 3
func BenchmarkImportChain(b *testing.B) {
	for _, tc := range []struct {
		name  string
		n     int
		write func(*testing.B, string, int)
	}{
		{"chain-1000", 1000, writeChain}, {"chain-2000", 2000, writeChain}, {"chain-5000", 5000, writeChain},
		{"chain-10000", 10000, writeChain}, {"cycle-2000", 2000, writeCycle},
	} {
		b.Run(tc.name, func(b *testing.B) {
			dir := b.TempDir()
			tc.write(b, dir, tc.n)
			var plain, cold time.Duration
			for range b.N {
				for _, cached := range []bool{false, true} {
					opts := driver.Options{Workers: 1, Salt: "bench"}
					if cached {
						cache, err := checkcache.Open(filepath.Join(b.TempDir(), "cache"))
						if err != nil {
							b.Fatal(err)
						}
						opts.Cache = cache
					}
					start := time.Now()
					r, err := Languages().CheckPaths([]string{dir}, opts)
					d := time.Since(start)
					if err != nil {
						b.Fatal(err)
					}
					if s := r.Summarize(); s.Files != tc.n || s.Errors != 0 {
						b.Fatalf("%+v", s)
					}
					if cached {
						cold += d
					} else {
						plain += d
					}
				}
			}
			b.ReportMetric(float64(plain.Microseconds())/float64(b.N*tc.n), "µs/module")
			b.ReportMetric(float64(cold.Microseconds())/float64(b.N*tc.n), "µs/module-cold-cache")
		})
	}
}
