package cache

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"sync"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/grammar/tsutil"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/sourcefs"
	semmodel "github.com/harnlang/harn-check/lang/model"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/manifest/checkcache"
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
	// langs are the store's languages: they parse and check the version.
	langs Languages

	// checkSem is held while the version is checked (a channel, so that
	// a request waiting for another's check can give up).
	checkSem chan struct{}
	checked  bool
	result   driver.Result
	checkErr error
	// modules are the modules the check loaded (its import closure), as
	// its session recorded them.
	modules []checkcache.Module
	// limits bound the version's analysis; refused, when set, is why the
	// version is neither parsed nor checked (it is too large, or nested
	// far too deep): its analysis is this one diagnostic.
	limits  limits.Limits
	refused *diagnostics.Diagnostic
	// size is the length of the text, which dropped says was not kept
	// (Text is nil): a document over the size limit costs no memory
	// beyond the message that brought it.
	size    int64
	dropped bool
	// deepOnce computes deep, the refusal of a tree nested past the
	// limit, on first use.
	deepOnce sync.Once
	deep     *diagnostics.Diagnostic
	// lineage is shared by the versions of the document since it was
	// opened.
	lineage *lineage
	// view is the lineage's model seen from this version (Model).
	viewMu sync.Mutex
	view   *semmodel.Edited
}

// lineage is what the versions of one open document share: the front
// end's state from the latest complete check of any of them, with which
// the check of another version redoes only what the edits between them
// can affect (driver.Request.Previous).
type lineage struct {
	mu          sync.Mutex
	version     int32
	incremental any
	// model is the semantic model of the latest check that gave one, of
	// modelText (that version's text, shared with it, not copied): the
	// only model the document holds, whatever the number of versions.
	model        *semmodel.Model
	modelVersion int32
	modelText    []byte
	// pending is the model of part of a later version (an incremental
	// check's, semmodel.Model.Within), of pendingText, merged into model
	// when a feature next reads it (semmodel.Merge): not on the way to
	// publishing the diagnostics.
	pending        *semmodel.Model
	pendingVersion int32
	pendingText    []byte
	// facts are the front end's facts (driver.Result.Facts) of the two
	// latest checks that gave any, latest first, and their versions.
	facts        [2]features.CheckFacts
	factsVersion [2]int32
}

// recordFacts keeps the facts of a check of version, whose text is text,
// as the latest, unless a later version's are kept already.
func (l *lineage) recordFacts(version int32, facts any, text []byte) {
	if l == nil || facts == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.facts[0].Facts == nil || version > l.factsVersion[0]:
		l.facts[1], l.factsVersion[1] = l.facts[0], l.factsVersion[0]
		l.facts[0], l.factsVersion[0] = features.CheckFacts{Text: text, Facts: facts}, version
	case version == l.factsVersion[0]:
		l.facts[0].Facts = facts // checked again (an imported file changed)
	}
}

// Facts returns the front end's facts of the two latest checks of the
// document that gave any (this version's or earlier ones'), latest first,
// each with the text it is of. It does not wait for a check: empty until
// one has completed. A feature that needs the facts of a text that parses
// reads the second when the latest is of a version being typed.
func (d *Document) Facts() []features.CheckFacts {
	l := d.lineage
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []features.CheckFacts
	for _, f := range l.facts {
		if f.Facts != nil {
			out = append(out, f)
		}
	}
	return out
}

// previous returns the incremental state of the latest complete check.
func (l *lineage) previous() any {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.incremental
}

// record keeps the incremental state of a complete check of version,
// unless a later version's is kept already.
func (l *lineage) record(version int32, state any) {
	if l == nil || state == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.incremental == nil || version >= l.version {
		l.version, l.incremental = version, state
	}
}

// recordModel keeps the semantic model of a check of version, whose text
// is text, unless a later version's is kept already.
func (l *lineage) recordModel(version int32, m *semmodel.Model, text []byte) {
	if l == nil || m == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.model != nil && version < l.modelVersion || l.pending != nil && version < l.pendingVersion {
		return
	}
	if m.Within == nil {
		l.model, l.modelVersion, l.modelText = m, version, text
		l.pending, l.pendingText = nil, nil
		return
	}
	if l.model == nil {
		return // nothing to complete it with
	}
	if l.pending != nil && !semmodel.EditWithin(l.modelText, text, *m.Within) {
		// Typing in one declaration replaces the pending model; an edit
		// in another needs the earlier one merged first.
		l.mergePending()
	}
	l.pending, l.pendingVersion, l.pendingText = m, version, text
}

