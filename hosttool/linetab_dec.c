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

#define LT_LONG		0xffffU		/* decode table: a longer code */

static inline u32 get16(const u8 *p)
{
	return p[0] | (u32)p[1] << 8;
}

static inline u32 get32(const u8 *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline u64 get_be64(const u8 *p)
{
	return (u64)p[0] << 56 | (u64)p[1] << 48 | (u64)p[2] << 40 |
	       (u64)p[3] << 32 | (u64)p[4] << 24 | (u64)p[5] << 16 |
	       (u64)p[6] << 8 | p[7];
}

/* The header and its sections, checked against the table's size. */
struct lt_tab {
	const u8 *t;
	u32 size, entries, block_rows, nblocks, lut_bits;
	u32 ctx_off, index_off, data_off, data_size;
	u32 nfiles, ndirs, files_off, dirs_off, str_off, str_size;
};

/* Is [off, off + count * elem) inside @size bytes? */
static bool lt_fits(u32 size, u32 off, u64 count, u32 elem)
{
	return off <= size && count * elem <= size - off;
}

static int lt_parse(struct lt_tab *h, const void *tab, size_t size)
{
	const u8 *t = tab;
	u32 v;

	if (!tab || size < LINETAB_HDR_SIZE || get32(t) != LINETAB_MAGIC)
		return -LINETAB_E_HEADER;
	h->t = t;
	h->size = get32(t + 4);
	h->entries = get32(t + 8);
	h->block_rows = get32(t + 12);
	h->nblocks = get32(t + 16);
	v = get32(t + 20);
	h->lut_bits = v >> 16;
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
	    (v & 0xffff) != LINETAB_NCTX || h->lut_bits < 1 ||
	    h->lut_bits > LINETAB_MAX_LEN)
		return -LINETAB_E_HEADER;
	if (!h->block_rows || h->block_rows > LINETAB_MAX_BLOCK ||
	    h->nblocks != h->entries / h->block_rows +
			  !!(h->entries % h->block_rows))
		return -LINETAB_E_HEADER;
	if (!lt_fits(h->size, h->ctx_off, LINETAB_NCTX, 4) ||
	    !lt_fits(h->size, h->index_off, h->nblocks, 8) ||
	    !lt_fits(h->size, h->data_off, h->data_size, 1) ||
	    !lt_fits(h->size, h->files_off, (u64)h->nfiles + 1, 4) ||
	    !lt_fits(h->size, h->files_off + 4 * (h->nfiles + 1), h->nfiles,
		     2) ||
	    !lt_fits(h->size, h->dirs_off, (u64)h->ndirs + 1, 4) ||
	    !lt_fits(h->size, h->str_off, h->str_size, 1))
		return -LINETAB_E_HEADER;
	return 0;
}

/*
 * One prefix code: nsym, the number of codes of each length 1..MAX_LEN,
 * the nsym symbols in canonical order, and a decode table of 2^lut_bits
 * u16: symbol << 4 | length, or LT_LONG for a code longer than lut_bits.
 * A code of one symbol has length 0.  Symbols out of an alphabet's range
 * are caught where they are used.
 */
struct lt_code {
	const u8 *cnt;
	const u8 *sorted;
	const u8 *lut;
	u32 nsym;
};

static int lt_code_at(const struct lt_tab *h, u32 i, struct lt_code *c)
{
	u32 pos = get32(h->t + h->ctx_off + 4 * i), n;

	if (!lt_fits(h->size, pos, 1, 1))
		return -LINETAB_E_CODE;
	n = h->t[pos];
	if (!lt_fits(h->size, pos + 1, LINETAB_MAX_LEN + n +
		     (2ULL << h->lut_bits), 1))
		return -LINETAB_E_CODE;
	c->nsym = n;
	c->cnt = h->t + pos + 1;
	c->sorted = c->cnt + LINETAB_MAX_LEN;
	c->lut = c->sorted + n;
	return 0;
}

/* Bits of one block, most significant first, through a 64-bit window. */
struct lt_bits {
	u64 w;			/* @n valid bits at the top */
	u32 n;
	const u8 *p, *end;
	u32 over;		/* bytes read past the end (as zeros) */
	int err;
};

static inline void lt_refill(struct lt_bits *b)
{
	if (b->end - b->p >= 8) {
		b->w |= get_be64(b->p) >> b->n;
		b->p += (63 - b->n) >> 3;
		b->n |= 56;
		return;
	}
	while (b->n <= 56) {
		if (b->p < b->end)
			b->w |= (u64)*b->p++ << (56 - b->n);
		else
			b->over++;
		b->n += 8;
	}
}

