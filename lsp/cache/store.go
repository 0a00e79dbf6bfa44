package cache

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/limits"
)

// ErrNotOpen is returned for a change or close of a document the client
// never opened.
var ErrNotOpen = errors.New("document is not open")

// Range is a range of a document in 0-based lines and UTF-16 columns, as
// the protocol sends it.
type Range struct {
	Start, End diagnostics.Position
}

// Change is one content change of didChange.
type Change struct {
	// Range is the replaced range; nil replaces the whole document.
	Range *Range
	Text  string
}

// Store holds the open documents by URI. It is safe for concurrent use.
type Store struct {
	mu    sync.Mutex
	docs  map[string]*Document
	langs Languages
	// Limits bound the documents the store parses and analyses (zero
	// fields: the defaults); set it before the first document opens. A
	// document larger than Limits.FileSize, or whose brackets nest past
	// the parse prescan, gets no syntax tree and is analysed as a single
	// HARN-LIM diagnostic.
	Limits limits.Limits
}

// NewStore returns an empty store of documents in langs, the languages
// the server was given.
func NewStore(langs Languages) *Store { return &Store{docs: map[string]*Document{}, langs: langs} }

// Open records a newly opened document, replacing any earlier one with the
// same URI.
//
// A text over the size limit is not copied nor indexed: the document
// records its size only (Document.Dropped) and is refused.
func (s *Store) Open(uri, languageID string, version int32, text string) *Document {
	var d *Document
	if int64(len(text)) > s.Limits.Resolved().FileSize {
		d = newDocument(s.langs, uri, languageID, version, nil, nil)
		d.drop(int64(len(text)))
	} else {
		d = newDocument(s.langs, uri, languageID, version, []byte(text), nil)
	}
	d.lineage = &lineage{}
	d.limit(s.Limits)
	d.parse(nil)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs[uri] = d
	return d
}

// Change applies changes in order to the open document uri and records
// the result as version. Positions beyond a line's end or the document's
// end clamp to it, as the protocol asks. A range whose end precedes its
// start is an error; then no change of the batch is applied. Changing a
// document that is not open returns ErrNotOpen.
func (s *Store) Change(uri string, version int32, changes []Change) (*Document, error) {
	s.mu.Lock()
	old, ok := s.docs[uri]
	s.mu.Unlock()
	if !ok {
		return nil, ErrNotOpen
	}
	var d *Document
	if old.dropped {
		// The old version's text was not kept: only a change of the whole
		// text makes the new one known again.
		changes = fromLastWhole(changes)
		if changes == nil {
			d = newDocument(s.langs, uri, old.LanguageID, version, nil, nil)
			d.drop(old.size)
		}
	}
	if d == nil {
		if n := wholeSize(changes); n > s.Limits.Resolved().FileSize {
			// A whole text over the limit is neither applied nor kept.
			d = newDocument(s.langs, uri, old.LanguageID, version, nil, nil)
			d.drop(n)
		} else {
			text, edits, err := Apply(old.Text, old.Lines, changes)
			if err != nil {
				return nil, err
			}
			d = newDocument(s.langs, uri, old.LanguageID, version, text, edits)
		}
	}
	d.lineage = old.lineage
	d.limit(s.Limits)
	d.parse(old)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.docs[uri] != old {
		// Changes are handled one at a time; a concurrent change of the
		// same document is a caller bug.
		return nil, fmt.Errorf("document %s changed concurrently", uri)
	}
	s.docs[uri] = d
	return d, nil
}

// fromLastWhole returns changes from the last one that replaces the whole
// text, nil when none does.
func fromLastWhole(changes []Change) []Change {
	for i := len(changes) - 1; i >= 0; i-- {
		if changes[i].Range == nil {
			return changes[i:]
		}
	}
	return nil
}

// wholeSize is the length of the text changes leave when the last of
// them replaces the whole text, -1 otherwise.
func wholeSize(changes []Change) int64 {
	if n := len(changes); n > 0 && changes[n-1].Range == nil {
		return int64(len(changes[n-1].Text))
	}
	return -1
}

// Apply applies changes to text (indexed by lines) and returns the new
// text and the edit each change made.
func Apply(text []byte, lines *diagnostics.LineIndex, changes []Change) ([]byte, []Edit, error) {
	edits := make([]Edit, 0, len(changes))
	for i, c := range changes {
		if i > 0 {
			lines = diagnostics.NewLineIndex(text)
		}
		start, end := 0, len(text)
		if c.Range != nil {
			if c.Range.End.Line < c.Range.Start.Line ||
				(c.Range.End.Line == c.Range.Start.Line && c.Range.End.Column < c.Range.Start.Column) {
				return nil, nil, fmt.Errorf("change %d: range end %d:%d precedes start %d:%d", i,
					c.Range.End.Line, c.Range.End.Column, c.Range.Start.Line, c.Range.Start.Column)
			}
			start = lines.OffsetFromUTF16(c.Range.Start)
			end = max(start, lines.OffsetFromUTF16(c.Range.End))
		}
		edits = append(edits, NewEdit(lines, len(text), start, end, []byte(c.Text)))
		next := make([]byte, 0, len(text)-(end-start)+len(c.Text))
		next = append(next, text[:start]...)
		next = append(next, c.Text...)
		text = append(next, text[end:]...)
	}
	return text, edits, nil
}

// Close forgets the document uri; ErrNotOpen if it was not open.
func (s *Store) Close(uri string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.docs[uri]; !ok {
		return ErrNotOpen
	}
	delete(s.docs, uri)
	return nil
}

// Get returns the current version of uri, or nil.
func (s *Store) Get(uri string) *Document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[uri]
}

// Snapshot returns the current version of every open document, by URI: a
// request reads the documents as they were when it arrived, whatever
// changes arrive while it runs.
func (s *Store) Snapshot() map[string]*Document {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]*Document, len(s.docs))
	for u, d := range s.docs {
		out[u] = d
	}
	return out
}

// All returns the open documents ordered by URI.
func (s *Store) All() []*Document {
	s.mu.Lock()
	out := make([]*Document, 0, len(s.docs))
	for _, d := range s.docs {
		out = append(out, d)
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b *Document) int { return strings.Compare(a.URI, b.URI) })
	return out
}