// mergePending merges the pending model into the kept one; when it cannot
// (semmodel.Merge), the kept one stays, and the features read it through
// the edits since. Called with mu held.
func (l *lineage) mergePending() {
	if l.pending == nil {
		return
	}
	if merged := semmodel.Merge(l.model, l.modelText, l.pending, l.pendingText); merged != nil {
		l.model, l.modelVersion, l.modelText = merged, l.pendingVersion, l.pendingText
	}
	l.pending, l.pendingText = nil, nil
}

// latestModel returns the kept model and the text it is of.
func (l *lineage) latestModel() (*semmodel.Model, []byte) {
	if l == nil {
		return nil, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.mergePending()
	return l.model, l.modelText
}

// Model returns the semantic model of the latest check of the document
// that gave one (this version's or an earlier one's), seen from this
// version's text: the names an edit since touched are unknown. It does
// not wait for a check, and is nil until one has completed.
func (d *Document) Model() *semmodel.Edited {
	m, text := d.lineage.latestModel()
	if m == nil {
		return nil
	}
	d.viewMu.Lock()
	defer d.viewMu.Unlock()
	if d.view == nil || d.view.Model() != m {
		d.view = semmodel.Through(m, text, d.Text)
	}
	return d.view
}

// nestingCrosser is a tree that can tell whether it nests past a limit
// (tsquery.Tree).
type nestingCrosser interface {
	NestingCrossing(maxDepth, maxChain int) (at, depth, limit int, over bool)
}

// limit applies the store's limits to a new version.
func (d *Document) limit(l limits.Limits) {
	l = l.Resolved()
	d.limits = l
	if d.size > l.FileSize && !d.dropped {
		d.drop(d.size)
	}
	if d.Ext == "" {
		return
	}
	if d.size > l.FileSize {
		diag := diagnostics.New(d.CheckPath(), diagnostics.SourceIO, limits.CodeFileSize, diagnostics.Span{},
			fmt.Sprintf("not analysed: the document is %s, more than the limit of %s", sourcefs.FormatSize(d.size), sourcefs.FormatSize(l.FileSize)))
		diag.Help = "generated or vendored files that large are usually not meant to be edited with language features; raise the limit with the maxFileSize initialization option"
		d.refused = &diag
		return
	}
	if depth, at, over := tsutil.BracketDepthOver(d.Text, limits.PrescanDepth(l.Nesting)); over {
		diag := limits.BracketDiagnostic(d.CheckPath(), diagnostics.SourceParser, at, depth, l.Nesting)
		d.refused = &diag
	}
}

// drop forgets the text of a version of size bytes, over the size limit.
func (d *Document) drop(size int64) {
	d.Text, d.Lines, d.Edits = nil, diagnostics.NewLineIndex(nil), nil
	d.size, d.dropped = size, true
}

// Size is the length of the version's text in bytes, also when the text
// was not kept (Dropped).
func (d *Document) Size() int64 { return d.size }

// Dropped reports whether the version's text was not kept because it is
// over the size limit: Text is nil, and the version is refused
// (HARN-LIM-001) if its language is known.
func (d *Document) Dropped() bool { return d.dropped }

// Refused returns the diagnostic saying why the version gets no language
// features nor analysis, or nil when it gets them: it is too large,
// nested far too deep to parse, or its tree nests past the limit.
func (d *Document) Refused() *diagnostics.Diagnostic {
	if d.refused != nil {
		return d.refused
	}
	d.deepOnce.Do(func() {
		t, ok := d.tree.(nestingCrosser)
		if !ok {
			return
		}
		lim := d.limits.Resolved()
		if at, depth, limit, over := t.NestingCrossing(lim.Nesting, limits.ChainLength(lim.Nesting)); over {
			diag := limits.NestingDiagnostic(d.CheckPath(), diagnostics.SourceParser, at, depth, limit)
			d.deep = &diag
		}
	})
	return d.deep
}

func newDocument(langs Languages, uri, languageID string, version int32, text []byte, edits []Edit) *Document {
	return &Document{
		checkSem: make(chan struct{}, 1), langs: langs,
		URI: uri, Path: URIToPath(uri), LanguageID: languageID,
		Ext: langs.ResolveExtension(uri, languageID), Version: version,
		Text: text, Lines: diagnostics.NewLineIndex(text), Edits: edits, size: int64(len(text)),
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

// Check returns the analysis of this version, with other files (imports,
// harn.toml) read from disk. See CheckWith.
func (d *Document) Check() (driver.Result, error) { return d.CheckWith(nil) }

// CheckWith returns the analysis of this version, reading the other files
// the language's checker needs through read (the open documents over the
// disk; nil reads the disk). The result is computed once and reused while
// every file it depends on (driver.Result.Deps) reads the same through
// read; when one changed, for instance an imported module edited in the
// editor, the version is checked again. The version's syntax tree is
// handed over in the request (driver.Request.Tree), so the
// text is not parsed twice. A checker panic becomes an error;
// the server logs it and keeps what it published before.
func (d *Document) CheckWith(read func(path string) ([]byte, error)) (driver.Result, error) {
	return d.CheckContext(context.Background(), read)
}

// CheckContext is CheckWith for a caller that may give up: when ctx is
// done the analysis stops early, nothing is kept, and the error is ctx's.
func (d *Document) CheckContext(ctx context.Context, read func(path string) ([]byte, error)) (driver.Result, error) {
	select {
	case d.checkSem <- struct{}{}:
	case <-ctx.Done():
		return driver.Result{}, ctx.Err()
	}
	defer func() { <-d.checkSem }()
	if d.Ext == "" {
		return driver.Result{}, nil
	}
	if r := d.Refused(); r != nil {
		return driver.Result{Diagnostics: []diagnostics.Diagnostic{*r}}, nil
	}
	if d.checked && (d.checkErr != nil || depsUnchanged(d.result.Deps, read) && modulesUnchanged(d.modules, d.CheckPath(), read)) {
		return d.result, d.checkErr
	}
	d.checked = true
	d.result, d.checkErr, d.modules = driver.Result{}, nil, nil
	session := driver.NewSession()
	func() {
		defer func() {
			if r := recover(); r != nil {
				d.checkErr = fmt.Errorf("checker panicked on %s: %v\n%s", path.Base(d.URI), r, debug.Stack())
			}
		}()
		d.result = check(ctx, d.langs.Check, session, d.Ext, d.CheckPath(), d.Text, d.tree, read, d.limits, d.lineage.previous())
	}()
	if err := ctx.Err(); err != nil {
		// Cancelled half-way: the result is incomplete; the next caller
		// checks again.
		d.checked = false
		d.result, d.checkErr = driver.Result{}, nil
		return driver.Result{}, err
	}
	d.modules = session.Modules()
	if d.checkErr == nil {
		d.lineage.record(d.Version, d.result.Incremental)
		d.lineage.recordModel(d.Version, d.result.Model, d.Text)
		d.lineage.recordFacts(d.Version, d.result.Facts, d.Text)
	}
	// The state and the model live in the lineage only: a version's
	// result does not keep the previous version's alive.
	d.result.Incremental, d.result.Model = nil, nil
	return d.result, d.checkErr
}

// Modules returns the modules the version's last check loaded: its import
// closure, itself included.
func (d *Document) Modules() []checkcache.Module {
	d.checkSem <- struct{}{}
	defer func() { <-d.checkSem }()
	return d.modules
}

// modulesUnchanged reports whether every module of a check's import
// closure still reads as it did (the checked document itself aside: its
// text is the version's own).
func modulesUnchanged(modules []checkcache.Module, self string, read func(string) ([]byte, error)) bool {
	if read == nil {
		read = func(p string) ([]byte, error) { return sourcefs.Read(p, 0) }
	}
	self = filepath.Clean(self)
	for _, m := range modules {
		if m.Path == self {
			continue
		}
		b, err := read(m.Path)
		if (err != nil) != (m.SHA256 == "") || err == nil && checkcache.HashBytes(b) != m.SHA256 {
			return false
		}
	}
	return true
}

// depsUnchanged reports whether every dependency still reads as it did.
func depsUnchanged(deps []checkcache.Dep, read func(string) ([]byte, error)) bool {
	if read == nil {
		read = os.ReadFile
	}
	for _, dep := range deps {
		b, err := read(dep.Path)
		if (err != nil) != (dep.SHA256 == "") || err == nil && checkcache.HashBytes(b) != dep.SHA256 {
			return false
		}
	}
	return true
}
