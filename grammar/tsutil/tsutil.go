// Package tsutil is the one place where harn-check tunes the tree-sitter
// runtime of github.com/tree-sitter/go-tree-sitter (v0.25.0). Every package
// that parses with tree-sitter imports it and parses through Parse.
//
// Two measured costs of the binding are removed:
//
//   - The binding routes every runtime malloc/calloc/realloc/free through a Go
//     callback (a cgo round trip each). Importing tsutil points the runtime at
//     the C library's allocator instead, after the binding's own init has run.
//     The binding's callbacks allocate with the same C library functions, so
//     memory allocated before the switch is still freed correctly.
//   - Parser.Parse hands the runtime the whole remaining input on every read
//     callback, and the binding copies what it hands into C memory each time;
//     incremental reparses read many times. Parse feeds bounded chunks instead.
//
// The package must not know about any particular grammar.
package tsutil

/*
#include <stdlib.h>
#include <stddef.h>

// Defined by the runtime compiled into github.com/tree-sitter/go-tree-sitter.
extern void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
                             void *(*new_realloc)(void *, size_t), void (*new_free)(void *));
extern void *(*ts_current_malloc)(size_t);
extern void *(*ts_current_calloc)(size_t, size_t);
extern void *(*ts_current_realloc)(void *, size_t);
extern void (*ts_current_free)(void *);

static void harn_use_libc_allocator(void) { ts_set_allocator(malloc, calloc, realloc, free); }

static int harn_allocator_is_libc(void) {
	return ts_current_malloc == malloc && ts_current_calloc == calloc &&
	       ts_current_realloc == realloc && ts_current_free == free;
}
*/
import "C"

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// DefaultChunkSize is the number of bytes Parse hands the runtime per read
// callback. 4 KiB was the best of the sizes measured in the generator
// reference (section 6).
const DefaultChunkSize = 4096

func init() {
	UseCAllocator()
}

// UseCAllocator makes the tree-sitter runtime allocate with the C library's
// malloc, calloc, realloc and free. Importing the package already does this;
// calling it again is harmless.
func UseCAllocator() {
	C.harn_use_libc_allocator()
}

// UseBindingAllocator restores the binding's default allocator (Go callbacks
// that call the C library). It exists so that benchmarks can measure both
// paths in one run; production code never needs it.
func UseBindingAllocator() {
	sitter.SetAllocator(nil, nil, nil, nil)
}

// UsingCAllocator reports whether the runtime currently allocates with the C
// library directly.
func UsingCAllocator() bool {
	return C.harn_allocator_is_libc() != 0
}

// Parse parses src with p, reusing oldTree (already edited with Tree.Edit to
// match src) when it is not nil. It feeds the input in DefaultChunkSize
// chunks and bounds the parser's work (see Budget), so that no input can
// keep it busy forever. It returns nil when the parser has no language or
// the budget ran out; callers report that as a diagnostic.
func Parse(p *sitter.Parser, src []byte, oldTree *sitter.Tree) *sitter.Tree {
	return ParseChunked(p, src, oldTree, DefaultChunkSize, BudgetOptions(len(src)))
}

// The runtime calls the progress callback about every 100 parse
// operations; a clean parse of Harn source takes about 0.006 calls per
// byte and one full of errors barely more. The budget allows a fixed
// BudgetBase calls plus BudgetPerByte per input byte, hundreds of times
// what real input needs, and stops only runaway error recovery.
const (
	BudgetBase    = 10000
	BudgetPerByte = 2
)

// Budget returns the number of progress callbacks a parse of n bytes may
// take before it is cancelled.
func Budget(n int) int { return BudgetBase + BudgetPerByte*n }

// BudgetOptions returns parse options that cancel the parse once it has
// taken Budget(n) progress callbacks.
func BudgetOptions(n int) *sitter.ParseOptions {
	limit, calls := Budget(n), 0
	return &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool {
		calls++
		return calls > limit
	}}
}

// ParseChunked is Parse with an explicit chunk size (values below 1 mean
// DefaultChunkSize) and optional parse options (progress callback).
func ParseChunked(p *sitter.Parser, src []byte, oldTree *sitter.Tree, chunkSize int, opts *sitter.ParseOptions) *sitter.Tree {
	if chunkSize < 1 {
		chunkSize = DefaultChunkSize
	}
	n := len(src)
	read := func(offset int, _ sitter.Point) []byte {
		if offset >= n || offset < 0 {
			return nil
		}
		return src[offset:min(n, offset+chunkSize)]
	}
	tree := p.ParseWithOptions(read, oldTree, opts)
	if tree == nil {
		// A cancelled parse would otherwise be resumed by the next call,
		// even for different input.
		p.Reset()
	}
	return tree
}

// BracketDepth returns the deepest nesting of (, [ and { in src and the
// offset of the bracket that first reaches it, skipping string literals
// ("...", '...', `...`) and comments (// and /* */) the way Harn and Leia
// write them. It is a cheap lexical bound taken before parsing: input
// nested far beyond any nesting limit is refused without building a
// parse tree whose size and parse time grow with the depth. Brackets in
// constructs it does not know (raw strings, long brackets) may be
// counted, which only ever makes the bound larger; callers compare it
// with a threshold well above their real limit.
func BracketDepth(src []byte) (depth, at int) {
	d := 0
	at = -1
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '(', '[', '{':
			d++
			if d > depth {
				depth, at = d, i
			}
		case ')', ']', '}':
			if d > 0 {
				d--
			}
		case '"', '\'', '`':
			for i++; i < len(src) && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				} else if c != '`' && (src[i] == '\n' || src[i] == '\r') {
					break
				}
			}
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' && src[i] != '\r' {
					i++
				}
			} else if i+1 < len(src) && src[i+1] == '*' {
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					return depth, at
				}
				i += end + 3
			}
		}
	}
	return depth, at
}
