package format

import "bytes"

// Edit replaces the bytes [Start, End) of the old text with New.
type Edit struct {
	Start, End int
	New        string
}

// skippable are the bytes a formatting may change: whitespace and the
// separators `,` and `;`.
func skippable(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == ',' || c == ';'
}

// Edits returns the edits that turn old into new, in order and not
// overlapping, for texts that differ only in runs of whitespace and
// separators, as a formatting does: every maximal run of such bytes that
// differs becomes one edit. It is linear in the texts. When the texts
// differ elsewhere (they were not a formatting of each other) the rest of
// the text from the first such difference is one edit.
func Edits(old, new []byte) []Edit {
	var out []Edit
	i, j := 0, 0
	for i < len(old) || j < len(new) {
		if i < len(old) && j < len(new) && old[i] == new[j] && !skippable(old[i]) {
			i++
			j++
			continue
		}
		si, sj := i, j
		for i < len(old) && skippable(old[i]) {
			i++
		}
		for j < len(new) && skippable(new[j]) {
			j++
		}
		if si == i && sj == j {
			// Different non-separator bytes: not a formatting.
			return append(out, Edit{Start: si, End: len(old), New: string(new[sj:])})
		}
		if !bytes.Equal(old[si:i], new[sj:j]) {
			out = append(out, trimEdit(old, si, i, new[sj:j]))
		}
	}
	return out
}

// trimEdit narrows the replacement of old[start:end] by repl to the part
// that changes.
func trimEdit(old []byte, start, end int, repl []byte) Edit {
	for start < end && len(repl) > 0 && old[start] == repl[0] {
		start++
		repl = repl[1:]
	}
	for start < end && len(repl) > 0 && old[end-1] == repl[len(repl)-1] {
		end--
		repl = repl[:len(repl)-1]
	}
	return Edit{Start: start, End: end, New: string(repl)}
}

// Apply applies edits (ordered, not overlapping) to text.
func Apply(text []byte, edits []Edit) []byte {
	var b bytes.Buffer
	last := 0
	for _, e := range edits {
		b.Write(text[last:e.Start])
		b.WriteString(e.New)
		last = e.End
	}
	b.Write(text[last:])
	return b.Bytes()
}

// InRange keeps the edits that touch [start, end): an edit is kept when
// it overlaps the range or, inserting, sits inside it. Each edit of a
// formatting changes one run of whitespace and separators, so any subset
// still leaves the same program.
func InRange(edits []Edit, start, end int) []Edit {
	var out []Edit
	for _, e := range edits {
		if (e.Start < end && e.End > start) || (e.Start == e.End && e.Start >= start && e.Start < end) {
			out = append(out, e)
		}
	}
	return out
}
