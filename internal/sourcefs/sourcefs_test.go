package sourcefs

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tree builds a folder of hostile entries: a file, a FIFO, a socket,
// links to devices and /proc, a link loop, a dangling link, a link out of
// the folder, a link to a folder that contains it (a directory loop).
func tree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "root")
	outside = filepath.Join(base, "outside.harn")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	must(os.WriteFile(filepath.Join(root, "a.harn"), []byte("fn main() {}\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "sub", "b.harn"), []byte("fn b() {}\n"), 0o644))
	must(os.WriteFile(outside, []byte("secret\n"), 0o644))
	must(syscall.Mkfifo(filepath.Join(root, "fifo.harn"), 0o644))
	must(os.Symlink("/dev/zero", filepath.Join(root, "zero.harn")))
	must(os.Symlink("/proc/self/environ", filepath.Join(root, "environ.harn")))
	must(os.Symlink("loop2.harn", filepath.Join(root, "loop1.harn")))
	must(os.Symlink("loop1.harn", filepath.Join(root, "loop2.harn")))
	must(os.Symlink("missing.harn", filepath.Join(root, "dangling.harn")))
	must(os.Symlink(outside, filepath.Join(root, "out.harn")))
	must(os.Symlink("a.harn", filepath.Join(root, "inside.harn")))
	must(os.Symlink("..", filepath.Join(root, "sub", "up")))
	l, err := net.Listen("unix", filepath.Join(root, "sock.harn"))
	if err == nil {
		t.Cleanup(func() { l.Close() })
	}
	return root, outside
}

func TestWalkListsHostileEntriesWithoutReadingThem(t *testing.T) {
	root, _ := tree(t)
	done := make(chan struct{})
	var entries []Entry
	var err error
	go func() {
		defer close(done)
		entries, err = Walk(root, []string{".harn"}, nil)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Walk did not return: it followed a loop or opened a pipe")
	}
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range entries {
		rel, _ := filepath.Rel(root, e.Path)
		got[filepath.ToSlash(rel)] = describe(e.Err)
	}
	want := map[string]string{
		"a.harn":        "ok",
		"sub/b.harn":    "ok",
		"inside.harn":   "ok",
		"fifo.harn":     "not regular: named pipe (FIFO)",
		"zero.harn":     "not regular: character device",
		"environ.harn":  "not regular: file on a pseudo file system (proc)",
		"loop1.harn":    "loop",
		"loop2.harn":    "loop",
		"dangling.harn": "missing",
		"out.harn":      "outside",
		"sock.harn":     "not regular: socket",
	}
	if _, err := os.Lstat(filepath.Join(root, "sock.harn")); err != nil {
		delete(want, "sock.harn")
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected entry %s (%s)", k, got[k])
		}
	}
}

func describe(err error) string {
	var nr *NotRegularError
	var out *OutsideError
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &nr):
		return "not regular: " + nr.What
	case errors.As(err, &out):
		return "outside"
	case errors.Is(err, fs.ErrNotExist):
		return "missing"
	case strings.Contains(Reason(err), "loop"):
		return "loop"
	}
	return err.Error()
}

func TestReadRefusesWhatIsNotASourceFile(t *testing.T) {
	root, _ := tree(t)
	big := filepath.Join(root, "big.harn")
	if err := os.WriteFile(big, make([]byte, 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		max        int64
		want       string
	}{
		{"regular", filepath.Join(root, "a.harn"), 0, "ok"},
		{"explicit link outside the folder is read", filepath.Join(root, "out.harn"), 0, "ok"},
		{"fifo", filepath.Join(root, "fifo.harn"), 0, "not regular: named pipe (FIFO)"},
		{"device", filepath.Join(root, "zero.harn"), 0, "not regular: character device"},
		{"urandom", "/dev/urandom", 0, "not regular: character device"},
		{"proc", filepath.Join(root, "environ.harn"), 0, "not regular: file on a pseudo file system (proc)"},
		{"directory", root, 0, "not regular: directory"},
		{"loop", filepath.Join(root, "loop1.harn"), 0, "loop"},
		{"too large", big, 1024, "too large"},
		{"at the limit", big, 2048, "ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var data []byte
			var err error
			go func() {
				defer close(done)
				data, err = Read(tc.path, tc.max)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Read blocked")
			}
			got := describe(err)
			var tl *TooLargeError
			if errors.As(err, &tl) {
				got = "too large"
				if tl.Size != 2048 || tl.Max != 1024 || data != nil {
					t.Errorf("%+v, %d bytes read", tl, len(data))
				}
			}
			if got != tc.want {
				t.Errorf("Read: %s, want %s", got, tc.want)
			}
			if err != nil && data != nil {
				t.Errorf("data returned with an error")
			}
		})
	}
}

