// Package tsflat copies a tree-sitter tree into Go memory in one cgo call:
// a C cursor walk fills a flat, preorder array of node records (symbol,
// span, flags, field, parent, child count), and the language's symbol and
// field names come from tables read once per language. Callers build their
// own Go node types from the records without calling into C again.
//
// It exists because the obvious Go walk (go-tree-sitter's TreeCursor and
// Node methods) makes several cgo calls per node, which dominated the cost
// of copying a tree (BENCHMARKS.md, "Harn front end").
//
// The package knows no grammar. It depends on the C runtime and memory
// layout of github.com/tree-sitter/go-tree-sitter v0.25.0: the runtime's
// functions are linked from that module, and a *sitter.Node is read as a
// pointer to the runtime's TSNode (checked at init).
package tsflat

/*
#include "walk.h"
*/
import "C"

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Flag bits of Record.Flags.
const (
	Named    = C.TSFLAT_NAMED     // ts_node_is_named
	Missing  = C.TSFLAT_MISSING   // ts_node_is_missing
	Extra    = C.TSFLAT_EXTRA     // ts_node_is_extra
	Error    = C.TSFLAT_ERROR     // ts_node_is_error (an ERROR node)
	HasError = C.TSFLAT_HAS_ERROR // ts_node_has_error (an ERROR or MISSING node inside, or the node itself)
	// ErrorLeaf marks an ERROR node with no children at all, hidden ones
	// included (ChildCount counts only visible ones).
	ErrorLeaf = C.TSFLAT_ERROR_LEAF
)

// NoParent is Record.Parent of the walk's root.
const NoParent = ^uint32(0)

// Record is one visible node of a tree. Records come in preorder: a node's
// children follow it, each child's subtree before the next child.
type Record struct {
	StartByte, EndByte uint32
	// Parent is the index of the parent's record, NoParent for the root.
	Parent uint32
	// ChildCount is the number of records whose Parent is this one, the
	// node's ChildCount in go-tree-sitter terms.
	ChildCount uint32
	// Symbol is the node's KindId (aliases resolved, public symbol).
	Symbol uint16
	// Field is the id of the node's field in its parent, 0 for none.
	Field uint16
	// LeafState is set for ERROR nodes only: the ParseState of the node's
	// first leaf (the Child(0) descent), where the parser's expectations
	// for the error can be looked up.
	LeafState uint16
	// Flags holds the Named, Missing, Extra, Error and HasError bits.
	Flags uint8
	_     uint8
}

// The Go and C records must agree byte for byte.
var _ [unsafe.Sizeof(Record{}) - unsafe.Sizeof(C.tsflat_node{})]struct{}
var _ [unsafe.Sizeof(C.tsflat_node{}) - unsafe.Sizeof(Record{})]struct{}

// tsNodeSize is sizeof(TSNode) in the runtime's api.h: four uint32 of
// context, then the id and tree pointers.
const tsNodeSize = 16 + 2*unsafe.Sizeof(uintptr(0))

func init() {
	// go-tree-sitter's Node is a struct whose only field is the C TSNode;
	// Walk reads it through a pointer. A different layout in another
	// version of the binding must fail loudly, not read garbage.
	t := reflect.TypeOf(sitter.Node{})
	if t.NumField() != 1 || t.Size() != tsNodeSize || t.Field(0).Offset != 0 {
		panic(fmt.Sprintf("tsflat: go-tree-sitter's Node layout changed (%d fields, %d bytes); tsflat needs updating", t.NumField(), t.Size()))
	}
}

// Walk returns the records of the subtree at root, reusing buf's storage
// when it is large enough. A nil root gives no records. It makes one cgo
// call, two when buf is too small.
func Walk(root *sitter.Node, buf []Record) []Record {
	if root == nil {
		return buf[:0]
	}
	if cap(buf) == 0 {
		buf = make([]Record, 1024)
	}
	node := cNode(root)
	for {
		buf = buf[:cap(buf)]
		n := int(C.tsflat_walk(unsafe.Pointer(node), (*C.tsflat_node)(unsafe.Pointer(&buf[0])), C.uint32_t(len(buf))))
		runtime.KeepAlive(node)
		if n <= len(buf) {
			return buf[:n]
		}
		buf = make([]Record, n)
	}
}

// cNode copies the node n points to into an allocation of its own
// before its address goes to C. n may point into a large slice (the
// result of Children, say), and cgo's pointer check scans the whole Go
// allocation an unsafe.Pointer argument lands in: walking each of 50,000
// top-level children through a pointer into their slice scanned the
// slice 50,000 times (a hover on a 3 MiB file took 38 s of CPU).
func cNode(n *sitter.Node) *sitter.Node {
	c := new(sitter.Node)
	*c = *n
	return c
}

// NamedChildren returns the named children of parent, in order, reusing
// buf's storage when it is large enough: one cgo call (two when buf is
// too small), where go-tree-sitter's Node.NamedChild costs one call per
// child and time growing with its index.
func NamedChildren(parent *sitter.Node, buf []sitter.Node) []sitter.Node {
	return children(parent, buf, true)
}

// Children is NamedChildren for all the children of parent, named or not.
func Children(parent *sitter.Node, buf []sitter.Node) []sitter.Node {
	return children(parent, buf, false)
}

