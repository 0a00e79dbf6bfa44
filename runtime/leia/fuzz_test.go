package leia

import (
	"github.com/harnlang/harn-check/runtime/execution"

	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzRun compiles and runs arbitrary source with a step budget, a
// depth bound and a deadline: whatever the input, Run returns (an error is
// fine) and no Go panic escapes. Seeded with the feature programs.
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(programDir, "*.leia"))
	more, _ := filepath.Glob(filepath.Join(programDir, "fail", "*.leia"))
	for _, p := range append(files, more...) {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("x := [1, 2, 3]\nfor i, v := range x { x[i + 1] = v }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		in := New(Options{Stdout: io.Discard, Stderr: io.Discard, Stdin: eofReader{}, Limits: execution.Limits{Steps: 200_000}, MaxDepth: 2_000, MaxStringBytes: 1 << 20})
		chunk, err := in.Compile("fuzz.leia", src)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		in.Run(ctx, chunk)
	})
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
