package lsp

import (
	"context"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/mapper"
)

// publisher analyses documents after a quiet period and publishes their
// diagnostics, dropping results for versions that have been superseded.
type publisher struct {
	s *Server
	// sem bounds the analyses running at once.
	sem chan struct{}

	mu      sync.Mutex
	timers  map[string]*time.Timer
	stopped bool
	// running[uri] is the analysis of uri under way: a newer version
	// supersedes (cancels) it.
	running map[string]*analysisRun
	// deps[uri] are the files the last analysis of uri read besides the
	// document (its imports, harn.toml): a change of one of them, open in
	// the editor, analyses uri again.
	deps map[string]map[string]bool
}

func newPublisher(s *Server) *publisher {
	return &publisher{s: s, sem: make(chan struct{}, max(1, runtime.GOMAXPROCS(0))), timers: map[string]*time.Timer{},
		deps: map[string]map[string]bool{}, running: map[string]*analysisRun{}}
}

// analysisRun is one analysis under way.
type analysisRun struct {
	version int32
	cancel  context.CancelFunc
}

// schedule (re)starts uri's debounce timer.
func (p *publisher) schedule(uri string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	if t, ok := p.timers[uri]; ok {
		t.Stop()
	}
	delay := max(p.s.opts.Debounce, 0)
	p.timers[uri] = time.AfterFunc(delay, func() { p.run(uri) })
}

// run analyses the current version of uri and publishes the result if
// that version is still current.
func (p *publisher) run(uri string) {
	defer func() {
		if r := recover(); r != nil {
			p.s.log.Printf("panic publishing diagnostics of %s: %v\n%s", uri, r, debug.Stack())
		}
	}()
	d := p.s.store.Get(uri)
	if d == nil {
		return
	}
	ctx, cancel := context.WithCancel(p.s.life)
	defer cancel()
	me := &analysisRun{version: d.Version, cancel: cancel}
	p.mu.Lock()
	if old := p.running[uri]; old != nil && old.version > d.Version {
		// A newer version's analysis is already running: this one is
		// stale before it starts.
		p.mu.Unlock()
		return
	} else if old != nil {
		old.cancel()
	}
	p.running[uri] = me
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		if p.running[uri] == me {
			delete(p.running, uri)
		}
		p.mu.Unlock()
	}()
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return
	}
	res, err := d.CheckContext(ctx, workspace{s: p.s}.ReadFile)
	<-p.sem
	if ctx.Err() != nil {
		// Superseded by a newer version (which schedules its own
		// analysis), or the client went away.
		p.s.log.Printf("dropped stale diagnostics of %s version %d", uri, d.Version)
		return
	}
	if err != nil {
		p.s.log.Printf("analysis of %s version %d failed: %v", uri, d.Version, err)
		return
	}
	params := p.s.publishParams(d, res.Diagnostics, res.Sources)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	deps := map[string]bool{}
	for _, dep := range res.Deps {
		deps[dep.Path] = true
	}
	for _, m := range d.Modules() {
		deps[m.Path] = true
	}
	p.deps[uri] = deps
	if cur := p.s.store.Get(uri); cur != d {
		// Stale: a newer version (or a close) arrived meanwhile, and it
		// schedules its own analysis.
		p.s.log.Printf("dropped stale diagnostics of %s version %d", uri, d.Version)
		return
	}
	p.s.notify(protocol.ServerTextDocumentPublishDiagnostics, params)
}

// dependents schedules the analysis of every open document whose last
// analysis read the file of uri, which changed, opened or closed.
func (p *publisher) dependents(uri string) {
	path := cache.URIToPath(uri)
	if path == "" {
		return
	}
	p.mu.Lock()
	var due []string
	for other, deps := range p.deps {
		if other != uri && deps[path] {
			due = append(due, other)
		}
	}
	p.mu.Unlock()
	for _, other := range due {
		p.schedule(other)
	}
}

// clear cancels pending work for uri and publishes an empty list, as a
// closed document has no diagnostics in the editor.
func (p *publisher) clear(uri string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t, ok := p.timers[uri]; ok {
		t.Stop()
		delete(p.timers, uri)
	}
	delete(p.deps, uri)
	if p.stopped {
		return
	}
	p.s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{
		URI: uri, Diagnostics: []protocol.Diagnostic{},
	})
}

// stop cancels all pending analyses and publishes nothing more.
func (p *publisher) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	for uri, t := range p.timers {
		t.Stop()
		delete(p.timers, uri)
	}
}

// publishParams converts a document's diagnostics for publishing.
func (s *Server) publishParams(d *cache.Document, ds []diagnostics.Diagnostic, sources map[string][]byte) protocol.PublishDiagnosticsParams {
	m := s.mapperOf(d)
	files := s.files(d, sources)
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, diag := range ds {
		out = append(out, mapper.Diagnostic(m, diag, files, s.explainHref))
	}
	v := protocol.UInteger(max(d.Version, 0))
	return protocol.PublishDiagnosticsParams{URI: d.URI, Version: &v, Diagnostics: out}
}

func (s *Server) explainHref(code string) string {
	if s.opts.ExplainHref == nil {
		return ""
	}
	return s.opts.ExplainHref(code)
}

// mapperOf returns the mapper of an open document.
func (s *Server) mapperOf(d *cache.Document) *mapper.Mapper {
	v := d.Version
	return &mapper.Mapper{URI: d.URI, Lines: d.Lines, Version: &v}
}

// files resolves other files named by d's analysis: open documents first,
// then the sources the analyzer returned, then the disk. Relative paths
// are taken relative to d's directory.
func (s *Server) files(d *cache.Document, sources map[string][]byte) mapper.Files {
	return func(path string) *mapper.Mapper {
		abs := path
		if !filepath.IsAbs(abs) && d.Path != "" {
			abs = filepath.Join(filepath.Dir(d.Path), path)
		}
		uri := cache.PathToURI(abs)
		if od := s.store.Get(uri); od != nil {
			return s.mapperOf(od)
		}
		if src, ok := sources[path]; ok {
			return mapper.New(uri, src, nil)
		}
		if src, err := sourcefs.Read(abs, 0); err == nil {
			return mapper.New(uri, src, nil)
		}
		return nil
	}
}
