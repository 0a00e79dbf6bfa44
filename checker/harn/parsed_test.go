package harn_test

import (
	"reflect"
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/grammar/harn/binding"
)

// TestParsedStandsInForTheParse: a pre-parsed input equal to binding.Parse
// gives exactly the result of a check that parses (diagnostics, sites,
// tree, facts, reads); an input parsed from other text is what the check
// reports on, so it is really used; imports are still parsed from what the
// loader serves.
func TestParsedStandsInForTheParse(t *testing.T) {
	loader := harn.MapLoader{
		"p/lib.harn": []byte("pub fn f() -> string { return \"x\" }\n"),
		"p/bad.harn": []byte("pub fn g( -> string { return \"x\" }\n"),
	}
	src := []byte("import {f} from \"./lib\"\nimport {g} from \"./bad\"\nfn main(harness: Harness) { log(f()) }\n")
	broken := []byte("import {f} from \"./lib\"\nimport {g} from \"./bad\"\nfn main(harness: Harness) { log(f() }\n")
	for _, tc := range []struct {
		name     string
		parsedOf []byte
	}{
		{"same text", src},
		{"other text of the same length", broken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, syn := binding.Parse("p/a.harn", tc.parsedOf)
			got := harn.Check("p/a.harn", src, harn.Options{Loader: loader, Parsed: &harn.Parsed{File: file, Syntax: syn}})
			want := harn.Check("p/a.harn", tc.parsedOf, harn.Options{Loader: loader})
			if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
				t.Errorf("diagnostics\n%v\nwant (a fresh check of the parsed text)\n%v", got.Diagnostics, want.Diagnostics)
			}
			if !reflect.DeepEqual(got.Reads, want.Reads) || !reflect.DeepEqual(got.File, want.File) || got.Failed != want.Failed {
				t.Errorf("reads, tree or failure differ from a fresh check")
			}
			plain := harn.Check("p/a.harn", src, harn.Options{Loader: loader})
			if differs := string(tc.parsedOf) != string(src); differs == reflect.DeepEqual(got.Diagnostics, plain.Diagnostics) {
				t.Errorf("parsed from other text: %v, but the diagnostics equal a plain check's: %v", differs, !differs)
			}
			if len(got.Diagnostics) == 0 {
				t.Errorf("the import of ./bad must be reported (imports are parsed)")
			}
		})
	}
}
