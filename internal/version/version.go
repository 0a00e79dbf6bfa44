// Package version holds the toolchain's version, reported by every binary
// and recorded in SARIF output and cache keys.
package version

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"sync"
)

// Version is the release of harn-check and leia-lsp.
const Version = "0.1.0-dev"

// BuildID identifies the running binary: the SHA-256 of its executable
// file together with Version, so that any rebuild (a changed rule, a new
// generated parser) gets a new identity even when Version is unchanged.
// Cache keys use it. If the executable cannot be read, Version alone is
// returned.
func BuildID() string {
	buildIDOnce.Do(func() {
		buildID = Version
		exe, err := os.Executable()
		if err != nil {
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return
		}
		buildID = Version + "+" + hex.EncodeToString(h.Sum(nil))
	})
	return buildID
}

var (
	buildIDOnce sync.Once
	buildID     string
)
