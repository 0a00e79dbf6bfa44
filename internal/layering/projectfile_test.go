package layering

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// projectFile is the name only package catalog may spell in code.
const projectFile = "harn.toml"

// TestOnlyCatalogOpensProjectFile: harn.toml is found, read and validated
// by package catalog alone (catalog.Find, catalog.Load,
// catalog.FindProject); a second reader would be a second catalog that can
// disagree with the checker. Every other non-test Go source must not
// spell the file's name as a string literal (it names catalog.File).
func TestOnlyCatalogOpensProjectFile(t *testing.T) {
	root := filepath.Dir(strings.TrimSpace(string(goEnv(t, "GOMOD"))))
	hits, err := projectFileLiterals(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		t.Errorf("%s spells %q: read it through package catalog (catalog.File, Find, Load, FindProject)", h, projectFile)
	}
}

// TestProjectFileScanFails: the scan finds a literal outside catalog/ and
// ignores catalog/ and tests.
func TestProjectFileScanFails(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) { writeFile(t, dir, rel, src) }
	write("catalog/c.go", "package catalog\nconst File = \"harn.toml\"\n")
	write("runtime/x/x_test.go", "package x\nvar f = \"harn.toml\"\n")
	write("runtime/x/x.go", "package x\nimport \"os\"\nfunc f() { os.ReadFile(\"a/harn.toml\") }\n")
	hits, err := projectFileLiterals(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || !strings.HasPrefix(hits[0], filepath.Join("runtime", "x", "x.go")+":3:") {
		t.Errorf("hits %v, want one in runtime/x/x.go", hits)
	}
}

// projectFileLiterals returns "path:line:col" of each string literal
// naming harn.toml (alone or as a path's last element) in the non-test Go
// sources under root, outside catalog/.
func projectFileLiterals(root string) ([]string, error) {
	var hits []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" || rel == "catalog") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err == nil && (s == projectFile || strings.HasSuffix(s, "/"+projectFile)) {
				pos := fset.Position(lit.Pos())
				hits = append(hits, rel+":"+strconv.Itoa(pos.Line)+":"+strconv.Itoa(pos.Column))
			}
			return true
		})
		return nil
	})
	return hits, err
}
