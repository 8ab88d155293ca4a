/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linetab_model.h - the coding model shared by linetab_enc.c and
 * linetab_dec.c: symbol alphabets and the choice of context.  Both sides
 * must evolve the same state row by row; keep every decision here.
 */
#ifndef LINETAB_MODEL_H
#define LINETAB_MODEL_H

#include "linetab.h"

/*
 * Numbers are coded as a symbol plus raw bits: 0 .. 2^k - 1 directly,
 * larger values by their bit length and the bit below the top one, the
 * rest raw (two symbols an octave).
 */
#define LT_ADDR_K	5	/* address delta - 1 */
#define LT_LINE_K	5	/* zigzag line delta; symbol 0 is "line 0" */
#define LT_ABS_K	5	/* line of a file new in the block */
#define LT_IDX_K	4	/* index of a file new in the block */

/* File symbols: MTF positions, then these two. */
#define LT_F_NEW	LINETAB_MTF
#define LT_F_END	(LINETAB_MTF + 1)
#define LT_F_NSYM	(LINETAB_MTF + 2)

/* Classes of the previous row, for the choice of the next contexts. */
enum { LT_FC_SAME, LT_FC_MTF1, LT_FC_MTF, LT_FC_NEW, LT_FC_END, LT_FC_START };
enum {
	LT_AC_STEP = 0,		/* 0..3: same file, by line step class */
	LT_AC_SWITCH = 4,	/* switched to a file in the MTF list */
	LT_AC_NEW = 5,		/* a file new in the block */
	LT_AC_END = 6,		/* an end of sequence */
	LT_AC_ZERO = 7,		/* a row with line 0 */
};

#define LT_GAP_SMALL	16	/* address deltas below this: gap class 0 */

static inline u32 lt_usyms(u32 k)
{
	return (1U << k) + 2 * (32 - k);
}

static inline u32 lt_fls(u32 v)		/* index of the top set bit, v > 0 */
{
	return 31 - __builtin_clz(v);
}

static inline u32 lt_step_class(u32 zz)	/* zz: zigzag line delta */
{
	if (zz >= 2 && zz <= 6 && !(zz & 1))	/* +1 .. +3 */
		return 0;
	if (zz <= 62 && !(zz & 1))		/* +4 .. +31 */
		return 1;
	if (zz <= 61)				/* -31 .. -1 */
		return 2;
	return 3;
}

static inline u32 lt_zigzag(u32 line, u32 last)
{
	u32 d = line - last;

	return (d << 1) ^ (u32)-(d >> 31);
}

static inline u32 lt_unzigzag(u32 zz, u32 last)
{
	return last + ((zz >> 1) ^ (u32)-(zz & 1));
}

static inline u32 lt_file_ctx(u32 fclass, u32 delta)
{
	return LINETAB_CTX_FILE + fclass * 2 + (delta >= LT_GAP_SMALL);
}

#endif /* LINETAB_MODEL_H */
