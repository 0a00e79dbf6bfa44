package binding

import sitter "github.com/tree-sitter/go-tree-sitter"

// editAt describes replacing the byte at off with itself: the text is
// unchanged but the tree must be reparsed around off.
func editAt(src []byte, off int) *sitter.InputEdit {
	p := point(src, off)
	q := point(src, off+1)
	return &sitter.InputEdit{
		StartByte: uint(off), OldEndByte: uint(off + 1), NewEndByte: uint(off + 1),
		StartPosition: p, OldEndPosition: q, NewEndPosition: q,
	}
}

func point(src []byte, off int) sitter.Point {
	var row, col uint
	for _, c := range src[:off] {
		if c == '\n' {
			row++
			col = 0
		} else {
			col++
		}
	}
	return sitter.Point{Row: row, Column: col}
}
