//go:build unix

package sourcefs

import (
	"os"
	"syscall"
)

// openNonBlocking opens path for reading without waiting: opening a named
// pipe that replaced the file after Check returns at once instead of
// waiting for a writer.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
