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
//     memory allocated before the switch is still freed correctly. The
//     allocator counts the bytes it holds (Allocated), where the C library
//     tells a block's size: trees live outside the Go heap, and a server
//     that keeps them counts them against its memory budget.
//   - Parser.Parse hands the runtime the whole remaining input on every read
//     callback, and the binding copies what it hands into C memory each time;
//     incremental reparses read many times. ParseChunked feeds bounded chunks
//     instead.
//   - The binding's reads and progress callbacks are calls from C into Go,
//     each taking a process-wide lock to find its Go state (two workers
//     parsing at once waited on it). Parse and ParseGuarded read the input
//     and count progress in C (parse.c), with no call back into Go.
//
// The package must not know about any particular grammar.
package tsutil

/*
#include <stdlib.h>
#include <stddef.h>

#include "parse.h"

// Defined by the runtime compiled into github.com/tree-sitter/go-tree-sitter.
extern void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
                             void *(*new_realloc)(void *, size_t), void (*new_free)(void *));
extern void *(*ts_current_malloc)(size_t);
extern void *(*ts_current_calloc)(size_t, size_t);
extern void *(*ts_current_realloc)(void *, size_t);
extern void (*ts_current_free)(void *);

#include <stdatomic.h>
#if defined(__linux__)
#include <malloc.h>
#define HARN_BLOCK_SIZE(p) malloc_usable_size(p)
#elif defined(__APPLE__)
#include <malloc/malloc.h>
#define HARN_BLOCK_SIZE(p) malloc_size(p)
#else
#define HARN_BLOCK_SIZE(p) ((size_t)0)
#endif

// harn_ts_bytes is what the runtime's blocks take, as the C library sizes
// them. Each thread adds its changes once they reach HARN_FLUSH bytes
// either way (harn_pending), so that threads parsing at once do not
// contend for the counter; it is off by less than that per thread. A
// block allocated before the switch (or under the binding's allocator)
// and freed after it is subtracted without having been added: readers
// clamp at zero.
#define HARN_FLUSH (32 << 10)
static _Atomic long long harn_ts_bytes;
static _Thread_local long long harn_pending;

static void harn_add(long long delta) {
	harn_pending += delta;
	if (harn_pending >= HARN_FLUSH || harn_pending <= -HARN_FLUSH) {
		atomic_fetch_add_explicit(&harn_ts_bytes, harn_pending, memory_order_relaxed);
		harn_pending = 0;
	}
}

static void harn_count(void *p, long long sign) {
	if (p) harn_add(sign * (long long)HARN_BLOCK_SIZE(p));
}

static void *harn_malloc(size_t n) {
	void *p = malloc(n);
	harn_count(p, 1);
	return p;
}

static void *harn_calloc(size_t count, size_t n) {
	void *p = calloc(count, n);
	harn_count(p, 1);
	return p;
}

static void *harn_realloc(void *p, size_t n) {
	long long before = p ? (long long)HARN_BLOCK_SIZE(p) : 0;
	void *q = realloc(p, n);
	if (q || n == 0) {
		// Moved, resized or (n == 0) freed: p's block is gone.
		harn_add(-before);
		harn_count(q, 1);
	}
	return q;
}

static void harn_free(void *p) {
	harn_count(p, -1);
	free(p);
}

static void harn_use_libc_allocator(void) { ts_set_allocator(harn_malloc, harn_calloc, harn_realloc, harn_free); }

static int harn_allocator_is_libc(void) {
	return ts_current_malloc == harn_malloc && ts_current_calloc == harn_calloc &&
	       ts_current_realloc == harn_realloc && ts_current_free == harn_free;
}

static long long harn_allocated(void) { return atomic_load_explicit(&harn_ts_bytes, memory_order_relaxed); }
*/
import "C"

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// DefaultChunkSize is the number of bytes ParseChunked hands the runtime per read
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

// Allocated returns the bytes the tree-sitter runtime holds in blocks
// allocated since UseCAllocator: its trees, parsers, cursors and queries,
// memory the Go runtime neither sees nor counts against its soft limit.
// It is 0 where the C library does not tell a block's size (only Linux
// and macOS do), off by up to 32 KiB per thread that allocated, and
// inexact while the binding's allocator is in use.
func Allocated() int64 { return max(0, int64(C.harn_allocated())) }

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
// match src) when it is not nil. The runtime reads src in place, with no
// call back into Go, and the parser's work is bounded (see Budget and
// StallLimit), so that no input can keep it busy forever. It returns nil
// when the parser has no language or gave up; callers report that as a
// diagnostic.
func Parse(p *sitter.Parser, src []byte, oldTree *sitter.Tree) *sitter.Tree {
	tree, _ := ParseGuarded(p, src, oldTree)
	return tree
}

// ParseGuarded is Parse that also says where the parser gave up: the
// furthest byte offset it had reached when its work was cut short, or -1
// when it finished (or had no language).
func ParseGuarded(p *sitter.Parser, src []byte, oldTree *sitter.Tree) (*sitter.Tree, int) {
	g := NewGuard(len(src))
	var text *C.char
	if len(src) > 0 {
		text = (*C.char)(unsafe.Pointer(&src[0]))
	}
	var old unsafe.Pointer
	if oldTree != nil {
		old = innerOf(unsafe.Pointer(oldTree))
	}
	t := C.harn_parse(innerOf(unsafe.Pointer(p)), old, text, C.uint32_t(len(src)), &g.c)
	runtime.KeepAlive(src)
	runtime.KeepAlive(oldTree)
	runtime.KeepAlive(p)
	if t != nil {
		tree := new(sitter.Tree)
		*(*unsafe.Pointer)(unsafe.Pointer(tree)) = t
		return tree, -1
	}
	// A cancelled parse would otherwise be resumed by the next call, even
	// for different input.
	p.Reset()
	if !g.Stopped() {
		return nil, -1 // no language
	}
	return nil, g.Reached()
}

