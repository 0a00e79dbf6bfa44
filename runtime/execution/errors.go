package execution

import (
	"errors"
	"fmt"
	"strings"
)

// LimitError is a run stopped by one of its limits. Its message is one
// line naming the flag that raises the limit.
type LimitError struct {
	Resource Resource
	// Limit is the bound that was exceeded.
	Limit int64
	// Need, for Memory, is the size of a single allocation larger than
	// the whole budget (0 when the heap as a whole went over).
	Need int64
}

func (e *LimitError) Error() string {
	flag := LimitOf(e.Resource).Flag
	limit := FormatValue(e.Resource, e.Limit)
	var what string
	switch e.Resource {
	case Steps:
		what = "step budget exceeded: the program ran more than " + limit + " steps"
	case Time:
		what = "time budget exceeded: the program ran longer than " + limit
	case Memory:
		if e.Need > 0 {
			what = "memory budget exceeded: one operation needs " + FormatValue(Memory, e.Need) + ", more than the budget of " + limit
		} else {
			what = "memory budget exceeded: the program holds more than " + limit
		}
	case Tasks:
		what = "task budget exceeded: more than " + limit + " tasks alive at once"
	default:
		what = "budget exceeded"
	}
	return what + "; raise it with " + flag
}

// CancelledError is a run stopped from outside: its caller's context was
// cancelled (an interrupt, a test's end) or reached a deadline the run's
// own limits do not know.
type CancelledError struct {
	// Cause is the caller's reason (context.Canceled,
	// context.DeadlineExceeded or a cause given to the context).
	Cause error
}

func (e *CancelledError) Error() string {
	if e.Cause == nil {
		return "run cancelled"
	}
	return "run cancelled: " + e.Cause.Error()
}

// Unwrap returns the caller's reason.
func (e *CancelledError) Unwrap() error { return e.Cause }

// DeadlockError is a run whose tasks are all blocked on waits that only
// another task of the run could end (a channel, a task's result, a lock).
type DeadlockError struct {
	// Waits says where each blocked task waits, one line each, sorted.
	Waits []string
}

func (e *DeadlockError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "deadlock: every task is blocked and none can wake the others (%d waiting)", len(e.Waits))
	for _, w := range e.Waits {
		b.WriteString("\n    ")
		b.WriteString(w)
	}
	return b.String()
}

// IsStop reports whether err (or an error it wraps) stops the run: a
// limit, a cancellation or a deadlock. No program construct may catch it.
func IsStop(err error) bool {
	return AsStop(err) != nil
}

// AsStop returns the stop err is or wraps, or nil.
func AsStop(err error) error {
	if err == nil {
		return nil
	}
	var le *LimitError
	if errors.As(err, &le) {
		return le
	}
	var ce *CancelledError
	if errors.As(err, &ce) {
		return ce
	}
	var de *DeadlockError
	if errors.As(err, &de) {
		return de
	}
	return nil
}
