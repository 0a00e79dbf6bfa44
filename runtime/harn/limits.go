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