func children(parent *sitter.Node, buf []sitter.Node, named bool) []sitter.Node {
	if parent == nil {
		return buf[:0]
	}
	if cap(buf) == 0 {
		// The count is kept in the tree (one call, no walk): a buffer of
		// its size takes one walk, where a small one took two.
		buf = make([]sitter.Node, max(1, childCount(parent, named)))
	}
	node := cNode(parent)
	for {
		buf = buf[:cap(buf)]
		n := int(C.tsflat_children(unsafe.Pointer(node), unsafe.Pointer(&buf[0]), C.uint32_t(len(buf)), C.bool(named)))
		runtime.KeepAlive(node)
		if n <= len(buf) {
			return buf[:n]
		}
		buf = make([]sitter.Node, n)
	}
}

// Names holds a language's symbol and field names, read once.
type Names struct {
	lang    *sitter.Language
	symbols []string // by symbol id; ERROR's id is outside the table
	fields  []string // by field id; index 0, no field, is ""
	extra   sync.Map // uint16 -> string, symbols outside the table
}

var names sync.Map // *sitter.Language -> *Names

// NamesOf returns the name tables of lang, reading them on first use.
func NamesOf(lang *sitter.Language) *Names {
	if v, ok := names.Load(lang); ok {
		return v.(*Names)
	}
	n := &Names{lang: lang}
	n.symbols = make([]string, lang.NodeKindCount())
	for id := range n.symbols {
		n.symbols[id] = lang.NodeKindForId(uint16(id))
	}
	n.fields = make([]string, lang.FieldCount()+1)
	for id := 1; id < len(n.fields); id++ {
		n.fields[id] = lang.FieldNameForId(uint16(id))
	}
	v, _ := names.LoadOrStore(lang, n)
	return v.(*Names)
}

// Symbol returns the name of symbol id (a node's Kind).
func (n *Names) Symbol(id uint16) string {
	if int(id) < len(n.symbols) {
		return n.symbols[id]
	}
	if v, ok := n.extra.Load(id); ok {
		return v.(string)
	}
	s := n.lang.NodeKindForId(id)
	n.extra.Store(id, s)
	return s
}

// Field returns the name of field id, "" for 0 or an unknown id.
func (n *Names) Field(id uint16) string {
	if int(id) < len(n.fields) {
		return n.fields[id]
	}
	return ""
}

// childCount returns how many children, or named children, parent has.
func childCount(parent *sitter.Node, named bool) int {
	if named {
		return int(parent.NamedChildCount())
	}
	return int(parent.ChildCount())
}

// Span is a node's byte range, whether it holds a syntax error
// (ts_node_has_error), and its subtree (see Subtree).
type Span struct {
	Start, End uint32
	Subtree    uint64
	HasError   bool
}

// ChildSpans' C half writes Spans: the layouts must agree.
var (
	_ [unsafe.Sizeof(C.tsflat_span{}) - unsafe.Sizeof(Span{})]struct{}
	_ [unsafe.Sizeof(Span{}) - unsafe.Sizeof(C.tsflat_span{})]struct{}
	_ [unsafe.Offsetof(C.tsflat_span{}.subtree) - unsafe.Offsetof(Span{}.Subtree)]struct{}
	_ [unsafe.Offsetof(Span{}.Subtree) - unsafe.Offsetof(C.tsflat_span{}.subtree)]struct{}
	_ [unsafe.Offsetof(C.tsflat_span{}.has_error) - unsafe.Offsetof(Span{}.HasError)]struct{}
	_ [unsafe.Offsetof(Span{}.HasError) - unsafe.Offsetof(C.tsflat_span{}.has_error)]struct{}
)

// ChildSpans returns the spans of the children of parent, in order (of
// its named children only when named is set), in one walk: what
// go-tree-sitter's StartByte, EndByte and HasError cost three cgo calls a
// child for. The walk writes the spans in place.
func ChildSpans(parent *sitter.Node, named bool) []Span {
	if parent == nil {
		return nil
	}
	out := make([]Span, max(1, childCount(parent, named)))
	node := cNode(parent)
	for {
		n := int(C.tsflat_child_spans(unsafe.Pointer(node), (*C.tsflat_span)(unsafe.Pointer(&out[0])), C.uint32_t(len(out)), C.bool(named)))
		runtime.KeepAlive(node)
		if n <= len(out) {
			return out[:n]
		}
		out = make([]Span, n)
	}
}

// directSpans returns how many listings of ChildSpans were read from the
// subtrees rather than with a cursor (for tests).
func directSpans() uint64 { return uint64(C.tsflat_direct_spans()) }

// Subtree identifies the subtree of node n within the tree-sitter runtime
// (0 for nil): two nodes, of trees alive at the same time, have the same
// value only when they are the same subtree, so the same text parsed the
// same way (or equal leaves). An incremental reparse reuses the subtrees
// an edit did not reach as they are: a node of the new tree with the
// subtree of a node of the old one has the same structure, wherever it
// now starts.
func Subtree(n *sitter.Node) uint64 {
	if n == nil {
		return 0
	}
	return uint64(C.tsflat_subtree(unsafe.Pointer(cNode(n))))
}

// ChildAt returns the child of parent spanning [start, end) (a named
// child when named is set), nil when there is none or the span is empty.
// It descends from parent to the child in a few steps where listing the
// children (Children, ChildSpans) walks them all: a file's top level has
// thousands.
func ChildAt(parent *sitter.Node, start, end uint32, named bool) *sitter.Node {
	if parent == nil || end <= start {
		return nil
	}
	// The first child ending after start: the one starting there, as
	// children do not overlap and an empty one ends where it starts.
	var c *sitter.Node
	if named {
		c = parent.FirstNamedChildForByte(uint(start))
	} else {
		c = parent.FirstChildForByte(uint(start))
	}
	if c == nil || uint32(c.StartByte()) != start || uint32(c.EndByte()) != end {
		return nil
	}
	return c
}
