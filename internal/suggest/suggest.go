// Package suggest finds the "did you mean" candidate for a misspelt name.
// It owns the one edit distance the product uses for that: optimal string
// alignment, in which an insertion, a deletion, a substitution and a swap
// of two neighbouring characters each count as one edit (so `lable` is one
// edit from `label`), counted in characters, not bytes.
//
// Callers choose the candidates and how far a suggestion may reach; the
// checker's names rules, the import rules and the command line's commands
// and flags all measure with Distance.
package suggest

import "unicode/utf8"

// Distance returns the optimal-string-alignment distance of a and b, or
// limit+1 as soon as it is certain to exceed limit (a negative limit means
// no limit). ASCII names of up to 47 characters need no allocation: an
// undefined name is compared with every builtin.
func Distance(a, b string, limit int) int {
	if ascii(a) && ascii(b) {
		return osa([]byte(a), []byte(b), limit)
	}
	return osa([]rune(a), []rune(b), limit)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// osa is Distance over characters.
func osa[E comparable](a, b []E, limit int) int {
	if limit < 0 {
		limit = len(a) + len(b)
	}
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	n := len(b) + 1
	var bufs [3 * 48]int
	buf := bufs[:]
	if 3*n > len(bufs) {
		buf = make([]int, 3*n)
	}
	// before, prev and cur are the rows of a[:i-2], a[:i-1] and a[:i].
	before, prev, cur := buf[:n:n], buf[n:2*n:2*n], buf[2*n:3*n:3*n]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		ai := a[i-1]
		for j := 1; j < n; j++ {
			bj := b[j-1]
			v := min(prev[j], cur[j-1]) + 1
			if ai == bj {
				v = min(v, prev[j-1])
			} else {
				v = min(v, prev[j-1]+1)
				if i > 1 && j > 1 && ai == b[j-2] && a[i-2] == bj {
					v = min(v, before[j-2]+1)
				}
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		before, prev, cur = prev, cur, before
	}
	if d := prev[n-1]; d <= limit {
		return d
	}
	return limit + 1
}

// Limit is how many edits a suggestion for name may bridge: none for a
// name of one character (so `x` is never "corrected" to `e`), one for
// names of up to five characters, two for longer ones.
func Limit(name string) int {
	switch n := utf8.RuneCountInString(name); {
	case n < 2:
		return -1
	case n <= 5:
		return 1
	}
	return 2
}

// Nearest returns the candidate nearest to name within limit edits, or ""
// when there is none (a negative limit never suggests). A candidate equal
// to name is not a suggestion. Ties go to a candidate at least as long as
// name (a typo more often drops a letter than adds one: `printl` means
// `println`, not `print`), then to the alphabetically first, so the
// answer does not depend on the candidates' order.
func Nearest(name string, candidates []string, limit int) string {
	if limit < 0 {
		return ""
	}
	best, bestDist := "", limit+1
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := Distance(name, c, limit)
		if d < bestDist || d == bestDist && d <= limit && Better(name, c, best) {
			best, bestDist = c, d
		}
	}
	return best
}

// Better reports whether cand should be preferred to best, both as near
// to name as each other (see Nearest).
func Better(name, cand, best string) bool {
	if best == "" {
		return true
	}
	if (len(cand) >= len(name)) != (len(best) >= len(name)) {
		return len(cand) >= len(name)
	}
	return cand < best
}
