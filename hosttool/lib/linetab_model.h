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
 * k is 2 at least, so that a value past 2^k - 1 has a raw bit.
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

/*
 * Chains of inlined calls.  After each row that is not an end (and after
 * its address delta), one symbol in context LINELOC_CTX_OP + the row's
 * class: 0 when the chain is the row before's, else 1 + pops * 3 +
 * min(pushes, 2), pushes of 2 or more followed by pushes - 2 in
 * LINELOC_CTX_PUSHES.  The levels left go, innermost first, to the front
 * of the block's recent list; each level pushed, outermost first, is a
 * symbol in LINELOC_CTX_PUSH (+ 1 past the first level the row pushes): the
 * position of an instance in the recent list, taken out of it (with the
 * last row inside it), LT_PUSH_USUAL for the usual call of the function
 * it is called from (the table's list of them, by the caller's name), or
 * LT_PUSH_NEW for another, whose name, call file (0 for the predicted
 * file, else 1 + the file) and call line follow.  The file and line
 * predicted for a level are those of the last row in the block at the
 * depth of its caller, else the row's own; the line is coded against the
 * predicted one (in LINELOC_CTX_CLINE, + 1 past the row's first push)
 * when the file is the predicted file.  No context depends on the chain,
 * so that a lookup that wants no chain skips them with no state (what
 * backtraces' %pB does, whose stack is counted).  An end empties the
 * chain; a block starts with an empty chain and recent list.
 */
#define LT_OP_SYMS	(1 + 3 * (LINELOC_MAX_DEPTH + 1))
#define LT_PUSHES_K	2
#define LT_NAME_K	6
#define LT_CFILE_K	2
#define LT_CLINE_K	5
#define LT_NOFILE	0xffffffffU	/* no row yet at this depth */
#define LT_PUSH_NEW	LINELOC_RECENT		/* a level new in the block */
#define LT_PUSH_USUAL	(LINELOC_RECENT + 1)	/* its caller's usual call */
#define LT_USUAL_MIN	3	/* new levels a usual call stands for, at least */

struct lt_level {
	u32 name, file, line;
};

/* A level left, and the last row inside it: for a call from it on return. */
struct lt_left {
	struct lt_level lv;
	u32 file, line;
};

/*
 * The chain, the recent list and, per depth up to the chain's, the last
 * row at it in the block (LT_NOFILE for none; always so past the depth).
 */
struct lt_chain {
	u32 depth, nrecent;
	struct lt_level lv[LINELOC_MAX_DEPTH];
	struct lt_left recent[LINELOC_RECENT];
	u32 lfile[LINELOC_MAX_DEPTH + 1], lline[LINELOC_MAX_DEPTH + 1];
};

static inline void lt_ch_reset(struct lt_chain *ch)
{
	u32 i;

	ch->depth = 0;
	ch->nrecent = 0;
	for (i = 0; i <= LINELOC_MAX_DEPTH; i++)
		ch->lfile[i] = LT_NOFILE;
}

/* An end of sequence: no chain, and no row at any depth. */
static inline void lt_ch_end(struct lt_chain *ch)
{
	for (; ch->depth; ch->depth--)
		ch->lfile[ch->depth] = LT_NOFILE;
	ch->lfile[0] = LT_NOFILE;
}

/* Leave @p levels (@p <= depth), innermost first, to the recent list. */
static inline void lt_ch_pop(struct lt_chain *ch, u32 p)
{
	u32 i;

	for (; p; p--) {
		i = ch->nrecent < LINELOC_RECENT ? ch->nrecent++ :
		    LINELOC_RECENT - 1;
		for (; i > 0; i--)
			ch->recent[i] = ch->recent[i - 1];
		ch->recent[0].lv = ch->lv[ch->depth - 1];
		ch->recent[0].file = ch->lfile[ch->depth];
		ch->recent[0].line = ch->lline[ch->depth];
		ch->lfile[ch->depth--] = LT_NOFILE;
	}
}

/* Push @lv (depth < LINELOC_MAX_DEPTH), new: no row inside it yet. */
static inline void lt_ch_push(struct lt_chain *ch, const struct lt_level *lv)
{
	ch->lv[ch->depth++] = *lv;
	ch->lfile[ch->depth] = LT_NOFILE;
	ch->lline[ch->depth] = 0;
}

/* Push recent level @j (< nrecent) again, taking it out of the list. */
static inline void lt_ch_again(struct lt_chain *ch, u32 j)
{
	const struct lt_left *l = &ch->recent[j];

	ch->lv[ch->depth++] = l->lv;
	ch->lfile[ch->depth] = l->file;
	ch->lline[ch->depth] = l->line;
	for (ch->nrecent--; j < ch->nrecent; j++)
		ch->recent[j] = ch->recent[j + 1];
}

/*
 * The predicted call file and line of a level pushed now, in @f and @l:
 * the last row at its caller's depth, else the row's own.
 */
static inline void lt_ch_pred(const struct lt_chain *ch, u32 row_file,
			      u32 row_line, u32 *f, u32 *l)
{
	*f = ch->lfile[ch->depth];
	*l = ch->lline[ch->depth];
	if (*f == LT_NOFILE) {
		*f = row_file;
		*l = row_line;
	}
}

/* A row at the chain's depth: what the next level's call is predicted by. */
static inline void lt_ch_row(struct lt_chain *ch, u32 file, u32 line)
{
	ch->lfile[ch->depth] = file;
	ch->lline[ch->depth] = line;
}

#endif /* LINELOC_MODEL_H */
