package tsflat

import sitter "github.com/tree-sitter/go-tree-sitter"

// Hollow removes from the preorder records of a subtree the contents of
// the block spanning [start, end) but its first and last children, the
// braces: what the records of the same text would be with the block's
// interior blanked to spaces. The records are returned unchanged when
// there is no such block (no record with that span, or one whose first
// and last children are not the one-byte `{` and `}` of src). The editors'
// focused checks lower a kept function's signature without its body this
// way.
func Hollow(recs []Record, start, end uint32, src []byte) []Record {
	h := -1
	for j := range recs {
		if recs[j].StartByte == start && recs[j].EndByte == end {
			h = j
			break
		}
	}
	if h < 0 {
		return recs
	}
	// The block's subtree is recs[h:e]: the records after it name an
	// earlier record as parent.
	e := h + 1
	first, last := -1, -1
	for e < len(recs) && recs[e].Parent != NoParent && int(recs[e].Parent) >= h {
		if int(recs[e].Parent) == h {
			if first < 0 {
				first = e
			}
			last = e
		}
		e++
	}
	brace := func(j int, c byte) bool {
		return j >= 0 && recs[j].EndByte == recs[j].StartByte+1 && int(recs[j].StartByte) < len(src) && src[recs[j].StartByte] == c
	}
	if first == last || !brace(first, '{') || !brace(last, '}') {
		return recs
	}
	removed := uint32(e - h - 3)
	out := make([]Record, 0, len(recs)-int(removed))
	out = append(out, recs[:h+1]...)
	out[h].ChildCount = 2
	out = append(out, recs[first], recs[last])
	for _, r := range recs[e:] {
		if int(r.Parent) >= e {
			r.Parent -= removed
		}
		out = append(out, r)
	}
	return out
}

// Tops returns the preorder records of a file node like root whose only
// children are tops (children of root, in source order), each block whose
// span hollow lists hollowed as Hollow does: what the records of the same
// text would be with everything else blanked to spaces. keep, when not
// nil, sees each top's own records (before hollowing) and can refuse the
// whole file by returning false, as Tops does when a top has no records.
func Tops(root *sitter.Node, tops []*sitter.Node, hollow [][2]int, src []byte, keep func(i int, recs []Record) bool) ([]Record, bool) {
	all := []Record{{StartByte: uint32(root.StartByte()), EndByte: uint32(root.EndByte()), Parent: NoParent,
		ChildCount: uint32(len(tops)), Symbol: root.KindId(), Flags: Named}}
	var buf []Record
	for i, t := range tops {
		buf = Walk(t, buf)
		if len(buf) == 0 || keep != nil && !keep(i, buf) {
			return nil, false
		}
		recs := buf
		for _, h := range hollow {
			if uint32(h[0]) >= recs[0].StartByte && uint32(h[1]) <= recs[0].EndByte {
				recs = Hollow(recs, uint32(h[0]), uint32(h[1]), src)
			}
		}
		base := uint32(len(all))
		for j, r := range recs {
			if j == 0 {
				r.Parent, r.Field = 0, 0
			} else {
				r.Parent += base
			}
			all = append(all, r)
		}
	}
	return all, true
}
