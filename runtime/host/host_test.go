package host

import (
	"context"
	"errors"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sandbox lays out base/prog (the program's folder), base/tmp (its temp
// dir) and base/outside (neither), with a secret file outside.
type sandbox struct {
	base, prog, tmp, outside string
}

func newSandbox(t *testing.T) sandbox {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := sandbox{base: base, prog: filepath.Join(base, "prog"), tmp: filepath.Join(base, "tmp"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{s.prog, s.tmp, s.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(s.outside, "secret.txt"), "secret")
	write(t, filepath.Join(s.prog, "data.txt"), "data")
	return s
}

func write(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (s sandbox) host(t *testing.T, g Grants) *Host {
	t.Helper()
	h, err := New(Config{Root: s.prog, TempDir: s.tmp, Grants: g})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// wantDenied fails unless err is a *DeniedError naming flag.
func wantDenied(t *testing.T, what string, err error, flagPrefix string) {
	t.Helper()
	var d *DeniedError
	if !errors.As(err, &d) {
		t.Fatalf("%s: got %v, want a denial", what, err)
	}
	if !strings.HasPrefix(d.Flag, flagPrefix) || !strings.Contains(err.Error(), d.Flag) {
		t.Fatalf("%s: denial %q does not name %s", what, err, flagPrefix)
	}
}

func TestFileSystemDenials(t *testing.T) {
	s := newSandbox(t)
	// Links inside the program's folder that lead out of it.
	if err := os.Symlink(filepath.Join(s.outside, "secret.txt"), filepath.Join(s.prog, "file-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(s.outside, filepath.Join(s.prog, "dir-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(s.outside, "planted.txt"), filepath.Join(s.prog, "dangling")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside", filepath.Join(s.prog, "relative-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop-b", filepath.Join(s.prog, "loop-a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop-a", filepath.Join(s.prog, "loop-b")); err != nil {
		t.Fatal(err)
	}
	h := s.host(t, Grants{})
	secret := filepath.Join(s.outside, "secret.txt")
	cases := []struct {
		name string
		op   func() error
	}{
		{"read outside by absolute path", func() error { _, err := h.ReadFile(secret); return err }},
		{"read outside by ..", func() error { _, err := h.ReadFile("../outside/secret.txt"); return err }},
		{"read through a file symlink", func() error { _, err := h.ReadFile("file-link"); return err }},
		{"read through a directory symlink", func() error { _, err := h.ReadFile("dir-link/secret.txt"); return err }},
		{"read through a relative symlink", func() error { _, err := h.ReadFile("relative-link/secret.txt"); return err }},
		{"read a symlink loop", func() error { _, err := h.ReadFile("loop-a"); return err }},
		{"stat outside", func() error { _, err := h.Stat(secret); return err }},
		{"list outside", func() error { _, err := h.ReadDir(s.outside); return err }},
		{"list through a directory symlink", func() error { _, err := h.ReadDir("dir-link"); return err }},
		{"open outside", func() error { _, err := h.Open(secret); return err }},
		{"write outside", func() error { return h.WriteFile(filepath.Join(s.outside, "new.txt"), []byte("x")) }},
		{"write through a file symlink", func() error { return h.WriteFile("file-link", []byte("x")) }},
		{"write a new file through a directory symlink", func() error { return h.WriteFile("dir-link/new.txt", []byte("x")) }},
		{"write through a dangling symlink", func() error { return h.WriteFile("dangling", []byte("x")) }},
		{"append outside", func() error { return h.AppendFile(secret, []byte("x")) }},
		{"create outside", func() error { _, err := h.Create(filepath.Join(s.outside, "c.txt")); return err }},
		{"mkdir outside", func() error { return h.Mkdir(filepath.Join(s.outside, "d"), false) }},
		{"mkdir -p through a directory symlink", func() error { return h.Mkdir("dir-link/a/b", true) }},
		{"remove outside", func() error { return h.Remove(secret, false) }},
		{"remove -r through a directory symlink", func() error { return h.Remove("dir-link/secret.txt", true) }},
		{"rename out of the folder", func() error { return h.Rename("data.txt", filepath.Join(s.outside, "stolen.txt")) }},
		{"rename into the folder", func() error { return h.Rename(secret, "mine.txt") }},
		{"chmod outside", func() error { return h.Chmod(secret, 0o777) }},
		{"check an unwrapped operation", func() error { _, err := h.CheckPath("read", "/"); return err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantDenied(t, c.name, c.op(), "--allow-fs=")
		})
	}
	// Nothing leaked out.
	if got, _ := os.ReadFile(secret); string(got) != "secret" {
		t.Errorf("secret changed to %q", got)
	}
	for _, p := range []string{"new.txt", "planted.txt", "c.txt", "d", "a", "stolen.txt"} {
		if _, err := os.Lstat(filepath.Join(s.outside, p)); err == nil {
			t.Errorf("%s was created outside", p)
		}
	}
}

func TestSymlinkEscapeIsNamed(t *testing.T) {
	s := newSandbox(t)
	if err := os.Symlink(s.outside, filepath.Join(s.prog, "out")); err != nil {
		t.Fatal(err)
	}
	_, err := s.host(t, Grants{}).ReadFile("out/secret.txt")
	if err == nil || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), "--allow-fs="+s.outside) {
		t.Fatalf("got %v", err)
	}
}

func TestFileSystemAllowed(t *testing.T) {
	s := newSandbox(t)
	granted := filepath.Join(s.base, "granted")
	if err := os.Mkdir(granted, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("data.txt", filepath.Join(s.prog, "inner-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(s.outside, "secret.txt"), filepath.Join(s.prog, "out-link")); err != nil {
		t.Fatal(err)
	}
	var g Grants
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	g.Register(fs)
	if err := fs.Parse([]string{"--allow-fs=" + granted}); err != nil {
		t.Fatal(err)
	}
	h := s.host(t, g)
	steps := []struct {
		name string
		op   func() error
	}{
		{"read a relative path", func() error {
			b, err := h.ReadFile("data.txt")
			if err == nil && string(b) != "data" {
				err = errors.New("wrong content " + string(b))
			}
			return err
		}},
		{"read a link inside the folder", func() error { _, err := h.ReadFile("inner-link"); return err }},
		{"write in the folder", func() error { return h.WriteFile("sub.txt", []byte("x")) }},
		{"mkdir -p in the folder", func() error { return h.Mkdir("a/b/c", true) }},
		{"append in the folder", func() error { return h.AppendFile("a/b/c/log", []byte("1")) }},
		{"write in the temp dir", func() error { return h.WriteFile(filepath.Join(s.tmp, "t.txt"), []byte("x")) }},
		{"temp dir", func() error { _, err := h.MkdirTemp("x*"); return err }},
		{"write in a granted dir", func() error { return h.WriteFile(filepath.Join(granted, "g.txt"), []byte("x")) }},
		{"rename within the folder", func() error { return h.Rename("sub.txt", "moved.txt") }},
		// Removing a link removes the link, not what it points to.
		{"remove a link that points outside", func() error { return h.Remove("out-link", false) }},
		{"remove a tree", func() error { return h.Remove("a", true) }},
	}
	for _, st := range steps {
		if err := st.op(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(s.outside, "secret.txt")); err != nil {
		t.Fatalf("removing the link removed its target: %v", err)
	}
	if err := h.Remove(".", true); err == nil {
		t.Fatal("removing the program's folder itself must fail")
	}
	all := s.host(t, Grants{AllFS: true})
	if _, err := all.ReadFile(filepath.Join(s.outside, "secret.txt")); err != nil {
		t.Fatalf("--allow-fs without a directory: %v", err)
	}
}

func TestExecDenials(t *testing.T) {
	s := newSandbox(t)
	ctx := context.Background()
	_, err := s.host(t, Grants{}).Run(ctx, Command{Name: "sh", Args: []string{"-c", "echo hi"}})
	wantDenied(t, "exec without a grant", err, "--allow-exec")
	_, err = s.host(t, Grants{ExecNames: []string{"echo"}}).Run(ctx, Command{Name: "sh", Args: []string{"-c", "echo hi"}})
	wantDenied(t, "exec of a program not in the list", err, "--allow-exec=sh")
	_, err = s.host(t, Grants{ExecNames: []string{"echo"}}).Run(ctx, Command{Name: "/tmp/echo"})
	wantDenied(t, "exec of a path whose base name is listed", err, "--allow-exec=/tmp/echo")

	res, err := s.host(t, Grants{Exec: true}).Run(ctx, Command{Name: "sh", Args: []string{"-c", "pwd; exit 3"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || strings.TrimSpace(string(res.Stdout)) != s.prog {
		t.Fatalf("exit %d, stdout %q (want 3 and the program's folder)", res.ExitCode, res.Stdout)
	}
	if _, err := s.host(t, Grants{ExecNames: []string{"sh"}}).Run(ctx, Command{Name: "sh", Args: []string{"-c", "true"}}); err != nil {
		t.Fatalf("listed program: %v", err)
	}
}

func TestNetDenials(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "pong")
	}))
	defer srv.Close()
	s := newSandbox(t)
	get := func(h *Host) error {
		resp, err := h.HTTPClient(0).Get(srv.URL)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if string(b) != "pong" {
			return errors.New("body " + string(b))
		}
		return nil
	}
	wantDenied(t, "http without a grant", get(s.host(t, Grants{})), "--allow-net")
	wantDenied(t, "http to a host not in the list", get(s.host(t, Grants{NetHosts: []string{"example.com"}})), "--allow-net=127.0.0.1")
	_, err := s.host(t, Grants{}).Dial(context.Background(), "tcp", srv.Listener.Addr().String())
	wantDenied(t, "dial without a grant", err, "--allow-net")
	if err := get(s.host(t, Grants{Net: true})); err != nil {
		t.Fatalf("--allow-net: %v", err)
	}
	if err := get(s.host(t, Grants{NetHosts: []string{"127.0.0.1"}})); err != nil {
		t.Fatalf("--allow-net=127.0.0.1: %v", err)
	}
	if err := get(s.host(t, Grants{NetHosts: []string{srv.Listener.Addr().String()}})); err != nil {
		t.Fatalf("--allow-net=host:port: %v", err)
	}
}

func TestFlags(t *testing.T) {
	cwd, _ := os.Getwd()
	cases := []struct {
		args []string
		want Grants
		err  bool
	}{
		{nil, Grants{}, false},
		{[]string{"--allow-exec", "--allow-net"}, Grants{Exec: true, Net: true}, false},
		{[]string{"--allow-fs=a,/b", "--allow-fs", "c"}, Grants{FS: []string{filepath.Join(cwd, "a"), "/b"}, AllFS: true}, false},
		{[]string{"--allow-exec=git,cat", "--allow-net=api.example.com:443"}, Grants{ExecNames: []string{"git", "cat"}, NetHosts: []string{"api.example.com:443"}}, false},
		{[]string{"--allow-fs="}, Grants{}, true},
		{[]string{"--allow-exec=false"}, Grants{}, true},
		{[]string{"--allow-net=a,,b"}, Grants{}, true},
	}
	for _, c := range cases {
		var g Grants
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		g.Register(fs)
		err := fs.Parse(c.args)
		if (err != nil) != c.err {
			t.Errorf("%v: error %v, want error %v", c.args, err, c.err)
			continue
		}
		if c.err {
			continue
		}
		if strings.Join(g.Args(), " ") != strings.Join(c.want.Args(), " ") {
			t.Errorf("%v: got %v, want %v", c.args, g.Args(), c.want.Args())
		}
	}
}

func TestEnvOverlayStaysPrivate(t *testing.T) {
	s := newSandbox(t)
	h, err := New(Config{Root: s.prog, TempDir: s.tmp, LookupEnv: func(k string) (string, bool) {
		if k == "HOME" {
			return "/home/u", true
		}
		return "", false
	}})
	if err != nil {
		t.Fatal(err)
	}
	h.SetEnv("HARN_HOST_TEST", "1")
	h.UnsetEnv("HOME")
	if v, ok := h.LookupEnv("HARN_HOST_TEST"); !ok || v != "1" {
		t.Errorf("overlay not visible: %q %v", v, ok)
	}
	if _, ok := h.LookupEnv("HOME"); ok {
		t.Error("unset variable still visible")
	}
	if _, ok := os.LookupEnv("HARN_HOST_TEST"); ok {
		t.Error("the overlay leaked into the process environment")
	}
	env := strings.Join(h.Environ(), "\n")
	if !strings.Contains(env, "HARN_HOST_TEST=1") {
		t.Error("child environment lacks the overlay")
	}
}

func TestSeededRandomIsDeterministic(t *testing.T) {
	s := newSandbox(t)
	seed := uint64(42)
	a, _ := New(Config{Root: s.prog, TempDir: s.tmp, Seed: &seed})
	b, _ := New(Config{Root: s.prog, TempDir: s.tmp, Seed: &seed})
	for range 10 {
		if x, y := a.Uint64(), b.Uint64(); x != y {
			t.Fatalf("same seed, different values %d %d", x, y)
		}
	}
	if n := a.IntN(3); n < 0 || n >= 3 {
		t.Fatalf("IntN out of range: %d", n)
	}
}

func TestSleepHonoursCancellation(t *testing.T) {
	s := newSandbox(t)
	h := s.host(t, Grants{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.Sleep(ctx, 1<<40); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

// A hard link inside the program's folder to a file outside it is the
// outside file under a second name: reading or writing it is denied
// unless the whole file system is granted (issue #25).
func TestHardLinkOutOfFolderDenied(t *testing.T) {
	s := newSandbox(t)
	if err := os.Link(filepath.Join(s.outside, "secret.txt"), filepath.Join(s.prog, "linked.txt")); err != nil {
		t.Skipf("cannot make a hard link here: %v", err)
	}
	h := s.host(t, Grants{})
	_, err := h.ReadFile("linked.txt")
	wantDenied(t, "read through a hard link", err, "--allow-fs")
	if err == nil || !strings.Contains(err.Error(), "2 hard links") {
		t.Errorf("the denial does not say why: %v", err)
	}
	wantDenied(t, "write through a hard link", h.WriteFile("linked.txt", []byte("x")), "--allow-fs")
	if data, err := os.ReadFile(filepath.Join(s.outside, "secret.txt")); err != nil || string(data) != "secret" {
		t.Errorf("the outside file changed: %q, %v", data, err)
	}
	if _, err := h.ReadFile("data.txt"); err != nil {
		t.Errorf("a file with one name: %v", err)
	}
	if data, err := s.host(t, Grants{AllFS: true}).ReadFile("linked.txt"); err != nil || string(data) != "secret" {
		t.Errorf("with --allow-fs: %q, %v", data, err)
	}
}

// TestPrivateTempDir: without a TempDir in Config the run gets a private
// temp dir inside the shared one, made only when the program first needs
// it (its path asked for, TMPDIR read, a process's environment, a path in
// it used) and removed by Close; a run that never needs it leaves nothing
// behind, and other directories in the shared temp dir stay denied.
func TestPrivateTempDir(t *testing.T) {
	s := newSandbox(t)
	shared := filepath.Join(s.base, "shared")
	if err := os.Mkdir(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", shared)
	made := func() []string {
		m, _ := filepath.Glob(filepath.Join(shared, "harn-run-*"))
		return m
	}
	uses := map[string]func(h *Host) string{
		"TempDir": func(h *Host) string { return h.TempDir() },
		"TMPDIR": func(h *Host) string {
			v, _ := h.LookupEnv("TMPDIR")
			return v
		},
		"Environ": func(h *Host) string {
			for _, kv := range h.Environ() {
				if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
					return v
				}
			}
			return ""
		},
		"path": func(h *Host) string {
			// The path is known here, not to a program that did not ask.
			if err := h.WriteFile(filepath.Join(h.temp, "x.txt"), []byte("x")); err != nil {
				t.Fatal(err)
			}
			return h.temp
		},
	}
	for name, use := range uses {
		h, err := New(Config{Root: s.prog})
		if err != nil {
			t.Fatal(err)
		}
		if m := made(); len(m) != 0 {
			t.Fatalf("%s: New made %v", name, m)
		}
		dir := use(h)
		if m := made(); len(m) != 1 || m[0] != dir {
			t.Fatalf("%s: made %v, want [%s]", name, m, dir)
		}
		if _, err := h.MkdirTemp("sub-"); err != nil {
			t.Fatalf("%s: MkdirTemp: %v", name, err)
		}
		other := filepath.Join(shared, "harn-run-other")
		_, err = h.CheckPath("write", other)
		wantDenied(t, name+": another run's temp dir", err, "--allow-fs")
		if err := h.Close(); err != nil {
			t.Fatal(err)
		}
		if m := made(); len(m) != 0 {
			t.Fatalf("%s: Close left %v", name, m)
		}
	}
	h, err := New(Config{Root: s.prog})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.ReadFile(filepath.Join(s.prog, "data.txt")); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if m := made(); len(m) != 0 {
		t.Fatalf("a run that never used its temp dir made %v", m)
	}
}
