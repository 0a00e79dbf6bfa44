package tsutil

import "encoding/binary"

// CommonEnds returns the lengths of the longest common prefix of a and b
// and of their longest common suffix that does not overlap it: b is a
// with a[p:len(a)-s] replaced by b[p:len(b)-s], the one edit between two
// versions of a text from which a tree is brought up to date. It compares
// eight bytes at a time: it runs on every version of an edited document,
// over the whole text.
func CommonEnds(a, b []byte) (p, s int) {
	n := min(len(a), len(b))
	for p+8 <= n && binary.LittleEndian.Uint64(a[p:]) == binary.LittleEndian.Uint64(b[p:]) {
		p += 8
	}
	for p < n && a[p] == b[p] {
		p++
	}
	m := n - p // the longest suffix that does not overlap the prefix
	for s+8 <= m && binary.LittleEndian.Uint64(a[len(a)-s-8:]) == binary.LittleEndian.Uint64(b[len(b)-s-8:]) {
		s += 8
	}
	for s < m && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return p, s
}
