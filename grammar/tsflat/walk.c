// The C half of package tsflat: one cursor walk over a tree-sitter tree that
// records every visible node, so that Go pays one cgo call per tree instead
// of several per node.

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "walk.h"

// The runtime compiled into github.com/tree-sitter/go-tree-sitter (v0.25.0)
// defines these; the layouts are those of its tree_sitter/api.h, and
// tsflat.go checks at init that the Go binding's Node has the same size.
typedef struct {
	uint32_t context[4];
	const void *id;
	const void *tree;
} tsflat_ts_node;

typedef struct {
	const void *tree;
	const void *id;
	uint32_t context[3];
} tsflat_ts_cursor;

extern tsflat_ts_cursor ts_tree_cursor_new(tsflat_ts_node node);
extern void ts_tree_cursor_delete(tsflat_ts_cursor *self);
extern tsflat_ts_node ts_tree_cursor_current_node(const tsflat_ts_cursor *self);
extern uint16_t ts_tree_cursor_current_field_id(const tsflat_ts_cursor *self);
extern bool ts_tree_cursor_goto_first_child(tsflat_ts_cursor *self);
extern bool ts_tree_cursor_goto_next_sibling(tsflat_ts_cursor *self);
extern bool ts_tree_cursor_goto_parent(tsflat_ts_cursor *self);
extern uint16_t ts_node_symbol(tsflat_ts_node self);
extern uint32_t ts_node_start_byte(tsflat_ts_node self);
extern uint32_t ts_node_end_byte(tsflat_ts_node self);
extern bool ts_node_is_named(tsflat_ts_node self);
extern bool ts_node_is_missing(tsflat_ts_node self);
extern bool ts_node_is_extra(tsflat_ts_node self);
extern bool ts_node_is_error(tsflat_ts_node self);
extern bool ts_node_has_error(tsflat_ts_node self);
extern uint32_t ts_node_child_count(tsflat_ts_node self);
extern tsflat_ts_node ts_node_child(tsflat_ts_node self, uint32_t index);
extern uint16_t ts_node_parse_state(tsflat_ts_node self);
extern uint32_t ts_node_descendant_count(tsflat_ts_node self);

// tsflat_subtree_head is the start of the runtime's SubtreeHeapData (its
// src/subtree.h in go-tree-sitter v0.25.0), up to child_count, which
// counts hidden children too. The public ts_node_child_count counts only
// visible ones, and ts_node_string prints "(UNEXPECTED c)" for an ERROR
// node whose child_count is 0: an ERROR node holding only hidden children
// has no visible child yet prints as "(ERROR)". An ERROR subtree is never
// inline (its symbol does not fit the inline form), so node.id points at
// a Subtree holding a pointer to this data.
typedef struct {
	uint32_t bytes;
	uint32_t row;
	uint32_t column;
} tsflat_length;

typedef struct {
	uint32_t ref_count;
	tsflat_length padding;
	tsflat_length size;
	uint32_t lookahead_bytes;
	uint32_t error_cost;
	uint32_t child_count;
} tsflat_subtree_head;

// error_has_no_children reports whether the ERROR node n has no children,
// hidden ones included.
static bool error_has_no_children(tsflat_ts_node n) {
	const tsflat_subtree_head *const *subtree = (const tsflat_subtree_head *const *)n.id;
	const tsflat_subtree_head *data = *subtree;
	if (((uintptr_t)data & 1) != 0) {
		return true; // an inline subtree has no children
	}
	return data->child_count == 0;
}

// first_leaf_state is the parse state of the first leaf under n, found
// the way the Go binding's Child(0) descent finds it.
static uint16_t first_leaf_state(tsflat_ts_node n) {
	while (ts_node_child_count(n) > 0) {
		tsflat_ts_node c = ts_node_child(n, 0);
		if (c.id == NULL) {
			break;
		}
		n = c;
	}
	return ts_node_parse_state(n);
}

