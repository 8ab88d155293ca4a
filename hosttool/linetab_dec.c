// SPDX-License-Identifier: GPL-2.0
/*
 * linetab_dec.c - lookups in a compact line table (see linetab.h)
 *
 * Shared by the kernel and user space: no allocation, no global state, no
 * libc, no floating point.  Every read is checked against the sizes the
 * table declares, and those against the size the caller gives, so a
 * damaged table costs the answer and never a read outside the table; a
 * lookup decodes at most one block.
 */
#include "linetab.h"
#include "linetab_model.h"

#define LT_L		(1U << 23)	/* rANS state lower bound */
#define LT_PMASK	((1U << LINETAB_PROB_BITS) - 1)
#define LT_LUT		(1U << LINETAB_LUT_BITS)

static inline u32 get16(const u8 *p)
{
	return p[0] | (u32)p[1] << 8;
}

static inline u32 get32(const u8 *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

/* The header and its sections, checked against the table's size. */
struct lt_tab {
	const u8 *t;
	u32 size, entries, block_rows, nblocks;
	u32 ctx_off, index_off, data_off, data_size;
	u32 nfiles, ndirs, files_off, dirs_off, str_off, str_size;
};

/* Is [off, off + count * elem) inside @size bytes? */
static bool lt_fits(u32 size, u32 off, u32 count, u32 elem)
{
	return off <= size && (u64)count * elem <= size - off;
}

static int lt_parse(struct lt_tab *h, const void *tab, size_t size)
{
	const u8 *t = tab;
	u32 need;

	if (!tab || size < LINETAB_HDR_SIZE)
		return -LINETAB_E_HEADER;
	if (get32(t) != LINETAB_MAGIC)
		return -LINETAB_E_HEADER;
	h->t = t;
	h->size = get32(t + 4);
	h->entries = get32(t + 8);
	h->block_rows = get32(t + 12);
	h->nblocks = get32(t + 16);
	h->ctx_off = get32(t + 24);
	h->index_off = get32(t + 28);
	h->data_off = get32(t + 32);
	h->data_size = get32(t + 36);
	h->nfiles = get32(t + 40);
	h->ndirs = get32(t + 44);
	h->files_off = get32(t + 48);
	h->dirs_off = get32(t + 52);
	h->str_off = get32(t + 56);
	h->str_size = get32(t + 60);
	if (h->size < LINETAB_HDR_SIZE || h->size > size ||
	    get32(t + 20) != LINETAB_NCTX)
		return -LINETAB_E_HEADER;
	if (!h->block_rows || h->block_rows > LINETAB_MAX_BLOCK)
		return -LINETAB_E_HEADER;
	need = h->entries / h->block_rows + !!(h->entries % h->block_rows);
	if (h->nblocks != need)
		return -LINETAB_E_HEADER;
	if (!lt_fits(h->size, h->ctx_off, LINETAB_NCTX, 4) ||
	    !lt_fits(h->size, h->index_off, h->nblocks, 8) ||
	    !lt_fits(h->size, h->data_off, h->data_size, 1) ||
	    h->nfiles >= 0xffffffffU || h->ndirs >= 0xffffffffU ||
	    !lt_fits(h->size, h->files_off, h->nfiles + 1, 4) ||
	    !lt_fits(h->size, h->files_off + (h->nfiles + 1) * 4,
		     h->nfiles, 2) ||
	    !lt_fits(h->size, h->dirs_off, h->ndirs + 1, 4) ||
	    !lt_fits(h->size, h->str_off, h->str_size, 1))
		return -LINETAB_E_HEADER;
	return 0;
}

/* One frequency table: nsym, cum[nsym + 1], lut[LT_LUT]. */
struct lt_code {
	const u8 *cum;
	const u8 *lut;
	u32 nsym;
};

static int lt_codes(const struct lt_tab *h, struct lt_code *c)
{
	u32 i, pos, n;

	for (i = 0; i < LINETAB_NCTX; i++) {
		pos = get32(h->t + h->ctx_off + 4 * i);
		if (!lt_fits(h->size, pos, 2, 1))
			return -LINETAB_E_CODE;
		n = get16(h->t + pos);
		if (n > LINETAB_MAX_SYMS ||
		    !lt_fits(h->size, pos + 2, 2 * (n + 1) + LT_LUT, 1))
			return -LINETAB_E_CODE;
		c[i].nsym = n;
		c[i].cum = h->t + pos + 2;
		c[i].lut = c[i].cum + 2 * (n + 1);
	}
	return 0;
}

/* The rANS decoder of one block. */
struct lt_dec {
	u32 x;
	const u8 *p, *end;
	int err;
};

static inline void lt_renorm(struct lt_dec *d)
{
	while (d->x < LT_L) {
		if (d->p >= d->end) {
			d->err = -LINETAB_E_DATA;
			d->x = LT_L;	/* stop here; the answer is lost */
			return;
		}
		d->x = d->x << 8 | *d->p++;
	}
}

static inline u32 lt_sym(struct lt_dec *d, const struct lt_code *c)
{
	u32 slot = d->x & LT_PMASK, s, lo, hi;

	if (!c->nsym)
		goto bad;
	s = c->lut[slot >> (LINETAB_PROB_BITS - LINETAB_LUT_BITS)];
	if (s >= c->nsym)
		goto bad;
	while (s + 1 < c->nsym && get16(c->cum + 2 * (s + 1)) <= slot)
		s++;
	lo = get16(c->cum + 2 * s);
	hi = get16(c->cum + 2 * (s + 1));
	if (lo > slot || hi <= slot)
		goto bad;
	d->x = (hi - lo) * (d->x >> LINETAB_PROB_BITS) + slot - lo;
	lt_renorm(d);
	return s;
bad:
	d->err = -LINETAB_E_CODE;
	return 0;
}

static inline u32 lt_bits(struct lt_dec *d, u32 n)	/* n <= 16 */
{
	u32 v = d->x & ((1U << n) - 1);

	d->x >>= n;
	lt_renorm(d);
	return v;
}

/* A number: its symbol, then its raw bits (high part first). */
static u32 lt_num(struct lt_dec *d, const struct lt_code *c, u32 k)
{
	u32 s = lt_sym(d, c), nb, v;

	if (s < (1U << k))
		return s;
	s -= 1U << k;
	nb = k + s / 2;		/* bit length - 1 of the value */
	if (nb > 31) {
		d->err = -LINETAB_E_DATA;
		return 0;
	}
	v = (2 | (s & 1)) << (nb - 1);
	if (nb - 1 > 16) {
		v |= lt_bits(d, nb - 17) << 16;
		v |= lt_bits(d, 16);
	} else if (nb > 1) {
		v |= lt_bits(d, nb - 1);
	}
	return v;
}

struct lt_mtf {
	u32 file, line;
};

/* Decoding state of a block: the MTF list and the previous row's class. */
struct lt_state {
	struct lt_mtf mtf[LINETAB_MTF];
	u32 n, fclass, aclass, step, file, line;
	bool end;
};

/* Decode the file and line of one row; @delta is its address delta. */
static void lt_row(struct lt_dec *d, const struct lt_code *c,
		   struct lt_state *s, u32 delta, u32 nfiles)
{
	struct lt_mtf m;
	u32 f, zz, i;

	f = lt_sym(d, c + lt_file_ctx(s->fclass, delta));
	if (f == LT_F_END) {
		s->end = true;
		s->fclass = LT_FC_END;
		s->aclass = LT_AC_END;
		return;
	}
	s->end = false;
	if (f == LT_F_NEW) {
		m.file = lt_num(d, c + LINETAB_CTX_FILE_IDX, LT_IDX_K);
		m.line = lt_num(d, c + LINETAB_CTX_LINE_ABS, LT_ABS_K);
		if (m.file >= nfiles)
			d->err = -LINETAB_E_DATA;
		i = s->n < LINETAB_MTF ? s->n++ : LINETAB_MTF - 1;
		s->fclass = LT_FC_NEW;
		s->aclass = m.line ? LT_AC_NEW : LT_AC_ZERO;
		s->step = 3;
		s->file = m.file;
		s->line = m.line;
	} else {
		if (f >= s->n) {
			d->err = -LINETAB_E_DATA;
			return;
		}
		m = s->mtf[f];
		i = f;
		zz = lt_num(d, c + (f ? LINETAB_CTX_LINE_MTF :
				    LINETAB_CTX_LINE + s->step), LT_LINE_K);
		s->file = m.file;
		if (!zz) {
			s->line = 0;
			s->aclass = LT_AC_ZERO;
			s->step = 3;
		} else {
			m.line = lt_unzigzag(zz - 1, m.line);
			s->line = m.line;
			s->step = f ? 3 : lt_step_class(zz - 1);
			s->aclass = f ? LT_AC_SWITCH : s->step;
		}
		s->fclass = f == 0 ? LT_FC_SAME :
			    f == 1 ? LT_FC_MTF1 : LT_FC_MTF;
	}
	for (; i > 0; i--)
		s->mtf[i] = s->mtf[i - 1];
	s->mtf[0] = m;
}

/**
 * linetab_path() - the path of a file of a line table
 * @tab: the table
 * @size: bytes at @tab
 * @file: index of the path
 * @loc: where to put @dir, @dir_len, @name, @name_len and @file
 *
 * Return: 0, or -LINETAB_E_HEADER if the table or the index is bad.
 */
int linetab_path(const void *tab, size_t size, u32 file,
		 struct linetab_loc *loc)
{
	struct lt_tab h;
	const u8 *names, *dirs;
	u32 a, b, dir;
	int ret;

	ret = lt_parse(&h, tab, size);
	if (ret)
		return ret;
	if (file >= h.nfiles)
		return -LINETAB_E_HEADER;
	names = h.t + h.files_off;
	a = get32(names + 4 * file);
	b = get32(names + 4 * (file + 1));
	dir = get16(names + 4 * (h.nfiles + 1) + 2 * file);
	if (a > b || b > h.str_size || dir >= h.ndirs)
		return -LINETAB_E_HEADER;
	loc->file = file;
	loc->name = (const char *)h.t + h.str_off + a;
	loc->name_len = b - a;
	dirs = h.t + h.dirs_off;
	a = get32(dirs + 4 * dir);
	b = get32(dirs + 4 * (dir + 1));
	if (a > b || b > h.str_size)
		return -LINETAB_E_HEADER;
	loc->dir = (const char *)h.t + h.str_off + a;
	loc->dir_len = b - a;
	return 0;
}

/**
 * linetab_lookup() - the source location of an offset
 * @tab: the table
 * @size: bytes at @tab
 * @off: offset from the table's base
 * @loc: the location, filled in when 0 is returned
 *
 * The location is that of the last row at or below @off.  Offsets below
 * the first row, and in a gap after the end of a sequence, have none.
 * A row without a line answers with @loc->line 0.
 *
 * Return: 0, LINETAB_UNKNOWN when the table has no location for @off, or
 * a negative LINETAB_E_* code when the table is damaged.
 */
int linetab_lookup(const void *tab, size_t size, u32 off,
		   struct linetab_loc *loc)
{
	struct lt_code c[LINETAB_NCTX];
	struct lt_state s;
	struct lt_dec d;
	struct lt_tab h;
	const u8 *ix;
	u32 lo, hi, mid, b, start, end, rows, k, at, delta, next;
	int ret;

	ret = lt_parse(&h, tab, size);
	if (ret)
		return ret;
	if (!h.nblocks)
		return LINETAB_UNKNOWN;
	ix = h.t + h.index_off;
	if (get32(ix) > off)
		return LINETAB_UNKNOWN;
	/* the last block whose first row is at or below @off */
	lo = 0;
	hi = h.nblocks;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (get32(ix + 8 * mid) <= off)
			lo = mid;
		else
			hi = mid;
	}
	b = lo;
	ret = lt_codes(&h, c);
	if (ret)
		return ret;
	start = get32(ix + 8 * b + 4);
	end = b + 1 < h.nblocks ? get32(ix + 8 * (b + 1) + 4) : h.data_size;
	if (start > end || end > h.data_size || end - start < 4)
		return -LINETAB_E_DATA;
	rows = h.entries - b * h.block_rows;
	if (rows > h.block_rows)
		rows = h.block_rows;
	d.p = h.t + h.data_off + start;
	d.end = h.t + h.data_off + end;
	d.x = get32(d.p);
	d.p += 4;
	d.err = 0;
	s.n = 0;
	s.fclass = LT_FC_START;
	s.aclass = LT_AC_END;
	s.step = 3;
	at = get32(ix + 8 * b);
	lt_row(&d, c, &s, LT_GAP_SMALL, h.nfiles);
	for (k = 1; k < rows && !d.err; k++) {
		delta = lt_num(&d, c + LINETAB_CTX_ADDR + s.aclass,
			       LT_ADDR_K) + 1;
		next = at + delta;
		if (d.err || next < at || next > off)
			break;
		at = next;
		lt_row(&d, c, &s, delta, h.nfiles);
	}
	if (d.err)
		return d.err;
	if (s.end)
		return LINETAB_UNKNOWN;
	ret = linetab_path(tab, size, s.file, loc);
	if (ret)
		return ret;
	loc->line = s.line;
	loc->start = at;
	return 0;
}