// The limit is inclusive: a file of exactly max bytes is read, one byte
// more is refused.
func TestReadLimitIsInclusive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "edge.harn")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 11)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(p, 10); err == nil {
		t.Fatal("an 11-byte file passed a 10-byte limit")
	}
	if data, err := Read(p, 11); err != nil || len(data) != 11 {
		t.Fatalf("%d bytes, %v", len(data), err)
	}
}

func TestReasonAndSizes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&NotRegularError{Path: "x", What: "socket"}, "not a regular file: it is a socket"},
		{&TooLargeError{Path: "x", Size: 9 << 20, Max: 4 << 20}, "it is 9 MiB, more than the limit of 4 MiB"},
		{&TooLargeError{Path: "x", Size: 5000000, Max: 4 << 20}, "it is 4.8 MiB, more than the limit of 4 MiB"},
		{&fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist}, "no such file or directory"},
		{&fs.PathError{Op: "open", Path: "x", Err: fs.ErrPermission}, "permission denied"},
	} {
		if got := Reason(tc.err); got != tc.want {
			t.Errorf("Reason(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
	if got := FormatSize(812); got != "812 bytes" {
		t.Errorf("FormatSize(812) = %q", got)
	}
	if BinaryOffset([]byte("ab\x00c")) != 2 || BinaryOffset([]byte("text\n")) != -1 {
		t.Error("BinaryOffset")
	}
	latin1 := []byte("// caf\xe9 and na\xefve\nfn main() { log(\"\xe9t\xe9\") }\n" + strings.Repeat("x", 100))
	garbage := make([]byte, 4096)
	for i := range garbage {
		garbage[i] = byte(128 + i%128)
	}
	for _, tc := range []struct {
		src    []byte
		binary bool
	}{
		{[]byte("fn main() {}\n"), false},
		{[]byte("// ünïcödé 𝄞\n"), false},
		{latin1, false},
		{[]byte("a\x00b"), true},
		{garbage, true},
	} {
		if got, why := Binary(tc.src); got != tc.binary {
			t.Errorf("Binary(%.20q) = %v (%s), want %v", tc.src, got, why, tc.binary)
		}
	}
}

// Inside is the one boundary decision: the real path must lie in the
// folder, and a hard-linked file is never provably inside.
func TestInside(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	prog, outside := filepath.Join(base, "prog"), filepath.Join(base, "outside")
	for _, d := range []string{prog, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(prog, "ok.rhai"), filepath.Join(outside, "secret.rhai")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "secret.rhai"), filepath.Join(prog, "sym.rhai")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(outside, "secret.rhai"), filepath.Join(prog, "hard.rhai")); err != nil {
		t.Skipf("cannot make a hard link here: %v", err)
	}
	for _, c := range []struct {
		path string
		want string // "" inside, else a fragment of the error
	}{
		{"ok.rhai", ""},
		{"missing.rhai", ""},
		{"../outside/secret.rhai", "outside the folder"},
		{filepath.Join(outside, "secret.rhai"), "outside the folder"},
		{"sym.rhai", "a symbolic link to"},
		{"hard.rhai", "2 hard links"},
	} {
		real, err := Inside(prog, c.path)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.path, err)
		case c.want == "" && !Within(real, prog):
			t.Errorf("%s: real path %s", c.path, real)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want an error with %q", c.path, err, c.want)
		}
	}
	entries, err := Walk(prog, []string{".rhai"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		var out *OutsideError
		if bad := filepath.Base(e.Path) != "ok.rhai"; bad != errors.As(e.Err, &out) {
			t.Errorf("walk: %s: %v", e.Path, e.Err)
		}
	}
}
