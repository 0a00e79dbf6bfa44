package sourcefs

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadAll: the content comes back whole whatever size the buffer
// starts at (a file may report a stale size), read in one piece or a
// byte at a time, and a read error is returned.
func TestReadAll(t *testing.T) {
	content := strings.Repeat("fn f() {}\n", 500)
	for _, size := range []int64{1, 2, 4095, int64(len(content)), int64(len(content)) + 1, 3 * int64(len(content))} {
		for name, r := range map[string]func() io.Reader{
			"whole":    func() io.Reader { return strings.NewReader(content) },
			"one byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(content)) },
			"data+EOF": func() io.Reader { return iotest.DataErrReader(strings.NewReader(content)) },
		} {
			got, err := readAll(r(), size)
			if err != nil || string(got) != content {
				t.Errorf("%s, buffer %d: %d bytes, %v", name, size, len(got), err)
			}
		}
	}
	boom := errors.New("boom")
	if _, err := readAll(io.MultiReader(bytes.NewReader([]byte("ab")), iotest.ErrReader(boom)), 8); !errors.Is(err, boom) {
		t.Errorf("read error: %v", err)
	}
}
