package harnlang

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/lsp/features"
)

// DocumentSymbols implements features.Features: the file's declarations
// (functions, pipelines, overrides, tools, skills, eval packs, structs
// with their fields, enums with their variants, interfaces and impls with
// their methods, type aliases, and top-level let/var/const bindings).
func (f *Features) DocumentSymbols(_ context.Context, s features.Snapshot) ([]features.Symbol, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil {
		return nil, nil
	}
	return Symbols(fileOf(tree, s.Doc.Text), s.Doc.Text), nil
}

// Symbols returns the document symbols of a lowered Harn file.
func Symbols(file *ast.File, src []byte) []features.Symbol {
	var out []features.Symbol
	for _, it := range file.Items {
		out = append(out, declSymbols(it, src)...)
	}
	return out
}

// text is src over sp with runs of white space folded to one blank.
func text(src []byte, start, end int) string {
	if start < 0 || end > len(src) || start >= end {
		return ""
	}
	return strings.Join(strings.Fields(string(src[start:end])), " ")
}

// signature is the text between a declaration's name and its body.
func signature(src []byte, name *ast.Ident, decl ast.Span, body *ast.Block) string {
	end := decl.End
	if body != nil {
		end = body.Span.Start
	}
	return text(src, name.Span.End, end)
}

func sym(name *ast.Ident, kind features.SymbolKind, detail string, decl ast.Span) features.Symbol {
	return features.Symbol{Name: name.Name, Kind: kind, Detail: detail, Span: span(decl), SelectionSpan: span(name.Span)}
}

func named(id *ast.Ident) bool { return id != nil && id.Name != "" }

func declSymbols(it ast.Stmt, src []byte) []features.Symbol {
	switch d := it.(type) {
	case *ast.FuncDecl:
		if named(d.Name) {
			return []features.Symbol{sym(d.Name, features.SymbolFunction, "fn"+signature(src, d.Name, d.Span, d.Body), d.Span)}
		}
	case *ast.Pipeline:
		if named(d.Name) {
			s := sym(d.Name, features.SymbolFunction, "pipeline"+signature(src, d.Name, d.Span, d.Body), d.Span)
			if d.Body != nil {
				for _, st := range d.Body.Stmts {
					if o, ok := st.(*ast.Override); ok && named(o.Name) {
						s.Children = append(s.Children, sym(o.Name, features.SymbolMethod, "override", o.Span))
					}
				}
			}
			return []features.Symbol{s}
		}
	case *ast.ToolDecl:
		if named(d.Name) {
			detail := "tool" + text(src, d.Name.Span.End, d.Span.End)
			if i := strings.Index(detail, "{"); i >= 0 {
				detail = strings.TrimSpace(detail[:i])
			}
			return []features.Symbol{sym(d.Name, features.SymbolFunction, detail, d.Span)}
		}
	case *ast.SkillDecl:
		if named(d.Name) {
			s := sym(d.Name, features.SymbolModule, "skill", d.Span)
			for _, fl := range d.Fields {
				if named(fl.Name) {
					s.Children = append(s.Children, sym(fl.Name, features.SymbolProperty, "", fl.Span))
				}
			}
			return []features.Symbol{s}
		}
	case *ast.EvalPackDecl:
		if named(d.Name) {
			return []features.Symbol{sym(d.Name, features.SymbolModule, "eval_pack", d.Span)}
		}
	case *ast.StructDecl:
		if named(d.Name) {
			s := sym(d.Name, features.SymbolStruct, "struct", d.Span)
			for _, fl := range d.Fields {
				if named(fl.Name) {
					detail := ""
					if fl.Type != nil {
						detail = text(src, fl.Type.Pos().Start, fl.Type.Pos().End)
					}
					s.Children = append(s.Children, sym(fl.Name, features.SymbolField, detail, fl.Span))
				}
			}
			return []features.Symbol{s}
		}
	case *ast.EnumDecl:
		if named(d.Name) {
			s := sym(d.Name, features.SymbolEnum, "enum", d.Span)
			for _, v := range d.Variants {
				if named(v.Name) {
					s.Children = append(s.Children, sym(v.Name, features.SymbolEnumMember, text(src, v.Name.Span.End, v.Span.End), v.Span))
				}
			}
			return []features.Symbol{s}
		}
	case *ast.InterfaceDecl:
		if named(d.Name) {
			s := sym(d.Name, features.SymbolInterface, "interface", d.Span)
			for _, m := range d.Methods {
				if named(m.Name) {
					s.Children = append(s.Children, sym(m.Name, features.SymbolMethod, "fn"+text(src, m.Name.Span.End, m.Span.End), m.Span))
				}
			}
			return []features.Symbol{s}
		}
	case *ast.ImplDecl:
		if named(d.Type) {
			s := sym(d.Type, features.SymbolClass, "impl", d.Span)
			for _, m := range d.Methods {
				if named(m.Name) {
					s.Children = append(s.Children, sym(m.Name, features.SymbolMethod, "fn"+signature(src, m.Name, m.Span, m.Body), m.Span))
				}
			}
			return []features.Symbol{s}
		}
	case *ast.TypeAlias:
		if named(d.Name) {
			return []features.Symbol{sym(d.Name, features.SymbolClass, "type", d.Span)}
		}
	case *ast.VarDecl:
		if id, ok := d.Pattern.(*ast.Ident); ok && named(id) {
			kind := features.SymbolVariable
			if d.Kind == ast.Const {
				kind = features.SymbolConstant
			}
			detail := d.Kind.String()
			if d.Type != nil {
				detail += ": " + text(src, d.Type.Pos().Start, d.Type.Pos().End)
			}
			return []features.Symbol{sym(id, kind, detail, d.Span)}
		}
	}
	return nil
}

