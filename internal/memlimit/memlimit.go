// Package memlimit sets the Go runtime's soft memory limit for the
// command-line tools, unless the user chose one with GOMEMLIMIT.
package memlimit

import (
	"os"
	"runtime/debug"
)

// Default is the soft limit harn-check runs under: the garbage collector
// works harder as the heap approaches it, so that a check of large files
// stays within a few hundred megabytes instead of letting the heap double
// between collections. It is soft: a run that needs more still gets it.
const Default = 384 << 20

// Server is the soft limit of the language server. It is lower than
// Default because the server keeps every open document's tree-sitter
// tree, which lives outside the Go heap and is not counted against the
// limit: a 3 MiB file's tree takes about 125 MiB of C memory while its
// check and name index peak near 300 MiB of Go heap. Under this limit a
// hover on such a file peaks near 390 MiB in all instead of 490 MiB, for
// a few percent more CPU time.
const Server = 256 << 20

// Apply sets the soft memory limit to limit when GOMEMLIMIT is unset.
func Apply(limit int64) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
}
