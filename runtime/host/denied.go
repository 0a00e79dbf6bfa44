package host

import "fmt"

// DeniedError is returned for an operation the program was not granted.
// Interpreters turn it into a catchable runtime error; its message names
// the flag that grants the operation.
type DeniedError struct {
	// Op is what was attempted: "read", "write", "exec" or "connect".
	Op string
	// Target is the path, program or network address concerned.
	Target string
	// Flag is the command-line flag that would allow it, ready to paste
	// (for the file system it suggests the target's directory).
	Flag string
	// Reason says why, in a short phrase ("outside the program's folder
	// and the temp dir", "process execution is not granted").
	Reason string
}

func (e *DeniedError) Error() string {
	return fmt.Sprintf("permission denied: %s %s: %s; grant it with %s", e.Op, e.Target, e.Reason, e.Flag)
}
