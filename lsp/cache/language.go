package cache

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/limits"
)

// knownExtension reports whether ext is a file kind the toolchain knows:
// one harn-check discovers, or one a front end registered.
func knownExtension(ext string) bool {
	if ext == "" {
		return false
	}
	if slices.Contains(driver.Extensions, ext) {
		return true
	}
	_, ok := driver.Lookup("x" + ext)
	return ok
}

// ResolveExtension chooses the language of a document as the extension
// whose analyzer checks it: the client's languageId when it names a known
// kind ("harn" selects ".harn"), else the extension of the URI's path. It
// returns "" when neither is known.
func ResolveExtension(uri, languageID string) string {
	if ext := "." + strings.ToLower(languageID); languageID != "" && knownExtension(ext) {
		return ext
	}
	if ext := uriExt(uri); knownExtension(ext) {
		return ext
	}
	return ""
}

// check runs the analyzer registered for ext on one file, exactly as
// `harn-check check` does for a file on disk (driver.Check), with the
// files it reads besides src served by read (nil reads the disk). tree,
// the document's syntax tree or nil, is handed over so that a language
// that can check from it does not parse src again; its result is the
// same.
//
// previous is the incremental state of the latest complete check of
// another version of the document (driver.Request.Previous), or nil.
func check(ctx context.Context, session *driver.Session, ext, path string, src []byte, tree any, read func(string) ([]byte, error), lim limits.Limits, previous any) driver.Result {
	if filepath.Ext(path) != ext {
		// The languageId chose the language, not the path: the check
		// reads the disk.
		read = nil
		previous = nil
	}
	req := driver.Request{Path: path, Ext: ext, Source: src, Read: read, Context: ctx, Session: session, Limits: lim, Previous: previous}
	if tree != nil {
		req.Tree = tree
	}
	res := driver.Check(req)
	// harn.toml's [lint] settings, as the command line applies them.
	res.Diagnostics = driver.ProjectFor(read, filepath.Dir(path)).Report(path, res.Diagnostics)
	return res
}
