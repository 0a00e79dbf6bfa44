package lsp

import (
	"os"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/mapper"
)

// request is what every document request handler starts from: the open
// document, its mapper and its language's features.
type request struct {
	doc      *cache.Document
	m        *mapper.Mapper
	features features.Features
	snap     features.Snapshot
}

// open finds the open document uri for a request.
func (s *Server) open(uri protocol.DocumentUri) (*request, error) {
	d := s.store.Get(uri)
	if d == nil {
		return nil, invalidParams("document %s is not open", uri)
	}
	return &request{
		doc: d, m: s.mapperOf(d), features: features.Lookup(d.Ext),
		snap: features.Snapshot{Doc: s.featureDoc(d), Workspace: workspace{s}},
	}, nil
}

// at finds the open document uri and converts pos to a byte offset.
func (s *Server) at(uri protocol.DocumentUri, pos protocol.Position) (*request, int, error) {
	r, err := s.open(uri)
	if err != nil {
		return nil, 0, err
	}
	off, err := r.m.Offset(pos)
	if err != nil {
		return nil, 0, invalidParams("%s: %v", uri, err)
	}
	return r, off, nil
}

func (s *Server) featureDoc(d *cache.Document) features.Document {
	fd := features.Document{Path: d.Path, URI: d.URI, Version: d.Version, Text: d.Text}
	if d.Ext != "" {
		fd.Analysis = func() (driver.Result, error) { return d.CheckWith(workspace{s}.ReadFile) }
	}
	if t := d.Tree(); t != nil {
		fd.Tree = t
	}
	return fd
}

// workspace is the features.Workspace view of the server's state.
type workspace struct{ s *Server }

func (w workspace) Roots() []string {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return append([]string(nil), w.s.roots...)
}

func (w workspace) Documents() []features.Document {
	var out []features.Document
	for _, d := range w.s.store.All() {
		out = append(out, w.s.featureDoc(d))
	}
	return out
}

func (w workspace) ReadFile(path string) ([]byte, error) {
	if d := w.s.store.Get(cache.PathToURI(path)); d != nil {
		return d.Text, nil
	}
	return os.ReadFile(path)
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
