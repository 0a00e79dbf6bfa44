package ast

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNewLinesMatchesByteScan compares the line index with a scan of
// every byte on random texts.
func TestNewLinesMatchesByteScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	for range 300 {
		var src []byte
		for range r.IntN(50) {
			src = append(src, "ab\n\n é\r"[r.IntN(8)])
		}
		want := lineIndex{0}
		for i, b := range src {
			if b == '\n' {
				want = append(want, i+1)
			}
		}
		if got := newLines(src); !slices.Equal(got, want) {
			t.Fatalf("%q: lines %v, want %v", src, got, want)
		}
	}
}
