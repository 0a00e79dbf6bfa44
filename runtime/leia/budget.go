package leia

import (
	"bytes"
	"io"
)

// Charging natives' work to the run. The interpreter counts a step per
// loop iteration and call; work a single step does in bulk (building a
// string, copying bytes, visiting a table's elements) is charged here, so
// that the step, time and memory budgets see it: a loop whose every
// iteration builds a 60 MB string stops at the memory budget within a few
// iterations, not after the 1,024 steps the clock waits for.

const (
	// bytesPerStep is how many bytes copied count as one step.
	bytesPerStep = 256
	// chargeFrom is the smallest string or buffer charged one by one;
	// smaller ones are caught by the run's periodic reading of the heap.
	chargeFrom = 1024
)

// charge counts n steps of a native's bulk work (elements visited). A stop
// (a budget, the deadline, a cancellation) unwinds the thread; no pcall
// catches it.
func (th *Thread) charge(n int64, pos int32) {
	if err := th.meter.Steps(n); err != nil {
		panic(th.stopError(err, pos))
	}
}

// allocBytes charges n bytes about to be allocated (a string, a buffer)
// against the memory budget, and the copying as steps.
func (th *Thread) allocBytes(n int64, pos int32) {
	if n < chargeFrom {
		return
	}
	err := th.meter.Alloc(n)
	if err == nil {
		err = th.meter.Steps(n / bytesPerStep)
	}
	if err != nil {
		panic(th.stopError(err, pos))
	}
}

// scanArgs charges, before a native runs, the strings it is given as
// steps (bytesPerStep a step): natives work in time linear in their
// input (find, match, upper, encode, hash), so a loop that searches a
// 1 GB string meets the step budget and the clock at every call instead
// of after execution.Interval calls.
func (th *Thread) scanArgs(args []Value, pos int32) {
	var n int64
	for _, a := range args {
		if a.k == KindString && a.n >= chargeFrom {
			n += int64(a.n)
		}
	}
	if n > 0 {
		th.charge(n/bytesPerStep, pos)
	}
}

// readAllCharged reads r to its end (decompression), charging what it
// reads chunk by chunk, so a decompression bomb stops at the memory
// budget rather than at the string cap.
func (th *Thread) readAllCharged(r io.Reader) ([]byte, error) {
	var b bytes.Buffer
	for {
		n, err := io.CopyN(&b, r, 1<<20)
		th.allocBytes(n, -1)
		if err == io.EOF {
			return b.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
	}
}