// maxWorkspaceFiles bounds how many .harn files a workspace symbol query
// reads from disk, and maxWorkspaceEntries how many directory entries it
// visits.
const (
	maxWorkspaceFiles   = 5000
	maxWorkspaceEntries = 100000
)

type diskSymbols struct {
	size    int64
	modTime int64
	symbols []features.Symbol
}

// WorkspaceSymbols implements features.Features: the declarations of the
// open Harn documents and of the .harn files under the workspace roots
// whose name contains query (case-insensitive; all for an empty query).
func (f *Features) WorkspaceSymbols(ctx context.Context, w features.Workspace, query string) ([]features.WorkspaceSymbol, error) {
	q := strings.ToLower(query)
	var out []features.WorkspaceSymbol
	add := func(path, uri string, syms []features.Symbol, container string) {
		var walk func([]features.Symbol, string)
		walk = func(ss []features.Symbol, container string) {
			for _, s := range ss {
				if strings.Contains(strings.ToLower(s.Name), q) {
					out = append(out, features.WorkspaceSymbol{Name: s.Name, Container: container, Kind: s.Kind,
						Location: features.Location{Path: path, Span: s.SelectionSpan}})
				}
				walk(s.Children, s.Name)
			}
		}
		walk(syms, container)
	}
	open := map[string]bool{}
	for _, d := range w.Documents() {
		if filepath.Ext(d.Path) != Extension && !strings.HasSuffix(d.URI, Extension) {
			continue
		}
		open[d.Path] = true
		syms, err := f.DocumentSymbols(ctx, features.Snapshot{Doc: d, Workspace: w})
		if err != nil {
			return nil, err
		}
		add(d.Path, d.URI, syms, "")
	}
	for _, path := range diskFiles(ctx, w, open) {
		add(path, "", f.diskFileSymbols(path), "")
	}
	slices.SortStableFunc(out, func(a, b features.WorkspaceSymbol) int {
		if c := strings.Compare(a.Location.Path, b.Location.Path); c != 0 {
			return c
		}
		return a.Location.Span.Start - b.Location.Span.Start
	})
	return out, nil
}

// diskFiles returns the .harn files under the workspace roots, skipping
// hidden directories, node_modules and the paths in skip, within the
// maxWorkspaceFiles and maxWorkspaceEntries bounds.
func diskFiles(ctx context.Context, w features.Workspace, skip map[string]bool) []string {
	var out []string
	visited := 0
	for _, root := range w.Roots() {
		_ = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if visited++; visited > maxWorkspaceEntries || len(out) >= maxWorkspaceFiles {
				return fs.SkipAll // a root too big to walk per request (a home directory)
			}
			if err != nil || ctx.Err() != nil {
				return filepath.SkipDir
			}
			if e.IsDir() {
				if path != root && (strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			if filepath.Ext(path) == Extension && !skip[path] {
				out = append(out, path)
			}
			return nil
		})
	}
	return out
}

// diskFileSymbols returns the symbols of a file on disk, parsed again only
// when its size or modification time changed.
func (f *Features) diskFileSymbols(path string) []features.Symbol {
	info, err := os.Stat(path)
	if err != nil {
		return nil
	}
	f.mu.Lock()
	c, ok := f.disk[path]
	f.mu.Unlock()
	if ok && c.size == info.Size() && c.modTime == info.ModTime().UnixNano() {
		return c.symbols
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	file, _ := binding.Parse(path, src)
	syms := Symbols(file, src)
	f.mu.Lock()
	f.disk[path] = diskSymbols{size: info.Size(), modTime: info.ModTime().UnixNano(), symbols: syms}
	f.mu.Unlock()
	return syms
}
