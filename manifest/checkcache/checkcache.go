// Package checkcache stores check results on disk so that an unchanged
// file is not checked again: its diagnostics and site manifest are
// reproduced exactly from the cache.
//
// An entry is found by a key made of the file's path, the SHA-256 of its
// content and a salt naming everything else the result depends on globally
// (the checker build). Each entry also lists the other files the result
// depends on (transitive imports, the route catalog, and files whose
// absence mattered) with the SHA-256 each had; the entry is used only if
// every one of them still has that content, so editing an imported helper
// invalidates every file that imports it.
//
// Entries are written to a temporary file and renamed into place, so two
// processes checking at once never see a torn entry; an entry that does
// not decode (truncated, corrupt, from another format version) is ignored
// and overwritten by the next store.
package checkcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/harnlang/harn-check/diagnostics"
)

// formatVersion changes whenever the entry encoding changes.
const formatVersion = 1

// Dep is a file a result depends on. An empty SHA256 records that the
// file did not exist (a route catalog looked for and not found).
type Dep struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Entry is a cached check result for one file.
type Entry struct {
	Diagnostics []diagnostics.Diagnostic
	// Manifest is the file's encoded site manifest; nil means null.
	Manifest json.RawMessage
	// Sources are the contents of other files the diagnostics point into.
	Sources map[string][]byte
	// Deps are the files the result depends on besides the file itself.
	Deps []Dep
}

// Cache is a directory of entries.
type Cache struct {
	dir string
}

// DefaultDir returns the cache directory under the user cache directory.
func DefaultDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "harn-check", "check"), nil
}

// Open returns the cache stored in dir, creating the directory.
func Open(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache directory: %w", err)
	}
	return &Cache{dir: dir}, nil
}

// Dir returns the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// HashBytes returns the lower-case hex SHA-256 of b, the content hash
// used in keys and deps.
func HashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// HashFile returns the content hash of the file at path, or "" when it
// does not exist or cannot be read.
func HashFile(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return HashBytes(b)
}

// Key returns the key of a result for path with the given content under
// salt.
func Key(salt, path string, content []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "harn-check cache v%d\x00%s\x00%s\x00", formatVersion, salt, path)
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) file(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

// wire types keep the on-disk format independent of the model.
type wireEntry struct {
	Format      int               `json:"format"`
	Diagnostics []wireDiagnostic  `json:"diagnostics"`
	Manifest    json.RawMessage   `json:"manifest"`
	Sources     map[string][]byte `json:"sources"`
	Deps        []Dep             `json:"deps"`
}

type wireDiagnostic struct {
	Path     string                `json:"path"`
	Source   string                `json:"source"`
	Code     string                `json:"code"`
	Severity string                `json:"severity"`
	Message  string                `json:"message"`
	Span     diagnostics.Span      `json:"span"`
	Related  []diagnostics.Related `json:"related"`
	Help     string                `json:"help"`
	Fixes    []diagnostics.Fix     `json:"fixes"`
}

// Get returns the entry stored under key if it exists, decodes, and every
// dep still has the recorded content (hash reports a file's current
// content hash, "" for a missing file).
func (c *Cache) Get(key string, hash func(path string) string) (*Entry, bool) {
	data, err := os.ReadFile(c.file(key))
	if err != nil {
		return nil, false
	}
	var w wireEntry
	if err := json.Unmarshal(data, &w); err != nil || w.Format != formatVersion {
		return nil, false
	}
	for _, d := range w.Deps {
		if hash(d.Path) != d.SHA256 {
			return nil, false
		}
	}
	e := &Entry{Manifest: w.Manifest, Deps: w.Deps}
	if len(w.Manifest) == 0 || string(w.Manifest) == "null" {
		e.Manifest = nil
	}
	for _, d := range w.Diagnostics {
		sev, ok := diagnostics.ParseSeverity(d.Severity)
		if !ok {
			return nil, false
		}
		e.Diagnostics = append(e.Diagnostics, diagnostics.Diagnostic{
			Path: d.Path, Source: diagnostics.Source(d.Source), Code: d.Code, Severity: sev, Message: d.Message,
			Span: d.Span, Related: d.Related, Help: d.Help, Fixes: d.Fixes,
		})
	}
	if len(w.Sources) > 0 {
		e.Sources = w.Sources
	}
	return e, true
}

// Put stores e under key atomically.
func (c *Cache) Put(key string, e *Entry) error {
	w := wireEntry{Format: formatVersion, Manifest: e.Manifest, Deps: e.Deps, Diagnostics: []wireDiagnostic{}}
	if w.Manifest == nil {
		w.Manifest = json.RawMessage("null")
	}
	for _, d := range e.Diagnostics {
		w.Diagnostics = append(w.Diagnostics, wireDiagnostic{
			Path: d.Path, Source: string(d.Source), Code: d.Code, Severity: d.Severity.String(), Message: d.Message,
			Span: d.Span, Related: d.Related, Help: d.Help, Fixes: d.Fixes,
		})
	}
	if len(e.Sources) > 0 {
		w.Sources = e.Sources
	}
	data, err := json.Marshal(w)
	if err != nil {
		return err
	}
	dst := c.file(key)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// Clear removes every entry.
func (c *Cache) Clear() error {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(c.dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
