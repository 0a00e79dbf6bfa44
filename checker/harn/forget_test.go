package harn_test

import (
	"reflect"
	"testing"

	"github.com/harnlang/harn-check/checker/harn"
)

// TestGraphForget: a module a run forgot (no file was thought to import
// it) is read and checked again when a later file imports it after all,
// with the same result as in a graph that kept it; a module of an import
// cycle is not forgotten.
func TestGraphForget(t *testing.T) {
	files := harn.MapLoader{
		"lib.harn":  []byte("pub fn answer() -> int {\n  return 42\n}\n"),
		"main.harn": []byte("import { answer, missing } from \"./lib\"\n\npipeline main() {\n  let n: string = answer()\n  log(n)\n}\n"),
		"a.harn":    []byte("import { b } from \"./b\"\npub fn a() -> int { return 1 }\n"),
		"b.harn":    []byte("import { a } from \"./a\"\npub fn b() -> int { return 2 }\n"),
	}
	check := func(g *harn.Graph, path string) []string {
		res := harn.Check(path, files[path], harn.Options{Loader: files, Graph: g})
		var codes []string
		for _, d := range res.Diagnostics {
			codes = append(codes, d.Code+" "+d.Message)
		}
		return codes
	}
	kept := harn.NewGraph(nil)
	check(kept, "lib.harn")
	want := check(kept, "main.harn")
	if len(want) < 2 {
		t.Fatalf("main.harn should have an import and a type error: %q", want)
	}
	forgot := harn.NewGraph(nil)
	check(forgot, "lib.harn")
	forgot.Forget("lib.harn")
	if got := check(forgot, "main.harn"); !reflect.DeepEqual(got, want) {
		t.Errorf("after Forget:\n%q\nwant\n%q", got, want)
	}
	// Forgetting a member of a cycle does nothing; both still check.
	cyc := harn.NewGraph(nil)
	first := check(cyc, "a.harn")
	cyc.Forget("a.harn")
	if again := check(cyc, "a.harn"); !reflect.DeepEqual(again, first) {
		t.Errorf("a cycle member checked again differs:\n%q\n%q", again, first)
	}
	check(cyc, "b.harn")
}
