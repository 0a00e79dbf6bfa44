// Declarations shared by parse.c and tsutil.go. See tsutil.go for the
// package documentation.
#ifndef HARN_TSUTIL_PARSE_H
#define HARN_TSUTIL_PARSE_H

#include <stdbool.h>
#include <stdint.h>

// harn_guard bounds one parse (Guard in tsutil.go): at most limit
// progress callbacks, and at most stall_limit in a row without reading
// further before the end of the n bytes of input.
typedef struct {
	int64_t n, limit, calls, stall, stall_limit;
	uint32_t reached;
	uint8_t stopped;
} harn_guard;

// harn_guard_step counts one progress callback at byte offset and
// returns whether the parse must stop.
bool harn_guard_step(harn_guard *g, uint32_t offset);

// harn_parse parses the n bytes at src with parser (a TSParser), reusing
// old_tree (a TSTree, already edited, or NULL), with no call back into Go:
// the input is read from src and the progress callback is g's. It returns
// the new TSTree, or NULL when the parse was stopped. src must stay valid
// and unchanged during the call only.
void *harn_parse(void *parser, const void *old_tree, const char *src, uint32_t n, harn_guard *g);

#endif
