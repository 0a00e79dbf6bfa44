package harn

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files of testdata")

// TestGolden formats each testdata/*.harn and compares with its .golden
// file (refresh with -update). The golden text must itself be formatted,
// and formatting must keep the program and its comments (Verify).
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.harn"))
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
			golden := strings.TrimSuffix(in, ".harn") + ".golden"
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
				t.Errorf("Format(%s) differs from %s:\n%s", in, golden, firstDiff(want, got))
			}
			if err := Verify(src, got); err != nil {
				t.Error(err)
			}
			again, err := Format(want)
			if err != nil || !bytes.Equal(again, want) {
				t.Errorf("the golden file is not formatted (err %v):\n%s", err, firstDiff(want, again))
			}
		})
	}
}