static inline u32 lt_take(struct lt_bits *b, u32 n)	/* 1 <= n <= 32 */
{
	u32 v = b->w >> (64 - n);

	b->w <<= n;
	b->n -= n;
	return v;
}

/* A code longer than the decode table: the canonical walk. */
static u32 lt_long(struct lt_bits *b, const struct lt_code *c)
{
	u32 peek = b->w >> (64 - LINETAB_MAX_LEN), len, code, count;
	u32 first = 0, index = 0;

	for (len = 1; len <= LINETAB_MAX_LEN; len++) {
		code = peek >> (LINETAB_MAX_LEN - len);
		count = c->cnt[len - 1];
		if (code - first < count) {
			index += code - first;
			if (index >= c->nsym)
				break;
			lt_take(b, len);
			return c->sorted[index];
		}
		index += count;
		first = (first + count) << 1;
	}
	b->err = -LINETAB_E_CODE;
	return 0;
}

/* One symbol; the window must hold LINETAB_MAX_LEN bits. */
static inline u32 lt_sym(struct lt_bits *b, const struct lt_code *c,
			 u32 lut_bits)
{
	u32 e = get16(c->lut + 2 * (b->w >> (64 - lut_bits)));

	if (e == LT_LONG)
		return lt_long(b, c);
	b->w <<= e & 15;
	b->n -= e & 15;
	return e >> 4;
}

/* The raw bits of a number coded with lt_usyms(k); @s >= 1 << k. */
static inline u32 lt_extra(struct lt_bits *b, u32 s, u32 k)
{
	u32 nb;

	s -= 1U << k;
	nb = k + s / 2;		/* bit length - 1 of the value */
	if (nb > 31) {
		b->err = -LINETAB_E_DATA;
		return 0;
	}
	return (2 | (s & 1)) << (nb - 1) | lt_take(b, nb - 1);
}

/* A number: refill, symbol, raw bits. */
static inline u32 lt_num(struct lt_bits *b, const struct lt_code *c,
			 u32 lut_bits, u32 k)
{
	u32 s;

	lt_refill(b);
	s = lt_sym(b, c, lut_bits);
	return s < (1U << k) ? s : lt_extra(b, s, k);
}

struct lt_mtf {
	u32 file, line;
};

/* Decoding state of a block. */
struct lt_state {
	struct lt_mtf mtf[LINETAB_MTF];
	u32 n, cls;		/* files in mtf[]; class of the last row */
	u32 file, line;		/* the last row's answer */
	bool end;
};

/* Decode what one row is; leaves its answer and class in @s. */
static void lt_row(struct lt_bits *b, const struct lt_code *c,
		   const struct lt_tab *h, struct lt_state *s)
{
	struct lt_mtf m;
	u32 r, j, zz;

	lt_refill(b);
	r = lt_sym(b, c + LINETAB_CTX_ROW + s->cls, h->lut_bits);
	if (r >= LT_RS_ZERO) {			/* the same file */
		if (!s->n)
			goto bad;
		s->end = false;
		if (r == LT_RS_ZERO) {
			s->line = 0;
			s->cls = LT_C_ZERO;
			return;
		}
		zz = r - LT_RS_LINE;
		if (zz >= 1U << LT_LINE_K)
			zz = lt_extra(b, zz, LT_LINE_K);
		s->mtf[0].line = lt_unzigzag(zz, s->mtf[0].line);
		s->line = s->mtf[0].line;
		s->cls = LT_C_STEP + lt_step_class(zz);
		return;
	}
	if (r == LT_RS_END) {
		s->end = true;
		s->cls = LT_C_END;
		return;
	}
	s->end = false;
	if (r == LT_RS_NEW) {
		m.file = lt_num(b, c + LINETAB_CTX_FILE_IDX, h->lut_bits,
				LT_IDX_K);
		m.line = lt_num(b, c + LINETAB_CTX_LINE_ABS, h->lut_bits,
				LT_ABS_K);
		if (m.file >= h->nfiles)
			goto bad;
		j = s->n < LINETAB_MTF ? s->n++ : LINETAB_MTF - 1;
		s->line = m.line;
		s->cls = m.line ? LT_C_NEW : LT_C_ZERO;
	} else {
		j = r - LT_RS_MTF + 1;
		if (j >= s->n)
			goto bad;
		m = s->mtf[j];
		zz = lt_num(b, c + LINETAB_CTX_LINE_MTF, h->lut_bits,
			    LT_LINE_K);
		if (!zz) {
			s->line = 0;
			s->cls = LT_C_ZERO;
		} else {
			m.line = lt_unzigzag(zz - 1, m.line);
			s->line = m.line;
			s->cls = LT_C_SWITCH;
		}
	}
	for (; j > 0; j--)
		s->mtf[j] = s->mtf[j - 1];
	s->mtf[0] = m;
	s->file = m.file;
	return;
bad:
	b->err = -LINETAB_E_DATA;
}

