// Package imports is the one rule for which file a Harn import names, shared
// by the checker, the runtime and the language server: a relative import
// ("./m", "../lib/m.harn") names a Harn module, the path relative to the
// importing file with ".harn" appended when it has no extension. An import
// whose path has another extension ("../.env", "./data.json") names no
// module: it is an error at the import, and the file is never read (its
// content would otherwise reach a diagnostic or a run-time error).
package imports

import (
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/internal/sourcefs"
)

// Extension is the file extension of a Harn module.
const Extension = ".harn"

// Relative reports whether spec is a relative import ("./" or "../").
func Relative(spec string) bool {
	return strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../")
}

// File returns the path of the file a relative import of spec in the
// module at from names (slash-separated when from is), and whether that
// file is a Harn module. When it is not, the path is the one as written and
// must not be read.
func File(from, spec string) (path string, module bool) {
	target := filepath.Join(filepath.Dir(from), filepath.FromSlash(spec))
	switch filepath.Ext(target) {
	case "":
		return target + Extension, true
	case Extension:
		return target, true
	}
	return target, false
}

// NotModule is the reason an import of a file that is not a Harn module
// does not resolve, for messages.
func NotModule(path string) string {
	return filepath.ToSlash(path) + " is not a Harn module: only " + Extension + " files can be imported (the file is not read)"
}

// CheckTarget reports why the module file at path (an import's target,
// links followed) must not be read, or nil: its real path must be a Harn
// module too (a link m.harn -> ~/.env names no module) and it must not be
// a file with several hard links, whose other names may be anything
// (internal/sourcefs.Inside's rule). Nothing is opened.
func CheckTarget(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	real := sourcefs.RealPath(filepath.Clean(abs))
	if real != "" && filepath.Ext(real) != Extension {
		return &NotModuleError{Path: path, Real: real}
	}
	if n := sourcefs.HardLinks(real); real != "" && n > 0 {
		return &sourcefs.OutsideError{Path: path, Target: real, Root: filepath.Dir(path), HardLinks: n}
	}
	return nil
}

// NotModuleError is an import target whose real path is not a Harn module.
type NotModuleError struct{ Path, Real string }

func (e *NotModuleError) Error() string {
	return filepath.ToSlash(e.Path) + " is a link to " + filepath.ToSlash(e.Real) + ", which is not a Harn module (the file is not read)"
}
