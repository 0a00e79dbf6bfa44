package host

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/internal/sourcefs"
)

// Abs resolves p against the program's folder and cleans it, without
// touching the file system.
func (h *Host) Abs(p string) string {
	if p == "" {
		return h.root
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(h.root, p)
	}
	return filepath.Clean(p)
}

// CheckPath resolves p and checks that the program may use it, following
// a symbolic link in its last element. It returns the real path the
// operation should use. op names the operation in a denial ("read",
// "write"). Use it for operations this package does not wrap (walks,
// globs); the wrapped ones call it themselves.
func (h *Host) CheckPath(op, p string) (string, error) {
	return h.check(op, p, true)
}

// CheckLink is CheckPath without following a symbolic link in the last
// element: for operations on a link itself (remove, rename, lstat).
func (h *Host) CheckLink(op, p string) (string, error) {
	return h.check(op, p, false)
}

func (h *Host) check(op, p string, follow bool) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", &fs.PathError{Op: op, Path: p, Err: errors.New("path contains a NUL byte")}
	}
	abs := h.Abs(p)
	if h.ownTemp && sourcefs.Within(abs, h.temp) {
		// A path in the private temp dir: make it first (its name is
		// known only to a program that asked for it, which made it).
		_ = h.ensureTemp()
	}
	var real string
	if follow {
		real = sourcefs.RealPath(abs)
	} else {
		dir, base := filepath.Split(abs)
		if base == "" { // the root directory
			real = sourcefs.RealPath(abs)
		} else if rd := sourcefs.RealPath(filepath.Clean(dir)); rd != "" {
			real = filepath.Join(rd, base)
		}
	}
	if real == "" {
		return "", &DeniedError{Op: op, Target: abs, Flag: "--allow-fs=" + filepath.Dir(abs),
			Reason: "its symbolic links do not resolve (a loop or more than 40 hops)"}
	}
	if h.grants.AllFS {
		return real, nil
	}
	for _, a := range h.allowed {
		if sourcefs.Within(real, a) {
			if n := sourcefs.HardLinks(real); n > 0 && !h.grantedDir(real) {
				// The file's other names may lie anywhere: reading or
				// writing it is reading or writing them.
				return "", &DeniedError{Op: op, Target: abs, Flag: "--allow-fs",
					Reason: fmt.Sprintf("it has %d hard links, whose other names may lie outside the program's folder and the temp dir", n)}
			}
			return real, nil
		}
	}
	suggest := filepath.Dir(real)
	if fi, err := os.Stat(real); err == nil && fi.IsDir() {
		suggest = real
	}
	reason := "outside the program's folder and the temp dir"
	if real != abs && h.allowedLexically(abs) {
		reason = "a symbolic link leads outside the program's folder and the temp dir (to " + real + ")"
	}
	return "", &DeniedError{Op: op, Target: abs, Flag: "--allow-fs=" + suggest, Reason: reason}
}

// grantedDir reports whether real lies in a directory the user granted
// with --allow-fs=DIR (where hard links are the user's to vouch for).
func (h *Host) grantedDir(real string) bool {
	for _, a := range h.allowed[2:] {
		if sourcefs.Within(real, a) {
			return true
		}
	}
	return false
}

// allowedLexically reports whether abs, symbolic links not resolved, lies
// in an allowed directory: a denial of such a path is a symlink escape.
func (h *Host) allowedLexically(abs string) bool {
	for _, a := range h.allowed {
		if sourcefs.Within(abs, a) {
			return true
		}
	}
	return sourcefs.Within(abs, h.root)
}

// ReadFile reads a file the program may read.
func (h *Host) ReadFile(p string) ([]byte, error) {
	real, err := h.CheckPath("read", p)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(real)
}

// Open opens a file for reading.
func (h *Host) Open(p string) (*os.File, error) {
	real, err := h.CheckPath("read", p)
	if err != nil {
		return nil, err
	}
	return os.Open(real)
}

// WriteFile creates or truncates a file and writes data to it.
func (h *Host) WriteFile(p string, data []byte) error {
	real, err := h.CheckPath("write", p)
	if err != nil {
		return err
	}
	return os.WriteFile(real, data, 0o644)
}

// AppendFile appends data to a file, creating it when missing.
func (h *Host) AppendFile(p string, data []byte) error {
	real, err := h.CheckPath("write", p)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(real, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Create creates or truncates a file for writing.
func (h *Host) Create(p string) (*os.File, error) {
	real, err := h.CheckPath("write", p)
	if err != nil {
		return nil, err
	}
	return os.Create(real)
}

// Mkdir creates a directory; with all, missing parents too, and an
// existing directory is no error.
func (h *Host) Mkdir(p string, all bool) error {
	real, err := h.CheckPath("write", p)
	if err != nil {
		return err
	}
	if all {
		return os.MkdirAll(real, 0o755)
	}
	return os.Mkdir(real, 0o755)
}

// Remove removes a file, an empty directory or a symbolic link (not its
// target); with all, a directory and everything under it (links inside
// are removed, never followed).
func (h *Host) Remove(p string, all bool) error {
	real, err := h.CheckLink("write", p)
	if err != nil {
		return err
	}
	if real == h.root || real == h.temp {
		return &fs.PathError{Op: "remove", Path: p, Err: errors.New("refusing to remove the program's folder or the temp dir")}
	}
	if all {
		return os.RemoveAll(real)
	}
	return os.Remove(real)
}

// Rename moves a file, directory or link; both paths must be writable.
func (h *Host) Rename(from, to string) error {
	rf, err := h.CheckLink("write", from)
	if err != nil {
		return err
	}
	rt, err := h.CheckLink("write", to)
	if err != nil {
		return err
	}
	return os.Rename(rf, rt)
}

// Stat describes a file, following a symbolic link.
func (h *Host) Stat(p string) (fs.FileInfo, error) {
	real, err := h.CheckPath("read", p)
	if err != nil {
		return nil, err
	}
	return os.Stat(real)
}

// Lstat describes a file without following a symbolic link.
func (h *Host) Lstat(p string) (fs.FileInfo, error) {
	real, err := h.CheckLink("read", p)
	if err != nil {
		return nil, err
	}
	return os.Lstat(real)
}

// ReadDir lists a directory, sorted by name.
func (h *Host) ReadDir(p string) ([]fs.DirEntry, error) {
	real, err := h.CheckPath("read", p)
	if err != nil {
		return nil, err
	}
	return os.ReadDir(real)
}

// Chmod changes a file's permission bits.
func (h *Host) Chmod(p string, mode fs.FileMode) error {
	real, err := h.CheckPath("write", p)
	if err != nil {
		return err
	}
	return os.Chmod(real, mode)
}

// MkdirTemp creates a fresh directory in the temp dir.
func (h *Host) MkdirTemp(pattern string) (string, error) {
	if err := h.ensureTemp(); err != nil {
		return "", err
	}
	return os.MkdirTemp(h.temp, pattern)
}
