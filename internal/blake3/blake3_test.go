package blake3

import (
	"bytes"
	"encoding/hex"
	"testing"

	reference "lukechampine.com/blake3"
)

// input is the specification's test input: byte i is i mod 251.
func input(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

// TestEmpty: the digest of no input, as the specification publishes it.
func TestEmpty(t *testing.T) {
	got := Sum256(nil)
	if h := hex.EncodeToString(got[:]); h != "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262" {
		t.Errorf("BLAKE3(\"\") = %s", h)
	}
}

// TestAgreesWithReference: the same digest as an independent
// implementation at every length around block and chunk boundaries and
// several tree depths, in one write and in uneven pieces.
func TestAgreesWithReference(t *testing.T) {
	lengths := []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 1023, 1024, 1025, 2047, 2048, 2049,
		3072, 3073, 4096, 4097, 5120, 5121, 6144, 6145, 7168, 7169, 8192, 8193, 16384, 31744, 102400, 1 << 20}
	for n := 0; n < 300; n++ {
		lengths = append(lengths, n*37)
	}
	for _, n := range lengths {
		b := input(n)
		want := reference.Sum256(b)
		if got := Sum256(b); got != want {
			t.Fatalf("length %d: Sum256 %x, want %x", n, got, want)
		}
		h := New()
		for rest, step := b, 1; len(rest) > 0; step = (step*3 + 1) % 1009 {
			k := min(step%700+1, len(rest))
			h.Write(rest[:k])
			rest = rest[k:]
		}
		if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("length %d in pieces: %x, want %x", n, got, want)
		}
		if got := h.Sum([]byte("x")); !bytes.Equal(got[1:], want[:]) || got[0] != 'x' {
			t.Fatalf("length %d: a second Sum changed the digest or lost the prefix", n)
		}
	}
}

// TestReset: a Hasher reset after use digests as a new one.
func TestReset(t *testing.T) {
	h := New()
	h.Write(input(5000))
	h.Reset()
	h.Write([]byte("abc"))
	if got, want := h.Sum(nil), Sum256([]byte("abc")); !bytes.Equal(got, want[:]) {
		t.Errorf("after Reset: %x, want %x", got, want)
	}
	if h.Size() != 32 || h.BlockSize() != 64 {
		t.Errorf("Size %d BlockSize %d", h.Size(), h.BlockSize())
	}
}

func BenchmarkSum256(b *testing.B) {
	for _, n := range []int{64, 1024, 16384} {
		data := input(n)
		b.Run(hex.EncodeToString([]byte{byte(n >> 8), byte(n)}), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				Sum256(data)
			}
		})
	}
}
