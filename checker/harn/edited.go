package harn

import "github.com/harnlang/harn-check/checker/harn/analysis"

// EditedFacts are the inference facts of a version of a file that an
// editor checked incrementally: the facts of this version's check, except
// in Regions, the bodies that check left out because the edit could not
// change them, whose facts come from the check of an earlier version (the
// same text there, at other offsets).
type EditedFacts struct {
	// Facts are this version's facts outside Regions.
	Facts *analysis.Facts
	// Regions are spans of this version whose facts are those of an
	// earlier check.
	Regions []FactsRegion
}

// FactsRegion is a span of a version whose facts come from an earlier
// check.
type FactsRegion struct {
	// Start and End delimit the span, in this version's offsets.
	Start, End int
	// Facts are the earlier check's.
	Facts *analysis.Facts
	// Delta converts an offset of this version in the span to the offset
	// of the same text in the earlier check (added).
	Delta int
}

// At returns the facts that cover [start, end) and the delta that
// converts this version's offsets to theirs.
func (e *EditedFacts) At(start, end int) (*analysis.Facts, int) {
	for _, r := range e.Regions {
		if start >= r.Start && end <= r.End {
			return r.Facts, r.Delta
		}
	}
	return e.Facts, 0
}
