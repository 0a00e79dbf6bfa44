// Package doc is a pretty-printing document algebra in the style of
// Wadler's "prettier printer" and Prettier's doc builders: text, line
// breaks that a group may lay out flat (Line, SoftLine) or not (HardLine),
// indentation, groups, content that depends on whether its group broke
// (IfBreak) and comments deferred to the end of the line (LineSuffix).
//
// Groups decide their layout in one of two ways:
//
//   - Group is Wadler's: when the printer reaches it, it lays the group out
//     flat if the group and what follows it up to the next line break fit in
//     the rest of the line, and breaks it otherwise.
//   - GroupWithin(budget, d) is first decided by its own content,
//     independent of the column it lands in: it breaks when d contains a
//     line break that cannot be laid out flat (a HardLine, a multi-line
//     text, a group that broke) or when d laid out flat is wider than
//     budget. This is the rule of formatters that lay out a sequence by its
//     own length (upstream Harn's `harn fmt` measures a call's arguments
//     against the width minus the callee's name), and it lets a formatter
//     ask a built document whether it will span lines (HasNewline) while
//     building its parent. A group that rule leaves flat is then a Group:
//     it still breaks when the line it lands on would run past the width,
//     so no line is wider than the width where a break is possible.
//
// Every constructor measures its document eagerly (flat width, whether it
// certainly renders a newline), so measuring is linear in the document and
// needs no recursion. Print is iterative (an explicit stack): a deeply
// nested document cannot overflow the Go stack. Documents are immutable
// once built and may be shared.
//
// The package knows no language. Widths count runes; a tab counts as one.
package doc

import (
	"strings"
	"sync"
	"unicode/utf8"
)

type kind uint8

const (
	kText kind = iota
	kConcat
	kIndent
	kGroup
	kLine
	kSoftLine
	kHardLine
	kIfBreak
	kLineSuffix
	kBreakParent
)

// Doc is a document. The nil *Doc is the empty document.
type Doc struct {
	k kind
	// decided groups: broken is the layout, decided whether it is fixed.
	decided, broken bool
	// multiline text: s contains '\n' and is written exactly as it is.
	multiline bool
	s         string
	kids      []*Doc
	// alt is IfBreak's flat branch (kids[0] is the broken one).
	alt *Doc
	// levels is an indentation's number of levels.
	levels int
	// width is the flat width: the columns the document takes when every
	// group in it that is not decided is laid out flat. For a multi-line
	// text it is the width of its first line.
	width int
	// nl reports that the document certainly spans lines: it holds a
	// HardLine, a BreakParent, a multi-line text or a group that broke.
	nl bool
}

// asciiText are the one-character texts, shared (documents are
// immutable), so that punctuation costs no allocation; made at the first
// use (not in every process's start).
var asciiText = sync.OnceValue(func() *[128]Doc {
	var chars [128]byte
	for c := range chars {
		chars[c] = byte(c)
	}
	all := string(chars[:])
	t := new([128]Doc)
	for c := range t {
		t[c] = Doc{k: kText, s: all[c : c+1], width: 1}
	}
	return t
})

var (
	line        = &Doc{k: kLine, width: 1}
	softLine    = &Doc{k: kSoftLine}
	hardLine    = &Doc{k: kHardLine, nl: true}
	breakParent = &Doc{k: kBreakParent, nl: true}
)

// Builder allocates documents in slabs: a formatter that builds many
// documents for one Print allocates them through one Builder, a few large
// allocations instead of one per document. A nil *Builder allocates each
// document on its own (the package-level constructors). A Builder is not
// safe for concurrent use; the documents it built stay valid as long as
// they are referenced.
type Builder struct {
	docs []Doc
	ptrs []*Doc
}

const slabSize = 512

func (b *Builder) doc() *Doc {
	if b == nil {
		return new(Doc)
	}
	if len(b.docs) == 0 {
		b.docs = make([]Doc, slabSize)
	}
	d := &b.docs[0]
	b.docs = b.docs[1:]
	return d
}

