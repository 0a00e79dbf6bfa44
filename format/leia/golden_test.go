package leia

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files of testdata")

// TestGolden formats each testdata/*.leia and compares with its .golden
// file (refresh with -update); the golden text must be formatted and
// formatting must keep the program and its comments.
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.leia"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Format(src)
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(in, ".leia") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Format(%s) differs from %s:\ngot:\n%s", in, golden, got)
			}
			if err := Verify(src, got); err != nil {
				t.Error(err)
			}
			if again, err := Format(want); err != nil || !bytes.Equal(again, want) {
				t.Errorf("the golden file is not formatted (err %v):\n%s", err, again)
			}
		})
	}
}

// TestUpstreamRules pins the rules of upstream's formatter that its own
// tests state: CRLF and trailing blanks go, trailing spaces go, four-space
// indentation by braces (an evaluate block included), syntax errors are
// refused, an empty file is one newline.
func TestUpstreamRules(t *testing.T) {
	tests := []struct{ in, want string }{
		{"if true {\r\nreturn 1  \r\n}\r\n\r\n", "if true {\n    return 1\n}\n"},
		{"x := 1 \t\r\n", "x := 1\n"},
		{"x := 1  \n\n", "x := 1\n"},
		{"evaluate \"slug baseline\" {\nassert(true)\nif true {\nassert(true)\n}\n}\n",
			"evaluate \"slug baseline\" {\n    assert(true)\n    if true {\n        assert(true)\n    }\n}\n"},
		{"", "\n"},
		{"\n\n", "\n"},
	}
	for _, tc := range tests {
		got, err := Format([]byte(tc.in))
		if err != nil {
			t.Errorf("Format(%q): %v", tc.in, err)
			continue
		}
		if string(got) != tc.want {
			t.Errorf("Format(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if _, err := Format([]byte("x := \n")); err == nil {
		t.Error("Format accepted a syntax error")
	}
}

// TestOptions: an editor's indentation settings apply to Leia.
func TestOptions(t *testing.T) {
	src := []byte("if a {\nb()\n}\n")
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{IndentWidth: 2}, "if a {\n  b()\n}\n"},
		{Options{Tabs: true}, "if a {\n\tb()\n}\n"},
	} {
		got, err := FormatWith(src, tc.opts)
		if err != nil || string(got) != tc.want {
			t.Errorf("FormatWith(%+v) = %q, %v; want %q", tc.opts, got, err, tc.want)
		}
	}
}
