package cache

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/limits"
)

// Languages are the languages a store serves, as the server was given
// them (package language's values, listed where the binary is built): how
// a document of each is checked, and how its syntax tree is kept.
type Languages struct {
	// Check checks a document by its extension (driver.Languages.Check);
	// its extensions are the file kinds the server knows.
	Check driver.Languages
	// Syntax keeps the incremental tree of each language that has one,
	// by extension; a language without one gets no tree.
	Syntax map[string]Syntax
}

// known reports whether ext is the extension of one of the languages.
func (ls Languages) known(ext string) bool {
	if ext == "" {
		return false
	}
	_, ok := ls.Check.ForExt(ext)
	return ok
}

// ResolveExtension chooses the language of a document as the extension
// whose analyzer checks it: the client's languageId when it names a known
// kind ("harn" selects ".harn"), else the extension of the URI's path. It
// returns "" when neither is known.
func (ls Languages) ResolveExtension(uri, languageID string) string {
	if ext := "." + strings.ToLower(languageID); languageID != "" && ls.known(ext) {
		return ext
	}
	if ext := uriExt(uri); ls.known(ext) {
		return ext
	}
	return ""
}

// check runs the analyzer of ext in langs on one file, exactly as
// `harn-check check` does for a file on disk (driver.Languages.Check), with the
// files it reads besides src served by read (nil reads the disk). tree,
// the document's syntax tree or nil, is handed over so that a language
// that can check from it does not parse src again; its result is the
// same.
//
// previous is the incremental state of the latest complete check of
// another version of the document (driver.Request.Previous), or nil.
func check(ctx context.Context, langs driver.Languages, session *driver.Session, ext, path string, src []byte, tree any, read func(string) ([]byte, error), lim limits.Limits, previous any) driver.Result {
	if filepath.Ext(path) != ext {
		// The languageId chose the language, not the path: the check
		// reads the disk.
		read = nil
		previous = nil
	}
	req := driver.Request{Path: path, Ext: ext, Source: src, Read: read, Context: ctx, Session: session, Limits: lim, Previous: previous, Model: true}
	if tree != nil {
		req.Tree = tree
	}
	res := langs.Check(req)
	// harn.toml's [lint] settings, as the command line applies them.
	res.Diagnostics = driver.ProjectFor(read, filepath.Dir(path)).Report(path, res.Diagnostics)
	return res
}
