package ast_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/binding"
)

// reachable collects every node pointer below root by reflection, the
// ground truth Inspect must agree with (comments and the File's error list
// excepted: they are not children).
func reachable(root ast.Node) map[ast.Node]bool {
	nodeType := reflect.TypeOf((*ast.Node)(nil)).Elem()
	out := map[ast.Node]bool{}
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			if v.Type().Implements(nodeType) {
				if _, ok := v.Interface().(*ast.Comment); ok {
					return
				}
				out[v.Interface().(ast.Node)] = true
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type() == reflect.TypeOf(ast.File{}) && v.Type().Field(i).Name == "Errors" {
					continue
				}
				walk(v.Field(i))
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(root))
	return out
}

// TestInspectVisitsEveryNode parses the grammar corpus and the examples and
// checks that Inspect reaches exactly the nodes reflection finds.
func TestInspectVisitsEveryNode(t *testing.T) {
	var files []string
	for _, pat := range []string{"../../../examples/harn/*.harn", "../../../examples/*/*.harn", "../testdata/*.harn", "../../../checker/harn/rules/*/testdata/*.harn"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d files found", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, _ := binding.Parse(f, src)
		want := reachable(file)
		got := map[ast.Node]bool{}
		ast.Inspect(file, func(n ast.Node) bool {
			if got[n] {
				t.Errorf("%s: %T at %v visited twice", f, n, n.Pos())
			}
			got[n] = true
			return true
		})
		for n := range want {
			if !got[n] {
				t.Errorf("%s: %T at %v not visited", f, n, n.Pos())
			}
		}
		for n := range got {
			if !want[n] {
				t.Errorf("%s: %T at %v visited but not in the tree", f, n, n.Pos())
			}
		}
	}
}

// TestInspectPrunes checks that returning false skips a node's children.
func TestInspectPrunes(t *testing.T) {
	file, _ := binding.Parse("p.harn", []byte("fn f() { let x = g(1) }\nlet y = 2\n"))
	var kinds []string
	ast.Inspect(file, func(n ast.Node) bool {
		kinds = append(kinds, reflect.TypeOf(n).Elem().Name())
		_, isFn := n.(*ast.FuncDecl)
		return !isFn
	})
	want := []string{"File", "FuncDecl", "VarDecl", "Ident", "IntLit"}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("visited %v, want %v", kinds, want)
	}
}
