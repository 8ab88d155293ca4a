/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tables.h - lineloc's line tables (tables.c): the headers and file tables
 * of .debug_line, the paths they name and how they are printed, and the
 * line programs run with their rows clipped to the address ranges of their
 * unit.
 */
#ifndef TABLES_H
#define TABLES_H

#include <stddef.h>
#include <stdint.h>

#include <linux/lineloc/dwarf.h>
#include "elfread.h"
#include "paths.h"
#include "units.h"

#define NOFILE UINT32_MAX

struct unit {
	struct lineloc_dwarf_unit h;
	const char *comp_dir;
	char **dirs;
	size_t ndirs, dcap;
	uint32_t *files;	/* by raw DWARF file index */
	size_t nfiles, fcap;
	int clip;		/* rows clipped to the ranges below */
	size_t rfirst, nranges;	/* the unit's address ranges in tables.rg */
};

/* An address range [lo, hi). */
struct range {
	uint64_t lo, hi;
};

/* What clipping did: counts. */
struct clip_stats {
	uint64_t rows_dropped, rows_added, seqs_dropped, seqs_split;
	uint64_t unterminated;
};

/* Whether rows are clipped to the address ranges of their unit, and why not. */
enum clip_mode { CLIP_ON, CLIP_ALL_ROWS, CLIP_RELOCATABLE, CLIP_NO_INFO };

struct tables {
	struct elf elf;
	struct section *line;
	struct lineloc_dwarf_ctx ctx;
	struct unit *units;
	size_t nunits;
	struct paths paths;
	struct paths dirs;	/* interned directory paths */
	struct cus cus;		/* the units of .debug_info, once read */
	size_t *by_stmt;	/* their indexes by DW_AT_stmt_list */
	int cus_read;
	enum clip_mode clip;
	struct range *rg;	/* merged ranges of each table, see unit.rfirst */
	size_t nrg, rgcap;
	size_t tables_without_unit, tables_clipped;
	struct clip_stats clipst;
	char **strip;		/* prefixes, each ending in '/', longest first */
	size_t nstrip;
};

/* Which prefixes are stripped from the paths printed. */
enum strip_mode { STRIP_AUTO, STRIP_GIVEN, STRIP_NONE };

void add_strip(struct tables *t, const char *prefix);
void load_tables(struct tables *t, const char *path, enum strip_mode mode,
		 int all_rows);
void run_unit(struct tables *t, struct unit *u,
	      int (*row)(void *, const struct lineloc_dwarf_row *), void *arg);
const char *seq_section(struct tables *t, uint64_t set_addr_off);
struct cus *tables_units(struct tables *t);

#endif /* TABLES_H */
