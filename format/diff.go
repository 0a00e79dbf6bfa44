package format

import (
	"bytes"
	"fmt"
	"strings"
)

// contextLines is the number of unchanged lines around a hunk.
const contextLines = 3

// UnifiedDiff returns the unified diff (as `diff -u` writes it) that turns
// old into new, "" when they are equal. The hunks come from Edits, so the
// diff is exact for a formatting and linear to compute; oldName and
// newName label the two sides.
func UnifiedDiff(oldName, newName string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	oldLines := splitLines(old)
	newText := Apply(old, Edits(old, new))
	if !bytes.Equal(newText, new) {
		// Not a formatting of old: one hunk replacing everything.
		return header(oldName, newName) + hunk(oldLines, 0, len(oldLines), splitLines(new), 0, len(splitLines(new)))
	}
	blocks := changedBlocks(old, Edits(old, new))
	var b strings.Builder
	b.WriteString(header(oldName, newName))
	// Merge blocks whose context overlaps into hunks.
	for i := 0; i < len(blocks); {
		j := i
		for j+1 < len(blocks) && blocks[j+1].oldStart-blocks[j].oldEnd <= 2*contextLines {
			j++
		}
		b.WriteString(hunkOf(oldLines, blocks[i:j+1]))
		i = j + 1
	}
	return b.String()
}

func header(oldName, newName string) string {
	return fmt.Sprintf("--- %s\n+++ %s\n", oldName, newName)
}

// block is a run of changed old lines [oldStart, oldEnd) and the new lines
// replacing them; newStart is the new line number of the first.
type block struct {
	oldStart, oldEnd int
	newStart         int
	newLines         []string
}

// changedBlocks turns edits into line blocks: the lines each edit touches,
// merged when they touch the same or adjacent lines, with unchanged lines
// at their edges trimmed.
func changedBlocks(old []byte, edits []Edit) []block {
	lineStarts := []int{0}
	for i, c := range old {
		if c == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	lineOf := func(off int) int {
		lo, hi := 0, len(lineStarts)-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if lineStarts[mid] <= off {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		return lo
	}
	lineEnd := func(l int) int { // offset after line l's newline
		if l+1 < len(lineStarts) {
			return lineStarts[l+1]
		}
		return len(old)
	}
	var out []block
	delta := 0 // new lines minus old lines before the current block
	for i := 0; i < len(edits); {
		a := lineOf(edits[i].Start)
		b := lineOf(max(edits[i].Start, edits[i].End-1))
		if edits[i].End > edits[i].Start && old[edits[i].End-1] == '\n' {
			b = lineOf(edits[i].End)
		}
		j := i
		for j+1 < len(edits) && lineOf(edits[j+1].Start) <= b+1 {
			j++
			nb := lineOf(max(edits[j].Start, edits[j].End-1))
			if edits[j].End > edits[j].Start && old[edits[j].End-1] == '\n' {
				nb = lineOf(edits[j].End)
			}
			b = max(b, nb)
		}
		if b >= len(lineStarts) {
			b = len(lineStarts) - 1
		}
		from, to := lineStarts[a], lineEnd(b)
		var nb strings.Builder
		last := from
		for _, e := range edits[i : j+1] {
			nb.Write(old[last:e.Start])
			nb.WriteString(e.New)
			last = e.End
		}
		nb.Write(old[last:to])
		olds := splitLines(old[from:to])
		news := splitLines([]byte(nb.String()))
		// Trim unchanged lines at both ends.
		s := 0
		for s < len(olds) && s < len(news) && olds[s] == news[s] {
			s++
		}
		e := 0
		for e < len(olds)-s && e < len(news)-s && olds[len(olds)-1-e] == news[len(news)-1-e] {
			e++
		}
		blk := block{oldStart: a + s, oldEnd: a + len(olds) - e, newStart: a + s + delta, newLines: news[s : len(news)-e]}
		delta += len(news) - len(olds)
		if blk.oldEnd > blk.oldStart || len(blk.newLines) > 0 {
			out = append(out, blk)
		}
		i = j + 1
	}
	return out
}

// hunkOf writes one hunk covering blocks with their context.
func hunkOf(oldLines []string, blocks []block) string {
	first, last := blocks[0], blocks[len(blocks)-1]
	start := max(0, first.oldStart-contextLines)
	end := min(len(oldLines), last.oldEnd+contextLines)
	var body strings.Builder
	oldCount, newCount := 0, 0
	cur := start
	for _, blk := range blocks {
		for ; cur < blk.oldStart; cur++ {
			body.WriteString(" " + oldLines[cur])
			oldCount++
			newCount++
		}
		for ; cur < blk.oldEnd; cur++ {
			body.WriteString("-" + oldLines[cur])
			oldCount++
		}
		for _, l := range blk.newLines {
			body.WriteString("+" + l)
			newCount++
		}
	}
	for ; cur < end; cur++ {
		body.WriteString(" " + oldLines[cur])
		oldCount++
		newCount++
	}
	newStart := first.newStart - (first.oldStart - start)
	return fmt.Sprintf("@@ -%s +%s @@\n", rangeOf(start, oldCount), rangeOf(newStart, newCount)) + body.String()
}

// hunk writes a hunk replacing old lines [a, b) by new lines [c, d).
func hunk(oldLines []string, a, b int, newLines []string, c, d int) string {
	var body strings.Builder
	for _, l := range oldLines[a:b] {
		body.WriteString("-" + l)
	}
	for _, l := range newLines[c:d] {
		body.WriteString("+" + l)
	}
	return fmt.Sprintf("@@ -%s +%s @@\n", rangeOf(a, b-a), rangeOf(c, d-c)) + body.String()
}

// rangeOf is a hunk header range: 1-based start and count ("3,2"); an
// empty range names the line before it.
func rangeOf(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if count == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}

// splitLines splits text into lines that keep their "\n"; a last line
// without one gets "\n\\ No newline at end of file\n" as diff writes it.
func splitLines(text []byte) []string {
	var out []string
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			out = append(out, string(text)+"\n\\ No newline at end of file\n")
			break
		}
		out = append(out, string(text[:i+1]))
		text = text[i+1:]
	}
	return out
}
