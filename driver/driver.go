// Package driver runs a check over files on disk: it discovers `.harn` and
// `.leia` files, reads them, hands each to the analyzer registered for its
// language and gathers the results into a diagnostics.Report.
//
// There is one way into a language's checker, Check with a Request; the
// CLI's runs over paths (CheckPaths), the language server and the runtime
// all go through it.
//
// It owns the IO the checker packages must not do: discovery and reading
// go through internal/sourcefs, so a named pipe, a device, a link loop or a
// huge file is reported instead of hanging or exhausting the run. It does
// not print and knows no language itself: each binary lists the Languages
// it checks (cmd/harn-check, cmd/leia-lsp, tests), and every entry point
// is a method of that list.
package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/diagnostics/suppress"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/lang/model"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// Result is what an analyzer says about one file.
type Result struct {
	Diagnostics []diagnostics.Diagnostic
	// Manifest is the file's predicate-site manifest; nil means JSON null.
	Manifest json.RawMessage
	// Admitted lists, as a JSON array of {source, id, line, column}, the
	// literal evaluation sites the checker found (manifest.LiteralSites),
	// also when the file failed checking and Manifest is null: a run
	// refuses evaluations from anywhere else. It is not cached.
	Admitted json.RawMessage
	// Sources holds other files the diagnostics point into (imports).
	Sources map[string][]byte
	// Deps lists the files besides the checked one that the result depends
	// on (transitive imports, the route catalog, files whose absence
	// mattered), so a cached result is reused only while they are
	// unchanged.
	Deps []checkcache.Dep
	// Facts is the front end's own analysis of the file, kept for editor
	// features that need more than diagnostics (for Harn, the checker's
	// *analysis.Facts: the inferred type of every expression), or nil. It
	// lets the language server answer a hover from the check that
	// published the diagnostics instead of checking the text a second
	// time. It is never cached on disk nor printed.
	Facts any
	// Model is the checked file's semantic model (its definitions and
	// what each name resolves to) when the request asked for it
	// (Request.Model) and the check covered the whole file, else nil. It
	// is never cached on disk nor printed.
	Model *model.Model
	// Incremental is the front end's state for checking a later version
	// of the same text (an editor's next version, Request.Previous) by
	// redoing only what the edit can affect, or nil. It is never cached
	// on disk nor printed.
	Incremental any
}

// Language is a front end as the driver sees it: the check and parse
// facets of a language (package language holds the whole value).
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
	// Parse returns the syntax tree of the request's source as an
	// S-expression or an indented outline, and its syntax diagnostics,
	// within the request's limits. Nil until the language has a parser.
	Parse func(req Request, sexp bool) (tree string, diags []diagnostics.Diagnostic)
}

// Languages is the list of front ends a binary checks with, assembled
// explicitly where the binary is built (as go/analysis drivers take their
// analyzers): no package registers a language behind the caller's back.
// A file's language is the entry whose Extension is the file's.
type Languages []Language

// ForExt returns the language of a file extension (".harn").
func (ls Languages) ForExt(ext string) (Language, bool) {
	for _, l := range ls {
		if l.Extension == ext {
			return l, true
		}
	}
	return Language{}, false
}

// ForPath returns the language of path's extension.
func (ls Languages) ForPath(path string) (Language, bool) { return ls.ForExt(filepath.Ext(path)) }

// Extensions returns the languages' extensions, in list order: the file
// kinds discovery finds.
func (ls Languages) Extensions() []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.Extension
	}
	return out
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
	// Limits bound the analysis (zero fields: the defaults); every limit
	// reached is reported with its HARN-LIM code.
	Limits limits.Limits
	// Session is shared by the requests of one run, so that what every
	// file would otherwise compute again (a language's module graph) is
	// computed once; nil gives the request a session of its own.
	Session *Session
	// Previous is the Incremental state of the result of an earlier
	// check of the same path (an editor's previous version of the
	// document), or nil. A front end may use it to check only what the
	// edit since can affect; the result must be exactly that of a check
	// without it, and a front end falls back to a whole check whenever it
	// cannot prove that.
	Previous any
	// Model asks for the file's semantic model (Result.Model): an editor
	// answers definition, references and rename from it.
	Model bool
	// CatalogFile, when set, names the route catalog file (a harn.toml)
	// of the check instead of the nearest one (`run --catalog FILE`, so
	// that the pre-run check admits routes against the file the run uses).
	CatalogFile string
	// Lint, when set, asks the language to run its lint rules so chosen
	// besides its checks (`harn-check lint`); nil runs the checks alone.
	Lint *LintSelection
}

// LintSelection chooses lint rules as ruff's --select, --extend-select
// and --ignore do; each entry is a rule name, a code, a code prefix or
// ALL (checker/analysis.Select resolves them against a language's rules).
type LintSelection struct {
	// Select replaces the default rules (the ones on by default) unless
	// empty.
	Select []string
	// Extend adds rules to the selected ones.
	Extend []string
	// Ignore removes rules after Select and Extend.
	Ignore []string
	// ComplexityThreshold replaces the cyclomatic-complexity rule's
	// threshold when above 0 (harn.toml's `[lint] complexity_threshold`).
	ComplexityThreshold int
}

