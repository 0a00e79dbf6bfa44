package diagnostics

import (
	"bytes"
	"encoding/json"
	"io"
)

// File is one checked file as the renderers see it.
type File struct {
	// Path is the file's path as the user named it (slash-separated).
	Path string
	// Source is the file's content; nil when it could not be read.
	Source []byte
	// Diagnostics are the findings about this file.
	Diagnostics []Diagnostic
	// Manifest is the file's predicate-site manifest document, already
	// encoded; nil renders as JSON null.
	Manifest json.RawMessage
}

// ToolMessage is a tool-level error or warning in the JSON envelope (not
// about a particular file).
type ToolMessage struct {
	Code    string
	Message string
	// Details is optional structured data; nil renders as null.
	Details json.RawMessage
}

// Report is everything one run of a checker has to say.
type Report struct {
	Files []File
	// Sources holds the content of files that related spans or fixes point
	// into but that are not themselves reported (e.g. imported modules).
	Sources map[string][]byte
	// Error is a tool failure that stopped the run; nil when none.
	Error *ToolMessage
	// Warnings are tool-level warnings.
	Warnings []ToolMessage
	// Shard, in the report of one shard of a run, says which part of the
	// run's files it holds (Merge puts the parts together).
	Shard *Shard
}

// Status returns the file's status in Harn's envelope: the worst severity
// among error and warning, else "ok".
func (f File) Status() string {
	w, ok := Worst(f.Diagnostics)
	switch {
	case !ok:
		return "ok"
	case w == Error:
		return "error"
	case w == Warning:
		return "warning"
	}
	return "ok"
}

// Summary counts a report's outcome.
type Summary struct {
	// OK is the number of files whose status is "ok".
	OK int
	// Errors and Warnings count diagnostics of that severity; Infos counts
	// info and hint diagnostics.
	Errors, Warnings, Infos int
	// Diagnostics is the total number of diagnostics.
	Diagnostics int
	// Files is the number of files reported.
	Files int
}

// Summarize counts the report's files and diagnostics.
func (r *Report) Summarize() Summary {
	var s Summary
	s.Files = len(r.Files)
	for _, f := range r.Files {
		if f.Status() == "ok" {
			s.OK++
		}
		for _, d := range f.Diagnostics {
			s.Diagnostics++
			switch d.Severity {
			case Error:
				s.Errors++
			case Warning:
				s.Warnings++
			default:
				s.Infos++
			}
		}
	}
	return s
}

// OK reports whether the run succeeded: no tool error and no
// error-severity diagnostic.
func (r *Report) OK() bool {
	return r.Error == nil && r.Summarize().Errors == 0
}

// locator caches one LineIndex per path for a rendering pass.
type locator struct {
	r       *Report
	indexes map[string]*LineIndex
	// files maps a reported file's path to its index in r.Files, built
	// on first use, so that finding a source is not a scan of the report.
	files map[string]int
}

func newLocator(r *Report) *locator {
	return &locator{r: r, indexes: map[string]*LineIndex{}}
}

// source returns the content of path from the report, or nil.
func (l *locator) source(path string) []byte {
	if l.files == nil {
		l.files = make(map[string]int, len(l.r.Files))
		for i := len(l.r.Files) - 1; i >= 0; i-- {
			l.files[l.r.Files[i].Path] = i
		}
	}
	if i, ok := l.files[path]; ok {
		return l.r.Files[i].Source
	}
	return l.r.Sources[path]
}

// index returns the line index of path, or nil when its source is unknown.
func (l *locator) index(path string) *LineIndex {
	if x, ok := l.indexes[path]; ok {
		return x
	}
	var x *LineIndex
	if src := l.source(path); src != nil {
		x = NewLineIndex(src)
	}
	l.indexes[path] = x
	return x
}

// Range is a span resolved to 1-based lines and 1-based columns counted in
// Unicode code points (or UTF-16 units, for SARIF).
type Range struct {
	Line, Column, EndLine, EndColumn int
}

// resolve converts a span in path to a Range; ok is false when the source
// is unknown.
func (l *locator) resolve(path string, s Span, utf16 bool) (Range, bool) {
	x := l.index(path)
	if x == nil {
		// Without the source only the start of the file can be named.
		if s.Start == 0 {
			return Range{1, 1, 1, 1}, false
		}
		return Range{}, false
	}
	col := x.RuneColumn
	if utf16 {
		col = x.UTF16Column
	}
	a, b := col(s.Start), col(max(s.End, s.Start))
	return Range{a.Line + 1, a.Column + 1, b.Line + 1, b.Column + 1}, true
}

// sortedDiagnostics returns a copy of the file's diagnostics in rendering
// order, each with Path set (to the file's path when it was empty).
func (f File) sortedDiagnostics() []Diagnostic {
	ds := make([]Diagnostic, len(f.Diagnostics))
	for i, d := range f.Diagnostics {
		d.Path = orPath(d.Path, f.Path)
		ds[i] = d
	}
	Sort(ds)
	return ds
}

// orPath returns p, or def when p is empty: related spans and edits with
// no path of their own are in their diagnostic's file.
func orPath(p, def string) string {
	if p == "" {
		return def
	}
	return p
}

// writeIndentedJSON writes v as two-space indented JSON without HTML
// escaping, in one write, as the JSON and SARIF renderers print.
func writeIndentedJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
