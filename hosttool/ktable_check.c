// SPDX-License-Identifier: GPL-2.0
/*
 * ktable_check.c - vmlinux's compact line tables read back on the host:
 * --table-size prints what they cost, --table-check compares them with
 * lineloc's own answers, --via-table answers -e through them.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "tables.h"
#include "modes.h"
#include <linux/lineloc/table.h>
#include <linux/lineloc/vmlinux.h>
#include "ktable.h"

/**
 * do_table_size() - what vmlinux's tables cost (--table-size)
 * @t: the tables of a vmlinux, loaded
 * @block: rows per block
 *
 * Ends with "table: R rows, B bytes, X.XX B/row": R the rows the tables
 * keep, B all the kernel holds (container, code tables, index, data and
 * paths).
 */
void do_table_size(struct tables *t, uint32_t block)
{
	static struct ktable k;
	const struct lineloc_stats *s = &k.st;
	char line[320];

	ktable_build(&k, t, block);
	snprintf(line, sizeof(line),
		 "%s..%s: %zu rows read; %s..%s at +0x%x: %zu rows read\n",
		 k.r[0].lo_sym, k.r[0].hi_sym, k.r[0].n, k.r[1].lo_sym,
		 k.r[1].hi_sym, k.r[1].bias, k.r[1].n);
	out_str(line);
	snprintf(line, sizeof(line),
		 "table: %u kept, %u ends, %u paths, %u blocks of %u; "
		 "bytes: container %d, header %zu, codes %zu, index %zu, data %zu, dictionary %zu, paths %zu, total %zu\n",
		 s->entries, s->ends, s->files, s->blocks, block,
		 LINELOC_K_HDR_SIZE, s->header, s->codes, s->index, s->data,
		 s->dict_bytes, s->paths, s->total);
	out_str(line);
	snprintf(line, sizeof(line), "dropped: %zu rows outside both ranges\n",
		 k.dropped);
	out_str(line);
	snprintf(line, sizeof(line), "table: %u rows, %zu bytes, %.2f B/row\n",
		 s->entries, k.total,
		 s->entries ? (double)k.total / (double)s->entries : 0.0);
	out_str(line);
}

/*
 * The table's answer at @a: 1 with *@path (@len bytes, in @buf) and
 * *@line, 0 for none; -1 when @a lies outside both regions.
 */
static int table_answer(struct ktable *k, uint64_t a, char *buf, size_t cap,
			size_t *len, uint32_t *line)
{
	struct region *r = ktable_region(k, a, 0);
	struct lineloc_loc loc;
	int err;

	if (!r)
		return -1;
	err = lineloc_lookup(k->tab, k->size, (u32)(a - r->lo) + r->bias, &loc);
	if (err < 0)
		die(k->t->elf.path, NULL, "table lookup at 0x%" PRIx64 ": error %d",
		    a, err);
	if (err)
		return 0;
	if ((size_t)loc.dir_len + loc.name_len >= cap)
		die(k->t->elf.path, NULL, "path of %u bytes at 0x%" PRIx64,
		    loc.dir_len + loc.name_len, a);
	memcpy(buf, loc.dir, loc.dir_len);
	memcpy(buf + loc.dir_len, loc.name, loc.name_len);
	*len = loc.dir_len + loc.name_len;
	buf[*len] = '\0';
	*line = loc.line;
	return 1;
}

/* Compare the table and the rows at @a; 0 when they agree. */
static int check_at(struct ktable *k, struct row_index *ix, uint64_t a,
		    size_t *checked)
{
	const struct line_row *w = rows_lookup(&k->c, ix, a);
	static char buf[1 << 16];
	const char *want = NULL;
	uint32_t line = 0;
	size_t len;
	int got;

	got = table_answer(k, a, buf, sizeof(buf), &len, &line);
	if (got < 0)
		return 0;
	(*checked)++;
	if (w)
		want = w->file == NOFILE ? "??" : k->t->paths.show[w->file];
	if (!got && !w)
		return 0;
	if (got && w && !strcmp(buf, want) && line == w->line)
		return 0;
	fprintf(stderr, "%s: %s: the table differs at 0x%" PRIx64
		": table %s:%u, rows %s:%u\n", prog, k->t->elf.path, a,
		got ? buf : "(none)", got ? line : 0, want ? want : "(none)",
		w ? w->line : 0);
	return 1;
}

/**
 * do_table_check() - the tables against lineloc's own answers
 * @t: the tables of a vmlinux, loaded
 * @block: rows per block
 *
 * At every row's address a, at a - 1 and at every end of a sequence
 * inside the two regions.  Exits 1 at the first difference, naming it.
 */
void do_table_check(struct tables *t, uint32_t block)
{
	static struct ktable k;
	struct row_index ix;
	size_t i, j, checked = 0;
	char line[160];

	ktable_build(&k, t, block);
	rows_index(&k.c, &ix, -1);
	for (i = 0; i < k.c.nseqs; i++) {
		const struct row_seq *s = &k.c.seqs[i];

		for (j = s->first; j < s->first + s->n; j++) {
			uint64_t a = k.c.rows[j].addr;

			if (check_at(&k, &ix, a, &checked) ||
			    (a && check_at(&k, &ix, a - 1, &checked)))
				exit(1);
		}
	}
	snprintf(line, sizeof(line),
		 "table-check: %zu addresses agree (%zu rows outside the tables)\n",
		 checked, k.dropped);
	out_str(line);
}

static void via_answer(struct ktable *k, const char *arg)
{
	static char buf[1 << 16];
	uint32_t line = 0;
	size_t len;
	uint64_t a;

	if (!parse_addr(arg, &a) ||
	    table_answer(k, a, buf, sizeof(buf), &len, &line) <= 0) {
		out_str("??:0\n");
		return;
	}
	out_str(buf);
	out_mem(":", 1);
	out_dec(line);
	out_mem("\n", 1);
}

/**
 * do_via_table() - answer -e through vmlinux's tables (--via-table)
 * @t: the tables of a vmlinux, loaded
 * @block: rows per block
 * @addrs: the addresses, hex; none: one a line on stdin
 * @naddrs: how many
 */
void do_via_table(struct tables *t, uint32_t block, char **addrs, int naddrs)
{
	static struct ktable k;
	char line[256];
	int i;

	ktable_build(&k, t, block);
	for (i = 0; i < naddrs; i++)
		via_answer(&k, addrs[i]);
	if (naddrs)
		return;
	while (fgets(line, sizeof(line), stdin)) {
		via_answer(&k, line);
		out_flush();
		fflush(out);
	}
}

