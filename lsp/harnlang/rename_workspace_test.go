package harnlang

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lsp/features"
)

// dirWorkspace is a workspace rooted at a directory, with open documents
// overlaying its files.
type dirWorkspace struct {
	root string
	docs []features.Document
}

func (w dirWorkspace) Roots() []string                { return []string{w.root} }
func (w dirWorkspace) Documents() []features.Document { return w.docs }
func (w dirWorkspace) ReadFile(p string) ([]byte, error) {
	for _, d := range w.docs {
		if d.Path == p {
			return d.Text, nil
		}
	}
	return os.ReadFile(p)
}

// TestWorkspaceRename renames top-level names across modules: the
// declaration, its uses, the selective imports of it (in open buffers and
// files on disk) and their uses, whole-module imports' uses; from the
// declaration or from an import; and refuses collisions in any module.
func TestWorkspaceRename(t *testing.T) {
	files := map[string]string{
		"lib.harn":     "pub fn clamp(x: int) -> int {\n  return x\n}\n\npub struct Point {\n  x: int\n}\n",
		"main.harn":    "import {clamp, Point} from \"./lib\"\n\nfn run(p: Point) -> int {\n  return clamp(p.x)\n}\n",
		"sub/use.harn": "import {clamp} from \"../lib\"\n\nfn limit() -> int {\n  return clamp(3)\n}\n",
		"whole.harn":   "import \"./lib\"\n\nfn w() -> int {\n  return clamp(1)\n}\n",
		"other.harn":   "import {clamp} from \"./elsewhere\"\n\nfn o() -> int {\n  return clamp(2)\n}\n",
		"taken.harn":   "import {clamp} from \"./lib\"\n\nfn bound() -> int {\n  return clamp(4)\n}\n",
	}
	root := t.TempDir()
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	// main.harn is open, with an unsaved edit.
	mainSrc := strings.Replace(files["main.harn"], "return clamp(p.x)", "return clamp(clamp(p.x))", 1)
	mainDoc := features.Document{Path: filepath.Join(root, "main.harn"), Text: []byte(mainSrc)}
	ws := dirWorkspace{root: root, docs: []features.Document{mainDoc}}
	texts := map[string]string{}
	for name, src := range files {
		texts[filepath.Join(root, filepath.FromSlash(name))] = src
	}
	texts[mainDoc.Path] = mainSrc
	for _, tc := range []struct {
		name, file, at, to string
		want               map[string]string // file -> renamed text; nil with err
		err                string
	}{
		{"function from its declaration", "lib.harn", "clamp(x", "limit_to", map[string]string{
			"lib.harn":     strings.Replace(files["lib.harn"], "clamp", "limit_to", 1),
			"main.harn":    strings.ReplaceAll(mainSrc, "clamp", "limit_to"),
			"sub/use.harn": strings.ReplaceAll(files["sub/use.harn"], "clamp", "limit_to"),
			"whole.harn":   strings.ReplaceAll(files["whole.harn"], "clamp", "limit_to"),
			"taken.harn":   strings.ReplaceAll(files["taken.harn"], "clamp", "limit_to"),
		}, ""},
		{"struct from an import", "main.harn", "Point}", "Pt", map[string]string{
			"lib.harn":  strings.Replace(files["lib.harn"], "Point", "Pt", 1),
			"main.harn": strings.ReplaceAll(mainSrc, "Point", "Pt"),
		}, ""},
		{"struct from a type annotation", "main.harn", "Point)", "Pt", map[string]string{
			"lib.harn":  strings.Replace(files["lib.harn"], "Point", "Pt", 1),
			"main.harn": strings.ReplaceAll(mainSrc, "Point", "Pt"),
		}, ""},
		{"collision in an importer", "lib.harn", "clamp(x", "bound", nil, "taken.harn: cannot rename clamp to bound: bound is already declared at 3:4"},
		{"collision in the declaring module", "main.harn", "clamp(p", "Point", nil, "lib.harn: cannot rename clamp to Point: Point is already declared at 5:12"},
		{"a use in an importer rebound", "lib.harn", "clamp(x", "p", nil, "main.harn: cannot rename clamp to p: the use at 4:10 would refer to the parameter p declared at 3:8"},
		{"a use under a whole import rebound", "lib.harn", "clamp(x", "w", nil, "whole.harn: cannot rename clamp to w: w is already declared at 3:4"},
		{"keyword", "lib.harn", "clamp(x", "fn", nil, "not a valid Harn name"},
		{"wildcard", "lib.harn", "clamp(x", "_", nil, "not a valid Harn name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(root, tc.file)
			src := texts[path]
			snap := features.Snapshot{Doc: features.Document{Path: path, Text: []byte(src)}, Workspace: ws}
			off := strings.Index(src, tc.at)
			if sp, _ := f.PrepareRename(context.Background(), snap, off); sp == nil {
				t.Fatalf("PrepareRename at %q: nothing", tc.at)
			}
			edits, err := f.Rename(context.Background(), snap, off, tc.to)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			byFile := map[string][]int{}
			for i, e := range edits {
				p := e.Path
				if p == "" {
					p = path
				}
				byFile[p] = append(byFile[p], i)
			}
			var touched []string
			for p, idx := range byFile {
				rel, _ := filepath.Rel(root, p)
				rel = filepath.ToSlash(rel)
				touched = append(touched, rel)
				got := texts[p]
				slices.SortFunc(idx, func(a, b int) int { return edits[b].Span.Start - edits[a].Span.Start })
				for _, i := range idx {
					got = got[:edits[i].Span.Start] + edits[i].NewText + got[edits[i].Span.End:]
				}
				if want, ok := tc.want[rel]; !ok || got != want {
					t.Errorf("%s:\n%s\nwant\n%s", rel, got, want)
				}
			}
			if len(touched) != len(tc.want) {
				t.Errorf("touched %v, want %d files", touched, len(tc.want))
			}
		})
	}
}
