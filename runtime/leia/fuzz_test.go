package leia

import (
	"github.com/harnlang/harn-check/runtime/execution"

	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzRun compiles and runs arbitrary source under the CLI's default
// limits (memory, goroutines), with the step budget and wall time lowered
// so that each input takes at most about a second: whatever the
// input, Run returns within its time bound (an error is fine), no Go
// panic escapes, and a run stopped by a limit says which. Seeded with the
// feature programs and hostile ones (issue 25); .ci/run runs it for a few
// seconds.
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(programDir, "*.leia"))
	more, _ := filepath.Glob(filepath.Join(programDir, "fail", "*.leia"))
	for _, p := range append(files, more...) {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("x := [1, 2, 3]\nfor i, v := range x { x[i + 1] = v }"))
	f.Add([]byte("for { pcall(func() { for {} }) }"))
	f.Add([]byte("l := [1]\nfor i := 0; i < 100; i++ { l = [l, l] }\nprint(json.encode(l))"))
	f.Add([]byte("s := string.rep(\"x\", 1000000)\nl := []\nfor { l[#l+1] = s .. \"y\" }"))
	f.Add([]byte("ch := make(chan)\ngo func() { <-ch }()\n<-ch"))
	limits := execution.Defaults()
	limits.Steps = 500_000
	limits.Time = time.Second
	limits.Depth = 2_000
	f.Fuzz(func(t *testing.T, src []byte) {
		in := New(Options{Stdout: io.Discard, Stderr: io.Discard, Stdin: eofReader{}, Limits: limits})
		chunk, err := in.Compile("fuzz.leia", src)
		if err != nil {
			return
		}
		start := time.Now()
		_, err = in.Run(context.Background(), chunk)
		if d := time.Since(start); d > limits.Time+8*time.Second {
			t.Fatalf("a run bounded to %s took %s: a limit was not honoured\nsource:\n%s", limits.Time, d, src)
		}
		var le *execution.LimitError
		if errors.As(err, &le) && !strings.Contains(err.Error(), "raise it with "+execution.LimitOf(le.Resource).Flag) {
			t.Fatalf("a limit's error does not name its flag: %v", err)
		}
	})
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