// innerOf reads the C object of a go-tree-sitter Parser or Tree: each is a
// struct whose only field is the pointer (checked at init).
func innerOf(x unsafe.Pointer) unsafe.Pointer { return *(*unsafe.Pointer)(x) }

func init() {
	for _, t := range []reflect.Type{reflect.TypeOf(sitter.Parser{}), reflect.TypeOf(sitter.Tree{})} {
		if t.NumField() != 1 || t.Field(0).Type.Kind() != reflect.Pointer || t.Size() != unsafe.Sizeof(uintptr(0)) {
			panic(fmt.Sprintf("tsutil: go-tree-sitter's %s layout changed (%d fields, %d bytes); tsutil needs updating", t.Name(), t.NumField(), t.Size()))
		}
	}
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

// StallLimit is how many progress callbacks in a row the parser may make
// without reading further into the input (before its end) until it is
// stopped. Error recovery can loop over the same few bytes: 3 MB of random
// printable text once kept the Leia parser busy for minutes around one
// offset, each callback costing up to 25 ms, so the per-byte budget alone
// bounds the work but not the time. On 1,324 real Harn and Leia programs,
// and on random text that parses, the longest run is 2 callbacks (about
// 200 operations); the limit is a thousand times that.
const StallLimit = 2000

// Budget returns the number of progress callbacks a parse of n bytes may
// take before it is cancelled.
func Budget(n int) int { return BudgetBase + BudgetPerByte*n }

// BudgetOptions returns parse options that cancel the parse once it has
// taken Budget(n) progress callbacks or stalled (StallLimit).
func BudgetOptions(n int) *sitter.ParseOptions { return NewGuard(n).Options() }

// Guard bounds one parse of n bytes: Budget(n) progress callbacks in all,
// and StallLimit in a row without progress before the end of the input.
type Guard struct {
	// c is the count, kept in C's layout so that a parse in C updates it
	// (parse.c's harn_guard_step, the one copy of the rules).
	c C.harn_guard
}

// NewGuard returns the guard of a parse of n bytes.
func NewGuard(n int) *Guard {
	return &Guard{c: C.harn_guard{n: C.int64_t(n), limit: C.int64_t(Budget(n)), stall_limit: StallLimit}}
}

// Options returns parse options whose progress callback is the guard's.
func (g *Guard) Options() *sitter.ParseOptions {
	return &sitter.ParseOptions{ProgressCallback: g.progress}
}

func (g *Guard) progress(s sitter.ParseState) bool {
	return bool(C.harn_guard_step(&g.c, C.uint32_t(s.CurrentByteOffset)))
}

// Stopped reports whether the guard cut the parse short.
func (g *Guard) Stopped() bool { return g.c.stopped != 0 }

// Calls returns the progress callbacks the parse has made.
func (g *Guard) Calls() int { return int(g.c.calls) }

// Reached returns the furthest byte offset the parser had read.
func (g *Guard) Reached() int { return int(g.c.reached) }

// CutBefore returns where to cut src so that a parse stopped at offset at
// can be redone on what comes before: the start of at's line, or of the
// line before when at is at a line start, or 0 when there is no earlier
// line.
func CutBefore(src []byte, at int) int {
	at = min(max(at, 0), len(src))
	cut := bytes.LastIndexByte(src[:at], '\n') + 1
	if cut == at && cut > 0 {
		cut = bytes.LastIndexByte(src[:cut-1], '\n') + 1
	}
	return cut
}

// GaveUpHere is the message of the diagnostic a front end puts where a
// parse that gave up stopped being checked (see CutBefore), notChecked
// bytes before the end of the file.
func GaveUpHere(notChecked int) string {
	return fmt.Sprintf("the parser gave up here: recovering from the syntax errors made no progress, so the rest of the file (%d bytes) is not checked", notChecked)
}

// ParseChunked parses through the binding's Go callbacks: it feeds src in
// chunks of chunkSize bytes (values below 1 mean DefaultChunkSize) and
// takes optional parse options (a progress callback in Go), without
// Parse's bound. Tests and benchmarks compare it with Parse.
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

// BracketDepthOver is BracketDepth for a caller that needs the depth
// only when it exceeds limit (over reports whether it does): a text with
// at most limit opening brackets, counted at memory speed, cannot nest
// deeper and is not scanned (depth 0, at -1). Every version of a document
// an editor changes is checked against the nesting limit this way.
func BracketDepthOver(src []byte, limit int) (depth, at int, over bool) {
	if bytes.Count(src, []byte{'('})+bytes.Count(src, []byte{'['})+bytes.Count(src, []byte{'{'}) <= limit {
		return 0, -1, false
	}
	depth, at = BracketDepth(src)
	return depth, at, depth > limit
}

// bracketByte marks the bytes BracketDepth looks at: brackets, quotes and
// the slash of a comment.
var bracketByte = func() (t [256]bool) {
	for _, c := range []byte("([{)]}\"'`/") {
		t[c] = true
	}
	return t
}()

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
		// Most bytes are none of the ones below: skip them in a tight
		// loop (the server scans every version of a document).
		for i < len(src) && !bracketByte[src[i]] {
			i++
		}
		if i == len(src) {
			break
		}
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
