// Package ir holds the small vocabulary the generator's stages share:
// variable kinds and sets of lexical tokens. The syntactic stages
// (prepare, lr, render) and the lexical stage (lex) meet only through
// these types and the lex package's API.
package ir

import (
	"math/bits"
	"strings"
)

// VariableKind says how a grammar variable appears in the tree.
type VariableKind uint8

// The kinds of variables, as tree-sitter's node-types distinguish them.
const (
	// Named: a visible named node (rule `foo`, or a named alias).
	Named VariableKind = iota
	// Anonymous: a visible unnamed node (a string token such as "(").
	Anonymous
	// Hidden: a rule whose name starts with `_` (or a supertype).
	Hidden
	// Auxiliary: generator-made helpers (repeat rules, `_tokenN` patterns).
	Auxiliary
)

// String returns the kind's name.
func (k VariableKind) String() string {
	switch k {
	case Named:
		return "named"
	case Anonymous:
		return "anonymous"
	case Hidden:
		return "hidden"
	case Auxiliary:
		return "auxiliary"
	}
	return "unknown"
}

// TokenSet is a set of lexical token indices (indices into the lexical
// grammar's variables). The zero value is the empty set.
type TokenSet struct {
	words []uint64
}

// Add inserts token i.
func (s *TokenSet) Add(i int) {
	for len(s.words) <= i/64 {
		s.words = append(s.words, 0)
	}
	s.words[i/64] |= 1 << (uint(i) % 64)
}

// Remove deletes token i.
func (s *TokenSet) Remove(i int) {
	if i/64 < len(s.words) {
		s.words[i/64] &^= 1 << (uint(i) % 64)
	}
}

// Has reports whether token i is in the set.
func (s TokenSet) Has(i int) bool {
	return i >= 0 && i/64 < len(s.words) && s.words[i/64]&(1<<(uint(i)%64)) != 0
}

// Len returns the number of tokens in the set.
func (s TokenSet) Len() int {
	n := 0
	for _, w := range s.words {
		n += bits.OnesCount64(w)
	}
	return n
}

// Empty reports whether the set has no tokens.
func (s TokenSet) Empty() bool {
	for _, w := range s.words {
		if w != 0 {
			return false
		}
	}
	return true
}

// Union adds every token of o to s and reports whether s grew.
func (s *TokenSet) Union(o TokenSet) bool {
	for len(s.words) < len(o.words) {
		s.words = append(s.words, 0)
	}
	grew := false
	for i, w := range o.words {
		if n := s.words[i] | w; n != s.words[i] {
			s.words[i] = n
			grew = true
		}
	}
	return grew
}

// Intersects reports whether s and o share a token.
func (s TokenSet) Intersects(o TokenSet) bool {
	for i := 0; i < len(s.words) && i < len(o.words); i++ {
		if s.words[i]&o.words[i] != 0 {
			return true
		}
	}
	return false
}

// Equal reports whether s and o hold the same tokens.
func (s TokenSet) Equal(o TokenSet) bool {
	n := max(len(s.words), len(o.words))
	for i := 0; i < n; i++ {
		var a, b uint64
		if i < len(s.words) {
			a = s.words[i]
		}
		if i < len(o.words) {
			b = o.words[i]
		}
		if a != b {
			return false
		}
	}
	return true
}

// Clone returns an independent copy.
func (s TokenSet) Clone() TokenSet {
	return TokenSet{words: append([]uint64(nil), s.words...)}
}

// Each calls f for every token in ascending order.
func (s TokenSet) Each(f func(i int)) {
	for wi, w := range s.words {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			f(wi*64 + b)
			w &^= 1 << uint(b)
		}
	}
}

// Slice returns the tokens in ascending order.
func (s TokenSet) Slice() []int {
	var out []int
	s.Each(func(i int) { out = append(out, i) })
	return out
}

// Key returns a string usable as a map key; equal sets give equal keys.
func (s TokenSet) Key() string {
	n := len(s.words)
	for n > 0 && s.words[n-1] == 0 {
		n--
	}
	var b strings.Builder
	for _, w := range s.words[:n] {
		for k := 0; k < 8; k++ {
			b.WriteByte(byte(w >> (8 * k)))
		}
	}
	return b.String()
}
