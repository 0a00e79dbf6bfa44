// Package leia formats Leia source in upstream `leia fmt`'s style
// (never-labs/gscript, internal/tooling/format and docs/style): the
// author's lines are kept, each line is indented four spaces per enclosing
// brace (blocks, tables and every AI block alike: `turn { }`, `agent { }`,
// `tool { }`, `flow { }`, `evaluate "..." { }`), a line starting with `}`
// one level less, trailing whitespace goes, runs of blank lines become one,
// line endings become "\n" and the file ends in exactly one newline.
//
// Upstream leaves the spacing inside a line to the author (its formatter
// re-indents only, so that aligned table fields survive). This formatter
// works on the concrete syntax tree and also tidies the spacing between
// tokens where the author's choice carries no layout: no space inside
// parentheses and brackets or before `,` `;` `)` `]`, none around `.`,
// the method `:` or a unary operator, none between a callee and its `(`;
// at least one space after `,`, after a key's `:` and around `:=`, `=`
// and compound assignments (more are kept: alignment); one around binary
// operators (none when the author wrote none on either side, more when the
// author aligned operands with a run of spaces) and exactly one after
// keywords. Spacing inside table braces
// (`{a: 1}` or `{ a: 1 }`) and everything else is kept. String literals,
// raw strings, templates and fenced blocks are kept byte for byte, as are
// the lines of block comments after their first.
//
// Everything the formatter writes is a fixed point of upstream's `leia
// fmt` (its indentation rule is the same), so the two can run in the same
// project. Multi-line parenthesised and bracketed expressions are not
// indented beyond their braces because upstream's formatter would undo it.
//
// Invariants: Format never panics and never rewrites a file with syntax
// errors (it returns a *SyntaxError). It is iterative and linear in the
// size of the file, so no nesting depth can overflow the stack; lines
// nested deeper than MaxDepth keep their indentation.
package leia

import (
	"errors"
	"fmt"

	"github.com/harnlang/harn-check/format/doc"
	"github.com/harnlang/harn-check/format/internal/cst"
	"github.com/harnlang/harn-check/grammar/leia/binding"
)

// IndentWidth is upstream's indentation: four spaces per brace.
const IndentWidth = 4

// MaxDepth bounds the indentation the formatter writes: a line nested
// deeper keeps the indentation it has, so that the output of pathological
// nesting stays linear in the size of the input.
const MaxDepth = 200

// ErrSyntax is returned (wrapped in a *SyntaxError) for source with syntax
// errors, which is never formatted.
var ErrSyntax = errors.New("syntax error")

// SyntaxError says where the first syntax error is.
type SyntaxError struct {
	// Offset is the byte offset of the first ERROR or MISSING node, or -1
	// when the parser gave up on the file.
	Offset int
}

func (e *SyntaxError) Error() string {
	if e.Offset < 0 {
		return "leia: the parser gave up on this file; not formatted"
	}
	return fmt.Sprintf("leia: syntax error at byte %d; not formatted", e.Offset)
}

// Unwrap makes errors.Is(err, ErrSyntax) hold.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// Options adjust the layout where Leia allows it.
type Options struct {
	// IndentWidth is the width of one indentation level in spaces; 0 means
	// upstream's 4. An editor's tab size goes here.
	IndentWidth int
	// Tabs indents with one tab per level instead of spaces.
	Tabs bool
}

// Format returns src formatted in upstream's style. Source with syntax
// errors is not formatted: the error is a *SyntaxError.
func Format(src []byte) ([]byte, error) { return FormatWith(src, Options{}) }

// FormatWith is Format with options.
func FormatWith(src []byte, opts Options) ([]byte, error) {
	root, release := cst.ParseScratch(binding.Language(), src)
	defer release()
	if err := check(root); err != nil {
		return nil, err
	}
	return FormatTree(src, root, opts), nil
}

// Parse parses src into the tree Format reads; it fails with a
// *SyntaxError when src has syntax errors.
func Parse(src []byte) (*cst.Node, error) {
	root := cst.Parse(binding.Language(), src)
	if err := check(root); err != nil {
		return nil, err
	}
	return root, nil
}

// check turns a tree the parser gave up on or with syntax errors into a
// *SyntaxError.
func check(root *cst.Node) error {
	if root == nil {
		return &SyntaxError{Offset: -1}
	}
	if root.HasError {
		return &SyntaxError{Offset: cst.FirstError(root)}
	}
	return nil
}

// FormatTree formats src given its tree (from Parse).
func FormatTree(src []byte, root *cst.Node, opts Options) []byte {
	if opts.IndentWidth <= 0 {
		opts.IndentWidth = IndentWidth
	}
	toks := tokens(root)
	d := layout(src, toks)
	out := doc.Print(d, doc.Options{Width: 1 << 30, IndentWidth: opts.IndentWidth, Tabs: opts.Tabs, SizeHint: len(src)})
	return append(out, '\n')
}