/* The path of @file into @loc. */
static int lt_path(const struct lt_tab *h, u32 file, struct linetab_loc *loc)
{
	const u8 *names = h->t + h->files_off, *dirs = h->t + h->dirs_off;
	u32 a, b, dir;

	if (file >= h->nfiles)
		return -LINETAB_E_HEADER;
	a = get32(names + 4 * file);
	b = get32(names + 4 * (file + 1));
	dir = get16(names + 4 * (h->nfiles + 1) + 2 * file);
	if (a > b || b > h->str_size || dir >= h->ndirs)
		return -LINETAB_E_HEADER;
	loc->file = file;
	loc->name = (const char *)h->t + h->str_off + a;
	loc->name_len = b - a;
	a = get32(dirs + 4 * dir);
	b = get32(dirs + 4 * (dir + 1));
	if (a > b || b > h->str_size)
		return -LINETAB_E_HEADER;
	loc->dir = (const char *)h->t + h->str_off + a;
	loc->dir_len = b - a;
	return 0;
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
	int ret;

	ret = lt_parse(&h, tab, size);
	if (ret)
		return ret;
	return lt_path(&h, file, loc);
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
	struct lt_bits b;
	struct lt_tab h;
	const u8 *ix;
	u32 lo, hi, mid, start, end, rows, k, at, next, i;
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
	for (i = 0; i < LINETAB_NCTX; i++) {
		ret = lt_code_at(&h, i, &c[i]);
		if (ret)
			return ret;
	}
	start = get32(ix + 8 * lo + 4);
	end = lo + 1 < h.nblocks ? get32(ix + 8 * (lo + 1) + 4) : h.data_size;
	if (start > end || end > h.data_size)
		return -LINETAB_E_DATA;
	rows = h.entries - lo * h.block_rows;
	if (rows > h.block_rows)
		rows = h.block_rows;
	b.w = 0;
	b.n = 0;
	b.p = h.t + h.data_off + start;
	b.end = h.t + h.data_off + end;
	b.over = 0;
	b.err = 0;
	s.n = 0;
	s.cls = LT_C_START;
	s.file = 0;
	at = get32(ix + 8 * lo);
	lt_row(&b, c, &h, &s);
	for (k = 1; k < rows && !b.err; k++) {
		u32 file = s.file, line = s.line;
		bool send = s.end;

		/* the row first, then its address: past @off, undo it */
		lt_row(&b, c, &h, &s);
		next = at + lt_num(&b, c + LINETAB_CTX_ADDR + s.cls,
				   h.lut_bits, LT_ADDR_K) + 1;
		if (next <= at || next > off) {
			s.file = file;
			s.line = line;
			s.end = send;
			break;
		}
		at = next;
	}
	if (b.err)
		return b.err;
	if (8 * ((u64)(b.p - (h.t + h.data_off + start)) + b.over) - b.n >
	    8 * (u64)(end - start))
		return -LINETAB_E_DATA;	/* read past the block */
	if (s.end)
		return LINETAB_UNKNOWN;
	ret = lt_path(&h, s.file, loc);
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
 * Checks the header, the prefix codes (complete, canonical, decode tables
 * that agree with them), the block index (increasing offsets, block data
 * inside the table) and the path arrays.  Lookups check what they read
 * anyway; this is for reporting a bad table early.
 *
 * Return: 0, or a negative LINETAB_E_* code.
 */
int linetab_check_header(const void *tab, size_t size)
{
	struct lt_code c;
	struct linetab_loc loc;
	struct lt_tab h;
	u32 i, j, len, total, prev = 0, cur, e;
	u64 kraft;
	int ret;

	ret = lt_parse(&h, tab, size);
	if (ret)
		return ret;
	for (i = 0; i < LINETAB_NCTX; i++) {
		ret = lt_code_at(&h, i, &c);
		if (ret)
			return ret;
		total = 0;
		kraft = 0;
		for (len = 1; len <= LINETAB_MAX_LEN; len++) {
			total += c.cnt[len - 1];
			kraft += (u64)c.cnt[len - 1] << (LINETAB_MAX_LEN - len);
		}
		if (total > c.nsym ||
		    (total > 1 && kraft != 1ULL << LINETAB_MAX_LEN))
			return -LINETAB_E_CODE;
		for (j = 0; j < 1U << h.lut_bits; j++) {
			e = get16(c.lut + 2 * j);
			if (e != LT_LONG && (e & 15) > h.lut_bits)
				return -LINETAB_E_CODE;
		}
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
		ret = lt_path(&h, i, &loc);
		if (ret)
			return ret;
	}
	return 0;
}
