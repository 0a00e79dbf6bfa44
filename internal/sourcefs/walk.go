package sourcefs

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
)

// Entry is one file a walk found.
type Entry struct {
	Path string
	// Err is set for a file that is not to be read: a *NotRegularError
	// (pipe, socket, device, pseudo file), an *OutsideError, or the error
	// of resolving a link or listing a directory (a dangling link, a link
	// loop, permission denied).
	Err error
}

// Walk lists the files under the directory root whose extension is one of
// exts, in sorted order, without descending into directories named in
// skip (except root itself). It does not follow symbolic links to
// directories, so link loops cannot make it run forever; a link to a file
// is listed when it resolves to a regular file inside root, and with Err
// set otherwise, as is a regular file with several hard links (see
// Inside). Only an error on root itself is returned.
func Walk(root string, exts []string, skip map[string]bool) ([]Entry, error) {
	var out []Entry
	var realRoot string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			// An unreadable subdirectory is listed, so that it is
			// reported rather than silently skipped.
			out = append(out, Entry{Path: path, Err: err})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if path != root && skip[d.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		if !slices.Contains(exts, filepath.Ext(path)) {
			return nil
		}
		mode := d.Type()
		if mode&fs.ModeSymlink == 0 {
			if k := kind(mode); k != "" {
				out = append(out, Entry{Path: path, Err: &NotRegularError{Path: path, What: k}})
			} else if n := HardLinks(path); n > 0 {
				out = append(out, Entry{Path: path, Err: &OutsideError{Path: path, Target: path, Root: root, HardLinks: n}})
			} else {
				out = append(out, Entry{Path: path})
			}
			return nil
		}
		info, err := os.Stat(path)
		if err != nil {
			out = append(out, Entry{Path: path, Err: err})
			return nil
		}
		if info.IsDir() {
			return nil // a link to a directory is not followed
		}
		if err := Check(path); err != nil {
			out = append(out, Entry{Path: path, Err: err})
			return nil
		}
		if realRoot == "" {
			if realRoot, err = resolve(root); err != nil {
				return err
			}
		}
		target, err := resolve(path)
		if err != nil {
			out = append(out, Entry{Path: path, Err: err})
			return nil
		}
		if !Within(target, realRoot) {
			out = append(out, Entry{Path: path, Err: &OutsideError{Path: path, Target: target, Root: root, Link: true}})
			return nil
		}
		if n := HardLinks(target); n > 0 {
			out = append(out, Entry{Path: path, Err: &OutsideError{Path: path, Target: target, Root: root, HardLinks: n}})
			return nil
		}
		out = append(out, Entry{Path: path})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// resolve returns the absolute path of p with every link resolved.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
