/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rows.h - the collected rows of every line program and their index
 * (rows.c)
 */
#ifndef ROWS_H
#define ROWS_H

#include "tables.h"

struct line_row {
	uint64_t addr;
	uint32_t file;		/* path id, or NOFILE */
	uint32_t line;		/* addr2line's width; larger lines wrap */
};

struct row_seq {
	uint64_t start, end;
	size_t first, n;	/* rows, the end_sequence row included */
	uint32_t shndx;		/* ET_REL: section of the sequence */
	uint32_t sorted;
};

struct row_set {
	struct tables *t;
	struct unit *u;
	struct line_row *rows;
	size_t nrows, rcap;
	struct row_seq *seqs;
	size_t nseqs, scap;
	size_t open_first;	/* first row of the open sequence */
	int open;
	uint64_t shndx;
	size_t unterminated;
	size_t end_rows;
};

/* Sequences sorted by start, with a running maximum of their ends. */
void rows_collect(struct tables *t, struct row_set *c);
#endif /* ROWS_H */
