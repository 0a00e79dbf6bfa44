package harnlang

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
)

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// localDecl returns the declaration at offset when renaming it is a
// matter of this file alone: a parameter or a variable declared inside a
// function, pipeline, tool or block. Top-level names may be imported by
// other modules; renaming them needs the module graph and is refused.
func (f *Features) localDecl(s features.Snapshot, offset int) (*def, diagnostics.Span, *index, func()) {
	tree, done := treeOf(s.Doc)
	if tree == nil {
		return nil, diagnostics.Span{}, nil, done
	}
	ix := f.index(tree, s.Doc.Text)
	d := ix.resolveAt(offset)
	use, ok := ix.nameAt(offset)
	if d == nil || !ok || d.scope == 0 || (d.kind != kindVar && d.kind != kindParameter) {
		return nil, diagnostics.Span{}, nil, done
	}
	return d, use, ix, done
}

// PrepareRename implements features.Features: the name at offset when it
// is a local variable or parameter.
func (f *Features) PrepareRename(_ context.Context, s features.Snapshot, offset int) (*diagnostics.Span, error) {
	d, use, _, done := f.localDecl(s, offset)
	defer done()
	if d == nil {
		return nil, nil
	}
	return &use, nil
}

// Rename implements features.Features for local variables and parameters:
// the declaration and every use resolving to it. The new name must be an
// identifier, not a keyword, and not already declared in the scopes the
// uses see (which would capture them).
func (f *Features) Rename(_ context.Context, s features.Snapshot, offset int, newName string) ([]diagnostics.TextEdit, error) {
	d, _, ix, done := f.localDecl(s, offset)
	defer done()
	if d == nil {
		return nil, nil
	}
	if !identRE.MatchString(newName) || slices.Contains(keywords, newName) {
		return nil, fmt.Errorf("%q is not a valid Harn name", newName)
	}
	if newName == d.name {
		return nil, nil
	}
	uses := ix.uses(d)
	for _, sp := range uses {
		// Another newName declared in d's scope or one nested in it would
		// be nearer to the use than d; one further out is shadowed.
		if other := ix.resolve(ref{name: newName, span: sp}); other != nil && other != d && within(ix.scopes[other.scope], ix.scopes[d.scope]) {
			return nil, fmt.Errorf("renaming %s to %s would make a use refer to the %s %s declared at byte %d",
				d.name, newName, other.kind, newName, other.span.Start)
		}
	}
	// Nor may the renamed declaration capture a use of another declaration
	// of newName: one in its scope after it.
	scope := ix.scopes[d.scope]
	for _, r := range ix.refs {
		if r.name == newName && !r.typ && r.span.Start >= d.span.End && r.span.End <= scope.End {
			return nil, fmt.Errorf("renaming %s to %s would capture the use of %s at byte %d", d.name, newName, newName, r.span.Start)
		}
	}
	var edits []diagnostics.TextEdit
	for _, sp := range uses {
		edits = append(edits, diagnostics.TextEdit{Span: sp, NewText: newName})
	}
	return edits, nil
}

// within reports whether span a lies inside span b.
func within(a, b diagnostics.Span) bool { return b.Start <= a.Start && a.End <= b.End }
