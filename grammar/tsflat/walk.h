// Declarations shared by walk.c and tsflat.go. See tsflat.go for the
// package documentation.
#ifndef HARN_TSFLAT_WALK_H
#define HARN_TSFLAT_WALK_H

#include <stdbool.h>
#include <stdint.h>

// tsflat_node is one visible node of a tree, in preorder. 24 bytes.
typedef struct {
	uint32_t start_byte;
	uint32_t end_byte;
	uint32_t parent;      // index of the parent's record; UINT32_MAX for the root
	uint32_t child_count; // number of children (the records that name this one as parent)
	uint16_t symbol;      // ts_node_symbol: the public, alias-resolved symbol id
	uint16_t field;       // field id of the node in its parent, 0 for none
	uint16_t leaf_state;  // for ERROR nodes: ts_node_parse_state of the first leaf; else 0
	uint8_t flags;        // TSFLAT_* bits
	uint8_t reserved;
} tsflat_node;

enum {
	TSFLAT_NAMED = 1,
	TSFLAT_MISSING = 2,
	TSFLAT_EXTRA = 4,
	TSFLAT_ERROR = 8,
	TSFLAT_HAS_ERROR = 16,
	TSFLAT_ERROR_LEAF = 32, // an ERROR node with no children at all, hidden ones included
};

// tsflat_walk writes the records of the subtree at *root (a TSNode) into
// out, which has room for cap records, and returns the number of records
// written. A result larger than cap means the subtree did not fit: nothing
// usable was written and the caller must call again with room for at least
// that many records.
uint32_t tsflat_walk(const void *root, tsflat_node *out, uint32_t cap);

// tsflat_children writes the children of *parent (a TSNode), only its
// named ones when named is set, into out, an array of TSNode with room
// for cap, and returns how many there are; a result larger than cap means
// they did not fit and the caller must call again with room for that
// many.
uint32_t tsflat_children(const void *parent, void *out, uint32_t cap, bool named);

// tsflat_span is what tsflat_child_spans writes for one child, laid out
// as package tsflat's Span, into which it writes. 24 bytes.
typedef struct {
	uint32_t start_byte;
	uint32_t end_byte;
	uint64_t subtree;   // the child's Subtree value (tsflat_subtree)
	uint8_t has_error;  // 1 when ts_node_has_error, else 0
	uint8_t reserved[7];
} tsflat_span;

// tsflat_child_spans is tsflat_children writing, for each child, its
// span, its subtree and whether it has an error into out (cap records at
// most).
uint32_t tsflat_child_spans(const void *parent, tsflat_span *out, uint32_t cap, bool named);

// tsflat_subtree returns the Subtree value of *node (a TSNode): the
// pointer to its data, or a leaf's inline data. Two nodes of trees alive
// at the same time have the same value only when they are the same
// subtree (or equal leaves): an incremental reparse reuses an unchanged
// subtree of the old tree as it is. 0 for a null node.
uint64_t tsflat_subtree(const void *node);

// tsflat_direct_spans returns how many listings tsflat_child_spans read
// from the subtrees rather than with a cursor (for tests).
uint64_t tsflat_direct_spans(void);

#endif
