package diagnostics

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// TextOptions configure the text renderer.
type TextOptions struct {
	// Color adds ANSI colours. Callers enable it only when writing to a
	// terminal and NO_COLOR is unset (see ColorWanted).
	Color bool
	// TabWidth is the number of columns a tab expands to (default 4).
	TabWidth int
	// MaxSpanLines is how many lines of a long span are shown before the
	// middle is elided (default 6).
	MaxSpanLines int
	// MaxLineWidth is how many columns of a source line are shown; a
	// longer line is cut to a window around the marked range, with "…"
	// where text was left out (default 160).
	MaxLineWidth int
}

// ansi colour codes used by the text renderer.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiBlue   = "\x1b[1;34m"
	ansiCyan   = "\x1b[1;36m"
	ansiGreen  = "\x1b[1;32m"
)

// RenderText writes diagnostics in the rustc/Harn style:
//
//	error[HARN-TYP-036]: message
//	 --> path:line:col
//	  |
//	3 |     source line
//	  |     ^^^^^ label
//	  |
//	  = help: text
//
// followed by a one-line summary.
func RenderText(w io.Writer, r *Report, opts TextOptions) error {
	if opts.TabWidth <= 0 {
		opts.TabWidth = 4
	}
	if opts.MaxSpanLines <= 0 {
		opts.MaxSpanLines = 6
	}
	if opts.MaxLineWidth <= 0 {
		opts.MaxLineWidth = 160
	}
	bw := bufio.NewWriter(w)
	t := &textRenderer{w: bw, opts: opts, loc: newLocator(r)}
	for _, f := range r.Files {
		for _, d := range f.sortedDiagnostics() {
			t.diagnostic(d)
		}
	}
	if r.Error != nil {
		fmt.Fprintf(bw, "%s: %s\n", t.paint(ansiRed, "error"), r.Error.Message)
	}
	for _, wm := range r.Warnings {
		fmt.Fprintf(bw, "%s: %s\n", t.paint(ansiYellow, "warning"), wm.Message)
	}
	t.summary(r.Summarize())
	return bw.Flush()
}

type textRenderer struct {
	w    *bufio.Writer
	opts TextOptions
	loc  *locator
}

func (t *textRenderer) paint(code, s string) string {
	if !t.opts.Color {
		return s
	}
	return code + s + ansiReset
}

func severityColor(s Severity) string {
	switch s {
	case Error:
		return ansiRed
	case Warning:
		return ansiYellow
	case Info:
		return ansiBlue
	}
	return ansiCyan
}

func (t *textRenderer) diagnostic(d Diagnostic) {
	head := d.Severity.String()
	if d.Code != "" {
		head += "[" + d.Code + "]"
	}
	fmt.Fprintf(t.w, "%s%s\n", t.paint(severityColor(d.Severity), head), t.paint(ansiBold, ": "+Visible(d.Message)))

	// The gutter is as wide as the largest line number shown.
	width := 1
	widen := func(path string, span Span) {
		if rg, ok := t.loc.resolve(path, span, false); ok {
			width = max(width, len(strconv.Itoa(rg.EndLine)))
		}
	}
	widen(d.Path, d.Span)
	for _, rel := range d.Related {
		widen(orPath(rel.Path, d.Path), rel.Span)
	}
	pad := strings.Repeat(" ", width)

	t.location(pad, d.Path, d.Span)
	if !fileLevel(d) {
		t.snippet(pad, d.Path, d.Span, '^', "", severityColor(d.Severity))
	}
	for _, rel := range d.Related {
		p := orPath(rel.Path, d.Path)
		if p == d.Path && t.loc.index(p) != nil {
			t.snippet(pad, p, rel.Span, '-', rel.Message, ansiBlue)
			continue
		}
		fmt.Fprintf(t.w, "%s%s %s\n", pad, t.paint(ansiBlue, ":::"), t.position(p, rel.Span))
		if t.loc.index(p) == nil {
			fmt.Fprintf(t.w, "%s %s %s: %s\n", pad, t.paint(ansiBlue, "="), t.paint(ansiBold, "note"), Visible(rel.Message))
			continue
		}
		t.snippet(pad, p, rel.Span, '-', rel.Message, ansiBlue)
	}
	if d.Help != "" || len(d.Fixes) > 0 {
		fmt.Fprintf(t.w, "%s %s\n", pad, t.paint(ansiBlue, "|"))
	}
	if d.Help != "" {
		fmt.Fprintf(t.w, "%s %s %s: %s\n", pad, t.paint(ansiBlue, "="), t.paint(ansiBold, "help"), Visible(d.Help))
	}
	for _, fix := range d.Fixes {
		fmt.Fprintf(t.w, "%s %s %s: %s\n", pad, t.paint(ansiBlue, "="), t.paint(ansiBold, "fix"), Visible(fix.Title))
	}
	fmt.Fprintln(t.w)
}

