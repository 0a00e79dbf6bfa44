package harnlang

import (
	"context"
	"fmt"
	"regexp"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
)

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// localDecl returns the declaration at offset when renaming it is a
// matter of this file alone: a parameter or a variable declared inside a
// function, pipeline, tool or block. Top-level names may be imported by
// other modules; renaming them needs the module graph and is refused.
//
// The declaration and its uses are the checker's (its model), the syntax
// index describing the declaration's scope for the capture checks; the
// syntax-only resolver answers alone when the document does not parse.
func (f *Features) localDecl(s features.Snapshot, offset int) (*names.Def, []diagnostics.Span, *names.Index, func()) {
	tree, done := treeOf(s.Doc)
	if tree == nil {
		return nil, nil, nil, done
	}
	ix := f.names.Index(tree, s.Doc.Text)
	var d *names.Def
	var uses []diagnostics.Span
	if n, checked := checkedNameAt(s, tree, offset); checked {
		if n.def >= 0 && n.d.Scope != 0 {
			if d = ix.DefAtName(n.d.Span); d != nil && d.Name == n.d.Name {
				uses = n.e.Occurrences(n.def)
			}
		}
	} else if d = ix.ResolveAt(offset); d != nil {
		if _, ok := ix.NameAt(offset); ok {
			uses = ix.Uses(d)
		}
	}
	if d == nil || uses == nil || d.Scope == 0 || (d.Kind != kindVar && d.Kind != kindParameter) {
		return nil, nil, nil, done
	}
	return d, uses, ix, done
}

// PrepareRename implements features.Features: the name at offset when it
// is a local variable or parameter, a top-level declaration, or a name
// imported from a relative module.
func (f *Features) PrepareRename(ctx context.Context, s features.Snapshot, offset int) (*diagnostics.Span, error) {
	if use, ok := f.prepareTopLevel(s, offset); ok {
		return &use, nil
	}
	d, uses, _, done := f.localDecl(s, offset)
	defer done()
	if d == nil {
		return nil, nil
	}
	for _, sp := range uses {
		if sp.Start <= offset && offset <= sp.End {
			return &sp, nil
		}
	}
	return nil, nil
}

// Rename implements features.Features. A top-level declaration, or a name
// imported from a relative module, is renamed across the workspace
// (renameTopLevel). A local variable or parameter is renamed in the file:
// the declaration and every use resolving to it. The new name must be an
// identifier, not a keyword, and not already declared in the scopes the
// uses see (which would capture them).
func (f *Features) Rename(ctx context.Context, s features.Snapshot, offset int, newName string) ([]diagnostics.TextEdit, error) {
	if edits, ok, err := f.renameTopLevel(ctx, s, offset, newName); ok {
		return edits, err
	}
	d, uses, ix, done := f.localDecl(s, offset)
	defer done()
	if d == nil {
		return nil, nil
	}
	if !validName(newName) {
		return nil, fmt.Errorf("%q is not a valid Harn name", newName)
	}
	if newName == d.Name {
		return nil, nil
	}
	for _, sp := range uses {
		// Another newName declared in d's scope or one nested in it would
		// be nearer to the use than d; one further out is shadowed.
		if other := ix.Resolve(names.Ref{Name: newName, Span: sp}); other != nil && other != d && within(ix.Scope(other.Scope), ix.Scope(d.Scope)) {
			return nil, fmt.Errorf("renaming %s to %s would make a use refer to the %s %s declared at byte %d",
				d.Name, newName, other.Kind, newName, other.Span.Start)
		}
	}
	// Nor may the renamed declaration capture a use of another declaration
	// of newName: one in its scope after it.
	scope := ix.Scope(d.Scope)
	for _, r := range ix.Refs() {
		if r.Name == newName && !r.Type && r.Span.Start >= d.Span.End && r.Span.End <= scope.End {
			return nil, fmt.Errorf("renaming %s to %s would capture the use of %s at byte %d", d.Name, newName, newName, r.Span.Start)
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
