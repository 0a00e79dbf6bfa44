package host

import (
	"context"
	"crypto/rand"
	"slices"
	"time"
)

// Now is the wall-clock time.
func (h *Host) Now() time.Time { return h.now() }

// Monotonic is the time elapsed since the host was created, read from the
// monotonic clock (for timers and durations, immune to clock changes).
func (h *Host) Monotonic() time.Duration { return time.Since(h.start) }

// Sleep waits for d or until ctx is done, whichever comes first; it
// returns ctx.Err() when cancelled.
func (h *Host) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Float64 returns a pseudo-random number in [0, 1) from the host's
// generator (deterministic when Config.Seed is set).
func (h *Host) Float64() float64 {
	h.randMu.Lock()
	defer h.randMu.Unlock()
	return h.generator().Float64()
}

// IntN returns a pseudo-random int in [0, n); n must be positive.
func (h *Host) IntN(n int64) int64 {
	h.randMu.Lock()
	defer h.randMu.Unlock()
	return h.generator().Int64N(n)
}

// Uint64 returns a pseudo-random 64-bit value.
func (h *Host) Uint64() uint64 {
	h.randMu.Lock()
	defer h.randMu.Unlock()
	return h.generator().Uint64()
}

// Shuffle permutes n elements with swap, pseudo-randomly.
func (h *Host) Shuffle(n int, swap func(i, j int)) {
	h.randMu.Lock()
	defer h.randMu.Unlock()
	h.generator().Shuffle(n, swap)
}

// SecureBytes returns n bytes from the operating system's cryptographic
// generator (keys, nonces, UUIDs); never seeded.
func (h *Host) SecureBytes(n int) []byte {
	b := make([]byte, n)
	cryptoFill(b)
	return b
}

func cryptoFill(b []byte) {
	// crypto/rand.Read never returns an error on supported platforms.
	_, _ = rand.Read(b)
}

func sortStrings(s []string) { slices.Sort(s) }