/**
 * linetab_check_header() - validate a line table once, before use
 * @tab: the table
 * @size: bytes at @tab
 *
 * Checks the header, the frequency tables, the block index (increasing
 * offsets, block data inside the table) and the path arrays.  Lookups
 * check what they read anyway; this is for reporting a bad table early.
 *
 * Return: 0, or a negative LINETAB_E_* code.
 */
int linetab_check_header(const void *tab, size_t size)
{
	struct lt_code c[LINETAB_NCTX];
	struct linetab_loc loc;
	struct lt_tab h;
	u32 i, j, prev, cur;
	int ret;

	ret = lt_parse(&h, tab, size);
	if (ret)
		return ret;
	ret = lt_codes(&h, c);
	if (ret)
		return ret;
	for (i = 0; i < LINETAB_NCTX; i++) {
		if (!c[i].nsym)
			continue;
		prev = 0;
		for (j = 0; j <= c[i].nsym; j++) {
			cur = get16(c[i].cum + 2 * j);
			if (cur < prev || (j == 0 && cur) ||
			    (j == c[i].nsym && cur != LT_PMASK + 1))
				return -LINETAB_E_CODE;
			prev = cur;
		}
		for (j = 0; j < LT_LUT; j++)
			if (c[i].lut[j] >= c[i].nsym)
				return -LINETAB_E_CODE;
	}
	for (i = 0; i < h.nblocks; i++) {
		cur = get32(h.t + h.index_off + 8 * i + 4);
		if (i && (get32(h.t + h.index_off + 8 * i) <=
			  get32(h.t + h.index_off + 8 * (i - 1)) ||
			  cur < prev))
			return -LINETAB_E_DATA;
		if (cur > h.data_size)
			return -LINETAB_E_DATA;
		prev = cur;
	}
	for (i = 0; i < h.nfiles; i++) {
		ret = linetab_path(tab, size, i, &loc);
		if (ret)
			return ret;
	}
	return 0;
}
