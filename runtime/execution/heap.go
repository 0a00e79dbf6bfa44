package execution

import (
	"runtime"
	"runtime/metrics"
	"sync"
)

// The heap is the process's: runs executing at the same time (test jobs,
// evaluate cases) share it, so their memory budgets add up. The first run
// to join notes the heap already in use (the checker's data, the
// interpreter's tables) as the base; a run is over budget when the heap
// beyond the base exceeds the sum of the budgets of the runs in progress.
var heap struct {
	mu     sync.Mutex
	runs   int
	budget int64
	base   int64
	// samples are reused between readings (under mu).
	samples []metrics.Sample
}

// baseCollect is the heap size above which the first run to join
// collects garbage before noting the base: below it, garbage counted in
// the base makes the budgets at most this much more lenient.
const baseCollect = 64 << 20

func joinHeap(budget int64) {
	heap.mu.Lock()
	defer heap.mu.Unlock()
	if heap.runs == 0 {
		used := heapInUse()
		if used > baseCollect {
			runtime.GC()
			used = heapInUse()
		}
		heap.base = used
	}
	heap.runs++
	heap.budget += budget
}

func leaveHeap(budget int64) {
	heap.mu.Lock()
	defer heap.mu.Unlock()
	heap.runs--
	heap.budget -= budget
}

// heapOver reports whether the heap beyond the base, plus need bytes about
// to be allocated, exceeds the budgets of the runs in progress. The heap
// counts garbage not yet collected, so a reading over budget is confirmed
// after a collection.
func heapOver(need int64) bool {
	heap.mu.Lock()
	defer heap.mu.Unlock()
	if heapInUse()-heap.base+need <= heap.budget {
		return false
	}
	runtime.GC()
	return heapInUse()-heap.base+need > heap.budget
}

// heapInUse is the bytes of heap objects (live, and dead ones not yet
// swept) plus goroutine stacks. The caller holds heap.mu.
func heapInUse() int64 {
	if heap.samples == nil {
		heap.samples = []metrics.Sample{
			{Name: "/memory/classes/heap/objects:bytes"},
			{Name: "/memory/classes/heap/stacks:bytes"},
		}
	}
	metrics.Read(heap.samples)
	var n int64
	for _, s := range heap.samples {
		if s.Value.Kind() == metrics.KindUint64 {
			n += int64(s.Value.Uint64())
		}
	}
	return n
}
