package harnlang

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
)

// topLevel returns the declaration at offset when it is renamed across
// the workspace: a top-level declaration (function, type, struct, enum,
// constant, variable, pipeline, tool, ...) or a name imported by a
// selective import (`import {name} from "..."`).
func (f *Features) topLevel(s features.Snapshot, offset int) (*names.Def, diagnostics.Span, module, func()) {
	tree, done := treeOf(s.Doc)
	if tree == nil {
		return nil, diagnostics.Span{}, module{}, done
	}
	ix := f.names.Index(tree, s.Doc.Text)
	if n, checked := checkedNameAt(s, tree, offset); checked {
		// The declaration the checker resolves the name to, as the
		// syntax index lists it (the rename reads the other modules
		// through the index).
		var d *names.Def
		if n.def >= 0 && n.d.Scope == 0 {
			d = ix.DefAtName(n.d.Span)
		}
		if d == nil || d.Name != n.d.Name || d.Scope != 0 || d.Kind == kindParameter {
			return nil, diagnostics.Span{}, module{}, done
		}
		return d, n.use, module{path: s.Doc.Path, src: s.Doc.Text, tree: tree, ix: ix}, done
	}
	d := ix.ResolveAt(offset)
	use, ok := ix.NameAt(offset)
	if r, isRef := ix.RefAt(use); d == nil && ok && isRef && r.Type {
		// A type reference resolves to type declarations only: an
		// undeclared one names a type imported by a selective import.
		for _, od := range ix.Named(r.Name) {
			if od.Kind == kindImport && od.Scope == 0 {
				d = od
			}
		}
	}
	if d == nil || !ok || d.Scope != 0 || d.Kind == kindParameter {
		return nil, diagnostics.Span{}, module{}, done
	}
	return d, use, module{path: s.Doc.Path, src: s.Doc.Text, tree: tree, ix: ix}, done
}

// prepareTopLevel is PrepareRename for top-level and imported names; an
// import from a module outside the workspace (std/...) is not renameable.
func (f *Features) prepareTopLevel(s features.Snapshot, offset int) (diagnostics.Span, bool) {
	d, use, _, done := f.topLevel(s, offset)
	defer done()
	if d == nil || d.Kind == kindImport && !relative(d.Module) {
		return diagnostics.Span{}, false
	}
	return use, true
}

// module is a Harn file as a workspace rename reads it.
type module struct {
	path string
	src  []byte
	tree *sitter.Tree
	ix   *names.Index
}

