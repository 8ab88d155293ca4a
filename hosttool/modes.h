/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modes.h - what lineloc prints (modes.c): --rows, -e and --stats
 */
#ifndef MODES_H
#define MODES_H

#include "tables.h"
#include "rows.h"
#include "inlines.h"

/*
 * Sequences sorted by start, with a running maximum of their ends: a
 * lookup answers from the sequence with the greatest start that still
 * contains the address.
 */
struct row_index {
	struct row_seq **s;
	uint64_t *maxend;
	size_t n;
	uint64_t base;	/* -j in an executable: the section's address */
};

void rows_index(struct row_set *c, struct row_index *ix, int shndx);
const struct line_row *rows_lookup(struct row_set *c, struct row_index *ix,
				   uint64_t a);
int parse_addr(const char *arg, uint64_t *a);
void put_addr(int ok, uint64_t a);
/* elfrel.c: elf_prepare for the user tool (main() sets it) */
void elfrel_prepare(struct elf *e, struct section *s, uint32_t i, int strict,
		    int record);
void do_rows(struct tables *t);
/* what do_addrs() prints besides each answer */
#define ADDR_INLINES	1	/* -i: every level of inlined calls */
#define ADDR_NAMES	2	/* -f: each level's function name */
#define ADDR_SHOW	4	/* -a: the address */

void do_addrs(struct tables *t, const char *jsec, unsigned int how,
	      char **addrs, int naddrs);
void do_inline_stats(struct tables *t);
void do_stats(struct tables *t);

#endif /* MODES_H */
