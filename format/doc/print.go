package doc

import (
	"strings"
	"unicode/utf8"
)

// Options control Print.
type Options struct {
	// Width is the line width Group fits against (default 80).
	Width int
	// IndentWidth is the number of columns of one indentation level
	// (default 2). With Tabs one level is one tab, counted as IndentWidth
	// columns.
	IndentWidth int
	// Tabs indents with tabs instead of spaces.
	Tabs bool
	// Newline ends the lines Print breaks (default "\n"). Multi-line text
	// keeps its own line endings.
	Newline string
	// SizeHint is the expected size of the output in bytes (a formatter
	// passes its input's size), so the buffer is allocated once.
	SizeHint int
}

func (o Options) normalized() Options {
	if o.Width <= 0 {
		o.Width = 80
	}
	if o.IndentWidth <= 0 {
		o.IndentWidth = 2
	}
	if o.Newline == "" {
		o.Newline = "\n"
	}
	return o
}

// cmd is one document still to print, with its indentation level and
// whether its innermost group is flat.
type cmd struct {
	ind  int
	flat bool
	d    *Doc
}

// printer holds Print's state.
type printer struct {
	opts Options
	out  []byte
	// col is the current column.
	col int
	// keep is the length of out that trailing-space trimming must not cut
	// into: multi-line text is written exactly.
	keep int
	// suffixes are pending LineSuffix documents.
	suffixes []cmd
	stack    []cmd
}

// Print lays d out and returns the text. Print never fails; its work is
// linear in the size of d (a Group's fit test looks at most Width columns
// ahead). Trailing spaces and tabs are removed from every line Print ends,
// but never from multi-line text.
func Print(d *Doc, opts Options) []byte {
	p := &printer{opts: opts.normalized()}
	p.out = make([]byte, 0, max(4096, p.opts.SizeHint+p.opts.SizeHint/8))
	p.stack = append(p.stack, cmd{d: d})
	for len(p.stack) > 0 {
		c := p.stack[len(p.stack)-1]
		p.stack = p.stack[:len(p.stack)-1]
		if c.d == nil {
			continue
		}
		switch c.d.k {
		case kText:
			p.text(c.d)
		case kConcat:
			for i := len(c.d.kids) - 1; i >= 0; i-- {
				p.stack = append(p.stack, cmd{c.ind, c.flat, c.d.kids[i]})
			}
		case kIndent:
			p.stack = append(p.stack, cmd{c.ind + c.d.levels, c.flat, c.d.kids[0]})
		case kGroup:
			flat := c.flat
			switch {
			case c.d.decided:
				flat = !c.d.broken
			case c.flat:
				// Undecided groups inside a flat group are flat.
			default:
				flat = p.fits(cmd{c.ind, true, c.d.kids[0]}, p.opts.Width-p.col)
			}
			p.stack = append(p.stack, cmd{c.ind, flat, c.d.kids[0]})
		case kLine, kSoftLine:
			if c.flat {
				if c.d.k == kLine {
					p.out = append(p.out, ' ')
					p.col++
				}
				continue
			}
			if p.flushSuffixes(c) {
				continue
			}
			p.newline(c.ind)
		case kHardLine:
			if p.flushSuffixes(c) {
				continue
			}
			p.newline(c.ind)
		case kIfBreak:
			if c.flat {
				p.stack = append(p.stack, cmd{c.ind, c.flat, c.d.alt})
			} else {
				p.stack = append(p.stack, cmd{c.ind, c.flat, c.d.kids[0]})
			}
		case kLineSuffix:
			p.suffixes = append(p.suffixes, cmd{c.ind, c.flat, c.d.kids[0]})
		case kBreakParent:
		}
		if len(p.stack) == 0 && len(p.suffixes) > 0 {
			p.pushSuffixes()
		}
	}
	p.trimTrailing()
	return p.out
}

// flushSuffixes prints pending line suffixes before the line break c: it
// pushes c back and the suffixes above it, and reports whether it did.
func (p *printer) flushSuffixes(c cmd) bool {
	if len(p.suffixes) == 0 {
		return false
	}
	p.stack = append(p.stack, c)
	p.pushSuffixes()
	return true
}

func (p *printer) pushSuffixes() {
	for i := len(p.suffixes) - 1; i >= 0; i-- {
		p.stack = append(p.stack, p.suffixes[i])
	}
	p.suffixes = p.suffixes[:0]
}

func (p *printer) text(d *Doc) {
	p.out = append(p.out, d.s...)
	if !d.multiline {
		p.col += d.width
		return
	}
	last := d.s[strings.LastIndexByte(d.s, '\n')+1:]
	p.col = utf8.RuneCountInString(last)
	p.keep = len(p.out)
}

func (p *printer) trimTrailing() {
	n := len(p.out)
	for n > p.keep && (p.out[n-1] == ' ' || p.out[n-1] == '\t') {
		n--
	}
	p.out = p.out[:n]
}

func (p *printer) newline(ind int) {
	p.trimTrailing()
	p.out = append(p.out, p.opts.Newline...)
	if p.opts.Tabs {
		for range ind {
			p.out = append(p.out, '\t')
		}
	} else {
		for range ind * p.opts.IndentWidth {
			p.out = append(p.out, ' ')
		}
	}
	p.col = ind * p.opts.IndentWidth
}

// fits reports whether next, laid out flat, and the commands after it up
// to the first line break fit in width columns.
func (p *printer) fits(next cmd, width int) bool {
	// rest is how far down p.stack the test has looked: the commands that
	// follow next, in their own modes.
	rest := len(p.stack)
	todo := []cmd{next}
	for width >= 0 {
		if len(todo) == 0 {
			if rest == 0 {
				return true
			}
			rest--
			todo = append(todo, p.stack[rest])
			continue
		}
		c := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		d := c.d
		if d == nil {
			continue
		}
		switch d.k {
		case kText:
			width -= d.width
			if d.multiline {
				return width >= 0
			}
		case kConcat:
			for i := len(d.kids) - 1; i >= 0; i-- {
				todo = append(todo, cmd{c.ind, c.flat, d.kids[i]})
			}
		case kIndent:
			todo = append(todo, cmd{c.ind + d.levels, c.flat, d.kids[0]})
		case kGroup:
			flat := true
			if d.decided {
				flat = !d.broken
			}
			todo = append(todo, cmd{c.ind, flat, d.kids[0]})
		case kLine, kSoftLine:
			if !c.flat {
				return true
			}
			if d.k == kLine {
				width--
			}
		case kHardLine:
			return true
		case kIfBreak:
			if c.flat {
				todo = append(todo, cmd{c.ind, true, d.alt})
			} else {
				todo = append(todo, cmd{c.ind, false, d.kids[0]})
			}
		case kLineSuffix, kBreakParent:
		}
	}
	return false
}
