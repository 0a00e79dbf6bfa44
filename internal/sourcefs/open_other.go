//go:build !unix

package sourcefs

import "os"

func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
