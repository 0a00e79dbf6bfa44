package lsp_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
	sitter "github.com/tree-sitter/go-tree-sitter"

	harnchecker "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	harnbinding "github.com/harnlang/harn-check/grammar/harn/binding"
	leiabinding "github.com/harnlang/harn-check/grammar/leia/binding"
	"github.com/harnlang/harn-check/lang/model"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/lsptest"
	"github.com/harnlang/harn-check/lsp/mapper"
)

// agreementFiles are the repository's Harn and Leia fixtures (every
// testdata folder) and examples.
func agreementFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if ext := filepath.Ext(p); (ext == ".harn" || ext == ".leia") &&
			(strings.HasPrefix(rel, "examples/") || strings.Contains("/"+rel, "/testdata/")) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// identifiers returns the spans of the identifiers (and type names) of
// src's syntax tree.
func identifiers(src []byte, harn bool) []diagnostics.Span {
	var tree *sitter.Tree
	if harn {
		tree = harnbinding.ParseTree(src, nil)
	} else {
		tree = leiabinding.ParseTree(src, nil)
	}
	if tree == nil {
		return nil
	}
	defer tree.Close()
	var out []diagnostics.Span
	c := tree.Walk()
	defer c.Close()
	for {
		n := c.Node()
		if k := n.Kind(); (k == "identifier" || k == "type_identifier") && n.EndByte() > n.StartByte() {
			out = append(out, diagnostics.Span{Start: int(n.StartByte()), End: int(n.EndByte())})
		}
		if c.GotoFirstChild() || c.GotoNextSibling() {
			continue
		}
		for {
			if !c.GotoParent() {
				return out
			}
			if c.GotoNextSibling() {
				break
			}
		}
	}
}

// checkedModel is the checker's model of the file at path.
func checkedModel(t *testing.T, path string, src []byte) *model.Model {
	t.Helper()
	res := checkOf(t, path).Check(driver.Request{Path: path, Source: src, Model: true})
	return res.Model
}

// TestDefinitionIsTheCheckersResolution: for every identifier in the
// repository's Harn and Leia fixtures and examples, the language server's
// definition (textDocument/definition at the identifier's first letter)
// is the declaration the checker resolves it to, and nothing where the
// checker resolves it to nothing; a name imported from a relative module
// is followed to the declaration of that name at the module's top level,
// as the checker of that module records it.
func TestDefinitionIsTheCheckersResolution(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files := agreementFiles(t, root)
	if len(files) < 100 {
		t.Fatalf("found %d fixture files under %s, expected the repository's hundreds", len(files), root)
	}
	c := lsptest.Start(t, testOptions())
	c.Initialize(string(cache.PathToURI(root)), nil)
	targets := map[string]*model.Model{}
	targetOf := func(path, module, name string) (string, diagnostics.Span, bool) {
		p, ok := harnchecker.ResolveImport(path, module)
		if !ok {
			return "", diagnostics.Span{}, false
		}
		m, seen := targets[p]
		if !seen {
			if src, err := os.ReadFile(p); err == nil {
				m = checkedModel(t, p, src)
			}
			targets[p] = m
		}
		if m == nil {
			return "", diagnostics.Span{}, false
		}
		for i := range m.NumDefs() {
			if d := m.Def(i); d.Name == name && d.Scope == 0 && d.Kind != "import" {
				return p, d.Span, true
			}
		}
		return "", diagnostics.Span{}, false
	}
	total, resolved, disagreements := 0, 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		harn := filepath.Ext(path) == ".harn"
		m := checkedModel(t, path, src)
		if m == nil {
			t.Errorf("%s: the checker gave no model", path)
			continue
		}
		uri := string(cache.PathToURI(path))
		lang := strings.TrimPrefix(filepath.Ext(path), ".")
		c.Open(uri, lang, 1, string(src))
		c.WaitDiagnostics(uri, 1)
		mp := mapper.New(protocol.DocumentUri(uri), src, nil)
		for _, id := range identifiers(src, harn) {
			total++
			var want []protocol.Location
			if def, _ := m.At(id.Start); def >= 0 {
				resolved++
				d := m.Def(def)
				loc := mp.Location(d.Span)
				if d.Kind == "import" && d.Module != "" && harn {
					if p, sp, ok := targetOf(path, d.Module, d.Name); ok {
						other, _ := os.ReadFile(p)
						loc = mapper.New(protocol.DocumentUri(cache.PathToURI(p)), other, nil).Location(sp)
					}
				}
				want = []protocol.Location{loc}
			}
			msg := c.Call("textDocument/definition", map[string]any{"textDocument": doc(uri), "position": mp.Position(id.Start)})
			if msg.Error != nil {
				t.Fatalf("%s: definition at %d: %v", path, id.Start, msg.Error)
			}
			var got []protocol.Location
			if string(msg.Result) != "null" {
				if err := json.Unmarshal(msg.Result, &got); err != nil {
					t.Fatalf("%s: definition at %d: %s: %v", path, id.Start, msg.Result, err)
				}
			}
			if !sameLocations(got, want) {
				disagreements++
				if disagreements <= 60 {
					t.Errorf("%s:%d:%d %q: definition %s, the checker resolves it to %s", path, mp.Position(id.Start).Line+1, mp.Position(id.Start).Character+1,
						src[id.Start:id.End], locString(got), locString(want))
				}
			}
		}
		c.Notify("textDocument/didClose", map[string]any{"textDocument": doc(uri)})
	}
	t.Logf("%d files, %d identifiers, %d resolved by the checker, %d disagreements", len(files), total, resolved, disagreements)
	if total < 10000 {
		t.Errorf("only %d identifiers compared", total)
	}
}

func sameLocations(a, b []protocol.Location) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func locString(ls []protocol.Location) string {
	if len(ls) == 0 {
		return "nothing"
	}
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(filepath.Base(strings.TrimPrefix(string(l.URI), "file://")))
		b.WriteString(":")
		b.WriteString(strings.TrimSpace(strings.Join(strings.Fields(
			jsonString(l.Range.Start.Line+1)+":"+jsonString(l.Range.Start.Character+1)), "")))
	}
	return b.String()
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
