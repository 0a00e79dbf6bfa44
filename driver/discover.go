package driver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/internal/sourcefs"
)

// UsageError is an error the CLI reports with exit status 2: a missing
// path, an unreadable sole file, a file of an unknown kind, a pipe or
// device named as a file, a folder without source files.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// skipDirs are never descended into.
var skipDirs = map[string]bool{".git": true, "node_modules": true}

// Found is one file discovery selected. Err is set for a file found in a
// walked folder that will not be read: a pipe, socket, device or pseudo
// file (*sourcefs.NotRegularError), a link out of the folder
// (*sourcefs.OutsideError), or an unreadable entry; the run reports it.
type Found struct {
	Path string
	Err  error
}

// DiscoverOptions configure Discover.
type DiscoverOptions struct {
	// Extensions are the file kinds to find (Languages.Extensions).
	Extensions []string
	// AllowEmpty accepts a folder with no file to check; otherwise it is
	// a UsageError.
	AllowEmpty bool
}

// Discover expands paths into the files to check: directories are walked
// (skipping .git and node_modules, never following a link to a
// directory), files named explicitly must have one of the extensions and
// be regular files. The result keeps the order of paths, each folder's
// files sorted, without duplicates. A missing path, a named file that is
// not a regular file (a pipe or device would block or never end) and a
// folder without any file to check are UsageErrors.
func Discover(paths []string, o DiscoverOptions) ([]Found, error) {
	exts := o.Extensions
	seen := map[string]bool{}
	var out []Found
	add := func(f Found) {
		f.Path = filepath.Clean(f.Path)
		if !seen[f.Path] {
			seen[f.Path] = true
			out = append(out, f)
		}
	}
	kinds := strings.Join(exts, " or ")
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, &UsageError{fmt.Sprintf("%s: no such file or directory", p)}
			}
			return nil, &UsageError{fmt.Sprintf("%s: %s", p, sourcefs.Reason(err))}
		}
		if !info.IsDir() {
			if !slices.Contains(exts, filepath.Ext(p)) {
				return nil, &UsageError{fmt.Sprintf("%s: not a %s file", p, kinds)}
			}
			if err := sourcefs.Check(p); err != nil {
				return nil, &UsageError{fmt.Sprintf("%s: %s", p, sourcefs.Reason(err))}
			}
			add(Found{Path: p})
			continue
		}
		entries, err := sourcefs.Walk(p, exts, skipDirs)
		if err != nil {
			return nil, &UsageError{fmt.Sprintf("%s: %s", p, sourcefs.Reason(err))}
		}
		if len(entries) == 0 && !o.AllowEmpty {
			return nil, &UsageError{fmt.Sprintf("%s: no %s files found (pass --allow-empty to accept a folder with nothing to check)", p, kinds)}
		}
		for _, e := range entries {
			add(Found{Path: e.Path, Err: e.Err})
		}
	}
	return out, nil
}
