// Package driver runs a check over files on disk: it discovers `.harn` and
// `.leia` files, reads them, hands each to the analyzer registered for its
// language and gathers the results into a diagnostics.Report.
//
// It owns the IO the checker packages must not do. It does not print and
// knows no language itself: front ends register a Language.
package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// Result is what an analyzer says about one file.
type Result struct {
	Diagnostics []diagnostics.Diagnostic
	// Manifest is the file's predicate-site manifest; nil means JSON null.
	Manifest json.RawMessage
	// Sources holds other files the diagnostics point into (imports).
	Sources map[string][]byte
	// Deps lists the files besides the checked one that the result depends
	// on (transitive imports, the route catalog, files whose absence
	// mattered), so a cached result is reused only while they are
	// unchanged.
	Deps []checkcache.Dep
}

// Language is a front end plugged into the driver.
type Language struct {
	// Name is the language's display name, e.g. "Harn".
	Name string
	// Extension is the file extension including the dot, e.g. ".harn".
	Extension string
	// Check analyses the one file a request names. It is nil until the
	// language has a checker. It reads the files it needs besides the
	// checked one through req.ReadFile, may use req.Tree instead of
	// parsing req.Source when it recognises the tree's type (and must then
	// return exactly what it returns without one), and should stop early,
	// returning what it has, when req.Context is done.
	Check func(req Request) Result
	// Parse returns the file's syntax tree as an S-expression or an
	// indented outline, and its syntax diagnostics. Nil until the language
	// has a parser.
	Parse func(path string, src []byte, sexp bool) (tree string, diags []diagnostics.Diagnostic)
}

// Extensions lists the file extensions the toolchain knows, registered or
// not, so that discovery finds every file a user expects to be checked.
var Extensions = []string{".harn", ".leia"}

// languageNames names the known extensions for messages.
var languageNames = map[string]string{".harn": "Harn", ".leia": "Leia"}

var (
	mu        sync.RWMutex
	languages = map[string]Language{}
)

// Register installs a front end for its extension, replacing any earlier
// one.
func Register(l Language) {
	mu.Lock()
	defer mu.Unlock()
	languages[l.Extension] = l
}

// Lookup returns the language registered for path's extension.
func Lookup(path string) (Language, bool) {
	mu.RLock()
	defer mu.RUnlock()
	l, ok := languages[filepath.Ext(path)]
	return l, ok
}

// UsageError is an error the CLI reports with exit status 2: a missing
// path, an unreadable sole file, a file of an unknown kind.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// skipDirs are never descended into.
var skipDirs = map[string]bool{".git": true, "node_modules": true}

// Discover expands paths into the files to check: directories are walked
// (skipping .git and node_modules) for files with one of exts; files named
// explicitly must have one of exts. The result is sorted and free of
// duplicates. A missing path is a UsageError.
func Discover(paths []string, exts []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, &UsageError{fmt.Sprintf("%s: no such file or directory", p)}
			}
			return nil, &UsageError{fmt.Sprintf("%s: %v", p, unwrapPathError(err))}
		}
		if !info.IsDir() {
			if !slices.Contains(exts, filepath.Ext(p)) {
				return nil, &UsageError{fmt.Sprintf("%s: not a %s file", p, strings.Join(exts, " or "))}
			}
			add(p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if path == p {
					return err
				}
				// An unreadable subdirectory is reported as a file that
				// could not be read, so it is not silently skipped.
				found = append(found, path)
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != p && skipDirs[d.Name()] {
					return fs.SkipDir
				}
				return nil
			}
			if slices.Contains(exts, filepath.Ext(path)) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, &UsageError{fmt.Sprintf("%s: %v", p, unwrapPathError(err))}
		}
		sort.Strings(found)
		for _, f := range found {
			add(f)
		}
	}
	return out, nil
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Options configure a check run.
type Options struct {
	// Extensions restricts discovery; nil means every known extension.
	Extensions []string
	// Cache, when set, stores results and reproduces them for unchanged
	// files.
	Cache *checkcache.Cache
	// Salt names the checker build in cache keys, so that a new build
	// never reuses an old build's results.
	Salt string
}

