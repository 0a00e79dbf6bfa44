package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/version"
)

// FuzzCheckAndRender is the CLI path on any bytes: a check of them as
// Harn or Leia, then every renderer. It must not panic; diagnostics must
// lie inside the file; the text and GitHub outputs must hold no control
// character (source excerpts and messages quote the input); the JSON and
// SARIF outputs must be valid JSON. Seeds in testdata/fuzz include the
// hostile inputs of issue #19 in small form (deep nesting, lone CRs,
// control characters, NUL bytes, long lines, unions, import chains).
func FuzzCheckAndRender(f *testing.F) {
	for _, s := range []string{
		"fn main() { log(undefined_name) }\n",
		"// c\rfn main() {\r  log(x)\r}\r",
		"fn main() {\n  const x = " + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200) + "\n}\n",
		"type T = \"a\" | \"b\" | \"c\"\nfn main(t: T) { match t { \"a\" -> { log(1) } } }\n",
		"fn main() { log(\"\x1b[31m\x07\") } // \x01\x02\x7f\u009b\u202e\n",
		"x := (1 +\nprint(x)\n",
		"import {f} from \"./missing\"\nfn main() { f() }\n",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, leia bool) {
		path := "fuzz.harn"
		if leia {
			path = "fuzz.leia"
		}
		// Only what the driver would hand over: binary input is reported
		// before any check (HARN-IO-002), so it is not checked here.
		if bytes.IndexByte(src, 0) >= 0 {
			return
		}
		res := checks.Check(driver.Request{Path: path, Source: src, Read: func(string) ([]byte, error) {
			return nil, &pathErr{}
		}})
		for _, d := range res.Diagnostics {
			if d.Span.Start < 0 || d.Span.End < d.Span.Start || d.Span.End > len(src) {
				t.Fatalf("%s span %+v outside the %d-byte file", d.Code, d.Span, len(src))
			}
		}
		report := &diagnostics.Report{Files: []diagnostics.File{{Path: path, Source: src, Diagnostics: res.Diagnostics, Manifest: res.Manifest}},
			Sources: res.Sources}
		var text, gh, js, sarif bytes.Buffer
		if err := diagnostics.RenderText(&text, report, diagnostics.TextOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := diagnostics.RenderGitHub(&gh, report); err != nil {
			t.Fatal(err)
		}
		if err := diagnostics.RenderJSON(&js, report); err != nil {
			t.Fatal(err)
		}
		if err := diagnostics.RenderSARIF(&sarif, report, diagnostics.SARIFOptions{ToolName: "harn-check", ToolVersion: version.Version}); err != nil {
			t.Fatal(err)
		}
		for name, out := range map[string][]byte{"text": text.Bytes(), "github": gh.Bytes()} {
			for i := 0; i < len(out); {
				r, n := utf8.DecodeRune(out[i:])
				if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f)) {
					t.Fatalf("%s output holds control character %U at %d", name, r, i)
				}
				i += n
			}
		}
		if !json.Valid(js.Bytes()) || !json.Valid(sarif.Bytes()) {
			t.Fatal("JSON or SARIF output is not valid JSON")
		}
	})
}

// pathErr is a missing file for the fuzz check's reader.
type pathErr struct{}

func (*pathErr) Error() string { return "file does not exist" }