// list returns an empty slice with capacity n for a document's children.
func (b *Builder) list(n int) []*Doc {
	if b == nil || n > slabSize/4 {
		return make([]*Doc, 0, n)
	}
	if len(b.ptrs) < n {
		b.ptrs = make([]*Doc, slabSize)
	}
	l := b.ptrs[:0:n]
	b.ptrs = b.ptrs[n:]
	return l
}

// Text is literal text. Text containing a newline is written exactly as it
// is, including the indentation of its later lines (strings that span lines
// and source kept verbatim), and makes its groups break.
func Text(s string) *Doc { return (*Builder)(nil).Text(s) }

// Text is the package-level Text, allocated from b.
func (b *Builder) Text(s string) *Doc {
	if s == "" {
		return nil
	}
	if len(s) == 1 && s[0] < 128 && s[0] != '\n' {
		return &asciiText()[s[0]]
	}
	d := b.doc()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		*d = Doc{k: kText, s: s, multiline: true, width: utf8.RuneCountInString(s[:i]), nl: true}
		return d
	}
	*d = Doc{k: kText, s: s, width: utf8.RuneCountInString(s)}
	return d
}

// Line is a space when its group is flat and a line break otherwise.
func Line() *Doc { return line }

// SoftLine is nothing when its group is flat and a line break otherwise.
func SoftLine() *Doc { return softLine }

// HardLine is always a line break; it makes every enclosing group break.
func HardLine() *Doc { return hardLine }

// BreakParent prints nothing and makes every enclosing group break.
func BreakParent() *Doc { return breakParent }

// Concat is the documents one after the other; nil parts are skipped.
func Concat(parts ...*Doc) *Doc { return (*Builder)(nil).Concat(parts...) }

// Concat is the package-level Concat, allocated from b.
func (b *Builder) Concat(parts ...*Doc) *Doc {
	n := 0
	for _, p := range parts {
		if p != nil {
			n++
		}
	}
	switch n {
	case 0:
		return nil
	case 1:
		for _, p := range parts {
			if p != nil {
				return p
			}
		}
	}
	d := b.doc()
	*d = Doc{k: kConcat, kids: b.list(n)}
	for _, p := range parts {
		if p == nil {
			continue
		}
		d.kids = append(d.kids, p)
		d.width += p.width
		d.nl = d.nl || p.nl
	}
	return d
}

// ConcatOwned is Concat of parts, taking ownership of the slice (it may
// be modified and kept): the builder's way to avoid a copy.
func ConcatOwned(parts []*Doc) *Doc { return (*Builder)(nil).ConcatOwned(parts) }

// ConcatOwned is the package-level ConcatOwned, allocated from b.
func (b *Builder) ConcatOwned(parts []*Doc) *Doc {
	n := 0
	for _, p := range parts {
		if p != nil {
			parts[n] = p
			n++
		}
	}
	switch n {
	case 0:
		return nil
	case 1:
		return parts[0]
	}
	d := b.doc()
	*d = Doc{k: kConcat, kids: parts[:n:n]}
	for _, p := range d.kids {
		d.width += p.width
		d.nl = d.nl || p.nl
	}
	return d
}

// Join is the documents with sep between each two; nil documents are
// skipped together with their separator.
func Join(sep *Doc, docs []*Doc) *Doc {
	parts := make([]*Doc, 0, 2*len(docs))
	for _, d := range docs {
		if d == nil {
			continue
		}
		if len(parts) > 0 {
			parts = append(parts, sep)
		}
		parts = append(parts, d)
	}
	return Concat(parts...)
}

// Indent indents the line breaks inside d by one more level.
func Indent(d *Doc) *Doc { return (*Builder)(nil).Nest(1, d) }

// Indent is the package-level Indent, allocated from b.
func (b *Builder) Indent(d *Doc) *Doc { return b.Nest(1, d) }

// Nest indents the line breaks inside d by levels more levels (Wadler's
// nest); a line-oriented formatter writes Nest(depth, HardLine()) for a
// line break with a computed indentation.
func Nest(levels int, d *Doc) *Doc { return (*Builder)(nil).Nest(levels, d) }