// renameTopLevel renames a top-level declaration, or the declaration a
// selective import names, in every module of the workspace: the
// declaration and its uses in its module, and in each module importing it
// by a relative path (open buffers first, then the .harn files under the
// roots) the name in the import list and its uses. A module that imports
// the whole declaring module (`import "./mod"`) has its uses of the name
// renamed too; one that re-exports it (`pub import "./mod"`) makes the
// rename refused, as its importers are not followed. ok is false when the
// name at offset is not a top-level or imported name (the caller tries a
// local rename).
//
// Refused, with an error naming the module and position, when newName is
// not an identifier or is a keyword, when the name comes from a module
// outside the workspace, or when in any affected module newName is
// already declared at the top level or the rename would change what a
// use means (names.Index.CheckRename).
func (f *Features) renameTopLevel(ctx context.Context, s features.Snapshot, offset int, newName string) ([]diagnostics.TextEdit, bool, error) {
	d, _, here, done := f.topLevel(s, offset)
	defer done()
	if d == nil {
		return nil, false, nil
	}
	if !validName(newName) {
		return nil, true, fmt.Errorf("%q is not a valid Harn name", newName)
	}
	if newName == d.Name {
		return nil, true, nil
	}
	oldName := d.Name
	roots := s.Workspace.Roots()
	var closers []func()
	defer func() {
		for _, c := range closers {
			c()
		}
	}()
	open := map[string]features.Document{}
	for _, doc := range s.Workspace.Documents() {
		if doc.Path != "" && filepath.Ext(doc.Path) == Extension {
			open[doc.Path] = doc
		}
	}
	if s.Doc.Path != "" {
		open[s.Doc.Path] = s.Doc
	}
	paths := make([]string, 0, len(open))
	for p := range open {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	load := func(path string, src []byte) (module, bool) {
		if path == s.Doc.Path {
			return here, true
		}
		var tree *sitter.Tree
		if doc, ok := open[path]; ok {
			t, c := treeOf(doc)
			closers = append(closers, c)
			tree, src = t, doc.Text
		} else {
			if src == nil {
				var err error
				if src, err = s.Workspace.ReadFile(path); err != nil {
					return module{}, false
				}
			}
			tree = binding.ParseTree(src, nil)
			if tree != nil {
				closers = append(closers, tree.Close)
			}
		}
		if tree == nil {
			return module{}, false
		}
		return module{path: path, src: src, tree: tree, ix: f.names.Index(tree, src)}, true
	}

	// The declaring module and the declaration.
	decl, declDef := here, d
	if d.Kind == kindImport {
		if !relative(d.Module) || s.Doc.Path == "" {
			return nil, true, fmt.Errorf("cannot rename %s: it is declared in %q, outside the workspace", d.Name, d.Module)
		}
		loc, ok := f.importTarget(s, d.Module, d.Name)
		if !ok {
			return nil, true, fmt.Errorf("cannot rename %s: no top-level %s found in %q", d.Name, d.Name, d.Module)
		}
		m, ok := load(loc.Path, nil)
		if !ok {
			return nil, true, fmt.Errorf("cannot rename %s: %s cannot be read", d.Name, loc.Path)
		}
		decl, declDef = m, m.ix.DefAtName(loc.Span)
		if declDef == nil {
			return nil, true, fmt.Errorf("cannot rename %s: its declaration in %s was not found", d.Name, loc.Path)
		}
	}
	var edits []diagnostics.TextEdit
	add := func(m module, spans []diagnostics.Span) {
		p := m.path
		if p == s.Doc.Path {
			p = "" // the request's document
		}
		for _, sp := range spans {
			edits = append(edits, diagnostics.TextEdit{Path: p, Span: sp, NewText: newName})
		}
	}
	if err := topClash(roots, decl, oldName, newName); err != nil {
		return nil, true, err
	}
	if err := decl.ix.CheckRename(declDef, newName, decl.src); err != nil {
		return nil, true, fmt.Errorf("%s: %w", displayPath(roots, decl.path), err)
	}
	add(decl, decl.ix.Uses(declDef))
	if decl.path == "" {
		return edits, true, nil // an unsaved buffer: nothing can import it
	}

	// The importers.
	visit := func(m module) error {
		imported := false
		for _, od := range m.ix.Named(oldName) {
			if od.Kind != kindImport || !relative(od.Module) || modulePath(m.path, od.Module) != decl.path {
				continue
			}
			if err := topClash(roots, m, oldName, newName); err != nil {
				return err
			}
			if err := m.ix.CheckRename(od, newName, m.src); err != nil {
				return fmt.Errorf("%s: %w", displayPath(roots, m.path), err)
			}
			add(m, m.ix.Uses(od))
			imported = true
		}
		if imported && declDef.Kind == kindType {
			// Type references resolve to type declarations only, never to
			// the import: the undeclared ones name the imported type.
			spans, err := unresolvedUses(roots, m, oldName, newName, false)
			if err != nil {
				return err
			}
			add(m, spans)
		}
		for _, w := range wholeImports(m.tree, m.src) {
			if !relative(w.module) || modulePath(m.path, w.module) != decl.path {
				continue
			}
			if w.reexport {
				return fmt.Errorf("cannot rename %s: %s re-exports %q (pub import), whose importers are not followed", oldName, displayPath(roots, m.path), w.module)
			}
			spans, err := unresolvedUses(roots, m, oldName, newName, true)
			if err != nil {
				return err
			}
			add(m, spans)
		}
		return nil
	}
	seen := map[string]bool{decl.path: true}
	for _, path := range paths {
		seen[path] = true
		if path == decl.path || !bytes.Contains(open[path].Text, []byte(oldName)) {
			continue
		}
		m, ok := load(path, nil)
		if !ok {
			continue
		}
		if err := visit(m); err != nil {
			return nil, true, err
		}
	}
	for _, path := range diskFiles(ctx, s.Workspace, seen) {
		src, err := s.Workspace.ReadFile(path)
		if err != nil || !bytes.Contains(src, []byte(oldName)) {
			continue
		}
		m, ok := load(path, src)
		if !ok {
			continue
		}
		if err := visit(m); err != nil {
			return nil, true, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, true, err
	}
	return edits, true, nil
}

// topClash refuses a top-level rename when newName is declared at the
// top level of m, a type or a value alike (a struct's name is also its
// constructor).
func topClash(roots []string, m module, oldName, newName string) error {
	for _, od := range m.ix.Named(newName) {
		if od.Scope == 0 {
			return fmt.Errorf("%s: cannot rename %s to %s: %s is already declared at %d:%d", displayPath(roots, m.path), oldName, newName, newName, lineOf(m.src, od.Span.Start), colOf(m.src, od.Span.Start))
		}
	}
	return nil
}

// wholeImport is an `import "module"` (reexport: `pub import`).
type wholeImport struct {
	module   string
	reexport bool
}

// wholeImports returns the file's imports of whole modules.
func wholeImports(tree *sitter.Tree, src []byte) []wholeImport {
	if tree == nil {
		return nil
	}
	var out []wholeImport
	root := tree.RootNode()
	for i := uint(0); i < root.NamedChildCount(); i++ {
		n := root.NamedChild(i)
		if n.Kind() != "import_declaration" || n.ChildByFieldName("names") != nil {
			continue
		}
		if s := n.ChildByFieldName("source"); s != nil {
			out = append(out, wholeImport{module: unquote(s.Utf8Text(src)), reexport: n.ChildByFieldName("visibility") != nil})
		}
	}
	return out
}

// unresolvedUses returns the uses of oldName in a module that imports it
// without a declaration the uses resolve to: the references (type
// references only, unless values) that no declaration of the file
// resolves. Refused when newName is declared at its top level or already
// used there without a declaration (another import provides it), or when
// a declaration of newName would be nearer to one of the uses.
func unresolvedUses(roots []string, m module, oldName, newName string, values bool) ([]diagnostics.Span, error) {
	if err := topClash(roots, m, oldName, newName); err != nil {
		return nil, err
	}
	var out []diagnostics.Span
	for _, r := range m.ix.Refs() {
		if !r.Type && !values || m.ix.DefAtName(r.Span) != nil || m.ix.Resolve(r) != nil {
			continue
		}
		switch r.Name {
		case newName:
			return nil, fmt.Errorf("%s: cannot rename %s to %s: %s is already used at %d:%d", displayPath(roots, m.path), oldName, newName, newName, lineOf(m.src, r.Span.Start), colOf(m.src, r.Span.Start))
		case oldName:
			if o := m.ix.Resolve(names.Ref{Name: newName, Span: r.Span, Type: r.Type}); o != nil {
				return nil, fmt.Errorf("%s: cannot rename %s to %s: the use at %d:%d would refer to the %s %s declared at %d:%d", displayPath(roots, m.path), oldName, newName,
					lineOf(m.src, r.Span.Start), colOf(m.src, r.Span.Start), o.Kind, newName, lineOf(m.src, o.Span.Start), colOf(m.src, o.Span.Start))
			}
			out = append(out, r.Span)
		}
	}
	return out, nil
}

func lineOf(src []byte, off int) int { return bytes.Count(src[:off], []byte("\n")) + 1 }
func colOf(src []byte, off int) int  { return off - bytes.LastIndexByte(src[:off], '\n') }

// displayPath names a module in a message: its path relative to the
// workspace root holding it (else its base name), or "this file" for an
// unsaved buffer.
func displayPath(roots []string, path string) string {
	if path == "" {
		return "this file"
	}
	for _, root := range roots {
		if rel, err := filepath.Rel(root, path); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(path)
}
