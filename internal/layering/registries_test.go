package layering

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pendingRegistries are the folders whose builtin registries are still
// filled from init; none is left.
var pendingRegistries = []string{}

// TestNoRegistryFilledFromInit: a language, a runtime, editor features or
// a syntax is a value the binary lists where it is assembled (package
// language), never an entry a package puts into a process-wide registry.
// Outside pendingRegistries, no Go source (tests included) declares a
// package-level function named Register..., and no init or main function
// calls a function or method so named.
func TestNoRegistryFilledFromInit(t *testing.T) {
	root := filepath.Dir(strings.TrimSpace(string(goEnv(t, "GOMOD"))))
	hits, err := registryUses(root, pendingRegistries)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		t.Errorf("%s: list the value where the binary is assembled (package language) instead of registering it", h)
	}
}

// TestRegistryScanFails: the scan finds a Register function, and a
// registration from init and from main, and ignores pending folders and
// methods that only share the name (a flag set's Register).
func TestRegistryScanFails(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) { writeFile(t, dir, rel, src) }
	write("driver/reg.go", "package driver\n\nfunc Register(l int) {}\n")
	write("lsp/x/x.go", "package x\n\nimport \"m/driver\"\n\nfunc init() { driver.Register(1) }\n")
	write("cmd/tool/main.go", "package main\n\nfunc main() { registerAll(); features.RegisterSyntax(\".x\", nil) }\n")
	write("cmd/tool/flags.go", "package main\n\ntype limits struct{}\n\nfunc (limits) Register() {}\n\nfunc setup(l limits) { l.Register() }\n")
	write("runtime/harn/lib.go", "package harn\n\nfunc Register(string) {}\n\nfunc init() { Register(\"len\") }\n")
	write("testdata/old.go", "package old\n\nfunc init() { Register() }\n")
	hits, err := registryUses(dir, []string{"runtime/harn/"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(hits, "\n")
	want := strings.Join([]string{
		"cmd/tool/main.go:3: main calls features.RegisterSyntax",
		"driver/reg.go:3: declares func Register",
		"lsp/x/x.go:5: init calls driver.Register",
	}, "\n")
	if got != want {
		t.Errorf("hits:\n%s\nwant:\n%s", got, want)
	}
}

// registryUses returns, sorted by file, the package-level Register...
// functions declared under root and the calls of a Register... function
// or method inside init and main functions, outside the pending folders
// (module-relative, with a trailing slash) and testdata.
func registryUses(root string, pending []string) ([]string, error) {
	var hits []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			for _, dir := range pending {
				if rel+"/" == dir {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		at := func(n ast.Node) string { return fmt.Sprintf("%s:%d", rel, fset.Position(n.Pos()).Line) }
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil {
				continue
			}
			if strings.HasPrefix(fn.Name.Name, "Register") {
				hits = append(hits, at(fn)+": declares func "+fn.Name.Name)
			}
			if (fn.Name.Name != "init" && fn.Name.Name != "main") || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if name := callee(call.Fun); strings.HasPrefix(name[strings.LastIndex(name, ".")+1:], "Register") {
					hits = append(hits, at(call)+": "+fn.Name.Name+" calls "+name)
				}
				return true
			})
		}
		return nil
	})
	return hits, err
}

// callee spells the function a call names: f, pkg.F or x.y.M ("" for
// anything else, such as a call of a call's result).
func callee(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		if base := callee(x.X); base != "" {
			return base + "." + x.Sel.Name
		}
		return x.Sel.Name
	case *ast.IndexExpr:
		return callee(x.X)
	}
	return ""
}

// writeFile writes src to dir/rel, making its folders, for the tests that
// show a scan can fail.
func writeFile(t *testing.T, dir, rel, src string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}
