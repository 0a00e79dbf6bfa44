package infer

import (
	"github.com/harnlang/harn-check/internal/suggest"
	"github.com/harnlang/harn-check/lang/harn/builtins"
)

// suggest returns the visible name nearest to an unresolved one: the
// program's names in scope, then the builtins (functions for a call;
// also global values otherwise), within suggest.Limit edits (two, one
// for names of up to five characters, none for one character; a swap of
// neighbours is one edit, so `lable` finds `label`). HARN-NAM-001's and
// HARN-NAM-002's pages say the same.
func (c *checker) suggest(sc *scope, name string, call bool) string {
	limit := suggest.Limit(name)
	if limit < 0 {
		return ""
	}
	best, bestDist := "", limit+1
	consider := func(cand string) {
		if cand == name || cand == "_" {
			return
		}
		dist := suggest.Distance(name, cand, limit)
		if dist < bestDist || (dist == bestDist && dist <= limit && suggest.Better(name, cand, best)) {
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

// suggestMember returns the member of namespace ns nearest to name, as
// "ns.member", or "".
func (c *checker) suggestMember(ns, name string) string {
	var members []string
	for _, m := range builtins.Members(ns) {
		members = append(members, m.Member)
	}
	if best := suggest.Nearest(name, members, suggest.Limit(name)); best != "" {
		return ns + "." + best
	}
	return ""
}
