// The C half of tsutil's parse: tree-sitter reads the input and reports
// progress through C functions, so a parse makes no cgo callback into Go
// and takes no lock of the Go binding (go-tree-sitter routes both through
// Go callbacks and a global handle table).

#include <stddef.h>

#include "parse.h"

// The runtime compiled into github.com/tree-sitter/go-tree-sitter
// (v0.25.0) defines ts_parser_parse_with_options; these structs have the
// layouts of its tree_sitter/api.h (TSPoint, TSInput, TSParseState,
// TSParseOptions).
typedef struct {
	uint32_t row;
	uint32_t column;
} harn_point;

typedef struct {
	void *payload;
	const char *(*read)(void *payload, uint32_t byte_index, harn_point position, uint32_t *bytes_read);
	int encoding; // TSInputEncodingUTF8 is 0
	void *decode;
} harn_input;

typedef struct {
	void *payload;
	uint32_t current_byte_offset;
	bool has_error;
} harn_parse_state;

typedef struct {
	void *payload;
	bool (*progress_callback)(harn_parse_state *state);
} harn_parse_options;

extern void *ts_parser_parse_with_options(void *self, const void *old_tree, harn_input input, harn_parse_options options);

typedef struct {
	const char *src;
	uint32_t n;
} harn_text;

bool harn_guard_step(harn_guard *g, uint32_t offset) {
	g->calls++;
	if (offset > g->reached) {
		g->reached = offset;
		g->stall = 0;
	} else if ((int64_t)g->reached < g->n) {
		// At the end of the input the parser finishes its stack and
		// balances the tree without reading: that is not a stall.
		g->stall++;
	}
	if (g->calls > g->limit || g->stall > g->stall_limit) {
		g->stopped = 1;
	}
	return g->stopped;
}

static bool harn_progress(harn_parse_state *s) {
	return harn_guard_step((harn_guard *)s->payload, s->current_byte_offset);
}

static const char *harn_read(void *payload, uint32_t byte_index, harn_point position, uint32_t *bytes_read) {
	(void)position;
	const harn_text *t = (const harn_text *)payload;
	if (byte_index >= t->n) {
		*bytes_read = 0;
		return "";
	}
	*bytes_read = t->n - byte_index;
	return t->src + byte_index;
}

void *harn_parse(void *parser, const void *old_tree, const char *src, uint32_t n, harn_guard *g) {
	harn_text text = {src, n};
	harn_input input = {&text, harn_read, 0, NULL};
	harn_parse_options options = {g, harn_progress};
	return ts_parser_parse_with_options(parser, old_tree, input, options);
}
