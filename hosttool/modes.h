/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modes.h - what lineloc prints (modes.c): --rows, -e and --stats, and the
 * collected rows that -e looks addresses up in
 */
#ifndef MODES_H
#define MODES_H

#include "tables.h"

struct row {
	uint64_t addr;
	uint32_t file;		/* path id, or NOFILE */
	uint32_t line;		/* addr2line's width; larger lines wrap */
};

struct seq {
	uint64_t start, end;
	size_t first, n;	/* rows, the end_sequence row included */
	uint32_t shndx;		/* ET_REL: section of the sequence */
	uint32_t sorted;
};

struct collect {
	struct tables *t;
	struct unit *u;
	struct row *rows;
	size_t nrows, rcap;
	struct seq *seqs;
	size_t nseqs, scap;
	size_t open_first;	/* first row of the open sequence */
	int open;
	uint64_t shndx;
	size_t unterminated;
	size_t end_rows;
};

/* Sequences sorted by start, with a running maximum of their ends. */
struct index {
	struct seq **s;
	uint64_t *maxend;
	size_t n;
	uint64_t base;	/* -j in an executable: the section's address */
};

void collect_all(struct tables *t, struct collect *c);
void build_index(struct collect *c, struct index *ix, int shndx);
const struct row *lookup(struct collect *c, struct index *ix, uint64_t a);
int parse_addr(const char *arg, uint64_t *a);
void do_rows(struct tables *t);
void do_addrs(struct tables *t, const char *jsec, char **addrs, int naddrs);
void do_stats(struct tables *t);

#endif /* MODES_H */
