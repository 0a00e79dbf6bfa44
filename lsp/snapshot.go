package lsp

import (
	"context"
	"slices"
	"strings"

	"github.com/tliron/glsp"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/lang/model"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/mapper"
)

// request is what every document request handler starts from: its
// context, the open document as the request sees it, its mapper and its
// language's features.
type request struct {
	ctx      context.Context
	doc      *cache.Document
	m        *mapper.Mapper
	features features.Features
	snap     features.Snapshot
}

// open finds the open document uri for a request, in the snapshot of the
// documents taken when the request arrived.
func (s *Server) open(g *glsp.Context, uri protocol.DocumentUri) (*request, error) {
	st := s.state(g)
	d := s.document(g, uri)
	if d == nil {
		return nil, invalidParams("document %s is not open", uri)
	}
	f := s.featuresOf(d.Ext)
	if d.Refused() != nil {
		// Too large or nested far too deep to parse: no features (the
		// published diagnostic says why).
		f = features.Unimplemented{}
	}
	return &request{
		ctx: st.ctx, doc: d, m: s.mapperOf(d), features: f,
		snap: features.Snapshot{Doc: s.featureDoc(st.ctx, d), Workspace: workspace{s: s, ctx: st.ctx, docs: st.docs}},
	}, nil
}

// at finds the open document uri and converts pos to a byte offset.
func (s *Server) at(g *glsp.Context, uri protocol.DocumentUri, pos protocol.Position) (*request, int, error) {
	r, err := s.open(g, uri)
	if err != nil {
		return nil, 0, err
	}
	if r.doc.Dropped() {
		// Over the size limit, its text was not kept: no position can be
		// checked, and no feature answers (it is refused).
		return r, 0, nil
	}
	off, err := r.m.Offset(pos)
	if err != nil {
		return nil, 0, invalidParams("%s: %v", uri, err)
	}
	return r, off, nil
}

func (s *Server) featureDoc(ctx context.Context, d *cache.Document) features.Document {
	fd := features.Document{Path: d.Path, URI: d.URI, Version: d.Version, Text: d.Text}
	if d.Ext != "" {
		fd.Analysis = func() (driver.Result, error) { return d.CheckContext(ctx, workspace{s: s}.ReadFile) }
		fd.Facts = d.Facts
		fd.Model = func() *model.Edited {
			if m := d.Model(); m != nil {
				return m
			}
			// No check has given a model since the document was opened:
			// this version's, shared with its diagnostics.
			if _, err := d.CheckContext(ctx, workspace{s: s}.ReadFile); err != nil {
				return nil
			}
			return d.Model()
		}
	}
	if t := d.Tree(); t != nil {
		fd.Tree = t
	}
	return fd
}

// workspace is the features.Workspace view of the server's state: for a
// request, the documents of its snapshot.
type workspace struct {
	s    *Server
	ctx  context.Context
	docs map[string]*cache.Document
}

func (w workspace) context() context.Context {
	if w.ctx != nil {
		return w.ctx
	}
	return w.s.life
}

func (w workspace) get(uri string) *cache.Document {
	if w.docs != nil {
		return w.docs[uri]
	}
	return w.s.store.Get(uri)
}

func (w workspace) Roots() []string {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return append([]string(nil), w.s.roots...)
}

func (w workspace) Documents() []features.Document {
	var out []features.Document
	docs := w.s.store.All()
	if w.docs != nil {
		docs = docs[:0:0]
		for _, d := range w.docs {
			docs = append(docs, d)
		}
		slices.SortFunc(docs, func(a, b *cache.Document) int { return strings.Compare(a.URI, b.URI) })
	}
	for _, d := range docs {
		if d.Refused() == nil {
			out = append(out, w.s.featureDoc(w.context(), d))
		}
	}
	return out
}

func (w workspace) ReadFile(path string) ([]byte, error) {
	if d := w.get(cache.PathToURI(path)); d != nil {
		if d.Dropped() {
			return nil, &sourcefs.TooLargeError{Path: path, Size: d.Size(), Max: w.s.store.Limits.Resolved().FileSize}
		}
		return d.Text, nil
	}
	// Files on disk are read as the checker reads them: regular files
	// within the size limit only.
	return sourcefs.Read(path, 0)
}

// location converts a feature location; an empty path is the request's
// document. It returns false when the target file cannot be read.
func (s *Server) location(r *request, l features.Location) (protocol.Location, bool) {
	if l.Path == "" || l.Path == r.doc.Path {
		return r.m.Location(l.Span), true
	}
	m := s.files(r.doc, nil)(l.Path)
	if m == nil {
		return protocol.Location{}, false
	}
	return m.Location(l.Span), true
}

func (s *Server) locations(r *request, ls []features.Location) []protocol.Location {
	out := []protocol.Location{}
	for _, l := range ls {
		if loc, ok := s.location(r, l); ok {
			out = append(out, loc)
		}
	}
	return out
}
