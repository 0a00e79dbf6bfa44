package infer

import (
	"github.com/harnlang/harn-check/checker/harn/builtins"
)

// maxSuggestDistance is the largest edit distance a "did you mean" hint
// bridges (upstream Harn's checker uses the same bound).
const maxSuggestDistance = 2

// suggest returns the visible name nearest to an unresolved one: the
// program's names in scope, then the builtins (functions for a call;
// also global values otherwise). Names shorter than the distance bound
// get no hint, so that `x` is not "corrected" to `e`, and names of up to
// five characters bridge one edit only.
func (c *checker) suggest(sc *scope, name string, call bool) string {
	limit := maxSuggestDistance
	if len(name) <= 5 {
		limit = 1
	}
	if len(name) < 2 {
		return ""
	}
	best, bestDist := "", limit+1
	consider := func(cand string) {
		if cand == name || cand == "_" {
			return
		}
		if d := len(cand) - len(name); d > limit || -d > limit {
			return
		}
		dist := editDistanceWithin(name, cand, limit)
		if dist < bestDist || (dist == bestDist && better(name, cand, best)) {
			best, bestDist = cand, dist
		}
	}
	for s := sc; s != nil; s = s.parent {
		for n := range s.vars {
			consider(n)
		}
	}
	for _, b := range builtins.All() {
		if b.Namespace == "" {
			consider(b.Name)
		}
	}
	if !call {
		for _, g := range builtins.Globals() {
			consider(g.Name)
		}
	}
	if bestDist > limit {
		return ""
	}
	return best
}

// better breaks a tie between two candidates as near as each other: a
// typo more often drops a letter than adds one, so a candidate at least
// as long as the name wins (`printl` means `println`, not `print`); then
// the alphabetically first, for determinism.
func better(name, cand, best string) bool {
	if best == "" {
		return true
	}
	if (len(cand) >= len(name)) != (len(best) >= len(name)) {
		return len(cand) >= len(name)
	}
	return cand < best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int { return editDistanceWithin(a, b, len(a)+len(b)) }

// editDistanceWithin is editDistance for callers that only care about
// distances up to limit: once every cell of a row exceeds limit the
// distance can only grow, and limit+1 is returned at once. Short names
// need no allocation. An undefined name is compared with every builtin,
// so this is on the path of every HARN-NAM-001.
func editDistanceWithin(a, b string, limit int) int {
	var bufs [2][48]int
	prev, cur := bufs[0][:0], bufs[1][:0]
	if len(b)+1 > len(bufs[0]) {
		prev, cur = make([]int, 0, len(b)+1), make([]int, 0, len(b)+1)
	}
	prev, cur = prev[:len(b)+1], cur[:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// suggestMember returns the member of namespace ns nearest to name, as
// "ns.member", or "".
func (c *checker) suggestMember(ns, name string) string {
	limit := maxSuggestDistance
	if len(name) <= 5 {
		limit = 1
	}
	best, bestDist := "", limit+1
	for _, m := range builtins.Members(ns) {
		if dist := editDistanceWithin(name, m.Member, limit); dist < bestDist || (dist == bestDist && better(name, m.Member, best)) {
			best, bestDist = m.Member, dist
		}
	}
	if best == "" || bestDist > limit {
		return ""
	}
	return ns + "." + best
}
