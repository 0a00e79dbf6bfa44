package memlimit

import (
	"context"
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
