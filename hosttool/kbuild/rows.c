// SPDX-License-Identifier: GPL-2.0
/*
 * rows.c - the rows of every line program, collected and indexed: what the
 * kernel's table is written from (ktable.c) and what -e and --stats read
 * (modes.c).  Sequences are sorted by start, with a running maximum of
 * their ends, and a lookup answers from the sequence with the greatest
 * start that still contains the address.
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
			/* No end_sequence: kept for --stats, never matched. */
			c->unterminated++;
			c->open = 0;
		}
	}
}

static int cmp_seq(const void *a, const void *b)
{
	const struct row_seq *x = *(struct row_seq *const *)a;
	const struct row_seq *y = *(struct row_seq *const *)b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x < y ? -1 : x > y;	/* keep program order */
}

void rows_index(struct row_set *c, struct row_index *ix, int shndx)
{
	size_t i;

	ix->s = xmalloc((c->nseqs ? c->nseqs : 1) * sizeof(*ix->s));
	ix->n = 0;
	ix->base = 0;
	for (i = 0; i < c->nseqs; i++)
		if (shndx < 0 || c->seqs[i].shndx == (uint32_t)shndx)
			ix->s[ix->n++] = &c->seqs[i];
	xqsort(ix->s, ix->n, sizeof(*ix->s), cmp_seq);
	ix->maxend = xmalloc((ix->n ? ix->n : 1) * sizeof(*ix->maxend));
	for (i = 0; i < ix->n; i++)
		ix->maxend[i] = i && ix->maxend[i - 1] > ix->s[i]->end ?
				ix->maxend[i - 1] : ix->s[i]->end;
}

/*
 * The row covering @a: in the sequence with the greatest start <= @a that
 * still contains it (start <= a < end), the last row at the greatest
 * address <= @a.  Past a sequence's end nothing is known.
 */
const struct line_row *rows_lookup(struct row_set *c, struct row_index *ix,
				   uint64_t a)
{
	size_t lo, i;

	LOWER_BOUND(lo, ix->n, ix->s[i]->start <= a);
	for (i = lo; i-- > 0 && ix->maxend[i] > a;) {
		const struct row_seq *s = ix->s[i];
		const struct line_row *r = c->rows + s->first, *best = NULL;
		size_t k, n = s->n - 1;		/* without the end row */

		if (a >= s->end || a < s->start)
			continue;
		if (s->sorted) {
			LOWER_BOUND(lo, n, r[i].addr <= a);
			return lo ? &r[lo - 1] : NULL;
		}
		for (k = 0; k < n; k++)
			if (r[k].addr <= a && (!best || r[k].addr >= best->addr))
				best = &r[k];
		return best;
	}
	return NULL;
}