uint32_t tsflat_walk(const void *root, tsflat_node *out, uint32_t cap) {
	const tsflat_ts_node *r = (const tsflat_ts_node *)root;
	if (r->id == NULL) {
		return 0;
	}
	// The runtime keeps the number of visible descendants in each node, so
	// a buffer that is too small costs no walk. Should that number ever
	// fall short of what the walk visits, the walk below still counts
	// every node.
	uint32_t hint = ts_node_descendant_count(*r);
	if (hint > cap) {
		return hint;
	}
	tsflat_ts_cursor c = ts_tree_cursor_new(*r);
	uint32_t n = 0;
	uint32_t parent = UINT32_MAX;
	// Once the records no longer fit, the walk only counts: the parent
	// chain lives in the records, so it is not followed any more.
	bool fits = true;
	for (;;) {
		if (n >= cap) {
			fits = false;
		}
		if (fits) {
			tsflat_ts_node node = ts_tree_cursor_current_node(&c);
			tsflat_node *rec = &out[n];
			rec->start_byte = ts_node_start_byte(node);
			rec->end_byte = ts_node_end_byte(node);
			rec->parent = parent;
			rec->child_count = 0;
			rec->symbol = ts_node_symbol(node);
			rec->field = ts_tree_cursor_current_field_id(&c);
			rec->leaf_state = 0;
			rec->reserved = 0;
			uint8_t flags = 0;
			if (ts_node_is_named(node)) flags |= TSFLAT_NAMED;
			if (ts_node_is_missing(node)) flags |= TSFLAT_MISSING;
			if (ts_node_is_extra(node)) flags |= TSFLAT_EXTRA;
			if (ts_node_has_error(node)) flags |= TSFLAT_HAS_ERROR;
			if (ts_node_is_error(node)) {
				flags |= TSFLAT_ERROR;
				if (error_has_no_children(node)) flags |= TSFLAT_ERROR_LEAF;
				rec->leaf_state = first_leaf_state(node);
			}
			rec->flags = flags;
			if (parent != UINT32_MAX) {
				out[parent].child_count++;
			}
		}
		uint32_t self = n++;
		if (ts_tree_cursor_goto_first_child(&c)) {
			parent = self;
			continue;
		}
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) {
				break;
			}
			if (!ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return n;
			}
			if (fits) {
				parent = out[parent].parent;
			}
		}
	}
}

uint32_t tsflat_children(const void *parent, void *out, uint32_t cap, bool named) {
	const tsflat_ts_node *p = (const tsflat_ts_node *)parent;
	if (p->id == NULL) {
		return 0;
	}
	tsflat_ts_node *nodes = (tsflat_ts_node *)out;
	uint32_t n = 0;
	tsflat_ts_cursor c = ts_tree_cursor_new(*p);
	if (ts_tree_cursor_goto_first_child(&c)) {
		do {
			tsflat_ts_node x = ts_tree_cursor_current_node(&c);
			if (named && !ts_node_is_named(x)) {
				continue;
			}
			if (n < cap) {
				nodes[n] = x;
			}
			n++;
		} while (ts_tree_cursor_goto_next_sibling(&c));
	}
	ts_tree_cursor_delete(&c);
	return n;
}

// The runtime's Subtree (src/subtree.h of go-tree-sitter v0.25.0), read
// by child_spans_direct to list a node's visible children without a
// cursor: a union of a pointer to the data below and, for a small leaf,
// the data inline (is_inline set, in the pointer's lowest bit).
typedef struct {
	bool is_inline : 1;
	bool visible : 1;
	bool named : 1;
	bool extra : 1;
	bool has_changes : 1;
	bool is_missing : 1;
	bool is_keyword : 1;
	uint8_t symbol;
	uint16_t parse_state;
	uint8_t padding_columns;
	uint8_t padding_rows : 4;
	uint8_t lookahead_bytes : 4;
	uint8_t padding_bytes;
	uint8_t size_bytes;
} tsflat_inline_data;

typedef struct {
	uint32_t ref_count;
	tsflat_length padding;
	tsflat_length size;
	uint32_t lookahead_bytes;
	uint32_t error_cost;
	uint32_t child_count;
	uint16_t symbol;
	uint16_t parse_state;
	bool visible : 1;
	bool named : 1;
	bool extra : 1;
	bool fragile_left : 1;
	bool fragile_right : 1;
	bool has_changes : 1;
	bool has_external_tokens : 1;
	bool has_external_scanner_state_change : 1;
	bool depends_on_column : 1;
	bool is_missing : 1;
	bool is_keyword : 1;
	union {
		struct {
			uint32_t visible_child_count;
			uint32_t named_child_count;
			uint32_t visible_descendant_count;
			int32_t dynamic_precedence;
			uint16_t repeat_depth;
			uint16_t production_id;
			struct {
				uint16_t symbol;
				uint16_t parse_state;
			} first_leaf;
		};
		struct {
			union {
				char *long_data;
				char short_data[24];
			};
			uint32_t length;
		} external_scanner_state;
		int32_t lookahead_char;
	};
} tsflat_subtree_data;

typedef union {
	tsflat_inline_data data;
	const tsflat_subtree_data *ptr;
} tsflat_subtree_t;

// child_spans_failed is child_spans_direct's answer when it cannot list
// the children (the cursor walk does).
#define CHILD_SPANS_FAILED UINT32_MAX