// position formats path:line:col for a span start.
func (t *textRenderer) position(path string, s Span) string {
	if rg, ok := t.loc.resolve(path, s, false); ok {
		return fmt.Sprintf("%s:%d:%d", path, rg.Line, rg.Column)
	}
	return path
}

func (t *textRenderer) location(pad, path string, s Span) {
	fmt.Fprintf(t.w, "%s%s %s\n", pad, t.paint(ansiBlue, "-->"), t.position(path, s))
}

// snippet prints the source lines of s with an underline made of mark.
// label, if set, follows the underline on the last line.
func (t *textRenderer) snippet(pad, path string, s Span, mark rune, label, color string) {
	x := t.loc.index(path)
	if x == nil {
		return
	}
	bar := t.paint(ansiBlue, "|")
	start, end := x.ByteColumn(s.Start), x.ByteColumn(max(s.End, s.Start))
	// A span ending right after a newline ends at the end of the previous
	// line, not at column 0 of the next.
	if end.Line > start.Line && end.Column == 0 {
		end.Line--
		end.Column = len(x.LineText(end.Line))
	}
	fmt.Fprintf(t.w, "%s %s\n", pad, bar)
	n := end.Line - start.Line + 1
	for i := 0; i < n; i++ {
		line := start.Line + i
		if n > t.opts.MaxSpanLines && i == t.opts.MaxSpanLines/2 {
			fmt.Fprintf(t.w, "%s %s\n", t.paint(ansiBlue, strings.Repeat(".", len(pad))), "")
			i = n - (t.opts.MaxSpanLines - t.opts.MaxSpanLines/2) - 1
			continue
		}
		text := x.LineText(line)
		from, to := 0, len(text)
		if line == start.Line {
			from = min(start.Column, len(text))
		}
		if line == end.Line {
			to = min(max(end.Column, from), len(text))
		}
		if line != start.Line {
			// Skip indentation on continuation lines.
			for from < to && (text[from] == ' ' || text[from] == '\t') {
				from++
			}
		}
		shown, markFrom, markTo := t.expand(text, from, to)
		num := strconv.Itoa(line + 1)
		fmt.Fprintf(t.w, "%s %s %s\n", t.paint(ansiBlue, strings.Repeat(" ", len(pad)-len(num))+num), bar, shown)
		count := max(markTo-markFrom, 1)
		under := strings.Repeat(" ", markFrom) + t.paint(color, strings.Repeat(string(mark), count))
		if line == end.Line && label != "" {
			under += " " + t.paint(color, Visible(label))
		}
		fmt.Fprintf(t.w, "%s %s %s\n", pad, bar, strings.TrimRight(under, " "))
	}
}