// Nest is the package-level Nest, allocated from b.
func (b *Builder) Nest(levels int, d *Doc) *Doc {
	if d == nil {
		return nil
	}
	if levels <= 0 {
		return d
	}
	n := b.doc()
	*n = Doc{k: kIndent, kids: b.one(d), width: d.width, nl: d.nl, levels: levels}
	return n
}

// one is a one-element child list.
func (b *Builder) one(d *Doc) []*Doc {
	l := b.list(1)
	return append(l, d)
}

// Group lays d out flat when it fits in the rest of the line (together
// with what follows it up to the next line break), and broken otherwise.
// A group whose content certainly spans lines always breaks.
func Group(d *Doc) *Doc { return (*Builder)(nil).Group(d) }

// Group is the package-level Group, allocated from b.
func (b *Builder) Group(d *Doc) *Doc {
	if d == nil {
		return nil
	}
	g := b.doc()
	*g = Doc{k: kGroup, kids: b.one(d), width: d.width, nl: d.nl}
	if d.nl {
		g.decided, g.broken = true, true
	}
	return g
}

// GroupWithin lays d out broken when it certainly spans lines or when its
// flat width exceeds budget; otherwise it is a Group, flat when it fits
// in the rest of the line.
func GroupWithin(budget int, d *Doc) *Doc { return (*Builder)(nil).GroupWithin(budget, d) }

// GroupWithin is the package-level GroupWithin, allocated from b.
func (b *Builder) GroupWithin(budget int, d *Doc) *Doc {
	if d == nil {
		return nil
	}
	broken := d.nl || d.width > budget
	g := b.doc()
	*g = Doc{k: kGroup, kids: b.one(d), decided: broken, broken: broken, width: d.width, nl: broken}
	return g
}

// Broken is d in a group that always breaks: its Lines are line breaks.
func Broken(d *Doc) *Doc { return (*Builder)(nil).Broken(d) }

// Broken is the package-level Broken, allocated from b.
func (b *Builder) Broken(d *Doc) *Doc {
	if d == nil {
		return nil
	}
	g := b.doc()
	*g = Doc{k: kGroup, kids: b.one(d), decided: true, broken: true, width: d.width, nl: true}
	return g
}

// Flat is d in a group that never breaks: its Lines are spaces. A HardLine
// inside still breaks the line.
func Flat(d *Doc) *Doc { return (*Builder)(nil).Flat(d) }

// Flat is the package-level Flat, allocated from b.
func (b *Builder) Flat(d *Doc) *Doc {
	if d == nil {
		return nil
	}
	g := b.doc()
	*g = Doc{k: kGroup, kids: b.one(d), decided: true, width: d.width, nl: d.nl}
	return g
}

// IfBreak is broken when the innermost enclosing group breaks and flat when
// it is laid out flat.
func IfBreak(broken, flat *Doc) *Doc { return (*Builder)(nil).IfBreak(broken, flat) }

// IfBreak is the package-level IfBreak, allocated from b.
func (b *Builder) IfBreak(broken, flat *Doc) *Doc {
	d := b.doc()
	*d = Doc{k: kIfBreak, kids: b.one(broken), alt: flat}
	if flat != nil {
		d.width, d.nl = flat.width, flat.nl
	}
	return d
}

// LineSuffix defers d to the end of the line it is printed on: the text of
// a trailing comment that must stay behind the `,` printed after it. It
// does not break its group; a line comment needs a BreakParent as well.
func LineSuffix(d *Doc) *Doc { return (*Builder)(nil).LineSuffix(d) }

// LineSuffix is the package-level LineSuffix, allocated from b.
func (b *Builder) LineSuffix(d *Doc) *Doc {
	if d == nil {
		return nil
	}
	n := b.doc()
	*n = Doc{k: kLineSuffix, kids: b.one(d)}
	return n
}

// Width is d's flat width: the columns it takes when every group in it
// that is not decided is flat. For a document that spans lines it is not
// the width of any particular line.
func (d *Doc) Width() int {
	if d == nil {
		return 0
	}
	return d.width
}

// HasNewline reports whether d certainly spans lines however it is
// printed: it contains a HardLine, a BreakParent, a multi-line text or a
// group that is decided to break.
func (d *Doc) HasNewline() bool { return d != nil && d.nl }
