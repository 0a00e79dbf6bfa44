package tsutil

// CommonEnds returns the lengths of the longest common prefix of a and b
// and of their longest common suffix that does not overlap it: b is a
// with a[p:len(a)-s] replaced by b[p:len(b)-s], the one edit between two
// versions of a text from which a tree is brought up to date.
func CommonEnds(a, b []byte) (p, s int) {
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return p, s
}