// child_spans_direct is tsflat_child_spans for all the visible children
// of *p, read from the subtrees: a file's top level is a balanced tree of
// hidden repetition nodes over thousands of statements, which the cursor
// walks several times slower. It descends hidden nodes with visible
// children as the runtime's child iterator does, and gives up where an
// alias could make a hidden child visible (a production with aliases), or
// the hidden nodes nest deeper than its stack.
static uint64_t direct_spans = 0;

uint64_t tsflat_direct_spans(void) { return __atomic_load_n(&direct_spans, __ATOMIC_RELAXED); }

static uint32_t child_spans_direct(const tsflat_ts_node *p, tsflat_span *out, uint32_t cap) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	__atomic_fetch_add(&direct_spans, 1, __ATOMIC_RELAXED);
	tsflat_subtree_t root = *(const tsflat_subtree_t *)p->id;
	if (root.data.is_inline || root.ptr->child_count == 0) {
		return 0;
	}
	enum { max_depth = 64 };
	struct {
		const tsflat_subtree_data *node;
		uint32_t index;
	} stack[max_depth];
	int depth = 0;
	if (root.ptr->production_id != 0) {
		return CHILD_SPANS_FAILED;
	}
	stack[depth].node = root.ptr;
	stack[depth].index = 0;
	depth++;
	uint32_t pos = ts_node_start_byte(*p);
	uint32_t n = 0;
	while (depth > 0) {
		const tsflat_subtree_data *node = stack[depth - 1].node;
		uint32_t index = stack[depth - 1].index;
		if (index == node->child_count) {
			depth--;
			continue;
		}
		stack[depth - 1].index++;
		const tsflat_subtree_t *slot = (const tsflat_subtree_t *)node - node->child_count + index;
		tsflat_subtree_t c = *slot;
		bool inl = c.data.is_inline;
		if (index > 0) {
			pos += inl ? c.data.padding_bytes : c.ptr->padding.bytes;
		}
		uint32_t size = inl ? c.data.size_bytes : c.ptr->size.bytes;
		if (inl ? c.data.visible : c.ptr->visible) {
			if (n < cap) {
				tsflat_ts_node x = {{pos, 0, 0, 0}, slot, p->tree};
				out[n].start_byte = pos;
				out[n].end_byte = pos + size;
				out[n].subtree = tsflat_subtree(&x);
				out[n].has_error = ts_node_has_error(x) ? 1 : 0;
			}
			n++;
			pos += size;
			continue;
		}
		if (!inl && c.ptr->child_count > 0 && c.ptr->visible_child_count > 0) {
			if (c.ptr->production_id != 0 || depth == max_depth) {
				return CHILD_SPANS_FAILED;
			}
			// The hidden node's first child starts where it does.
			stack[depth].node = c.ptr;
			stack[depth].index = 0;
			depth++;
			continue;
		}
		pos += size; // a hidden node without visible children
	}
	return n;
#else
	(void)p;
	(void)out;
	(void)cap;
	return CHILD_SPANS_FAILED;
#endif
}

uint32_t tsflat_child_spans(const void *parent, tsflat_span *out, uint32_t cap, bool named) {
	const tsflat_ts_node *p = (const tsflat_ts_node *)parent;
	if (p->id == NULL) {
		return 0;
	}
	if (!named) {
		uint32_t n = child_spans_direct(p, out, cap);
		if (n != CHILD_SPANS_FAILED) {
			return n;
		}
	}
	uint32_t n = 0;
	tsflat_ts_cursor c = ts_tree_cursor_new(*p);
	if (ts_tree_cursor_goto_first_child(&c)) {
		do {
			tsflat_ts_node x = ts_tree_cursor_current_node(&c);
			if (named && !ts_node_is_named(x)) {
				continue;
			}
			if (n < cap) {
				out[n].start_byte = ts_node_start_byte(x);
				out[n].end_byte = ts_node_end_byte(x);
				out[n].subtree = tsflat_subtree(&x);
				out[n].has_error = ts_node_has_error(x) ? 1 : 0;
			}
			n++;
		} while (ts_tree_cursor_goto_next_sibling(&c));
	}
	ts_tree_cursor_delete(&c);
	return n;
}

uint64_t tsflat_subtree(const void *node) {
	const tsflat_ts_node *n = (const tsflat_ts_node *)node;
	if (n->id == NULL) {
		return 0;
	}
	// node.id points at the Subtree (a union of a pointer and a leaf's
	// inline data, 8 bytes) in its parent's children or the tree's root.
	uint64_t v = 0;
	memcpy(&v, n->id, sizeof v);
	return v;
}
