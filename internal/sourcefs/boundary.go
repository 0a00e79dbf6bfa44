package sourcefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// The boundary of a program's folder is decided here, once, for the
// checker (validators a Leia agent names, files a folder walk finds) and
// the runtimes' host (every file a program reads or writes, every module
// it imports): a path is inside a folder when its real path (every
// symbolic link resolved) lies under the folder's real path and it is not
// a regular file with more than one hard link, whose other names may lie
// anywhere on the file system (a hard link cannot be told from the file
// it links to, so a second name is never provably inside).

// maxLinkHops bounds symbolic-link resolution (the kernel's own limit is
// 40); a longer chain or a loop does not resolve.
const maxLinkHops = 40

// RealPath resolves every symbolic link in the clean absolute path p,
// which need not exist: missing elements are kept as written, a dangling
// link is followed to its target. It returns "" for a loop or more than
// 40 hops.
func RealPath(p string) string {
	return realPath(p, 0)
}

func realPath(p string, hops int) string {
	if hops > maxLinkHops {
		return ""
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	if base == "" {
		return p
	}
	rdir := realPath(filepath.Clean(dir), hops+1)
	if rdir == "" {
		return ""
	}
	cand := filepath.Join(rdir, base)
	fi, err := os.Lstat(cand)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return cand
	}
	target, err := os.Readlink(cand)
	if err != nil {
		return ""
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(rdir, target)
	}
	return realPath(filepath.Clean(target), hops+1)
}

// Within reports whether p is dir or lies under it (both clean, absolute).
func Within(p, dir string) bool {
	if p == dir {
		return true
	}
	if dir == string(filepath.Separator) {
		return strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// HardLinks returns the number of names of the regular file at p (links
// followed) when it has more than one, else 0 (a single name, another kind
// of file, or no file).
func HardLinks(p string) uint64 {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && uint64(st.Nlink) > 1 {
		return uint64(st.Nlink)
	}
	return 0
}

// Inside resolves path (relative to dir unless absolute) and reports
// whether it stays inside dir: it returns the real path to use, or an
// *OutsideError (a path or symbolic link leading out, a hard link) or the
// error of resolving dir. Nothing is opened or read.
func Inside(dir, path string) (string, error) {
	if strings.IndexByte(path, 0) >= 0 {
		return "", &fs.PathError{Op: "resolve", Path: path, Err: errors.New("path contains a NUL byte")}
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	realDir, err := filepath.EvalSymlinks(absDir)
	if err != nil {
		return "", err
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(absDir, abs)
	}
	abs = filepath.Clean(abs)
	real := RealPath(abs)
	if real == "" {
		return "", &fs.PathError{Op: "resolve", Path: path, Err: errors.New("symbolic link loop (too many levels of symbolic links)")}
	}
	if !Within(real, realDir) {
		return "", &OutsideError{Path: path, Target: real, Root: dir, Link: Within(abs, absDir) || Within(abs, realDir)}
	}
	if n := HardLinks(real); n > 0 {
		return "", &OutsideError{Path: path, Target: real, Root: dir, HardLinks: n}
	}
	return real, nil
}

// OutsideError reports a path that leads out of a folder: a symbolic link
// that resolves outside it, a path that names a file elsewhere, or a
// regular file with several hard links (whose other names may lie
// anywhere). Such a file is not read: a checked-out repository or a
// program must not be able to make the checker or the runtime read (and
// quote) files elsewhere on the machine.
type OutsideError struct {
	Path, Target, Root string
	// Link is set when the path as written lies inside Root and a
	// symbolic link leads out.
	Link bool
	// HardLinks is the number of names of a hard-linked file (Target lies
	// inside Root).
	HardLinks uint64
}

// Describe says what leads out, for a message: "a symbolic link to T,
// outside the folder", "a file with 2 hard links, ...", "outside the
// folder".
func (e *OutsideError) Describe() string {
	switch {
	case e.HardLinks > 1:
		return fmt.Sprintf("a file with %d hard links, whose other names may lie outside the folder", e.HardLinks)
	case e.Link:
		return "a symbolic link to " + filepath.ToSlash(e.Target) + ", outside the folder"
	}
	return "outside the folder"
}

func (e *OutsideError) Error() string {
	return fmt.Sprintf("%s: %s %s", e.Path, e.Describe(), e.Root)
}
