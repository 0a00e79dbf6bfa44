package llm

import (
	"fmt"
)

// ErrorKind classifies a failed provider call.
type ErrorKind string

// Error kinds; see the package documentation for when each occurs.
const (
	ErrRateLimited     ErrorKind = "rate_limited"
	ErrOverloaded      ErrorKind = "overloaded"
	ErrAuthorityDenied ErrorKind = "authority_denied"
	ErrTimeout         ErrorKind = "timeout"
	ErrDeadline        ErrorKind = "deadline"
	ErrCancelled       ErrorKind = "cancelled"
	ErrTransport       ErrorKind = "transport_failed"
	ErrRedirect        ErrorKind = "redirect_refused"
	ErrStatus          ErrorKind = "http_status"
	ErrMalformed       ErrorKind = "malformed_response"
	ErrContextWindow   ErrorKind = "context_window"
	ErrUnconfigured    ErrorKind = "unconfigured"
	ErrUnsupported     ErrorKind = "unsupported_options"
	ErrReplay          ErrorKind = "replay_mismatch"
)

// Error is a typed provider failure. Its text never contains a
// credential, the request or provider prose.
type Error struct {
	Kind ErrorKind
	// Status is the HTTP status, 0 when no response arrived.
	Status int
	// RetryAfterMS is the provider's requested delay for a 429, if given.
	RetryAfterMS *int64
	// Code is the provider's error code or type when it is a short
	// identifier (e.g. "context_length_exceeded"), else "".
	Code string
	// Attempts is 1 when the request left the process, 0 otherwise.
	Attempts int
	// Detail is a fixed description built by this package.
	Detail string
}

func (e *Error) Error() string {
	s := "llm: " + string(e.Kind)
	if e.Status != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Code != "" {
		s += " [" + e.Code + "]"
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// safeCode keeps a provider error code only when it is a short
// identifier: an ASCII letter, then up to 63 ASCII letters, digits, '_',
// '.' or '-'. (Checked by hand: the expression with its bounded
// repetition cost every process a tenth of a millisecond to compile at
// start-up.)
func safeCode(s string) string {
	if len(s) == 0 || len(s) > 64 || !isLetter(s[0]) {
		return ""
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && !('0' <= c && c <= '9') && c != '_' && c != '.' && c != '-' {
			return ""
		}
	}
	return s
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
