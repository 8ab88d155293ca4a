/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inlines.h - lineloc's reader of inlined subroutines (inlines.c): which
 * chain of inlined calls holds at each address of an executable.
 */
#ifndef INLINES_H
#define INLINES_H

#include <stddef.h>
#include <stdint.h>

#include "tables.h"

#define INL_NONE UINT32_MAX

/*
 * A function instance with code: a subprogram (depth 0, no parent) or an
 * inlined subroutine, called at call_file:call_line of its parent.
 */
struct inl_node {
	const char *name;	/* NULL: no name found */
	uint64_t origin;	/* the DIE that names it (while reading) */
	uint32_t parent;	/* INL_NONE for a subprogram */
	uint32_t call_file;	/* a path id (tables.paths), or NOFILE */
	uint32_t call_line;
	uint32_t depth;
};

/* From @addr up to the next segment, @node is the innermost instance. */
struct inl_seg {
	uint64_t addr;
	uint32_t node;		/* INL_NONE: no function here */
};

struct inlines {
	struct inl_node *node;
	size_t n, cap;
	struct inl_seg *seg;
	size_t nseg, segcap;
	/* what was read: counts for --inline-stats */
	uint64_t nranges, units_unreadable, inlined, unnamed, max_depth;
};

void read_inlines(struct tables *t, struct inlines *in);
uint32_t inl_at(const struct inlines *in, uint64_t addr);

#endif /* INLINES_H */
