package harn

import (
	"strconv"
	"unsafe"
)

// Sizes the memory budget is charged with before allocating: a Value,
// and a task (its goroutine's first stack, its thread, its first block
// of frame slots).
const (
	valueSize = int64(unsafe.Sizeof(Value{}))
	taskSize  = 16 << 10
)

// Building a value in one operation (a concatenation, a repetition, a
// builtin's result) is charged by the value's own size: growCharge is the
// smallest charged at once (smaller values are left to the run's periodic
// reading of the heap), bytesPerStep how many bytes copied count as a
// step.
const (
	growCharge   = 4 << 10
	bytesPerStep = 256
)

// grew charges v, just built by an operator or a builtin, against the
// memory budget (its own bytes: a string's, a list's slots) and, for text,
// the copying as steps. A loop whose every iteration builds a 60 MB string
// therefore meets the memory budget (and the clock) within a few
// iterations instead of after execution.Interval of them.
func (th *thread) grew(v Value) error {
	var n, steps int64
	switch v.k {
	case KindString:
		n = int64(len(v.r.(string)))
		steps = n / bytesPerStep
	case KindBytes:
		n = int64(len(v.r.([]byte)))
		steps = n / bytesPerStep
	case KindList:
		n = int64(len(v.r.(*List).items)) * valueSize
	default:
		return nil
	}
	if n < growCharge {
		return nil
	}
	if err := th.alloc(n); err != nil {
		return err
	}
	return th.charge(steps)
}

// grewBytes charges n bytes of text a builtin is building (read,
// inflated) as grew charges a string.
func (th *thread) grewBytes(n int64) error {
	if n < growCharge {
		return nil
	}
	if err := th.alloc(n); err != nil {
		return err
	}
	return th.charge(n / bytesPerStep)
}

// scanned charges, before a builtin runs, the text it is given as steps
// (bytesPerStep a step): builtins work in time linear in their input
// (regex, search, split, hash, encode), so a loop that searches a 60 MB
// string meets the step budget and the clock at every call instead of
// after execution.Interval calls.
func (th *thread) scanned(args []Value) error {
	var n int64
	for _, a := range args {
		switch a.k {
		case KindString:
			if l := len(a.r.(string)); l >= growCharge {
				n += int64(l)
			}
		case KindBytes:
			if l := len(a.r.([]byte)); l >= growCharge {
				n += int64(l)
			}
		}
	}
	if n == 0 {
		return nil
	}
	return th.charge(n / bytesPerStep)
}

// describeWait is one line of a deadlock report: the task, what it waits
// for, and where.
func describeWait(task *Task, what string, at *site) string {
	who := "main program"
	if task != nil && task.parent != nil {
		who = "task " + task.id
	}
	s := who + ": " + what
	if at != nil && at.fn != nil && at.fn.mod != nil {
		line, col := at.fn.mod.position(at.span.Start)
		s += " at " + at.fn.mod.path + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col)
		if at.fn.name != "" {
			s += " in " + at.fn.name
		}
	}
	return s
}
