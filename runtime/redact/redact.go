// Package redact is the one redaction step every persisted artifact goes
// through: receipts, tapes, .records.json fixtures, traces, run records
// and evaluation reports are written with WriteFile or through Writer,
// and what a provider sends back (the served model, content, error prose)
// is passed through String before it is kept.
//
// It removes two things: the credentials actually used by this process's
// requests (registered with Credential when a request is authorized), and
// anything shaped like a known kind of key or token (OpenAI and Anthropic
// keys, Google API keys, GitHub and Slack tokens, AWS access key ids, a
// Bearer token), whatever its origin: a provider that echoes the
// Authorization header into its served model, an answer or an error must
// not put the key into a file meant to be committed.
//
// Names and URL are the one matcher of secret-bearing header and query
// parameter names; each runtime passes its upstream's word list
// (HarnHeaders, HarnParams, LeiaNames).
//
// The registered credentials are process-wide: one harn-check process runs
// one command, and a key one of its runs used must be absent from every
// file it writes.
package redact

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// Mark replaces what is redacted.
const Mark = "[redacted]"

// minCredential is the shortest credential registered: shorter values
// (a test's "x") would redact ordinary words.
const minCredential = 8

var (
	mu      sync.RWMutex
	secrets []string // longest first
)

// Credential registers a credential value used by a request of this
// process: from now on it is redacted wherever it appears.
func Credential(v string) {
	v = strings.TrimSpace(v)
	if len(v) < minCredential {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range secrets {
		if s == v {
			return
		}
	}
	secrets = append(secrets, v)
	sort.Slice(secrets, func(i, j int) bool { return len(secrets[i]) > len(secrets[j]) })
}

// keyShaped matches the known shapes of keys and tokens. Each prefix is
// followed by enough key characters that ordinary prose does not match.
// It is compiled at its first use (a text that may hold a key), not when
// every process starts.
var keyShaped = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(keyShapes) })

const keyShapes = `sk-ant-[A-Za-z0-9_\-]{16,}` +
	`|sk-(?:proj-|live-|test-)?[A-Za-z0-9_\-]{16,}` +
	`|AIza[0-9A-Za-z_\-]{30,}` +
	`|gh[pousr]_[A-Za-z0-9]{20,}` +
	`|github_pat_[A-Za-z0-9_]{20,}` +
	`|xox[abprs]-[A-Za-z0-9\-]{10,}` +
	`|AKIA[0-9A-Z]{16}` +
	`|(?i:bearer)\s+[A-Za-z0-9._~+/=\-]{8,}`

// String returns s with the registered credentials and key-shaped tokens
// replaced by Mark.
func String(s string) string {
	mu.RLock()
	for _, k := range secrets {
		if strings.Contains(s, k) {
			s = strings.ReplaceAll(s, k, Mark)
		}
	}
	mu.RUnlock()
	return shapes(s)
}

// keyLiterals are the literal starts of the key shapes: a text holding
// none of them (nor "bearer" in any case) cannot match keyShaped, and is
// not scanned by it (the expression is slow on a large reply).
var keyLiterals = []string{"sk-", "AIza", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "AKIA"}

// mayHoldKey reports whether s holds a literal start of a key shape.
func mayHoldKey(s string) bool {
	for _, lit := range keyLiterals {
		if strings.Contains(s, lit) {
			return true
		}
	}
	for _, b := range []byte{'b', 'B'} {
		for rest := s; ; {
			i := strings.IndexByte(rest, b)
			if i < 0 {
				break
			}
			if rest = rest[i:]; len(rest) >= 6 && strings.EqualFold(rest[:6], "bearer") {
				return true
			}
			rest = rest[1:]
		}
	}
	return false
}

// shapes replaces the key-shaped tokens of s.
func shapes(s string) string {
	if !mayHoldKey(s) {
		return s
	}
	return keyShaped().ReplaceAllStringFunc(s, func(m string) string {
		if len(m) > 6 && strings.EqualFold(m[:6], "bearer") {
			// "Bearer" before a word of prose ("the bearer instruments")
			// is not a token: a token has a digit. What follows may
			// still be a key of a known shape.
			tok := strings.TrimLeft(m[6:], " \t\r\n")
			if !strings.ContainsAny(tok, "0123456789") {
				return m[:len(m)-len(tok)] + shapes(tok)
			}
			return m[:6] + " " + Mark
		}
		return Mark
	})
}

// Bytes is String for a byte slice; it returns b itself when nothing is
// redacted. Mark needs no escaping in JSON, XML or JSON lines, so
// redacting an encoded artifact keeps it well formed.
func Bytes(b []byte) []byte {
	found := mayHoldKey(unsafe.String(unsafe.SliceData(b), len(b))) && keyShaped().Match(b)
	if !found {
		mu.RLock()
		for _, k := range secrets {
			if bytes.Contains(b, []byte(k)) {
				found = true
				break
			}
		}
		mu.RUnlock()
	}
	if !found {
		return b
	}
	return []byte(String(string(b)))
}

// WriteFile writes data, redacted, to path (os.WriteFile).
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return os.WriteFile(path, Bytes(data), perm)
}

// Writer returns a writer that redacts each write to w. Artifacts written
// through it (JSON lines) write a whole record per call, so a key is never
// split between two writes.
func Writer(w io.Writer) io.Writer { return &writer{w} }

type writer struct{ w io.Writer }

func (r *writer) Write(p []byte) (int, error) {
	if _, err := r.w.Write(Bytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
