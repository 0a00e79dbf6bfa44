// Package memlimit sets the Go runtime's soft memory limit for the
// command-line tools, unless the user chose one with GOMEMLIMIT.
package memlimit

import (
	"context"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Default is the soft limit harn-check runs under: the garbage collector
// works harder as the heap approaches it, so that a check of large files
// stays within a few hundred megabytes instead of letting the heap double
// between collections. It is soft: a run that needs more still gets it.
const Default = 384 << 20

// Server is what the language server's Go heap and the tree-sitter
// trees it keeps may take together, a soft bound: the trees live in C
// memory, which the Go runtime neither sees nor counts, so the server's
// soft limit is Server less what the trees hold (Follow), and never below
// ServerHeapFloor. A 3 MiB Harn file's tree takes about 130 MiB, and its
// check allocates up to 220 MiB of Go heap when the collector lets it.
const Server = 320 << 20

// ServerHeapFloor is the least soft limit the language server runs under,
// however much its trees hold: below it the collector would run all the
// time for a check's working set.
const ServerHeapFloor = 128 << 20

// BatchGCPercent is harn-check's garbage-collection target (GOGC): the
// heap may grow to five times what is live before a collection, up to the
// soft limit. A check allocates much and keeps little (a file's tree and
// facts are garbage once it is reported, and the run's module graph keeps
// only modules other files import), so collecting at every doubling spent
// a fifth of a run's CPU marking, on the core a second worker needs. On
// 10,000 files: one worker 30-32 s at GOGC=100, 25-26 s at 400; two
// workers 19-22 s and 14-15 s. The soft limit still bounds a run over
// large files.
const BatchGCPercent = 400

// ProgramGCPercent is the garbage-collection target while harn-check runs
// a program (run, test): Go's default, not BatchGCPercent. An interpreted
// program keeps what it builds (a sort of a million integers holds the
// list, its sorted copy and the keys at once), so a target of 400 let the
// heap reach five times that before collecting: 169 MiB peak for the sort
// workload of internal/benchprog against 145 MiB at 100, for the same CPU
// time (BENCHMARKS.md, issue 31).
const ProgramGCPercent = 100

// BatchHeapFloor is the least heap goal of a check (HeapFloor): a check
// of many small files keeps little live (9 MB at the end of 10,000
// generated files), so at BatchGCPercent alone its heap goal stayed near
// 45 MB and the collector ran every 36 MB allocated, on the core a
// second worker needs: 122 collections on those files, 50 with the
// floor, for a peak of 101 MiB instead of 84 with one worker (3,000 Leia
// files: 4 collections instead of 27, 93 MiB instead of 46). Past 13 MB
// live the floor no longer binds.
const BatchHeapFloor = 64 << 20

// The state of HeapFloor, guarded by floorMu with the collector's
// setting: the least heap goal in bytes (0: off), the GC percent it
// raises from, and whether a cleanup waits for the next collection.
var (
	floorMu      sync.Mutex
	floorBytes   int64
	floorPercent int
	floorArmed   bool
)

// HeapFloor keeps the collector's heap goal at no less than floor bytes
// while the live heap is small: after each collection it sets the GC
// percent to the larger of gcPercent and the percent that puts the goal
// at floor (FloorPercent), until Program or a HeapFloor of 0 (which
// leaves the percent as last set). It does nothing when GOGC is set: the
// user's setting wins.
func HeapFloor(floor int64, gcPercent int) {
	if os.Getenv("GOGC") != "" {
		return
	}
	floorMu.Lock()
	defer floorMu.Unlock()
	floorBytes, floorPercent = floor, gcPercent
	if floor > 0 && !floorArmed {
		armFloor()
	}
}

// armFloor has adjustFloor run after the next collection: a cleanup on
// an object nothing references runs once a collection has found it
// unreachable. floorMu is held.
func armFloor() {
	floorArmed = true
	// A pointer keeps the object out of the tiny allocator, whose blocks
	// are freed (and their cleanups run) only with their neighbours.
	sentinel := new(struct{ p *int })
	runtime.AddCleanup(sentinel, func(int) { adjustFloor() }, 0)
}

// heapSamples are the runtime's measures of what the last collection
// found live: the heap, and the stacks and globals it scanned, which the
// collector's goal grows with as well (GOGC is a percent of all three).
var heapSamples = []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}

