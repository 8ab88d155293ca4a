/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktable.h - vmlinux's compact line tables (ktable.c)
 */
#ifndef KTABLE_H
#define KTABLE_H

#include "tables.h"
#include "rows.h"
#include <linux/lineloc/table.h>

/*
 * Rows per block of the kernel's tables: a lookup decodes one block; on
 * Debian's 6.1 vmlinux, 64 rows a block took 0.65-0.9 us a lookup on an
 * x86_64 host, 128 rows about 1.1 us.
 */
#define KTABLE_BLOCK	64

/*
 * The kernel's two regions, as kallsyms has them: the text, _text to
 * _etext, offsets from _text, and the init text, _sinittext to
 * _einittext, offsets from _sinittext.
 */
#define NREGIONS 2

struct region {
	const char *lo_sym, *hi_sym;
	uint64_t lo, hi;
	uint32_t bias;		/* its offset in the table */
	size_t n;		/* rows read */
};

/*
 * Chains of inlined calls for the table (lineloc_encode_calls()): from
 * each @seg_addr up to the next, @seg_inl holds (1 + an instance, or 0);
 * at most LINELOC_MAX_DEPTH levels.
 */
struct ktable_inl {
	const uint64_t *seg_addr;
	const uint32_t *seg_inl;
	size_t nseg;
	struct lineloc_calls calls;	/* without row_inl */
};

struct ktable {
	struct tables *t;
	struct row_set c;
	struct region r[NREGIONS];
	struct lineloc_row *rows;	/* both regions' */
	int chains;			/* with chains of inlined calls */
	uint32_t *row_inl;		/* then each row's */
	size_t n, cap, icap;
	size_t rows_split;		/* rows added where a chain changes */
	u8 *tab;
	size_t size;
	struct lineloc_stats st;
	const char **paths;	/* the shown paths, then "??" */
	size_t npaths;
	size_t dropped;		/* rows outside both regions */
	size_t total;		/* bytes of the container */
};

void ktable_build(struct ktable *k, struct tables *t, uint32_t block,
		  const struct ktable_inl *in);
struct region *ktable_region(struct ktable *k, uint64_t a, int end);
void ktable_inl_read(struct tables *t, struct ktable_inl *ki,
		     size_t *too_deep);
void do_kernel_table(struct tables *t, uint32_t block, int chains);
void do_table_size(struct tables *t, uint32_t block, int chains);
void do_table_check(struct tables *t, uint32_t block);
void do_via_table(struct tables *t, uint32_t block, unsigned int how,
		  char **addrs, int naddrs);
void do_check_anchors(const char *read, const char *final);

#endif /* KTABLE_H */