// expand renders text for display (tabs expanded, control characters
// made visible, see visibleRune) and maps the byte range [from, to) to
// display columns. A line wider than MaxLineWidth is cut to a window
// around the range, "…" marking what was left out on either side, so that
// a minified or binary-looking line is never reprinted whole for every
// diagnostic on it.
func (t *textRenderer) expand(text []byte, from, to int) (string, int, int) {
	lo, hi := 0, len(text)
	width := t.opts.MaxLineWidth
	if len(text) > width {
		// Bytes are at least as many as columns, except for wide
		// characters and tabs; the window is measured in bytes, so the
		// shown text is at most about width columns.
		lo = max(0, from-width/4)
		hi = min(len(text), lo+width)
		if hi == len(text) {
			lo = max(0, hi-width)
		}
		for lo > 0 && lo < len(text) && !utf8.RuneStart(text[lo]) {
			lo--
		}
		for hi < len(text) && !utf8.RuneStart(text[hi]) {
			hi++
		}
	}
	var b strings.Builder
	col, markFrom, markTo := 0, -1, -1
	if lo > 0 {
		b.WriteString("…")
		col++
	}
	if from < lo {
		markFrom = col
	}
	for i := lo; i <= hi; {
		if i == from && markFrom < 0 {
			markFrom = col
		}
		if i == to && markTo < 0 {
			markTo = col
		}
		if i == hi {
			break
		}
		r, n := utf8.DecodeRune(text[i:hi])
		switch {
		case r == '\t':
			w := t.opts.TabWidth - col%t.opts.TabWidth
			b.WriteString(strings.Repeat(" ", w))
			col += w
		case r == utf8.RuneError && n == 1:
			b.WriteRune('\uFFFD')
			col++
		default:
			v, _ := visibleRune(r)
			b.WriteRune(v)
			col += runeWidth(v)
		}
		// A range boundary inside a character counts from its start.
		for j := i + 1; j < i+n; j++ {
			if j == from && markFrom < 0 {
				markFrom = col - runeWidthOf(r, t.opts.TabWidth)
			}
			if j == to && markTo < 0 {
				markTo = col
			}
		}
		i += n
	}
	if hi < len(text) {
		b.WriteString("…")
		if markTo < 0 && to > hi {
			markTo = col + 1
		}
	}
	if markFrom < 0 {
		markFrom = col
	}
	if markTo < 0 {
		markTo = col
	}
	return strings.TrimRight(b.String(), " "), markFrom, max(markTo, markFrom)
}

func runeWidthOf(r rune, tab int) int {
	if r == '\t' {
		return 1
	}
	return runeWidth(r)
}

// runeWidth returns the number of terminal columns r occupies: 2 for East
// Asian wide and fullwidth characters and most emoji, 0 for combining
// marks, 1 otherwise.
func runeWidth(r rune) int {
	switch {
	case r >= 0x0300 && r <= 0x036F, r >= 0x200B && r <= 0x200F, r >= 0xFE00 && r <= 0xFE0F:
		return 0
	case r >= 0x1100 && r <= 0x115F, r >= 0x2E80 && r <= 0xA4CF && r != 0x303F,
		r >= 0xAC00 && r <= 0xD7A3, r >= 0xF900 && r <= 0xFAFF, r >= 0xFE30 && r <= 0xFE4F,
		r >= 0xFF00 && r <= 0xFF60, r >= 0xFFE0 && r <= 0xFFE6,
		r >= 0x1F300 && r <= 0x1F64F, r >= 0x1F900 && r <= 0x1F9FF, r >= 0x20000 && r <= 0x3FFFD:
		return 2
	}
	return 1
}

func (t *textRenderer) summary(s Summary) {
	if s.Diagnostics == 0 {
		fmt.Fprintf(t.w, "%s: %s checked, no problems found\n", t.paint(ansiGreen, "ok"), plural(s.Files, "file"))
		return
	}
	var parts []string
	if s.Errors > 0 {
		parts = append(parts, plural(s.Errors, "error"))
	}
	if s.Warnings > 0 {
		parts = append(parts, plural(s.Warnings, "warning"))
	}
	if s.Infos > 0 {
		parts = append(parts, plural(s.Infos, "note"))
	}
	head, color := "ok", ansiGreen
	if s.Errors > 0 {
		head, color = "failed", ansiRed
	}
	fmt.Fprintf(t.w, "%s: %s in %s checked\n", t.paint(color, head), strings.Join(parts, ", "), plural(s.Files, "file"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// fileLevel reports whether d is about a whole file (it could not be read,
// or was not analysed) rather than a place in it, so no source is quoted.
func fileLevel(d Diagnostic) bool {
	return d.Span == (Span{}) && (d.Source == SourceIO || d.Source == SourceSetup)
}
