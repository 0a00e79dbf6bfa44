// Package version holds the toolchain's version, reported by every binary
// and recorded in SARIF output and cache keys.
package version

// Version is the release of harn-check and leia-lsp.
const Version = "0.1.0-dev"
