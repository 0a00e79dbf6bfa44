package analysis

import (
	"fmt"
	"slices"
	"strings"
)

// Matches reports whether entry names rule r (its name, a code, a code
// prefix or ALL).
func Matches[P any](r *Rule[P], entry string) bool {
	if entry == "ALL" || entry == r.Name || slices.Contains(r.Aliases, entry) {
		return true
	}
	for _, c := range r.Codes {
		if c == entry || (strings.HasPrefix(c, entry) && len(entry) >= len("HARN-")) {
			return true
		}
	}
	return false
}

// Select returns the rules of all chosen the way ruff's --select,
// --extend-select and --ignore choose, in the order of all: sel replaces
// the default rules (those not OptIn) unless empty, extend adds rules, and
// ignore removes rules after both. Each entry is a rule's name, one of its
// codes, a code prefix ("HARN-LNT-0") or ALL. An entry that names no rule
// of all is returned in unknown (the caller decides whether another
// language knows it).
func Select[P any](all []*Rule[P], sel, extend, ignore []string) (rules []*Rule[P], unknown []string) {
	s := struct{ Select, Extend, Ignore []string }{sel, extend, ignore}
	on := map[*Rule[P]]bool{}
	check := func(entries []string) {
		for _, e := range entries {
			if !slices.ContainsFunc(all, func(r *Rule[P]) bool { return Matches(r, e) }) {
				unknown = append(unknown, e)
			}
		}
	}
	check(s.Select)
	check(s.Extend)
	check(s.Ignore)
	for _, r := range all {
		switch {
		case len(s.Select) == 0:
			on[r] = !r.OptIn
		default:
			on[r] = slices.ContainsFunc(s.Select, func(e string) bool { return Matches(r, e) })
		}
		if slices.ContainsFunc(s.Extend, func(e string) bool { return Matches(r, e) }) {
			on[r] = true
		}
		if slices.ContainsFunc(s.Ignore, func(e string) bool { return Matches(r, e) }) {
			on[r] = false
		}
	}
	for _, r := range all {
		if on[r] {
			rules = append(rules, r)
		}
	}
	return rules, unknown
}

// ParseList splits comma-separated selection entries, trimming spaces and
// dropping empty ones; an entry that is neither a rule name nor a code
// shape is still returned (Select reports it unknown).
func ParseList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, e := range strings.Split(v, ",") {
			if e = strings.TrimSpace(e); e != "" {
				out = append(out, e)
			}
		}
	}
	return out
}

// UnknownError is the message for selection entries no rule answers to.
func UnknownError(unknown []string) error {
	if len(unknown) == 0 {
		return nil
	}
	return fmt.Errorf("no lint rule is named %s (run 'harn-check lint --list' for the rules)", strings.Join(unknown, ", "))
}
