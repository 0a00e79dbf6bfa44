package harn

import (
	"github.com/harnlang/harn-check/format/doc"
	"github.com/harnlang/harn-check/format/internal/cst"
)

// Types and patterns never wrap (upstream writes them on one line); the
// generic layout's spacing gives upstream's spelling (`list<T>`,
// `{a: int, b?: string}`, `fn(A) -> B`, `{a, b: c}`).
func registerTypes(plain, aware func(string, func(*formatter, *cst.Node) *doc.Doc)) {
	aware("pattern_arguments", func(f *formatter, n *cst.Node) *doc.Doc {
		return f.bracketSeq(n, "(", ")", seqOptions{neverBreak: true})
	})
}
