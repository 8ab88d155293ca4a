// SPDX-License-Identifier: GPL-2.0
/*
 * linetab_dec.c - lookups in a compact line table (<linux/lineloc/table.h>)
 *
 * Shared by the kernel and user space: no allocation, no global state, no
 * libc, no floating point.  Every read is checked against the sizes the
 * table declares, and those against the size the caller gives, so a
 * damaged table costs the answer and never a read outside the table; a
 * lookup decodes at most one block.
 */
#include <kunit/visibility.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/lineloc/table.h>
#include <asm/unaligned.h>

#include "linetab_model.h"

/*
 * The shared codes, for the module loader's tables and the sections built
 * with modules; without modules' line locations, a set that no table
 * matches (the host builds take the real one).
 */
#if defined(CONFIG_MODULE_LINE_LOCATIONS) || !defined(__KERNEL__)
#include "linetab_codes.h"
#else
static const u8 lt_shared_codes[LINELOC_SET_HDR];
#endif

#define LT_LONG		0xffffU		/* decode table: a longer code */
#define LT_BAD		0xffffffffU	/* lt_long(): no such code */

/* The header and its sections, checked against the table's size. */
struct lt_tab {
	const u8 *t;
	const u8 *c;		/* the codes: the table, or the shared set */
	const u8 *lut;		/* LINELOC_NCTX decode tables */
	u32 c_size;		/* bytes at @c */
	u32 size, entries, block_rows, nblocks, lut_bits;
	u32 long_off, nsuper, super_off, index_off, data_off, data_size;
	u32 nfiles, ndirs, files_off, dirs_off, str_off, str_size;
	u32 ndict, dict_off;
	u32 nctx;		/* LINELOC_NCTX, or LINELOC_NCTX_CHAINS */
	u32 nnames, names_off, nstr_off, nstr_size, nusual, usual_off;
};

/* Is [off, off + count * elem) inside @size bytes? */
static bool lt_fits(u32 size, u32 off, u64 count, u32 elem)
{
	return off <= size && count * elem <= size - off;
}

/**
 * lineloc_shared_codes() - the codes that module line tables share
 * @size: where to put the set's size
 *
 * Return: the set (<linux/lineloc/table.h>), in read-only memory.
 */
const u8 *lineloc_shared_codes(u32 *size)
{
	*size = sizeof(lt_shared_codes);
	return lt_shared_codes;
}

#define LT_SHORT_NUMS	8	/* numbers of a short header */

/**
 * lineloc_uleb32() - read a ULEB128 number of at most 32 bits
 * @t: the bytes
 * @size: bytes at @t
 * @pos: where the number starts; moved past it
 * @v: where to put it
 *
 * The short header's numbers and those of a module's sections.
 *
 * Return: 0, or -LINELOC_E_HEADER if it runs past @size or 32 bits.
 */