// Key is a stable text naming the selection, for cache keys; "" for nil.
func (s *LintSelection) Key() string {
	if s == nil {
		return ""
	}
	return "lint:" + strings.Join(s.Select, ",") + ";" + strings.Join(s.Extend, ",") + ";" + strings.Join(s.Ignore, ",") +
		";" + strconv.Itoa(s.ComplexityThreshold)
}

// Session is state shared by the requests of one run (a CLI run over many
// files, a language server's workspace): a language keeps there what it
// would otherwise compute once per file, such as its module graph. It is
// safe for concurrent use.
type Session struct {
	mu      sync.Mutex
	values  map[any]any
	modules map[string]checkcache.Module
	files   []string
	// unrecorded is set for a CheckPaths run without a cache: only the
	// cache's closure fingerprints read module records, so RecordModule
	// keeps none (a record is a few hundred bytes a module, for the
	// whole run).
	unrecorded bool
}

// SetFiles tells the session which files its run checks, as requests name
// them (a front end may look at them all first, for instance to learn
// which ones other files import).
func (s *Session) SetFiles(paths []string) {
	s.mu.Lock()
	s.files = paths
	s.mu.Unlock()
}

// Files returns the files SetFiles named.
func (s *Session) Files() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.files
}

// NewSession returns an empty session.
func NewSession() *Session {
	return &Session{values: map[any]any{}, modules: map[string]checkcache.Module{}}
}

// RecordModule tells the session about a module a language loaded: its
// path, content hash ("" when it does not exist or cannot be read) and the
// paths of the modules it imports. Paths are made absolute and clean, so
// that a cache can key and fingerprint modules whatever directory the run
// started in. A language with modules records every module it loads,
// the checked files included; the driver fingerprints import closures
// from these records (checkcache.Fingerprinter). The session of a
// CheckPaths run without a cache keeps none (Module finds nothing).
func (s *Session) RecordModule(path, sha string, imports []string) {
	if s.unrecorded {
		return
	}
	m := checkcache.Module{Path: absClean(path), SHA256: sha, Imports: make([]string, len(imports))}
	for i, p := range imports {
		m.Imports[i] = absClean(p)
	}
	s.mu.Lock()
	s.modules[m.Path] = m
	s.mu.Unlock()
}

// Module returns the record of the module at path (any form of the path).
func (s *Session) Module(path string) (checkcache.Module, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.modules[absClean(path)]
	return m, ok
}

// Modules returns every module recorded, sorted by path.
func (s *Session) Modules() []checkcache.Module {
	s.mu.Lock()
	out := make([]checkcache.Module, 0, len(s.modules))
	for _, m := range s.modules {
		out = append(out, m)
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b checkcache.Module) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// absClean returns the absolute, clean form of a slash or OS path.
func absClean(p string) string {
	p = filepath.FromSlash(p)
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// Value returns the session's value for key, calling create to make it the
// first time. Keys are compared like map keys; a language uses a private
// key type, as with context values.
func (s *Session) Value(key any, create func() any) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.values[key]; ok {
		return v
	}
	v := create()
	s.values[key] = v
	return v
}

// Language returns the extension the request is analysed as.
func (r Request) Language() string {
	if r.Ext != "" {
		return r.Ext
	}
	return filepath.Ext(r.Path)
}

// ReadFile reads path through r.Read, or from disk when r.Read is nil:
// then only a regular file within the size limit is read (sourcefs.Read),
// so an import of a pipe, a device or a huge file cannot hang or exhaust
// the check.
func (r Request) ReadFile(path string) ([]byte, error) {
	if r.Read != nil {
		return r.Read(path)
	}
	return sourcefs.Read(path, r.Limits.Resolved().FileSize)
}

// Ctx returns r.Context, or context.Background when it is nil.
func (r Request) Ctx() context.Context {
	if r.Context != nil {
		return r.Context
	}
	return context.Background()
}

// Check analyses one file with the checker of its language (the entry
// of ls for req.Language()) and applies the file's suppression comments
// (diagnostics/suppress). Without one, the result is the single
// HARN-CHK-001 info saying the file was not analysed, so no caller can
// mistake it for clean. The CLI, the language server and the runtime all
// call it, so they report the same.
func (ls Languages) Check(req Request) Result {
	lang, ok := ls.ForExt(req.Language())
	if !ok || lang.Check == nil {
		name := lang.Name
		d := diagnostics.New(req.Path, diagnostics.SourceSetup, "HARN-CHK-001", diagnostics.Span{},
			fmt.Sprintf("not checked: no %s analyzer is available in this build of harn-check", name))
		d.Help = "this file was skipped, not found clean; upgrade harn-check to a release that analyses " + name + " files"
		return Result{Diagnostics: []diagnostics.Diagnostic{d}}
	}
	if req.Session == nil {
		req.Session = NewSession()
	}
	res := lang.Check(req)
	// Suppression comments depend on the source alone, so a cached
	// result (keyed by the source) holds them applied.
	res.Diagnostics = suppress.Apply(req.Path, req.Source, "//", res.Diagnostics)
	return res
}
