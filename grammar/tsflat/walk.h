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

// tsflat_child_spans is tsflat_children writing, for each child, three
// words to out (3*cap of them at most): its start byte, its end byte and
// 1 when it has an error (ts_node_has_error), else 0.
uint32_t tsflat_child_spans(const void *parent, uint32_t *out, uint32_t cap, bool named);

#endif
