package harnlang

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

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
	ix := f.names.Index(tree, s.Doc.Text)
	d := ix.ResolveAt(offset)
	if d == nil {
		return nil, nil
	}
	declPath, declName := s.Doc.Path, d.Name
	var out []features.Location
	if d.Kind == kindImport {
		loc, ok := f.importTarget(s, ix, d)
		if !ok {
			// The module cannot be read: the uses in this file are all
			// that is known.
			for _, sp := range ix.Uses(d) {
				if sp != d.Span || includeDeclaration {
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
		for _, sp := range ix.Uses(d) {
			if sp != d.Span || includeDeclaration {
				out = append(out, features.Location{Span: sp})
			}
		}
		if d.Scope != 0 || declPath == "" {
			return out, nil
		}
	}
	// Importers of declPath's top-level declName.
	open := map[string]bool{}
	visit := func(path string, src []byte, tree *sitter.Tree) {
		if path == declPath || !bytes.Contains(src, []byte(declName)) {
			return
		}
		if tree == nil {
			if tree = binding.ParseTree(src, nil); tree == nil {
				return
			}
			defer tree.Close()
		}
		oix := f.names.Index(tree, src)
		for _, od := range oix.ByName[declName] {
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