int lineloc_uleb32(const u8 *t, u32 size, u32 *pos, u32 *v)
{
	u32 shift = 0, x = 0;
	u8 b;

	do {
		if (*pos >= size || (shift == 28 && t[*pos] > 0x0f))
			return -LINELOC_E_HEADER;
		b = t[(*pos)++];
		x |= (u32)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	*v = x;
	return 0;
}

/*
 * The short header of a table coded with the shared codes: its numbers,
 * the blocks from the entries, and its parts' offsets from their sizes,
 * laid out one after the other.
 */
static int lt_parse_short(struct lt_tab *h, const u8 *t, size_t size)
{
	u32 *num[LT_SHORT_NUMS] = {
		&h->entries, &h->block_rows, &h->nsuper, &h->data_size,
		&h->ndict, &h->nfiles, &h->ndirs, &h->str_size,
	};
	u32 lim = size > 0xffffffffU ? 0xffffffffU : size, pos = 6, i, v;
	u64 at;

	if (size < 6)
		return -LINELOC_E_HEADER;
	for (i = 0; i < LT_SHORT_NUMS; i++)
		if (lineloc_uleb32(t, lim, &pos, num[i]))
			return -LINELOC_E_HEADER;
	if (!h->block_rows)
		return -LINELOC_E_HEADER;
	h->nblocks = h->entries ? (h->entries - 1) / h->block_rows + 1 : 0;
	h->c = lt_shared_codes;
	h->c_size = sizeof(lt_shared_codes);
	if (get_unaligned_le32(t + 2) != get_unaligned_le32(h->c))
		return -LINELOC_E_CODESET;
	v = get_unaligned_le32(h->c + 4);
	h->lut_bits = (v >> 16) & 0xff;
	h->lut = h->c + get_unaligned_le32(h->c + 8);
	h->long_off = get_unaligned_le32(h->c + 12);
	if ((v & 0xffff) != LINELOC_NCTX)
		return -LINELOC_E_CODESET;
	h->nctx = LINELOC_NCTX;
	h->nnames = 0;
	at = pos;
	h->super_off = at;
	at += 12 * (u64)h->nsuper;
	h->index_off = at;
	at += 4 * (u64)h->nblocks;
	h->data_off = at;
	at += h->data_size;
	h->dict_off = at;
	at += 4 * (u64)h->ndict;
	h->files_off = at;
	at += ((u64)h->nfiles + LINELOC_FILE_GROUP - 1) / LINELOC_FILE_GROUP * 4 +
	      3 * (u64)h->nfiles;
	h->dirs_off = at;
	at += 4 * ((u64)h->ndirs + 1);
	h->str_off = at;
	at += h->str_size;
	if (at > lim)
		return -LINELOC_E_HEADER;
	h->size = at;
	return 0;
}

static int lt_parse(struct lt_tab *h, const void *tab, size_t size)
{
	const u8 *t = tab, *x;
	u32 v, lut_off;
	int ret;

	if (!tab || size < 2)
		return -LINELOC_E_HEADER;
	h->t = t;
	if (get_unaligned_le16(t) == LINELOC_SHORT_MAGIC) {
		ret = lt_parse_short(h, t, size);
		if (ret)
			return ret;
		lut_off = h->lut - h->c;
		goto check;
	}
	if (size < LINELOC_HDR_SIZE || get_unaligned_le32(t) != LINELOC_MAGIC)
		return -LINELOC_E_HEADER;
	h->size = get_unaligned_le32(t + 4 * LINELOC_H_SIZE);
	h->entries = get_unaligned_le32(t + 4 * LINELOC_H_ENTRIES);
	h->block_rows = get_unaligned_le32(t + 4 * LINELOC_H_BLOCK_ROWS);
	h->nblocks = get_unaligned_le32(t + 4 * LINELOC_H_NBLOCKS);
	v = get_unaligned_le32(t + 4 * LINELOC_H_CODES);
	h->lut_bits = v >> 16;
	lut_off = get_unaligned_le32(t + 4 * LINELOC_H_LUT_OFF);
	h->long_off = get_unaligned_le32(t + 4 * LINELOC_H_LONG_OFF);
	h->c = t;
	h->nsuper = get_unaligned_le32(t + 4 * LINELOC_H_NSUPER);
	h->super_off = get_unaligned_le32(t + 4 * LINELOC_H_SUPER_OFF);
	h->index_off = get_unaligned_le32(t + 4 * LINELOC_H_INDEX_OFF);
	h->data_off = get_unaligned_le32(t + 4 * LINELOC_H_DATA_OFF);
	h->data_size = get_unaligned_le32(t + 4 * LINELOC_H_DATA_SIZE);
	h->nfiles = get_unaligned_le32(t + 4 * LINELOC_H_NFILES);
	h->ndirs = get_unaligned_le32(t + 4 * LINELOC_H_NDIRS);
	h->files_off = get_unaligned_le32(t + 4 * LINELOC_H_FILES_OFF);
	h->dirs_off = get_unaligned_le32(t + 4 * LINELOC_H_DIRS_OFF);
	h->str_off = get_unaligned_le32(t + 4 * LINELOC_H_STR_OFF);
	h->str_size = get_unaligned_le32(t + 4 * LINELOC_H_STR_SIZE);
	h->ndict = get_unaligned_le32(t + 4 * LINELOC_H_NDICT);
	h->dict_off = get_unaligned_le32(t + 4 * LINELOC_H_DICT_OFF);
	h->nctx = v & 0xffff;
	if (h->size < LINELOC_HDR_SIZE || h->size > size ||
	    (h->nctx != LINELOC_NCTX && h->nctx != LINELOC_NCTX_CHAINS))
		return -LINELOC_E_HEADER;
	h->c_size = h->size;
	h->nnames = 0;
	if (h->nctx == LINELOC_NCTX_CHAINS) {
		x = t + LINELOC_HDR_SIZE;
		if (h->size < LINELOC_HDR_SIZE + 4 * LINELOC_HX_WORDS)
			return -LINELOC_E_HEADER;
		h->nnames = get_unaligned_le32(x + 4 * LINELOC_HX_NNAMES);
		h->names_off = get_unaligned_le32(x + 4 * LINELOC_HX_NAMES_OFF);
		h->nstr_off = get_unaligned_le32(x + 4 * LINELOC_HX_NSTR_OFF);
		h->nstr_size = get_unaligned_le32(x + 4 * LINELOC_HX_NSTR_SIZE);
		h->nusual = get_unaligned_le32(x + 4 * LINELOC_HX_NUSUAL);
		h->usual_off = get_unaligned_le32(x + 4 * LINELOC_HX_USUAL_OFF);
		if (!lt_fits(h->size, h->names_off,
			     ((u64)h->nnames + LINELOC_NAME_GROUP - 1) /
			     LINELOC_NAME_GROUP * 4 + (u64)h->nnames *
			     (h->nnames > 0x10000 ? 4 : 2), 1) ||
		    !lt_fits(h->size, h->nstr_off, h->nstr_size, 1) ||
		    !lt_fits(h->size, h->usual_off, h->nusual, 8))
			return -LINELOC_E_HEADER;
	}
check:
	if (h->lut_bits < 1 || h->lut_bits > LINELOC_MAX_LEN)
		return -LINELOC_E_HEADER;
	/* nblocks = entries / block_rows, rounded up: without a division */
	if (!h->block_rows || h->block_rows > LINELOC_MAX_BLOCK ||
	    (u64)h->nblocks * h->block_rows < h->entries ||
	    (h->nblocks && (u64)(h->nblocks - 1) * h->block_rows >= h->entries))
		return -LINELOC_E_HEADER;
	if (!lt_fits(h->c_size, lut_off, (u64)h->nctx << h->lut_bits, 2) ||
	    !lt_fits(h->c_size, h->long_off, h->nctx, 4) ||
	    h->nsuper > h->nblocks ||
	    !lt_fits(h->size, h->super_off, h->nsuper, 12) ||
	    !lt_fits(h->size, h->index_off, h->nblocks, 4) ||
	    !lt_fits(h->size, h->data_off, h->data_size, 1) ||
	    !lt_fits(h->size, h->files_off,
		     ((u64)h->nfiles + LINELOC_FILE_GROUP - 1) /
		     LINELOC_FILE_GROUP * 4 + 3 * (u64)h->nfiles, 1) ||
	    !lt_fits(h->size, h->dict_off, h->ndict, 4) ||
	    !lt_fits(h->size, h->dirs_off, (u64)h->ndirs + 1, 4) ||
	    !lt_fits(h->size, h->str_off, h->str_size, 1))
		return -LINELOC_E_HEADER;
	h->lut = h->c + lut_off;
	return 0;
}

/*
 * Each context has a decode table of 2^lut_bits u16, symbol << 4 | code
 * length, or LT_LONG where the code is longer than lut_bits; a code of
 * one symbol has length 0.  For the longer codes, the context's entry at
 * long_off gives nsym, the number of codes of each length 1..MAX_LEN and
 * the nsym symbols in canonical order.  Symbols out of an alphabet's
 * range are caught where they are used.
 */

/*
 * A code longer than the decode table: the canonical walk, from the
 * state its record keeps for the lengths the decode table covers (so at
 * most LINELOC_MAX_LEN - lut_bits steps: 4 with 8-bit decode tables).
 */
static u32 lt_long(const struct lt_tab *h, u32 ctx, u64 w)
{
	u32 peek = w >> (64 - LINELOC_MAX_LEN), len, code, count, n;
	u32 pos = get_unaligned_le32(h->c + h->long_off + 4 * ctx);
	u32 first, index;
	const u8 *cnt;

	if (!lt_fits(h->c_size, pos, LINELOC_LONG_HDR, 1))
		return LT_BAD;
	n = h->c[pos];
	cnt = h->c + pos + 1;
	if (!lt_fits(h->c_size, pos + LINELOC_LONG_HDR, n, 1))
		return LT_BAD;
	first = get_unaligned_le16(cnt + LINELOC_MAX_LEN);
	index = cnt[LINELOC_MAX_LEN + 2];
	for (len = h->lut_bits + 1; len <= LINELOC_MAX_LEN; len++) {
		code = peek >> (LINELOC_MAX_LEN - len);
		count = cnt[len - 1];
		if (code - first < count) {
			index += code - first;
			if (index >= n)
				break;
			return h->c[pos + LINELOC_LONG_HDR + index] << 4 | len;
		}
		index += count;
		first = (first + count) << 1;
	}
	return LT_BAD;
}

/* Bits of one block, most significant first, through a 64-bit window. */
struct lt_bits {
	u64 w;			/* @n valid bits at the top */
	u32 n;
	const u8 *p, *end;
	u32 over;		/* bytes read past the end (as zeros) */
	int err;
};

static __always_inline void lt_refill(struct lt_bits *b)
{
	if (likely(b->end - b->p >= 8)) {
		b->w |= get_unaligned_be64(b->p) >> b->n;
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

static __always_inline u32 lt_take(struct lt_bits *b, u32 n)	/* 1..32 */
{
	u32 v = b->w >> (64 - n);

	b->w <<= n;
	b->n -= n;
	return v;
}

/* One symbol of context @ctx; the window must hold LINELOC_MAX_LEN bits. */
static __always_inline u32 lt_sym(struct lt_bits *b, const struct lt_tab *h,
				  u32 ctx)
{
	u32 i = (ctx << h->lut_bits) + (b->w >> (64 - h->lut_bits));
	u32 e = get_unaligned_le16(h->lut + i * 2);

	if (unlikely(e == LT_LONG)) {
		e = lt_long(h, ctx, b->w);
		if (e == LT_BAD) {
			b->err = -LINELOC_E_CODE;
			return 0;
		}
	}
	b->w <<= e & 15;
	b->n -= e & 15;
	return e >> 4;
}

/* The raw bits of a number coded with lt_usyms(k); @s >= 1 << k. */
static __always_inline u32 lt_extra(struct lt_bits *b, u32 s, u32 k)
{
	u32 nb;

	s -= 1U << k;
	nb = k + s / 2;		/* bit length - 1 of the value */
	if (unlikely(nb > 31)) {
		b->err = -LINELOC_E_DATA;
		return 0;
	}
	return (2 | (s & 1)) << (nb - 1) | lt_take(b, nb - 1);
}

/*
 * A number: symbol and raw bits, refilling the window where it may be
 * short (a row's usual symbols fit the window of one refill).
 */
static __always_inline u32 lt_num(struct lt_bits *b, const struct lt_tab *h,
				  u32 ctx, u32 k)
{
	u32 s;

	if (unlikely(b->n < LINELOC_MAX_LEN))
		lt_refill(b);
	s = lt_sym(b, h, ctx);
	if (likely(s < (1U << k)))
		return s;
	if (b->n < 31)
		lt_refill(b);
	return lt_extra(b, s, k);
}

struct lt_mtf {
	u32 file, line, prev;
};

#define LT_MTF_ORDER	0xfedcba9876543210ULL	/* position p holds slot p */
static_assert(LINELOC_MTF == 16, "the MTF order is 16 positions of 4 bits");

/* A symbol, refilling the window first if it may be short. */
static __always_inline u32 lt_sym_r(struct lt_bits *b, const struct lt_tab *h,
				    u32 ctx)
{
	if (unlikely(b->n < LINELOC_MAX_LEN))
		lt_refill(b);
	return lt_sym(b, h, ctx);
}

/*
 * The usual call from the function named @caller into @lv: 0, or -1 when
 * it has none or the call is out of range.
 */
static int lt_usual(const struct lt_tab *h, u32 caller, struct lt_level *lv)
{
	const u8 *u = h->t + h->usual_off, *m;
	u32 lo = 0, hi = h->nusual, mid, c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		m = u + 8 * mid;
		c = get_unaligned_le16(m);
		if (c == caller) {
			lv->name = get_unaligned_le16(m + 2);
			lv->file = get_unaligned_le16(m + 4);
			lv->line = get_unaligned_le16(m + 6);
			return lv->name < h->nnames && lv->file < h->nfiles ?
			       0 : -1;
		}
		if (c < caller)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * The op symbol of a row of class @cls: 0, or the pops in *@p and pushes
 * in *@q; LT_OP_SYMS for a symbol out of range.
 */
static u32 lt_op(struct lt_bits *b, const struct lt_tab *h, u32 cls, u32 *p,
		 u32 *q)
{
	u32 s = lt_sym_r(b, h, LINELOC_CTX_OP + cls);

	if (!s || s >= LT_OP_SYMS)
		return s;
	*p = (s - 1) / 3;
	*q = (s - 1) % 3;
	if (*q == 2)
		*q += lt_num(b, h, LINELOC_CTX_PUSHES, LT_PUSHES_K);
	return s;
}

/*
 * A new level's numbers, the @k'th level pushed at the row: name, call
 * file (0: the predicted one) and call line (against the predicted line
 * if the file is the predicted one).
 */
static void lt_new_nums(struct lt_bits *b, const struct lt_tab *h, u32 k,
			u32 *name, u32 *f, u32 *line)
{
	*name = lt_num(b, h, LINELOC_CTX_NAME, LT_NAME_K);
	*f = lt_num(b, h, LINELOC_CTX_CFILE, LT_CFILE_K);
	*line = lt_num(b, h, *f ? LINELOC_CTX_CLINE_ABS :
			     LINELOC_CTX_CLINE + !!k, LT_CLINE_K);
}

/*
 * How the chain of inlined calls changes at a row of class @cls in
 * @file at @line (linetab_model.h), into @ch; or, with no @ch, only
 * read past it.  Returns 0, or -LINELOC_E_DATA.
 */
static int lt_chain_op(struct lt_bits *b, const struct lt_tab *h,
		       struct lt_chain *ch, u32 cls, u32 file, u32 line)
{
	u32 p = 0, q = 0, k, j, f, pf, pl;
	struct lt_level lv;

	j = lt_op(b, h, cls, &p, &q);
	if (j >= LT_OP_SYMS)
		return -LINELOC_E_DATA;
	if (ch && j && (p > ch->depth ||
			q > LINELOC_MAX_DEPTH - (ch->depth - p)))
		return -LINELOC_E_DATA;
	if (ch && j)
		lt_ch_pop(ch, p);
	for (k = 0; k < q; k++) {
		j = lt_sym_r(b, h, LINELOC_CTX_PUSH + !!k);
		if (j == LT_PUSH_NEW)
			lt_new_nums(b, h, k, &lv.name, &f, &lv.line);
		else if (j > LT_PUSH_USUAL)
			return -LINELOC_E_DATA;
		if (!ch)
			continue;
		if (j < ch->nrecent) {
			lt_ch_again(ch, j);
			continue;
		}
		if (j == LT_PUSH_USUAL) {
			if (!ch->depth ||
			    lt_usual(h, ch->lv[ch->depth - 1].name, &lv))
				return -LINELOC_E_DATA;
		} else if (j == LT_PUSH_NEW) {
			lt_ch_pred(ch, file, line, &pf, &pl);
			if (f) {
				lv.file = f - 1;
			} else {
				lv.file = pf;
				lv.line = lt_unzigzag(lv.line, pl);
			}
			if (lv.name >= h->nnames || lv.file >= h->nfiles)
				return -LINELOC_E_DATA;
		} else {
			return -LINELOC_E_DATA;
		}
		lt_ch_push(ch, &lv);
	}
	if (ch)
		lt_ch_row(ch, file, line);
	return 0;
}

/*
 * Decode block @blk, bytes @start..@stop of the data, from its first row
 * at *@at up to the last row at or below @off.  Each row is decoded before
 * its address delta; a row that turns out to start above @off is dropped.
 * On success *file, *line, *end and *at are the answer.
 *
 * The move-to-front list is @order, one 4-bit slot number a position,
 * position 0 in the low bits: moving an entry to the front is a few
 * shifts and masks, with no branch on how far it moves.  Position p holds
 * slot p until the list grows past it, so a file new in the block takes
 * position n's slot, or the last position's once the list is full.  The
 * file of the row before is at position 0; its line and line before are
 * kept in @cur and @prv while it stays (written back on a switch).
 */
static int lt_block(const struct lt_tab *h, u32 blk, u32 start, u32 stop,
		    u32 off, u32 *file, u32 *line, bool *end, u32 *at,
		    struct lt_chain *ch)
{
	struct lt_mtf mtf[LINELOC_MTF], m;
	u64 order = LT_MTF_ORDER, low;
	u32 rows, k, r, j, zz, slot, n = 0, cls = LT_C_START;
	u32 cur = 0, prv = 0, pfile, pline, next;
	u32 afile = 0, aline = 0;	/* the answer of the last row */
	const u8 *dict = h->t + h->dict_off;
	bool aend = false, pend;
	struct lt_bits b;

	rows = h->entries - blk * h->block_rows;
	if (rows > h->block_rows)
		rows = h->block_rows;
	b.w = 0;
	b.n = 0;
	b.p = h->t + h->data_off + start;
	b.end = h->t + h->data_off + stop;
	b.over = 0;
	b.err = 0;
	if (ch)
		lt_ch_reset(ch);
	for (k = 0; k < rows; k++) {
		pfile = afile;
		pline = aline;
		pend = aend;
		lt_refill(&b);
		r = lt_sym(&b, h, LINELOC_CTX_ROW + cls);
		if (likely(r >= LT_RS_LINE)) {		/* same file, a line */
			if (unlikely(!n))
				goto bad;
			zz = r - LT_RS_LINE;
			if (unlikely(zz >= 1U << LT_LINE_K))
				zz = lt_extra(&b, zz, LT_LINE_K);
			prv = cur;
			cur = lt_unzigzag(zz, cur);
			aline = cur;
			aend = false;
			cls = LT_C_STEP + lt_step_class(zz);
		} else if (r == LT_RS_BACK) {		/* the line before */
			if (unlikely(!n))
				goto bad;
			zz = cur;
			cur = prv;
			prv = zz;
			aline = cur;
			aend = false;
			cls = LT_C_BACK;
		} else if (r == LT_RS_ZERO) {
			if (unlikely(!n))
				goto bad;
			aline = 0;
			aend = false;
			cls = LT_C_ZERO;
		} else if (r == LT_RS_END) {
			aend = true;
			cls = LT_C_END;
		} else {				/* another file */
			slot = order & 15;
			mtf[slot].line = cur;
			mtf[slot].prev = prv;
			if (r == LT_RS_NEW || r == LT_RS_DICT) {
				if (r == LT_RS_NEW) {
					m.file = lt_num(&b, h, LINELOC_CTX_FILE_IDX,
							LT_IDX_K);
					m.line = lt_num(&b, h, LINELOC_CTX_LINE_ABS,
							LT_ABS_K);
				} else {
					j = lt_num(&b, h, LINELOC_CTX_DICT,
						   LT_DICT_K);
					if (j >= h->ndict)
						goto bad;
					m.file = get_unaligned_le16(dict + 4 * j);
					m.line = get_unaligned_le16(dict + 4 * j + 2);
				}
				if (m.file >= h->nfiles)
					goto bad;
				m.prev = 0;
				j = n < LINELOC_MTF ? n++ : LINELOC_MTF - 1;
				aline = m.line;
				cls = m.line ? LT_C_NEW : LT_C_ZERO;
			} else {
				j = r - LT_RS_MTF + 1;
				if (j >= n)
					goto bad;
				m = mtf[(order >> 4 * j) & 15];
				zz = lt_num(&b, h, LINELOC_CTX_LINE_MTF + (j > 1),
					    LT_LINE_K);
				if (!zz) {
					aline = 0;
					cls = LT_C_ZERO;
				} else {
					if (zz == LT_SW_BACK) {
						zz = m.line;
						m.line = m.prev;
						m.prev = zz;
					} else if (zz > LT_SW_DELTA) {
						m.prev = m.line;
						m.line = lt_sw_line(zz - LT_SW_DELTA,
								    m.line);
					}
					aline = m.line;
					cls = LT_C_SWITCH;
				}
			}
			cur = m.line;
			prv = m.prev;
			afile = m.file;
			/* position j to the front; 0..j - 1 move up one */
			slot = (order >> 4 * j) & 15;
			mtf[slot] = m;
			low = ((u64)1 << 4 * j) - 1;
			order = (order & ~(low << 4 | 15)) |
				(order & low) << 4 | slot;
			aend = false;
		}
		if (k) {
			next = *at + lt_num(&b, h, LINELOC_CTX_ADDR + cls,
					    LT_ADDR_K) + 1;
			if (next <= *at || next > off) {
				afile = pfile;	/* this row starts above @off */
				aline = pline;
				aend = pend;
				break;
			}
			*at = next;
		}
		if (h->nctx == LINELOC_NCTX_CHAINS) {	/* the row's chain */
			if (aend && ch)
				lt_ch_end(ch);
			else if (!aend &&
				 lt_chain_op(&b, h, ch, cls, afile, aline))
				goto bad;
		}
		if (unlikely(b.err))
			return b.err;
	}
	if (b.err)
		return b.err;
	if (8 * ((u64)(b.p - (h->t + h->data_off + start)) + b.over) - b.n >
	    8 * (u64)(stop - start))
		return -LINELOC_E_DATA;	/* read past the block */
	*file = afile;
	*line = aline;
	*end = aend;
	return 0;
bad:
	return -LINELOC_E_DATA;
}

/*
 * The path of @file into @loc.  A file's name starts where the names of
 * the files before it in its group of LINELOC_FILE_GROUP end.
 */
static int lt_path(const struct lt_tab *h, u32 file, struct lineloc_loc *loc)
{
	const u8 *fs = h->t + h->files_off, *dirs = h->t + h->dirs_off;
	u32 ngroups = h->nfiles / LINELOC_FILE_GROUP +
		      !!(h->nfiles % LINELOC_FILE_GROUP);
	const u8 *len = fs + 4 * ngroups, *dir = len + h->nfiles;
	u32 i, a, b, d;
	u64 at;

	if (file >= h->nfiles)
		return -LINELOC_E_HEADER;
	at = get_unaligned_le32(fs + 4 * (file / LINELOC_FILE_GROUP));
	for (i = file - file % LINELOC_FILE_GROUP; i < file; i++)
		at += len[i];
	d = get_unaligned_le16(dir + 2 * file);
	if (at + len[file] > h->str_size || d >= h->ndirs)
		return -LINELOC_E_HEADER;
	loc->file = file;
	loc->name = (const char *)h->t + h->str_off + at;
	loc->name_len = len[file];
	a = get_unaligned_le32(dirs + 4 * d);
	b = get_unaligned_le32(dirs + 4 * (d + 1));
	if (a > b || b > h->str_size)
		return -LINELOC_E_HEADER;
	loc->dir = (const char *)h->t + h->str_off + a;
	loc->dir_len = b - a;
	return 0;
}

/**
 * lineloc_path() - the path of a file of a line table
 * @tab: the table
 * @size: bytes at @tab
 * @file: index of the path
 * @loc: where to put @dir, @dir_len, @name, @name_len and @file
 *
 * Return: 0, or -LINELOC_E_HEADER if the table or the index is bad.
 */
int lineloc_path(const void *tab, size_t size, u32 file,
		 struct lineloc_loc *loc)
{
	struct lt_tab h;
	int ret;

	ret = lt_parse(&h, tab, size);
	if (ret)
		return ret;
	return lt_path(&h, file, loc);
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_path);

/*
 * Block @blk of superblock @s: the offset of its first row in @at, and
 * where its data starts and stops.
 */
static int lt_span(const struct lt_tab *h, u32 s, u32 blk, u32 *at,
		   u32 *start, u32 *stop)
{
	const u8 *sb = h->t + h->super_off, *ix = h->t + h->index_off;
	u32 pos = get_unaligned_le32(sb + 12 * s + 4);

	*at = get_unaligned_le32(sb + 12 * s) + get_unaligned_le16(ix + 4 * blk);
	*start = pos + get_unaligned_le16(ix + 4 * blk + 2);
	if (blk + 1 == h->nblocks)
		*stop = h->data_size;
	else if (s + 1 < h->nsuper &&
		 get_unaligned_le32(sb + 12 * (s + 1) + 8) == blk + 1)
		*stop = get_unaligned_le32(sb + 12 * (s + 1) + 4);
	else
		*stop = pos + get_unaligned_le16(ix + 4 * (blk + 1) + 2);
	if (*start > *stop || *stop > h->data_size)
		return -LINELOC_E_DATA;
	return 0;
}

/* lineloc_lookup() on a parsed table; with @ch, the chain into it. */
static __always_inline int lt_lookup(const struct lt_tab *h, u32 off,
				     struct lineloc_loc *loc,
				     struct lt_chain *ch)
{
	u32 lo, hi, n, half, s, base, file = 0, line = 0, at, start, stop;
	const u8 *sb, *ix;
	bool end = false;
	int ret;

	if (!h->nsuper)
		return LINELOC_UNKNOWN;
	sb = h->t + h->super_off;
	ix = h->t + h->index_off;
	if (get_unaligned_le32(sb) > off)
		return LINELOC_UNKNOWN;
	/* the last superblock, then block, whose first row is at or below */
	lo = 0;
	n = h->nsuper;
	while (n > 1) {		/* no branch on the data: a conditional move */
		half = n / 2;
		lo = get_unaligned_le32(sb + 12 * (lo + half)) <= off ? lo + half : lo;
		n -= half;
	}
	s = lo;
	base = get_unaligned_le32(sb + 12 * s);
	lo = get_unaligned_le32(sb + 12 * s + 8);
	hi = s + 1 < h->nsuper ? get_unaligned_le32(sb + 12 * (s + 1) + 8) : h->nblocks;
	if (lo >= hi || hi > h->nblocks)
		return -LINELOC_E_DATA;
	for (n = hi - lo; n > 1; n -= half) {
		half = n / 2;
		lo = base + get_unaligned_le16(ix + 4 * (lo + half)) <= off ? lo + half : lo;
	}
	ret = lt_span(h, s, lo, &at, &start, &stop);
	if (ret)
		return ret;
	if (at > off)
		return -LINELOC_E_DATA;	/* an index out of order */
	ret = lt_block(h, lo, start, stop, off, &file, &line, &end, &at, ch);
	if (ret)
		return ret;
	if (end)
		return LINELOC_UNKNOWN;
	ret = lt_path(h, file, loc);
	if (ret)
		return ret;
	loc->line = line;
	loc->start = at;
	return 0;
}

/**
 * lineloc_lookup() - the source location of an offset
 * @tab: the table
 * @size: bytes at @tab
 * @off: offset from the table's base
 * @loc: the location, filled in when 0 is returned
 *
 * The location is that of the last row at or below @off.  Offsets below
 * the first row, and in a gap after the end of a sequence, have none.
 * A row without a line answers with @loc->line 0.
 *
 * Return: 0, LINELOC_UNKNOWN when the table has no location for @off, or
 * a negative LINELOC_E_* code when the table is damaged.
 */
int lineloc_lookup(const void *tab, size_t size, u32 off,
		   struct lineloc_loc *loc)
{
	struct lt_tab h;
	int ret;

	ret = lt_parse(&h, tab, size);
	if (ret)
		return ret;
	return lt_lookup(&h, off, loc, NULL);	/* chains are read past */
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_lookup);

/*
 * The name of rank @i into @buf (LINELOC_MAX_NAME bytes), its length into
 * *@len: its position in the sorted names, then the names of its group
 * up to it, each the bytes it shares with the one before and its own.
 */
static int lt_name(const struct lt_tab *h, u32 i, char *buf, u32 *len)
{
	u32 wide = h->nnames > 0x10000, a, k, n, c, pos;
	const u8 *perm = h->t + h->names_off, *starts, *str;

	if (i >= h->nnames)
		return -LINELOC_E_HEADER;
	a = wide ? get_unaligned_le32(perm + 4 * i) :
		   get_unaligned_le16(perm + 2 * i);
	if (a >= h->nnames)
		return -LINELOC_E_HEADER;
	starts = perm + (size_t)h->nnames * (wide ? 4 : 2);
	str = h->t + h->nstr_off;
	pos = get_unaligned_le32(starts + 4 * (a / LINELOC_NAME_GROUP));
	for (k = a - a % LINELOC_NAME_GROUP, n = 0; k <= a; k++) {
		c = 0;
		if (k % LINELOC_NAME_GROUP) {
			if (pos >= h->nstr_size)
				return -LINELOC_E_HEADER;
			c = str[pos++];
			if (c > n)
				return -LINELOC_E_HEADER;
		}
		if (pos >= h->nstr_size)
			return -LINELOC_E_HEADER;
		n = str[pos++];
		if (c + n > LINELOC_MAX_NAME || n > h->nstr_size - pos)
			return -LINELOC_E_HEADER;
		for (; n; n--)
			buf[c++] = str[pos++];
		n = c;
	}
	*len = n;
	return 0;
}

/**
 * lineloc_name() - the name of an inlined function of a line table
 * @tab: the table
 * @size: bytes at @tab
 * @name: its index, from struct lineloc_call
 * @buf: where to put it, LINELOC_MAX_NAME bytes, not terminated
 * @len: where to put its length
 *
 * Return: 0, or -LINELOC_E_HEADER if the table or the index is bad.
 */
int lineloc_name(const void *tab, size_t size, u32 name, char *buf, u32 *len)
{
	struct lt_tab h;
	int ret;

	ret = lt_parse(&h, tab, size);
	if (ret)
		return ret;
	return lt_name(&h, name, buf, len);
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_name);

/*
 * lineloc_lookup() into @loc, with the chain at @off into @ch (no levels
 * in a table without chains), the table parsed into @h.  Inlined: a
 * frame of its own would deepen a %pBl's stack (lineloc_lookup_outer()).
 */
static __always_inline int lt_lookup_chain(struct lt_tab *h, const void *tab,
					   size_t size, u32 off,
					   struct lineloc_loc *loc,
					   struct lt_chain *ch)
{
	int ret;

	ch->depth = 0;
	ret = lt_parse(h, tab, size);
	if (ret)
		return ret;
	return lt_lookup(h, off, loc, h->nctx == LINELOC_NCTX_CHAINS ? ch : NULL);
}

/**
 * lineloc_lookup_calls() - the source location of an offset, with the
 * chain of inlined calls that holds there
 * @tab: the table
 * @size: bytes at @tab
 * @off: offset from the table's base
 * @loc: the location, as lineloc_lookup() gives it: the line inside the
 *	innermost inlined function
 * @calls: the levels of inlined calls, innermost first: each inlined
 *	function's name and where it is called, in the function it is
 *	inlined into (the next level, or the function the symbol table
 *	names)
 * @max: room at @calls
 * @ncalls: the levels put at @calls: the innermost @max at most; 0 when
 *	the table has no chains
 *
 * Return: as lineloc_lookup().
 */
int lineloc_lookup_calls(const void *tab, size_t size, u32 off,
			 struct lineloc_loc *loc, struct lineloc_call *calls,
			 u32 max, u32 *ncalls)
{
	struct lt_chain ch;
	struct lt_tab h;
	u32 i;
	int ret;

	*ncalls = 0;
	ret = lt_lookup_chain(&h, tab, size, off, loc, &ch);
	if (ret)
		return ret;
	for (i = 0; i < ch.depth && i < max; i++) {
		const struct lt_level *lv = &ch.lv[ch.depth - 1 - i];

		calls[i].name = lv->name;
		calls[i].file = lv->file;
		calls[i].line = lv->line;
	}
	*ncalls = i;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_lookup_calls);

/**
 * lineloc_lookup_outer() - the source location of an offset in the
 * function its symbol names: the call site of the outermost level of
 * inlined calls there, or the offset's own line where there is none
 * @tab: the table
 * @size: bytes at @tab
 * @off: offset from the table's base
 * @loc: the location; @loc->start is the row's, as lineloc_lookup() gives
 * @depth: the levels of inlined calls at @off, 0 when the table has no
 *	chains
 *
 * Return: as lineloc_lookup().
 */
int lineloc_lookup_outer(const void *tab, size_t size, u32 off,
			 struct lineloc_loc *loc, u32 *depth)
{
	struct lt_chain ch;
	struct lt_tab h;
	u32 start;
	int ret;

	*depth = 0;
	ret = lt_lookup_chain(&h, tab, size, off, loc, &ch);
	if (ret || !ch.depth)
		return ret;
	start = loc->start;
	ret = lt_path(&h, ch.lv[0].file, loc);
	if (ret)
		return ret;
	loc->line = ch.lv[0].line;
	loc->start = start;
	*depth = ch.depth;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_lookup_outer);

/**
 * lineloc_check_header() - validate a line table once, before use
 * @tab: the table
 * @size: bytes at @tab
 *
 * Checks the header, the prefix codes (the table's own or the shared
 * set's: complete, canonical, decode tables that agree with them), the
 * block index (increasing offsets, block data inside the table) and the
 * path arrays.  Lookups check what they read
 * anyway; this is for reporting a bad table early.
 *
 * Return: 0, or a negative LINELOC_E_* code (-LINELOC_E_CODESET for a table
 * coded with shared codes other than lineloc_shared_codes()).
 */
int lineloc_check_header(const void *tab, size_t size)
{
	char name[LINELOC_MAX_NAME];
	struct lineloc_loc loc;
	struct lt_tab h;
	u32 i, j, len, total, first, prev = 0, cur, e, pos, n;
	const u8 *cnt;
	u64 kraft;
	int ret;

	ret = lt_parse(&h, tab, size);
	if (ret)
		return ret;
	for (i = 0; i < h.nctx; i++) {
		pos = get_unaligned_le32(h.c + h.long_off + 4 * i);
		if (!lt_fits(h.c_size, pos, LINELOC_LONG_HDR, 1))
			return -LINELOC_E_CODE;
		n = h.c[pos];
		cnt = h.c + pos + 1;
		if (!lt_fits(h.c_size, pos + LINELOC_LONG_HDR, n, 1))
			return -LINELOC_E_CODE;
		total = 0;
		kraft = 0;
		first = 0;
		for (len = 1; len <= LINELOC_MAX_LEN; len++) {
			if (len == h.lut_bits + 1 &&
			    (first != get_unaligned_le16(cnt + LINELOC_MAX_LEN) ||
			     total != cnt[LINELOC_MAX_LEN + 2]))
				return -LINELOC_E_CODE;	/* the walk's state */
			total += cnt[len - 1];
			first = (first + cnt[len - 1]) << 1;
			kraft += (u64)cnt[len - 1] << (LINELOC_MAX_LEN - len);
		}
		if (total > n || (total > 1 && kraft != 1ULL << LINELOC_MAX_LEN))
			return -LINELOC_E_CODE;
		for (j = 0; j < 1U << h.lut_bits; j++) {
			e = get_unaligned_le16(h.lut + 2 * ((i << h.lut_bits) + j));
			if (e != LT_LONG && (e & 15) > h.lut_bits)
				return -LINELOC_E_CODE;
		}
	}
	if (h.nblocks && !h.nsuper)
		return -LINELOC_E_DATA;
	for (i = 0; i < h.nsuper; i++) {
		const u8 *e = h.t + h.super_off + 12 * i;

		cur = get_unaligned_le32(e + 8);
		if (!i && cur)
			return -LINELOC_E_DATA;
		if (i && (cur <= prev ||
			  get_unaligned_le32(e) <= get_unaligned_le32(e - 12) ||
			  get_unaligned_le32(e + 4) < get_unaligned_le32(e - 8)))
			return -LINELOC_E_DATA;
		if (cur >= h.nblocks || get_unaligned_le32(e + 4) > h.data_size)
			return -LINELOC_E_DATA;
		prev = cur;
	}
	for (i = 0; i < h.nfiles; i++) {
		ret = lt_path(&h, i, &loc);
		if (ret)
			return ret;
	}
	for (i = 0; i < h.nnames; i++) {
		ret = lt_name(&h, i, name, &len);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * lineloc_check() - validate a whole line table before it is published
 * @tab: the table
 * @size: bytes at @tab
 *
 * lineloc_check_header(), then every block decoded once, to its end: for a
 * table that comes with a module rather than with the kernel image.
 *
 * Return: 0, or a negative LINELOC_E_* code.
 */
int lineloc_check(const void *tab, size_t size)
{
	u32 s, blk, last, at, start, stop, file, line;
	struct lt_chain ch;
	struct lt_tab h;
	bool end;
	int ret;

	ret = lineloc_check_header(tab, size);
	if (ret)
		return ret;
	lt_parse(&h, tab, size);
	for (s = 0; s < h.nsuper; s++) {
		const u8 *e = h.t + h.super_off + 12 * s;

		last = s + 1 < h.nsuper ? get_unaligned_le32(e + 20) : h.nblocks;
		for (blk = get_unaligned_le32(e + 8); blk < last; blk++) {
			ret = lt_span(&h, s, blk, &at, &start, &stop);
			if (!ret)
				ret = lt_block(&h, blk, start, stop, ~0U,
					       &file, &line, &end, &at,
					       h.nctx == LINELOC_NCTX_CHAINS ?
					       &ch : NULL);
			if (ret)
				return ret;
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_check);