// adjustFloor sets the GC percent for the heap now live, then waits for
// the next collection again; it stops once Program turned the floor off.
func adjustFloor() {
	floorMu.Lock()
	defer floorMu.Unlock()
	floorArmed = false
	if floorBytes <= 0 {
		return
	}
	metrics.Read(heapSamples)
	var v [3]int64
	for i, s := range heapSamples {
		if s.Value.Kind() != metrics.KindUint64 {
			armFloor()
			return
		}
		v[i] = int64(s.Value.Uint64())
	}
	debug.SetGCPercent(FloorPercent(v[0], v[1]+v[2], floorBytes, floorPercent))
	armFloor()
}

// runtimeHeapMinimum is the Go runtime's least heap goal at GOGC=100,
// which it scales with the GC percent: a goal is never under
// runtimeHeapMinimum * percent/100.
const runtimeHeapMinimum = 4 << 20

// FloorPercent is the GC percent that puts the heap goal at floor bytes
// when live bytes of heap and roots bytes of stacks and globals are live,
// or gcPercent when that gives more. The goal is live + (live + roots) *
// percent/100, and at least runtimeHeapMinimum * percent/100: the percent
// is never more than puts that minimum at floor (a tiny heap at the start
// of a run would otherwise get a percent in the tens of thousands, and a
// goal of hundreds of megabytes).
func FloorPercent(live, roots, floor int64, gcPercent int) int {
	scanned := live + max(roots, 0)
	if live <= 0 || live*100+scanned*int64(gcPercent) >= floor*100 {
		return gcPercent
	}
	// Rounded down: the goal stays at the floor or just under it.
	return max(gcPercent, int(min(100*(floor-live)/scanned, 100*floor/runtimeHeapMinimum)))
}

// Program sets the collector's target to ProgramGCPercent for a program
// run, unless GOGC is set, and ends HeapFloor.
func Program() {
	floorMu.Lock()
	defer floorMu.Unlock()
	floorBytes = 0
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(ProgramGCPercent)
	}
}

// Apply sets the soft memory limit to limit when GOMEMLIMIT is unset, and
// the GC target to gcPercent when GOGC is unset and gcPercent > 0.
func Apply(limit int64, gcPercent int) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
	if gcPercent > 0 && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// RunHeadroom is what a program run needs beside its memory budget: the
// checker's data, the interpreter, garbage not yet collected.
const RunHeadroom = 128 << 20

// Raise makes room for a program run whose memory budget is budget bytes
// (0: unlimited): the soft limit becomes at least budget plus RunHeadroom
// (no limit for an unlimited budget), so that the collector does not run
// without end below what the run may hold. GOMEMLIMIT wins.
func Raise(budget int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	want := int64(math.MaxInt64)
	if budget > 0 && budget < math.MaxInt64-RunHeadroom {
		want = budget + RunHeadroom
	}
	if want > debug.SetMemoryLimit(-1) {
		debug.SetMemoryLimit(want)
	}
}

// Follow keeps the soft memory limit at total less outside(), the bytes
// the process holds outside the Go heap, and never below floor, checking
// every interval until ctx is done (a change under a MiB is left alone).
// It returns at once when GOMEMLIMIT is set: the user's limit wins.
func Follow(ctx context.Context, total, floor int64, outside func() int64, every time.Duration) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	set := int64(-1)
	for {
		if want := HeapShare(total, floor, outside()); set < 0 || want > set+1<<20 || want < set-1<<20 {
			debug.SetMemoryLimit(want)
			set = want
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// HeapShare is the soft limit of a Go heap that shares total with outside
// bytes held elsewhere: total less outside, never below floor.
func HeapShare(total, floor, outside int64) int64 {
	return max(floor, total-max(0, outside))
}
