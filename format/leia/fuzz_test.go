package leia

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzFormat: on any input Format must not panic; what it formats must be
// a faithful formatting (Verify) and a fixed point of Format.
//
//	go test ./format/leia -fuzz FuzzFormat
func FuzzFormat(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.leia"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("x := f(a, // c\n b)\n"))
	f.Add([]byte("t := {\n  a: 1 /* one */\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		out, err := Format(src)
		if err != nil {
			return
		}
		if err := Verify(src, out); err != nil {
			t.Fatalf("%v\ninput:\n%s\noutput:\n%s", err, src, out)
		}
		again, err := Format(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent (%v)\ninput:\n%s\nonce:\n%s\ntwice:\n%s", err, src, out, again)
		}
	})
}
