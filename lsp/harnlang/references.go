package harnlang

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/lang/harn/imports"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// References implements features.Features: every use of the declaration
// the name at offset resolves to. For a top-level declaration that also
// means its uses in the workspace's other Harn files (open buffers first,
// then the files under the roots) that import it from this file by a
// relative path; a name imported here is followed to its module first.
func (f *Features) References(ctx context.Context, s features.Snapshot, offset int, includeDeclaration bool) ([]features.Location, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil {
		return nil, nil
	}
	// The name, as the checker's model resolves it (the syntax-only
	// resolver when the document does not parse): its declaration and
	// its occurrences in this file.
	var (
		name, kind, module string
		top                bool
		declSpan           diagnostics.Span
		here               []diagnostics.Span
		model              bool
	)
	if n, ok := checkedNameAt(s, tree, offset); ok {
		if n.def < 0 {
			return nil, nil
		}
		name, kind, module, top, declSpan = n.d.Name, n.d.Kind, n.d.Module, n.d.Scope == 0, n.d.Span
		here, model = n.e.Occurrences(n.def), true
		if declSpan.End-declSpan.Start != len(name) {
			// A name a whole-module import brings: declared by the
			// import, not written there.
			here = slices.DeleteFunc(here, func(sp diagnostics.Span) bool { return sp == declSpan })
		}
	} else {
		ix := f.names.Index(tree, s.Doc.Text)
		d := ix.ResolveAt(offset)
		if d == nil {
			return nil, nil
		}
		name, kind, module, top, declSpan = d.Name, d.Kind, d.Module, d.Scope == 0, d.Span
		here = ix.Uses(d)
	}
	declPath, declName := s.Doc.Path, name
	var out []features.Location
	if kind == kindImport {
		loc, ok := f.importTarget(s, module, name)
		if !ok {
			// The module cannot be read: the uses in this file are all
			// that is known.
			for _, sp := range here {
				if sp != declSpan || includeDeclaration {
					out = append(out, features.Location{Span: sp})
				}
			}
			return out, nil
		}
		declPath = loc.Path
		src, err := s.Workspace.ReadFile(loc.Path)
		if err != nil {
			return nil, nil
		}
		t := binding.ParseTree(src, nil)
		if t == nil {
			return nil, nil
		}
		defer t.Close()
		oix := f.names.Index(t, src)
		od := oix.DefAtName(loc.Span)
		if od == nil {
			return nil, nil
		}
		for _, sp := range oix.Uses(od) {
			if sp != od.Span || includeDeclaration {
				out = append(out, features.Location{Path: loc.Path, Span: sp})
			}
		}
	} else {
		for _, sp := range here {
			if sp != declSpan || includeDeclaration {
				out = append(out, features.Location{Span: sp})
			}
		}
		if !top || declPath == "" {
			return out, nil
		}
	}
	// Importers of declPath's top-level declName.
	open := map[string]bool{}
	visit := func(path string, src []byte, tree *sitter.Tree) {
		if path == declPath || !bytes.Contains(src, []byte(declName)) {
			return
		}
		if model && path == s.Doc.Path {
			// This file's uses of the imported name are the model's.
			for _, sp := range here {
				out = append(out, features.Location{Span: sp})
			}
			return
		}
		if tree == nil {
			if tree = binding.ParseTree(src, nil); tree == nil {
				return
			}
			defer tree.Close()
		}
		oix := f.names.Index(tree, src)
		for _, od := range oix.Named(declName) {
			if od.Kind != kindImport || !relative(od.Module) || modulePath(path, od.Module) != declPath {
				continue
			}
			loc := path
			if path == s.Doc.Path {
				loc = ""
			}
			for _, sp := range oix.Uses(od) {
				out = append(out, features.Location{Path: loc, Span: sp})
			}
		}
	}
	for _, doc := range s.Workspace.Documents() {
		if doc.Path == "" || filepath.Ext(doc.Path) != Extension {
			continue
		}
		open[doc.Path] = true
		var t *sitter.Tree
		if tt, ok := doc.Tree.(*tsquery.Tree); ok && tt != nil {
			t = tt.T
		}
		visit(doc.Path, doc.Text, t)
	}
	for _, path := range diskFiles(ctx, s.Workspace, open) {
		if src, err := s.Workspace.ReadFile(path); err == nil {
			visit(path, src, nil)
		}
	}
	return out, nil
}

func relative(module string) bool {
	return strings.HasPrefix(module, "./") || strings.HasPrefix(module, "../")
}

// modulePath is the file a relative import in file from names, by the rule
// the checker and the runtime share (imports.File); "" for a file that is
// not a Harn module, which is never read.
func modulePath(from, module string) string {
	p, ok := imports.File(from, module)
	if !ok {
		return ""
	}
	return p
}
