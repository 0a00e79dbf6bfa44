// Package suppress applies suppression comments: a line comment naming
// diagnostic codes and a reason silences those codes on its line (a
// comment after code) or on the line below (a comment alone on its line),
// or in the whole file:
//
//	let x = risky() // harn-ignore HARN-TYP-002: the value is checked at run time
//	// harn-ignore HARN-NAM-002, HARN-TYP-007: generated code
//	// harn-ignore-file HARN-TYP-007: this fixture keeps the legacy layout
//
// Harn and Leia spell it the same (both have // line comments). A
// suppression that silences nothing is itself reported (HARN-SUP-001,
// with a fix removing it), and so is one without codes or without a
// reason (HARN-SUP-002); one without codes silences nothing.
//
// The package knows no language beyond the comment marker it is given;
// it reads the text line by line, skipping a marker after an odd number
// of double quotes on its line (inside a string).
package suppress

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
)

// The codes of suppression comments themselves.
const (
	CodeUnused    = "HARN-SUP-001"
	CodeMalformed = "HARN-SUP-002"
)

// The directive words.
const (
	lineWord = "harn-ignore"
	fileWord = "harn-ignore-file"
)

// code is one code a comment names and where.
type code struct {
	name string
	span diagnostics.Span
	used bool
}

// comment is one suppression comment.
type comment struct {
	// span covers the comment from its marker to the end of its line;
	// remove is what deleting it removes (its whole line when alone).
	span, remove diagnostics.Span
	// line is the line it covers (0-based); -1 for a file-wide one.
	line int
	// list is the span of its code list, for the fix keeping the used
	// codes.
	list  diagnostics.Span
	codes []*code
	// alone is a comment on a line of its own.
	alone bool
}

// Apply returns ds (the diagnostics of the file path, whose content is
// src) without those a suppression comment covers, plus the diagnostics
// about the comments. marker starts a line comment ("//"). Diagnostics
// about other files are kept as they are.
func Apply(path string, src []byte, marker string, ds []diagnostics.Diagnostic) []diagnostics.Diagnostic {
	if !bytes.Contains(src, []byte(lineWord)) {
		return ds
	}
	x := diagnostics.NewLineIndex(src)
	comments, bad := parse(path, x, marker)
	if len(comments) == 0 && len(bad) == 0 {
		return ds
	}
	out := make([]diagnostics.Diagnostic, 0, len(ds)+len(bad))
	for _, d := range ds {
		if (d.Path == "" || d.Path == path) && !strings.HasPrefix(d.Code, "HARN-SUP-") && silenced(comments, x.Line(d.Span.Start), d.Code) {
			continue
		}
		out = append(out, d)
	}
	out = append(out, bad...)
	for _, c := range comments {
		if d, ok := unused(path, c); ok {
			out = append(out, d)
		}
	}
	return out
}

// silenced marks and reports whether a comment covers code on line.
func silenced(comments []*comment, line int, name string) bool {
	hit := false
	for _, c := range comments {
		if c.line != -1 && c.line != line {
			continue
		}
		for _, k := range c.codes {
			if k.name == name {
				k.used, hit = true, true
			}
		}
	}
	return hit
}

