// Package memlimit sets the Go runtime's soft memory limit for the
// command-line tools, unless the user chose one with GOMEMLIMIT.
package memlimit

import (
	"os"
	"runtime/debug"
)

// Default is the soft limit the tools run under: the garbage collector
// works harder as the heap approaches it, so that a check of large files
// stays within a few hundred megabytes instead of letting the heap double
// between collections. It is soft: a run that needs more still gets it.
const Default = 384 << 20

// Apply sets the soft memory limit to Default when GOMEMLIMIT is unset.
func Apply() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(Default)
	}
}
