/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linetab_model.h - the coding model shared by linetab_enc.c and
 * linetab_dec.c: symbol alphabets and the choice of context.  Both sides
 * must evolve the same state row by row; keep every decision here.
 */
#ifndef LINELOC_MODEL_H
#define LINELOC_MODEL_H

#include <linux/lineloc/table.h>
#include <linux/bitops.h>

/*
 * Numbers are coded as a symbol plus raw bits: 0 .. 2^k - 1 directly,
 * larger values by their bit length and the bit below the top one, the
 * rest raw (two symbols an octave): lt_usyms(k) symbols for any u32.
 */
#define LT_ADDR_K	5	/* address delta - 1 */
#define LT_LINE_K	5	/* zigzag line delta (+ 1: 0 is "line 0") */
#define LT_ABS_K	5	/* line of a file new in the block */
#define LT_IDX_K	4	/* index of a file new in the block */
#define LT_DICT_K	6	/* index of a dictionary pair */

/*
 * The dictionary: the (file, line) pairs that most often start a file new
 * in a block, each used at least LT_DICT_MIN times (a pair costs 4 bytes,
 * a use saves about ten bits), most used first.
 */
#define LT_DICT_MIN	4
#define LT_DICT_MAX	0xffff

/*
 * The row symbol: what a row is, and for a row in the same file as the
 * row before, its line delta too.  Each file in the MTF list remembers
 * its last line and the line before that (@prev): LT_RS_BACK returns to
 * @prev, what optimised code does all the time.
 */
#define LT_RS_END	0			/* end of a sequence */
#define LT_RS_NEW	1			/* file new in the block */
#define LT_RS_DICT	2			/* the same, from the dictionary */
#define LT_RS_BACK	3			/* same file, its line before */
#define LT_RS_MTF	4			/* + j - 1: MTF position j >= 1 */
#define LT_RS_ZERO	(LT_RS_MTF + LINELOC_MTF - 1)	/* same file, line 0 */
#define LT_RS_LINE	(LT_RS_ZERO + 1)	/* + number: zigzag delta */

/*
 * The line after a switch to a file in the MTF list: 0 for line 0,
 * LT_SW_BACK for the file's line before its last, else LT_SW_DELTA + the
 * zigzag delta against its last line.
 */
#define LT_SW_BACK	1
#define LT_SW_DELTA	2

/*
 * The delta is taken modulo 2^31 (lines are below 2^31), so its zigzag
 * is below 2^31 and LT_SW_DELTA + it never wraps.
 */
static inline u32 lt_sw_zigzag(u32 line, u32 last)
{
	u32 d = (((line - last) & 0x7fffffffU) ^ 0x40000000U) - 0x40000000U;

	return (d << 1) ^ (u32)-(d >> 31);
}

static inline u32 lt_sw_line(u32 zz, u32 last)
{
	return (last + ((zz >> 1) ^ (u32)-(zz & 1))) & 0x7fffffffU;
}

/* Row classes: the context of the row's address and of the next row. */
enum {
	LT_C_STEP = 0,		/* 0..4: same file, by line step */
	LT_C_SWITCH = 5,	/* switched to a file in the MTF list */
	LT_C_NEW = 6,		/* a file new in the block */
	LT_C_END = 7,		/* an end of sequence */
	LT_C_ZERO = 8,		/* a row with line 0 */
	LT_C_BACK = 9,		/* back to the line before */
	LT_C_START = 10,	/* (previous class of a block's first row) */
};

static inline u32 lt_usyms(u32 k)
{
	return (1U << k) + 2 * (32 - k);
}

/*
 * Class of a line step, from its zigzag value: 0 for +1, 1 for +2..+3,
 * 2 for 0 and +4..+31, 3 for -31..-1, 4 beyond.
 */
static const u8 lt_step_classes[64] = {	/* by table: no branch */
	2, 3, 0, 3, 1, 3, 1, 3, 2, 3, 2, 3, 2, 3, 2, 3,
	2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3,
	2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3,
	2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 4,
};

static inline u32 lt_step_class(u32 zz)
{
	return zz < 64 ? lt_step_classes[zz] : 4;
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

#endif /* LINELOC_MODEL_H */