// parse finds the suppression comments of the file and the diagnostics
// of malformed ones.
func parse(path string, x *diagnostics.LineIndex, marker string) ([]*comment, []diagnostics.Diagnostic) {
	src := x.Source()
	var comments []*comment
	var bad []diagnostics.Diagnostic
	for line := range x.LineCount() {
		text := x.LineText(line)
		start := x.LineStart(line)
		at := directive(text, marker)
		if at < 0 {
			continue
		}
		body := string(text[at+len(marker):])
		lead := len(body) - len(strings.TrimLeft(body, " \t"))
		body = body[lead:]
		word := lineWord
		if strings.HasPrefix(body, fileWord) {
			word = fileWord
		}
		rest := body[len(word):]
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != ':' {
			continue // harn-ignored, harn-ignore-next-line...: not ours
		}
		alone := len(bytes.TrimSpace(text[:at])) == 0
		c := &comment{span: diagnostics.Span{Start: start + at, End: start + len(text)}, line: line, alone: alone}
		switch {
		case word == fileWord:
			c.line = -1
		case alone:
			c.line = line + 1
		}
		c.remove = c.span
		if alone {
			c.remove = diagnostics.Span{Start: start, End: min(x.LineStart(line+1), len(src))}
			if line+1 >= x.LineCount() {
				c.remove.End = len(src)
			}
		} else {
			c.remove.Start = start + len(bytes.TrimRight(text[:at], " \t"))
		}
		restAt := start + at + len(marker) + lead + len(word)
		list, reason, hasColon := strings.Cut(rest, ":")
		c.list = diagnostics.Span{Start: restAt, End: restAt + len(list)}
		for off := 0; off < len(list); {
			i := strings.IndexFunc(list[off:], func(r rune) bool { return r != ' ' && r != '\t' && r != ',' })
			if i < 0 {
				break
			}
			off += i
			n := strings.IndexAny(list[off:], " \t,")
			if n < 0 {
				n = len(list) - off
			}
			name := list[off : off+n]
			span := diagnostics.Span{Start: restAt + off, End: restAt + off + n}
			if !diagnostics.CodePattern(name) {
				d := diagnostics.New(path, diagnostics.SourceLint, CodeMalformed, span,
					fmt.Sprintf("%s names %q, which is not a diagnostic code", word, name))
				d.Help = "name codes such as HARN-TYP-002, separated by commas, then a colon and the reason"
				bad = append(bad, d)
			} else {
				c.codes = append(c.codes, &code{name: name, span: span})
			}
			off += n
		}
		switch {
		case len(c.codes) == 0:
			d := diagnostics.New(path, diagnostics.SourceLint, CodeMalformed, c.span,
				word+" names no code, so it silences nothing")
			d.Help = "name the codes to silence: " + marker + " " + word + " HARN-TYP-002: why it is safe here"
			bad = append(bad, d)
			continue
		case !hasColon || strings.TrimSpace(reason) == "":
			d := diagnostics.New(path, diagnostics.SourceLint, CodeMalformed, c.span,
				word+" gives no reason")
			d.Help = "say why after a colon: " + marker + " " + word + " " + c.codes[0].name + ": why it is safe here"
			bad = append(bad, d)
		}
		comments = append(comments, c)
	}
	return comments, bad
}

// directive returns the offset in a line of the marker starting a
// suppression comment, or -1.
func directive(text []byte, marker string) int {
	from := 0
	for {
		i := bytes.Index(text[from:], []byte(marker))
		if i < 0 {
			return -1
		}
		at := from + i
		after := bytes.TrimLeft(text[at+len(marker):], " \t")
		if bytes.HasPrefix(after, []byte(lineWord)) && bytes.Count(text[:at], []byte(`"`))%2 == 0 {
			return at
		}
		from = at + len(marker)
	}
}

// unused is the diagnostic of a comment's codes that silenced nothing,
// with the fix removing them (the whole comment when none was used).
func unused(path string, c *comment) (diagnostics.Diagnostic, bool) {
	var names, keep []string
	var first *code
	for _, k := range c.codes {
		if k.used {
			if !slices.Contains(keep, k.name) {
				keep = append(keep, k.name)
			}
			continue
		}
		if first == nil {
			first = k
		}
		names = append(names, k.name)
	}
	if len(names) == 0 {
		return diagnostics.Diagnostic{}, false
	}
	where := "on this line"
	switch {
	case c.line == -1:
		where = "in this file"
	case c.alone:
		where = "on the next line"
	}
	span := first.span
	if len(names) > 1 {
		span = diagnostics.Span{Start: c.codes[0].span.Start, End: c.codes[len(c.codes)-1].span.End}
	}
	d := diagnostics.New(path, diagnostics.SourceLint, CodeUnused, span,
		fmt.Sprintf("unused suppression: %s %s not reported %s", strings.Join(names, ", "), isAre(len(names)), where))
	d.Help = "remove it, so that it cannot hide a finding that appears later"
	fix := diagnostics.Fix{Title: "Remove the unused suppression", Edits: []diagnostics.TextEdit{{Span: c.remove}}}
	if len(keep) > 0 {
		fix = diagnostics.Fix{Title: "Remove " + strings.Join(names, ", ") + " from the suppression",
			Edits: []diagnostics.TextEdit{{Span: c.list, NewText: " " + strings.Join(keep, ", ")}}}
	}
	d.Fixes = []diagnostics.Fix{fix}
	return d, true
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
