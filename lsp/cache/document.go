package cache

import (
	"fmt"
	"path"
	"runtime/debug"
	"sync"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
)

// Document is one version of an open document. It is immutable once the
// Store hands it out; a change produces a new Document.
type Document struct {
	// URI is the document's identifier as the client sent it.
	URI string
	// Path is the file system path of a file: URI, "" otherwise.
	Path string
	// LanguageID is the client's languageId from didOpen.
	LanguageID string
	// Ext is the language the document is analysed as (".harn"), or ""
	// when the server knows no language for it.
	Ext string
	// Version is the client's version number of this text.
	Version int32
	// Text is the content, UTF-8.
	Text []byte
	// Lines indexes Text.
	Lines *diagnostics.LineIndex
	// Edits turn the previous version's text into this one, in order; nil
	// for a freshly opened document. A per-document syntax tree is brought
	// up to date by applying them to the previous tree and reparsing.
	Edits []Edit

	tree     Tree
	parseErr error

	checkOnce sync.Once
	result    driver.Result
	checkErr  error
}

func newDocument(uri, languageID string, version int32, text []byte, edits []Edit) *Document {
	return &Document{
		URI: uri, Path: URIToPath(uri), LanguageID: languageID,
		Ext: ResolveExtension(uri, languageID), Version: version,
		Text: text, Lines: diagnostics.NewLineIndex(text), Edits: edits,
	}
}

// CheckPath is the path the document is checked under: its file system
// path, or for other URIs the URI itself (the analyzer only names it).
func (d *Document) CheckPath() string {
	if d.Path != "" {
		return d.Path
	}
	return d.URI
}

// Check returns the analysis of this version, running the language's
// checker the first time only. A checker panic becomes an error; the
// server logs it and keeps what it published before.
func (d *Document) Check() (driver.Result, error) {
	d.checkOnce.Do(func() {
		if d.Ext == "" {
			return
		}
		defer func() {
			if r := recover(); r != nil {
				d.checkErr = fmt.Errorf("checker panicked on %s: %v\n%s", path.Base(d.URI), r, debug.Stack())
			}
		}()
		d.result = check(d.Ext, d.CheckPath(), d.Text)
	})
	return d.result, d.checkErr
}
