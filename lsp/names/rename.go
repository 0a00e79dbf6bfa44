package names

import (
	"bytes"
	"fmt"
)

// CheckRename reports why renaming declaration d to newName would change
// what a name in the file means, or nil when it would not: newName is
// already declared in d's scope, a use of d would then resolve to another
// declaration of newName, or a use of another newName (or of an undeclared
// newName, a global) would be captured by the renamed d. It simulates the
// rename and resolves every use again, so it follows the language's
// scoping and hoisting rules as the Index does. src is the indexed text,
// for the positions in the messages.
func (ix *Index) CheckRename(d *Def, newName string, src []byte) error {
	if newName == d.Name {
		return nil
	}
	isType := func(x *Def) bool { return ix.typeKind != "" && x.Kind == ix.typeKind }
	for _, o := range ix.declaredNamed(d.Scope, newName) {
		if isType(o) == isType(d) {
			return fmt.Errorf("cannot rename %s to %s: %s is already declared at %s", d.Name, newName, newName, position(src, o.Span.Start))
		}
	}
	uses := map[int]bool{}
	for _, sp := range ix.Uses(d) {
		uses[sp.Start] = true
	}
	refs := ix.Refs()
	before := make([]*Def, len(refs))
	for i, r := range refs {
		before[i] = ix.Resolve(r)
	}
	renamed := *d
	renamed.Name = newName
	rn := &renaming{d: d, renamed: &renamed}
	for i, r := range refs {
		if uses[r.Span.Start] && r.Name == d.Name {
			r.Name = newName
		}
		want := before[i]
		if want == d {
			want = &renamed
		}
		got := ix.resolve(r, rn)
		if got == want {
			continue
		}
		switch {
		case want == &renamed && got != nil:
			return fmt.Errorf("cannot rename %s to %s: the use at %s would refer to the %s %s declared at %s",
				d.Name, newName, position(src, r.Span.Start), got.Kind, newName, position(src, got.Span.Start))
		case want == &renamed:
			return fmt.Errorf("cannot rename %s to %s: the use at %s would no longer refer to it", d.Name, newName, position(src, r.Span.Start))
		default:
			return fmt.Errorf("cannot rename %s to %s: it would capture the use of %s at %s", d.Name, newName, newName, position(src, r.Span.Start))
		}
	}
	return nil
}

// position renders a byte offset of src as 1-based "line:column" (the
// column in bytes).
func position(src []byte, off int) string {
	off = min(max(off, 0), len(src))
	line := bytes.Count(src[:off], []byte("\n")) + 1
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return fmt.Sprintf("%d:%d", line, col)
}
