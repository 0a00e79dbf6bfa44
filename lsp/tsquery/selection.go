package tsquery

import (
	"context"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
)

// SelectionRanges implements features.SelectionRanger from the syntax
// tree: the nodes around each offset, innermost first, a node spanning
// the same bytes as its child given once.
func (f Features) SelectionRanges(ctx context.Context, s features.Snapshot, offsets []int) ([][]diagnostics.Span, error) {
	tree := treeOf(s)
	out := make([][]diagnostics.Span, len(offsets))
	if tree == nil {
		return out, nil
	}
	root := tree.RootNode()
	for i, off := range offsets {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		n := root.DescendantForByteRange(uint(off), uint(off))
		var spans []diagnostics.Span
		for ; n != nil; n = n.Parent() {
			sp := diagnostics.Span{Start: int(n.StartByte()), End: int(n.EndByte())}
			if sp.End > len(s.Doc.Text) {
				sp.End = len(s.Doc.Text)
			}
			if sp.Start > sp.End {
				continue
			}
			if k := len(spans); k > 0 && spans[k-1] == sp {
				continue
			}
			// An offset just past a token (an editor cursor at the end
			// of a word) lands on the next node; a node not containing
			// the offset is skipped.
			if off < sp.Start || off > sp.End {
				continue
			}
			spans = append(spans, sp)
		}
		out[i] = spans
	}
	return out, nil
}

var _ features.SelectionRanger = Features{}
