package diagnostics

import (
	"fmt"
	"slices"
)

// FixOptions choose which fixes ApplyFixes applies.
type FixOptions struct {
	// Unsafe also applies fixes marked Unsafe (they may change what the
	// program does, or drop code a reader should look at first).
	Unsafe bool
	// Keep, when set, is asked about each diagnostic with a fix; only those
	// it accepts are applied (a configuration's selected rules).
	Keep func(Diagnostic) bool
}

// FixResult is the outcome of one ApplyFixes pass.
type FixResult struct {
	// Text is the source after the edits.
	Text []byte
	// Applied are the diagnostics whose first fix was applied, in source
	// order of their first edit.
	Applied []Diagnostic
	// Deferred are the diagnostics whose fix overlapped one applied in
	// this pass; checking Text again and applying again settles them.
	Deferred []Diagnostic
	// Withheld counts the fixes not applied because they are unsafe.
	Withheld int
}

// ApplyFixes applies the first fix of every diagnostic of src that offers
// one, as an editor's "fix all" does, in one pass: a fix is applied whole
// or not at all, and a fix whose edits overlap (or insert at the same
// offset as) an edit already taken is deferred to a later pass, so the
// result never interleaves two fixes. Diagnostics are taken in source
// order. Edits for another file (TextEdit.Path set and not the
// diagnostic's) are not applied: the fix is deferred. An edit outside src
// is an error naming the diagnostic, since the checker produced it.
func ApplyFixes(src []byte, ds []Diagnostic, opts FixOptions) (FixResult, error) {
	var res FixResult
	cand := make([]Diagnostic, 0, len(ds))
	for _, d := range ds {
		if len(d.Fixes) == 0 || (opts.Keep != nil && !opts.Keep(d)) {
			continue
		}
		if d.Fixes[0].Unsafe && !opts.Unsafe {
			res.Withheld++
			continue
		}
		cand = append(cand, d)
	}
	start := func(d Diagnostic) int {
		s := -1
		for _, e := range d.Fixes[0].Edits {
			if s < 0 || e.Span.Start < s {
				s = e.Span.Start
			}
		}
		return s
	}
	slices.SortStableFunc(cand, func(a, b Diagnostic) int { return start(a) - start(b) })
	var taken []TextEdit
	for _, d := range cand {
		fix := d.Fixes[0]
		clash := len(fix.Edits) == 0
		for _, e := range fix.Edits {
			if e.Span.Start < 0 || e.Span.Start > e.Span.End || e.Span.End > len(src) {
				return FixResult{}, fmt.Errorf("%s fix %q: edit %d-%d outside the %d-byte source", d.Code, fix.Title, e.Span.Start, e.Span.End, len(src))
			}
			if e.Path != "" && e.Path != d.Path {
				clash = true
			}
			for _, o := range taken {
				if e.Span.Start < o.Span.End && o.Span.Start < e.Span.End || e.Span.Start == o.Span.Start {
					clash = true
				}
			}
		}
		if clash {
			res.Deferred = append(res.Deferred, d)
			continue
		}
		// The edits of one fix must not overlap each other either.
		own := slices.Clone(fix.Edits)
		slices.SortStableFunc(own, func(a, b TextEdit) int { return a.Span.Start - b.Span.Start })
		for i := 1; i < len(own); i++ {
			if own[i].Span.Start < own[i-1].Span.End {
				return FixResult{}, fmt.Errorf("%s fix %q: its edits at %d and %d overlap", d.Code, fix.Title, own[i-1].Span.Start, own[i].Span.Start)
			}
		}
		taken = append(taken, fix.Edits...)
		res.Applied = append(res.Applied, d)
	}
	slices.SortStableFunc(taken, func(a, b TextEdit) int { return a.Span.Start - b.Span.Start })
	out := make([]byte, 0, len(src))
	at := 0
	for _, e := range taken {
		out = append(out, src[at:e.Span.Start]...)
		out = append(out, e.NewText...)
		at = e.Span.End
	}
	res.Text = append(out, src[at:]...)
	return res, nil
}