// CheckPaths discovers the files under paths, analyses each with its
// language's checker and returns the report. Files are reported in
// discovery order.
func CheckPaths(paths []string, opts Options) (*diagnostics.Report, error) {
	exts := opts.Extensions
	if exts == nil {
		exts = Extensions
	}
	files, err := Discover(paths, exts)
	if err != nil {
		return nil, err
	}
	report := &diagnostics.Report{Files: []diagnostics.File{}, Sources: map[string][]byte{}}
	hashes := fileHashes{}
	for _, path := range files {
		display := filepath.ToSlash(path)
		src, err := os.ReadFile(path)
		if err != nil {
			if len(files) == 1 {
				return nil, &UsageError{fmt.Sprintf("%s: cannot read: %v", path, unwrapPathError(err))}
			}
			report.Files = append(report.Files, diagnostics.File{Path: display, Diagnostics: []diagnostics.Diagnostic{
				diagnostics.New(display, diagnostics.SourceIO, "HARN-IO-001", diagnostics.Span{},
					fmt.Sprintf("cannot read file: %v", unwrapPathError(err))),
			}})
			continue
		}
		report.Files = append(report.Files, checkCached(opts, display, src, report.Sources, hashes))
	}
	return report, nil
}

// fileHashes memoises content hashes of dependencies within one run.
type fileHashes map[string]string

func (h fileHashes) hash(path string) string {
	if v, ok := h[path]; ok {
		return v
	}
	v := checkcache.HashFile(path)
	h[path] = v
	return v
}

// checkCached is checkFile through the cache, when there is one.
func checkCached(opts Options, path string, src []byte, sources map[string][]byte, hashes fileHashes) diagnostics.File {
	if opts.Cache == nil {
		return checkFile(path, src, sources)
	}
	key := checkcache.Key(opts.Salt, path, src)
	if e, ok := opts.Cache.Get(key, hashes.hash); ok {
		for p, s := range e.Sources {
			sources[p] = s
		}
		return diagnostics.File{Path: path, Source: src, Diagnostics: e.Diagnostics, Manifest: e.Manifest}
	}
	res := Check(Request{Path: path, Source: src})
	for p, s := range res.Sources {
		sources[p] = s
	}
	// A failed store only costs a later re-check.
	_ = opts.Cache.Put(key, &checkcache.Entry{Diagnostics: res.Diagnostics, Manifest: res.Manifest, Sources: res.Sources, Deps: res.Deps})
	return diagnostics.File{Path: path, Source: src, Diagnostics: res.Diagnostics, Manifest: res.Manifest}
}

func checkFile(path string, src []byte, sources map[string][]byte) diagnostics.File {
	res := Check(Request{Path: path, Source: src})
	for p, s := range res.Sources {
		sources[p] = s
	}
	return diagnostics.File{Path: path, Source: src, Diagnostics: res.Diagnostics, Manifest: res.Manifest}
}

// Request asks for the analysis of one file. It is the one way into a
// language's checker: the CLI builds one per discovered file, the language
// server one per document version, the runtime one per program it runs.
type Request struct {
	// Path names the file: its diagnostics carry it, and imports are
	// resolved relative to it.
	Path string
	// Ext chooses the language by extension (".harn"); empty means the
	// extension of Path. An editor buffer without a file name sets it.
	Ext string
	// Source is the file's content.
	Source []byte
	// Tree is an editor's syntax tree of Source (lsp/cache reparses one
	// incrementally per document version), or nil. A language that does
	// not recognise its type parses Source.
	Tree any
	// Read serves the files the analysis reads besides the checked one
	// (imports, project files), so that an editor can supply unsaved
	// buffers; nil reads the disk.
	Read func(path string) ([]byte, error)
	// Context, when set, cancels a long analysis: the checker stops and
	// returns what it has, which the caller should then discard.
	Context context.Context
}

// Language returns the extension the request is analysed as.
func (r Request) Language() string {
	if r.Ext != "" {
		return r.Ext
	}
	return filepath.Ext(r.Path)
}

// ReadFile reads path through r.Read, or from disk when r.Read is nil.
func (r Request) ReadFile(path string) ([]byte, error) {
	if r.Read != nil {
		return r.Read(path)
	}
	return os.ReadFile(path)
}

// Ctx returns r.Context, or context.Background when it is nil.
func (r Request) Ctx() context.Context {
	if r.Context != nil {
		return r.Context
	}
	return context.Background()
}

// Check analyses one file with the checker registered for its language.
// Without one, the result is the single HARN-CHK-001 info saying the file
// was not analysed, so no caller can mistake it for clean. The CLI, the
// language server and the runtime all call it, so they report the same.
func Check(req Request) Result {
	ext := req.Language()
	mu.RLock()
	lang, ok := languages[ext]
	mu.RUnlock()
	if !ok || lang.Check == nil {
		name := languageNames[ext]
		if name == "" && ok {
			name = lang.Name
		}
		d := diagnostics.New(req.Path, diagnostics.SourceSetup, "HARN-CHK-001", diagnostics.Span{},
			fmt.Sprintf("not checked: no %s analyzer is available in this build of harn-check", name))
		d.Help = "this file was skipped, not found clean; upgrade harn-check to a release that analyses " + name + " files"
		return Result{Diagnostics: []diagnostics.Diagnostic{d}}
	}
	return lang.Check(req)
}
