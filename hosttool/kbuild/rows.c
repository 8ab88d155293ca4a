// SPDX-License-Identifier: GPL-2.0
/*
 * rows.c - the rows of every line program, collected by sequence: what the
 * kernel's table is written from (ktable.c).
 */
#include <elf.h>
#include <string.h>

#include "util.h"
#include "tables.h"
#include "rows.h"

static int collect_row(void *arg, const struct lineloc_dwarf_row *r)
{
	struct row_set *c = arg;
	struct line_row *w;

	if (!c->open) {
		c->open = 1;
		c->open_first = c->nrows;
		c->shndx = c->t->elf.type == ET_REL &&
			   r->set_address_offset != ~(uint64_t)0 ?
			   lrel_shndx(&c->t->elf, r->set_address_offset) : 0;
	}
	c->rows = grow(c->rows, &c->rcap, c->nrows + 1, sizeof(*c->rows));
	w = &c->rows[c->nrows++];
	w->addr = r->address;
	w->file = r->file < c->u->nfiles ? c->u->files[r->file] : NOFILE;
	w->line = (uint32_t)r->line;
	if (r->end_sequence) {
		struct row_seq *s;
		size_t i;

		c->seqs = grow(c->seqs, &c->scap, c->nseqs + 1,
			       sizeof(*c->seqs));
		s = &c->seqs[c->nseqs++];
		s->first = c->open_first;
		s->n = c->nrows - c->open_first;
		s->start = c->rows[s->first].addr;
		s->end = r->address;
		s->shndx = (uint32_t)c->shndx;
		s->sorted = 1;
		for (i = s->first + 1; i < c->nrows; i++)
			if (c->rows[i].addr < c->rows[i - 1].addr)
				s->sorted = 0;
		c->open = 0;
		c->end_rows++;
	}
	return 0;
}

void rows_collect(struct tables *t, struct row_set *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->t = t;
	for (i = 0; i < t->nunits; i++) {
		c->u = &t->units[i];
		run_unit(t, c->u, collect_row, c);
		if (c->open) {
			/* No end_sequence: counted, never matched. */
			c->unterminated++;
			c->open = 0;
		}
	}
}
