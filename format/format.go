// Package format formats Harn and Leia source: the entry point the command
// line (`harn-check fmt`) and the language server share. It picks the
// formatter by file extension (format/harn, format/leia, both built on the
// document algebra of format/doc), checks the result before handing it
// out (Verify: the same program and comments), and turns a formatting into
// the minimal text edits an editor applies (Edits) or a unified diff
// (UnifiedDiff).
//
// Layout: format/doc knows no language; format/harn and format/leia know
// one each and nothing of the command line or the editor protocol; this
// package knows both formatters and neither caller. The formatters live
// under format/ rather than beside their grammars because grammar/ holds
// no policy (see shared/design.md), and a formatter is style policy, with
// upstream compatibility rules that change on their own schedule.
package format

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/format/harn"
	"github.com/harnlang/harn-check/format/leia"
)

// ErrSyntax is the error (wrapped) for source with syntax errors, which is
// never formatted.
var ErrSyntax = errors.New("syntax error")

// ErrUnknownLanguage is returned for a path that is neither .harn nor .leia.
var ErrUnknownLanguage = errors.New("no formatter for this file type")

// Options are a project's and an editor's formatting preferences. Harn's
// indentation is fixed (two spaces, as upstream's `harn fmt`), so only
// Leia honours TabSize and UseTabs; only Harn breaks lines at a width.
type Options struct {
	// TabSize is the width of an indentation level; 0 means the language's.
	TabSize int
	// UseTabs indents with tabs.
	UseTabs bool
	// LineWidth is the column Harn's lines are broken at where they can
	// be (harn.toml's `[fmt] line_width`); 0 means upstream's 100.
	LineWidth int
}

// Language is one formatter.
type Language struct {
	// Name is "harn" or "leia"; Ext the file extension with its dot.
	Name, Ext string
	format    func(src []byte, o Options) ([]byte, error)
	verify    func(src, out []byte) error
}

// Harn is the Harn formatter (format/harn), upstream's `harn fmt` style.
var Harn = Language{Name: "harn", Ext: ".harn",
	format: func(src []byte, o Options) ([]byte, error) { return harn.FormatWidth(src, o.LineWidth) },
	verify: harn.Verify}

// Leia is the Leia formatter (format/leia).
var Leia = Language{Name: "leia", Ext: ".leia",
	format: func(src []byte, o Options) ([]byte, error) {
		return leia.FormatWith(src, leia.Options{IndentWidth: o.TabSize, Tabs: o.UseTabs})
	},
	verify: leia.Verify}

// languages are the formatters ForExt and ForPath choose from. The
// binaries do not: they take a language's formatter from its
// language.Language value (its Format facet).
var languages = []Language{Harn, Leia}

// ForPath returns the formatter of path's extension.
func ForPath(path string) (Language, bool) { return ForExt(filepath.Ext(path)) }

// ForExt returns the formatter of a file extension (".harn").
func ForExt(ext string) (Language, bool) {
	for _, l := range languages {
		if strings.EqualFold(l.Ext, ext) {
			return l, true
		}
	}
	return Language{}, false
}

// Format formats src. Source with syntax errors gives an error wrapping
// ErrSyntax and is not formatted.
func (l Language) Format(src []byte, o Options) ([]byte, error) {
	out, err := l.format(src, o)
	if errors.Is(err, harn.ErrSyntax) || errors.Is(err, leia.ErrSyntax) {
		return nil, &SyntaxError{err}
	}
	return out, err
}

// Verify reports whether out is a faithful formatting of src: the same
// program (syntax tree apart from whitespace, comments' positions and
// separators) with the same comments.
func (l Language) Verify(src, out []byte) error { return l.verify(src, out) }

// Source formats src as the language of path and verifies the result; an
// error means the text must not be replaced.
func Source(path string, src []byte, o Options) ([]byte, error) {
	l, ok := ForPath(path)
	if !ok {
		return nil, ErrUnknownLanguage
	}
	out, err := l.Format(src, o)
	if err != nil {
		return nil, err
	}
	if err := l.Verify(src, out); err != nil {
		return nil, err
	}
	return out, nil
}

// SyntaxError wraps a formatter's syntax error.
type SyntaxError struct{ Err error }

func (e *SyntaxError) Error() string { return e.Err.Error() }

// Unwrap makes errors.Is(err, ErrSyntax) hold, and reaches the language's
// own error.
func (e *SyntaxError) Unwrap() []error { return []error{ErrSyntax, e.Err} }
