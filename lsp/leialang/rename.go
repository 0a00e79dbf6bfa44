package leialang

import (
	"context"
	"fmt"
	"regexp"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
)

// literals are the literal words, reserved like keywords.
var literals = []string{"nil", "true", "false"}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// renameable returns the declaration at offset when it can be renamed:
// any name declared in the file (a local, parameter, constant or
// top-level function) except an import alias, which names a package.
//
// The declaration, the name and the uses renamed are the checker's (its
// model), the syntax index describing the declaration's scope for the
// capture checks; the syntax-only resolver answers alone when the
// document does not parse.
func (f *Features) renameable(s features.Snapshot, offset int) (*names.Def, diagnostics.Span, []diagnostics.Span, *names.Index) {
	ix := f.index(s)
	if ix == nil {
		return nil, diagnostics.Span{}, nil, nil
	}
	var d *names.Def
	var use diagnostics.Span
	var uses []diagnostics.Span
	if n, checked := checkedNameAt(s, offset); checked {
		if n.def >= 0 {
			if d = ix.DefAtName(n.d.Span); d != nil && d.Name == n.d.Name {
				use, uses = n.use, n.e.Occurrences(n.def)
			}
		}
	} else if d = ix.ResolveAt(offset); d != nil {
		var ok bool
		if use, ok = ix.NameAt(offset); ok {
			uses = ix.Uses(d)
		}
	}
	if d == nil || uses == nil || d.Kind == "import" {
		return nil, diagnostics.Span{}, nil, nil
	}
	return d, use, uses, ix
}

// PrepareRename implements features.Features: the name at offset when it
// is declared in the file.
func (f *Features) PrepareRename(_ context.Context, s features.Snapshot, offset int) (*diagnostics.Span, error) {
	if d, use, _, _ := f.renameable(s, offset); d != nil {
		return &use, nil
	}
	return nil, nil
}

// Rename implements features.Features within the file: the declaration
// and every use resolving to it. A Leia file is its own unit, so a
// top-level name is renamed where the file uses it. Refused when newName
// is not an identifier, is a keyword, or would change what a use means
// (names.Index.CheckRename).
func (f *Features) Rename(_ context.Context, s features.Snapshot, offset int, newName string) ([]diagnostics.TextEdit, error) {
	d, _, uses, ix := f.renameable(s, offset)
	if d == nil {
		return nil, nil
	}
	if !validName(newName) {
		return nil, fmt.Errorf("%q is not a valid Leia name", newName)
	}
	if newName == d.Name {
		return nil, nil
	}
	if err := ix.CheckRename(d, newName, s.Doc.Text); err != nil {
		return nil, err
	}
	var edits []diagnostics.TextEdit
	for _, sp := range uses {
		edits = append(edits, diagnostics.TextEdit{Span: sp, NewText: newName})
	}
	return edits, nil
}
