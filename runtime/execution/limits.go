package execution

import (
	"strconv"
	"strings"
	"time"

	"github.com/harnlang/harn-check/internal/sourcefs"
)

// Resource is a bounded resource of a run.
type Resource uint8

// The resources a run is bounded in.
const (
	// Steps are units of work: loop iterations, calls, and the elements a
	// builtin visits (compare, encode, copy, sort, match).
	Steps Resource = iota
	// Time is wall-clock time from the start of the run.
	Time
	// Memory is the Go heap the run holds (live objects and goroutine
	// stacks), in bytes.
	Memory
	// Tasks are the tasks alive at once (spawn, parallel branches, Leia
	// goroutines), the main program included.
	Tasks
	// Depth is the nesting of calls (recursion). Unlike the others, going
	// over it is an ordinary runtime error the program can catch (a
	// stack overflow), and switching it off still leaves HardDepth.
	Depth
)

// HardDepth bounds call nesting when Depth is switched off (0): each
// call nests on the Go stack, and Go stops a process whose stack passes
// its limit (1 GB) with a fatal error no recover sees. 200,000 calls keep
// both interpreters' stacks at or under 256 MiB.
const HardDepth = 200_000

// Limit describes one run-time limit: its default and the flag that sets
// it. Table lists them all; the CLI registers its flags from it and the
// README's table of run-time limits is checked against it.
type Limit struct {
	Resource Resource
	// Flag is the command-line flag that sets it, with its dashes.
	Flag string
	// What says what is bounded, for help texts and the README.
	What string
	// Default is the CLI's default (bytes, steps, tasks, or nanoseconds
	// for Time); 0 would mean unlimited.
	Default int64
}

// Table is every run-time limit, in the order the README lists them.
var Table = []Limit{
	{Time, "--timeout", "wall time of a run (of each program for `test`, of each case for `evaluate`)", int64(10 * time.Minute)},
	{Steps, "--max-steps", "steps: loop iterations, calls, and the work of builtins (elements visited by compare, display, encode, copy, sort; bytes built, 256 a step)", 1_000_000_000},
	{Memory, "--max-memory", "memory the program holds (Go heap and task stacks); a value built in one operation is charged as it is built", 256 << 20},
	{Tasks, "--max-tasks", "tasks alive at once (spawn, parallel branches, Leia goroutines)", 10_000},
	{Depth, "--max-depth", "nested calls (recursion); deeper is a stack overflow, an error the program can catch", 100_000},
}

// DefaultDuration is Default as a duration (for Time).
func (l Limit) DefaultDuration() time.Duration { return time.Duration(l.Default) }

// LimitOf returns the table's entry for r.
func LimitOf(r Resource) Limit {
	for _, l := range Table {
		if l.Resource == r {
			return l
		}
	}
	panic("execution: no limit for resource " + strconv.Itoa(int(r)))
}

// Limits are the bounds of one run. A zero field means unlimited: the
// zero value bounds nothing (for embedders and tests that choose their
// own), Defaults is what a command-line user gets.
type Limits struct {
	// Steps bounds the run's steps (see Steps).
	Steps int64
	// Time bounds the run's wall time.
	Time time.Duration
	// Memory bounds the heap the run holds, in bytes.
	Memory int64
	// Tasks bounds the tasks alive at once.
	Tasks int64
	// Depth bounds the nesting of calls (0: HardDepth).
	Depth int64
}

// CallDepth is the nesting of calls the limits allow: Depth, or
// HardDepth when Depth is off or above it.
func (l Limits) CallDepth() int {
	if l.Depth <= 0 || l.Depth > HardDepth {
		return HardDepth
	}
	return int(l.Depth)
}

// Defaults returns the limits of Table's defaults.
func Defaults() Limits {
	var l Limits
	for _, e := range Table {
		l.Set(e.Resource, e.Default)
	}
	return l
}

// Set sets the limit of r to v (0: unlimited; nanoseconds for Time).
func (l *Limits) Set(r Resource, v int64) {
	switch r {
	case Steps:
		l.Steps = v
	case Time:
		l.Time = time.Duration(v)
	case Memory:
		l.Memory = v
	case Tasks:
		l.Tasks = v
	case Depth:
		l.Depth = v
	}
}

// Get returns the limit of r (0: unlimited).
func (l Limits) Get(r Resource) int64 {
	switch r {
	case Steps:
		return l.Steps
	case Time:
		return int64(l.Time)
	case Memory:
		return l.Memory
	case Tasks:
		return l.Tasks
	case Depth:
		return l.Depth
	}
	return 0
}

// FormatValue renders a limit's value for messages and help: a duration,
// a byte size, or a count; 0 is "unlimited".
func FormatValue(r Resource, v int64) string {
	if v <= 0 {
		return "unlimited"
	}
	switch r {
	case Time:
		return formatDuration(time.Duration(v))
	case Memory:
		return sourcefs.FormatSize(v)
	}
	return groupDigits(v)
}

// groupDigits writes n with thousands separators (1,000,000).
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	if len(s) <= 3 {
		return s
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, c)
	}
	return string(out)
}

// formatDuration is d without zero units: 10m, 1h30m, 3s, 250ms.
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
