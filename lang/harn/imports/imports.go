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
