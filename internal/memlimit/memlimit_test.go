package memlimit

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"
)

func TestHeapShare(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		total, floor, outside, want int64
	}{
		{"nothing outside", 320, 128, 0, 320},
		{"trees take their share", 320, 128, 130, 190},
		{"never below the floor", 320, 128, 300, 128},
		{"a count gone negative counts as nothing", 320, 128, -5, 320},
	} {
		if got := HeapShare(tc.total, tc.floor, tc.outside); got != tc.want {
			t.Errorf("%s: HeapShare(%d, %d, %d) = %d, want %d", tc.name, tc.total, tc.floor, tc.outside, got, tc.want)
		}
	}
}

// TestFollow: the soft limit follows what is held outside the heap, and
// a user's GOMEMLIMIT is left alone.
func TestFollow(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	const total, floor = 320 << 20, 128 << 20
	var outside atomic.Int64
	wait := func(want int64) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if debug.SetMemoryLimit(-1) == want {
				return
			}
		}
		t.Fatalf("soft limit %d, want %d", debug.SetMemoryLimit(-1), want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { Follow(ctx, total, floor, outside.Load, time.Millisecond); close(done) }()
	wait(total)
	outside.Store(130 << 20)
	wait(total - 130<<20)
	outside.Store(1 << 30)
	wait(floor)
	cancel()
	<-done

	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(999 << 20)
	Follow(context.Background(), total, floor, outside.Load, time.Millisecond) // returns at once
	if got := debug.SetMemoryLimit(-1); got != 999<<20 {
		t.Errorf("with GOMEMLIMIT set the limit became %d", got)
	}
}

func TestFloorPercent(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		name               string
		live, roots, floor int64
		percent            int
		want               int
	}{
		{"little live: the goal at the floor", 8 * mb, 0, 64 * mb, 400, 700},
		{"rounded down, never over the floor", 9 * mb, 0, 64 * mb, 400, 611},
		{"stacks and globals count", 5 * mb, 1 * mb, 64 * mb, 400, 983},
		// The runtime's least goal grows with the percent: 4 MB * 16 is
		// the floor (a percent of 19,870 for 150 KB live put the goal at
		// 833 MB).
		{"a tiny heap: the runtime's minimum at the floor", 150 << 10, 180 << 10, 64 * mb, 400, 1600},
		{"live heap past floor/(1+percent): the percent", 13 * mb, 0, 64 * mb, 400, 400},
		{"roots alone lift the goal past the floor", 4 * mb, 12 * mb, 64 * mb, 400, 400},
		{"large live heap", 200 * mb, 0, 64 * mb, 400, 400},
		{"nothing measured yet", 0, 0, 64 * mb, 400, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := FloorPercent(tc.live, tc.roots, tc.floor, tc.percent)
			if got != tc.want {
				t.Errorf("FloorPercent(%d, %d, %d, %d) = %d, want %d", tc.live, tc.roots, tc.floor, tc.percent, got, tc.want)
			}
			goal := func(p int) int64 {
				return max(tc.live+(tc.live+tc.roots)*int64(p)/100, runtimeHeapMinimum*int64(p)/100)
			}
			if tc.live > 0 && (goal(got) > max(tc.floor, goal(tc.percent)) || goal(got) < goal(tc.percent)) {
				t.Errorf("goal %d: over the floor %d or under the percent's %d", goal(got), tc.floor, goal(tc.percent))
			}
		})
	}
}

// TestHeapFloor: after a collection the GC percent is the floor's, and
// Program ends the floor (the percent stays Program's after further
// collections).
func TestHeapFloor(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: HeapFloor leaves the collector to it")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	percent := func() int {
		floorMu.Lock()
		defer floorMu.Unlock()
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	HeapFloor(1<<40, 100) // far above any live heap: a huge percent
	deadline := time.Now().Add(10 * time.Second)
	for percent() <= 100 {
		if time.Now().After(deadline) {
			t.Fatalf("GC percent %d after collections, want the floor's", percent())
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	Program()
	for range 3 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if p := percent(); p != ProgramGCPercent {
		t.Errorf("GC percent %d after Program and collections, want %d", p, ProgramGCPercent)
	}
}
