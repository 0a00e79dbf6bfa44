package harn_test

import (
	"strings"
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
)

// TestImportedNameMissing pins HARN-IMP-002 for each way an imported name
// can be missing: its message, help, the related span on the import path
// and, when the module declares the name without exporting it, the
// related span on that declaration in the module.
func TestImportedNameMissing(t *testing.T) {
	util := "import {helper} from \"./other\"\n" +
		"const LIMIT = 3\n" +
		"fn hidden() -> int { return LIMIT }\n" +
		"pub fn clamp_value(x: int) -> int { return x }\n" +
		"type Range = {lo: int, hi: int}\n"
	files := harn.MapLoader{
		"p/util.harn":  []byte(util),
		"p/other.harn": []byte("pub fn helper() -> int { return 1 }\n"),
		"p/empty.harn": []byte("// nothing here\n"),
	}
	type rel struct{ path, text, msg string }
	tests := []struct {
		name    string
		src     string // the import line of p/main.harn
		at      string // text under the diagnostic's span
		message string
		help    string
		related []rel
	}{
		{
			name:    "undeclared, near an export",
			src:     `import {clamp} from "./util"`,
			at:      "clamp",
			message: "./util does not declare clamp; did you mean clamp_value?",
			help:    "it exports Range, clamp_value",
			related: []rel{{"", `"./util"`, "the module ./util is imported here"}},
		},
		{
			name:    "undeclared, nothing near",
			src:     `import {zzz} from "./util"`,
			at:      "zzz",
			message: "./util does not declare zzz",
			help:    "it exports Range, clamp_value",
			related: []rel{{"", `"./util"`, "the module ./util is imported here"}},
		},
		{
			name:    "undeclared in a module exporting nothing",
			src:     `import {x} from "./empty"`,
			at:      "x",
			message: "./empty does not declare x",
			help:    "it exports nothing: a module exports its functions (the pub ones when any is pub) and its types",
			related: []rel{{"", `"./empty"`, "the module ./empty is imported here"}},
		},
		{
			name:    "a function without pub",
			src:     `import {hidden} from "./util"`,
			at:      "hidden",
			message: "./util declares hidden but does not export it",
			help:    "mark it pub fn; it exports Range, clamp_value",
			related: []rel{
				{"", `"./util"`, "the module ./util is imported here"},
				{"p/util.harn", "hidden", "hidden is declared here: a function without pub, in a module that marks others pub"},
			},
		},
		{
			name:    "a top-level constant",
			src:     `import {LIMIT} from "./util"`,
			at:      "LIMIT",
			message: "./util declares LIMIT but does not export it",
			help:    "return it from a pub function; it exports Range, clamp_value",
			related: []rel{
				{"", `"./util"`, "the module ./util is imported here"},
				{"p/util.harn", "LIMIT", "LIMIT is declared here: a top-level const binding, and only functions and types are exported"},
			},
		},
		{
			name:    "a name the module imports",
			src:     `import {helper} from "./util"`,
			at:      "helper",
			message: "./util declares helper but does not export it",
			help:    "import it from ./other directly; it exports Range, clamp_value",
			related: []rel{
				{"", `"./util"`, "the module ./util is imported here"},
				{"p/util.harn", "helper", "helper is declared here: imported into that module, and imports are not exported again"},
			},
		},
		{
			name:    "std/predicate",
			src:     `import {bolean} from "std/predicate"`,
			at:      "bolean",
			message: "std/predicate does not declare bolean; did you mean boolean?",
			related: []rel{{"", `"std/predicate"`, "the module std/predicate is imported here"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src + "\n")
			res := harn.Check("p/main.harn", src, harn.Options{Loader: files})
			var got []string
			for _, d := range res.Diagnostics {
				if d.Code != "HARN-IMP-002" {
					continue
				}
				got = append(got, d.Message)
				if text := string(src[d.Span.Start:d.Span.End]); text != tc.at {
					t.Errorf("span covers %q, want %q", text, tc.at)
				}
				if d.Message != tc.message {
					t.Errorf("message %q\nwant    %q", d.Message, tc.message)
				}
				if tc.help != "" && d.Help != tc.help {
					t.Errorf("help %q\nwant %q", d.Help, tc.help)
				}
				if tc.help == "" && !strings.HasPrefix(d.Help, "it exports ") {
					t.Errorf("help %q does not list the exports", d.Help)
				}
				if len(d.Related) != len(tc.related) {
					t.Fatalf("related %+v, want %d", d.Related, len(tc.related))
				}
				for i, r := range d.Related {
					in := src
					if r.Path != "" {
						in = files[r.Path]
						if _, ok := res.Sources[r.Path]; !ok {
							t.Errorf("related path %s missing from Sources", r.Path)
						}
					}
					text := string(in[r.Span.Start:r.Span.End])
					if r.Path != tc.related[i].path || text != tc.related[i].text || r.Message != tc.related[i].msg {
						t.Errorf("related %d: %s %q %q\nwant       %s %q %q", i, r.Path, text, r.Message, tc.related[i].path, tc.related[i].text, tc.related[i].msg)
					}
				}
			}
			if len(got) != 1 {
				t.Errorf("HARN-IMP-002 diagnostics %q, want one", got)
			}
		})
	}
}

// TestImportsWithoutError: exported names, unresolved std/ modules and
// package imports give no HARN-IMP-002 and no HARN-MOD-001.
func TestImportsWithoutError(t *testing.T) {
	files := harn.MapLoader{"p/util.harn": []byte("pub fn clamp_value(x: int) -> int { return x }\ntype Range = {lo: int}\n")}
	for _, src := range []string{
		`import {clamp_value, Range} from "./util"`,
		`import {trim} from "std/strings"`,
		`import {boolean, choice} from "std/predicate"`,
		`import "./util"`,
	} {
		res := harn.Check("p/main.harn", []byte(src+"\n"), harn.Options{Loader: files})
		for _, d := range res.Diagnostics {
			if d.Code == "HARN-IMP-002" || d.Code == "HARN-MOD-001" {
				t.Errorf("%s: %s %s", src, d.Code, d.Message)
			}
		}
	}
}
