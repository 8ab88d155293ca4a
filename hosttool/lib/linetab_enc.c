// SPDX-License-Identifier: GPL-2.0
/*
 * linetab_enc.c - build a compact line table (<linux/lineloc/table.h>)
 *
 * Run by the module loader and by scripts/lineloc: no floating point,
 * memory from the caller's allocator.
 *
 * Steps: deduplicate the paths; apply the kept-row rules of kallsyms to
 * each sequence; sort by offset (ends before rows at one offset, input
 * order otherwise) and keep one entry per offset (the last), dropping
 * entries that repeat the one before; run the model once to find the
 * files new in each block and make the dictionary of their most common
 * (file, line) pairs; number the files by how often they are new in a
 * block outside it; run the model again for the symbols, make a prefix
 * code per context (or take the shared set's) and write each block's bits.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/lineloc/table.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <asm/unaligned.h>

#include "linetab_model.h"

struct ent {
	u32 off, file, line, end, inl;
};

struct sym {
	u8 ctx, nbits;
	u32 val;
};

/* A new level: the name of its caller (LT_NOFILE outermost) and its own. */
struct lt_call {
	u32 caller, name, file, line;
};

struct enc {
	const struct lineloc_alloc *mem;
	struct sym *syms;
	size_t nsyms, cap;
	u32 nctx;		/* LINELOC_NCTX, or with chains */
	u32 cnt[LINELOC_NCTX_CHAINS][LINELOC_MAX_SYMS];
	u8 len[LINELOC_NCTX_CHAINS][LINELOC_MAX_SYMS];
	u32 code[LINELOC_NCTX_CHAINS][LINELOC_MAX_SYMS];
	u8 has[LINELOC_NCTX_CHAINS][LINELOC_MAX_SYMS];	/* has a code */
	/* chains: the instances' parents, names and files as now numbered */
	const struct lineloc_inline *inl;
	u32 *iname, *ifile;
	u32 *namecnt;		/* pass 1: new pushes of each name */
	u8 *cused;		/* pass 1: the files that call a new level */
	u32 pushes, pushes_new;
	struct lt_call *newlv;	/* pass 1: each new level */
	size_t nnew, newcap;
	const struct lt_call *usual;	/* pass 2: by caller, one each */
	u32 nusual, usual_hits;
	struct lt_chain ch;	/* model_block()'s: too big for a kernel stack */
	u32 *newcnt;		/* per file: blocks it is new in */
	bool count_only;
	/* pass 1: the (file, line) of each file new in a block */
	u32 *evfile, *evline;
	size_t nev;
	/* the dictionary, sorted by (file, line) for lookups: index in it */
	u32 *dfile, *dline, *didx;
	u32 ndict;
	/* make_code()'s work space: too big for a kernel stack */
	u64 hw[2 * LINELOC_MAX_SYMS];
	int hparent[2 * LINELOC_MAX_SYMS];
	bool hlive[2 * LINELOC_MAX_SYMS];
	u32 hcnt[LINELOC_MAX_SYMS];
};

#define LT_RAW		0xff	/* symbol "context" of raw bits */
#define LT_LONG		0xffffU

static void *lt_alloc(const struct lineloc_alloc *m, size_t n)
{
	return m->alloc(m->arg, n ? n : 1);
}

static void lt_free(const struct lineloc_alloc *m, void *p)
{
	if (p)
		m->free(m->arg, p);
}

/*
 * Sort u32 indexes by @cmp; ties keep ascending index order, which is the
 * input order wherever that matters (the arrays start ascending).
 */
typedef int (*lt_cmp)(const void *ctx, u32 a, u32 b);

struct lt_sort {
	lt_cmp cmp;
	const void *ctx;
};

static int lt_sort_cmp(const void *pa, const void *pb, const void *priv)
{
	const struct lt_sort *s = priv;
	u32 a = *(const u32 *)pa, b = *(const u32 *)pb;
	int r = s->cmp(s->ctx, a, b);

	if (r)
		return r;
	return a < b ? -1 : a > b;
}

static void lt_sort(u32 *a, size_t n, lt_cmp cmp, const void *ctx)
{
	struct lt_sort s = { cmp, ctx };

	sort_r(a, n, sizeof(*a), lt_sort_cmp, NULL, &s);
}

static int cmp_path(const void *ctx, u32 a, u32 b)
{
	const char *const *p = ctx;

	return strcmp(p[a], p[b]);
}

static int cmp_ent(const void *ctx, u32 a, u32 b)
{
	const struct ent *e = ctx;

	if (e[a].off != e[b].off)
		return e[a].off < e[b].off ? -1 : 1;
	return (int)!e[a].end - (int)!e[b].end;
}

struct fcmp {
	const u32 *newcnt;
	const char *const *paths;
};

static int cmp_file(const void *ctx, u32 a, u32 b)
{
	const struct fcmp *f = ctx;

	if (f->newcnt[a] != f->newcnt[b])
		return f->newcnt[a] > f->newcnt[b] ? -1 : 1;
	return strcmp(f->paths[a], f->paths[b]);
}

/* ---- symbols ---- */

static int emit(struct enc *e, u32 ctx, u32 nbits, u32 val)
{
	struct sym *n;
	size_t i;

	if (ctx != LT_RAW)
		e->cnt[ctx][val]++;
	if (e->count_only)
		return 0;
	if (e->nsyms == e->cap) {
		n = lt_alloc(e->mem, 2 * e->cap * sizeof(*n));
		if (!n)
			return -LINELOC_ENC_NOMEM;
		for (i = 0; i < e->nsyms; i++)
			n[i] = e->syms[i];
		lt_free(e->mem, e->syms);
		e->syms = n;
		e->cap *= 2;
	}
	e->syms[e->nsyms].ctx = ctx;
	e->syms[e->nsyms].nbits = nbits;
	e->syms[e->nsyms++].val = val;
	return 0;
}

/* @v as lt_usyms(@k) symbol @base + s and its raw bits. */
static int emit_num(struct enc *e, u32 ctx, u32 base, u32 v, u32 k)
{
	u32 nb;
	int ret;

	if (v < (1U << k))
		return emit(e, ctx, 0, base + v);
	nb = fls(v) - 1;
	ret = emit(e, ctx, 0,
		   base + (1U << k) + (nb - k) * 2 + ((v >> (nb - 1)) & 1));
	if (!ret)
		ret = emit(e, LT_RAW, nb - 1, v & ((1U << (nb - 1)) - 1));
	return ret;
}

struct lt_mtf {
	u32 file, line, prev;
};

/* The dictionary index of (@file, @line), or -1. */
static long dict_find(const struct enc *e, u32 file, u32 line)
{
	u32 lo = 0, hi = e->ndict, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (e->dfile[mid] < file ||
		    (e->dfile[mid] == file && e->dline[mid] < line))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < e->ndict && e->dfile[lo] == file && e->dline[lo] == line)
		return e->didx[lo];
	return -1;
}

static bool same_level(const struct lt_level *a, const struct lt_level *b)
{
	return a->name == b->name && a->file == b->file && a->line == b->line;
}

/* Pass 1: a new level @lv, called from a function named @caller. */
static int note_new(struct enc *e, u32 caller, const struct lt_level *lv)
{
	struct lt_call *n;
	size_t i;

	if (e->nnew == e->newcap) {
		n = lt_alloc(e->mem, 2 * e->newcap * sizeof(*n));
		if (!n)
			return -LINELOC_ENC_NOMEM;
		for (i = 0; i < e->nnew; i++)
			n[i] = e->newlv[i];
		lt_free(e->mem, e->newlv);
		e->newlv = n;
		e->newcap *= 2;
	}
	n = &e->newlv[e->nnew++];
	n->caller = caller;
	n->name = lv->name;
	n->file = lv->file;
	n->line = lv->line;
	return 0;
}

/* The usual call from a function named @caller, or NULL. */
static const struct lt_call *find_usual(const struct lt_call *u, u32 n,
					u32 caller)
{
	u32 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (u[mid].caller == caller)
			return &u[mid];
		if (u[mid].caller < caller)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool is_usual(const struct enc *e, u32 caller, const struct lt_level *lv)
{
	const struct lt_call *u = find_usual(e->usual, e->nusual, caller);

	return u && u->name == lv->name && u->file == lv->file &&
	       u->line == lv->line;
}

/* The chain of a row that is not an end: pops, pushes and new levels. */
static int model_chain(struct enc *e, struct lt_chain *ch, const struct ent *en,
		       u32 cls)
{
	struct lt_level w[LINELOC_MAX_DEPTH];
	u32 n = 0, i, c, p, q, j, pf, pl;
	u32 k = en->inl;
	int ret;

	for (; k && n <= LINELOC_MAX_DEPTH; k = e->inl[k - 1].parent)
		n++;
	if (n > LINELOC_MAX_DEPTH)
		return -LINELOC_ENC_ARG;
	for (i = n, k = en->inl; k; k = e->inl[k - 1].parent) {
		w[--i].name = e->iname[k - 1];
		w[i].file = e->ifile[k - 1];
		w[i].line = e->inl[k - 1].line;
	}
	for (c = 0; c < n && c < ch->depth && same_level(&ch->lv[c], &w[c]); c++)
		;
	p = ch->depth - c;
	q = n - c;
	ret = emit(e, LINELOC_CTX_OP + cls, 0,
		   p || q ? 1 + 3 * p + (q < 2 ? q : 2) : 0);
	if (!ret && q >= 2)
		ret = emit_num(e, LINELOC_CTX_PUSHES, 0, q - 2, LT_PUSHES_K);
	lt_ch_pop(ch, p);
	for (i = c; i < n && !ret; i++) {
		for (j = 0; j < ch->nrecent; j++)
			if (same_level(&ch->recent[j].lv, &w[i]))
				break;
		e->pushes++;
		if (j < ch->nrecent) {
			ret = emit(e, LINELOC_CTX_PUSH + (i > c), 0, j);
			lt_ch_again(ch, j);
			continue;
		}
		e->pushes_new++;
		if (e->count_only) {
			ret = note_new(e, i ? w[i - 1].name : LT_NOFILE, &w[i]);
			if (ret)
				break;
		} else if (i && is_usual(e, w[i - 1].name, &w[i])) {
			e->usual_hits++;
			ret = emit(e, LINELOC_CTX_PUSH + (i > c), 0,
				   LT_PUSH_USUAL);
			lt_ch_push(ch, &w[i]);
			continue;
		}
		lt_ch_pred(ch, en->file, en->line, &pf, &pl);
		ret = emit(e, LINELOC_CTX_PUSH + (i > c), 0, LT_PUSH_NEW);
		if (!ret)
			ret = emit_num(e, LINELOC_CTX_NAME, 0, w[i].name,
				       LT_NAME_K);
		if (!ret)
			ret = emit_num(e, LINELOC_CTX_CFILE, 0, w[i].file == pf ?
				       0 : w[i].file + 1, LT_CFILE_K);
		if (ret)
			break;
		if (w[i].file == pf)
			ret = emit_num(e, LINELOC_CTX_CLINE + (i > c), 0,
				       lt_zigzag(w[i].line, pl), LT_CLINE_K);
		else
			ret = emit_num(e, LINELOC_CTX_CLINE_ABS, 0, w[i].line,
				       LT_CLINE_K);
		lt_ch_push(ch, &w[i]);
	}
	lt_ch_row(ch, en->file, en->line);
	return ret;
}

/* The model, as linetab_dec.c runs it, over one block. */
static int model_block(struct enc *e, const struct ent *en, u32 rows)
{
	struct lt_chain *ch = &e->ch;
	struct lt_mtf mtf[LINELOC_MTF], m;
	u32 k, j, i, zz, n = 0, cls = LT_C_START, prev;
	long d;
	int ret = 0;

	lt_ch_reset(ch);
	for (k = 0; k < rows && !ret; k++) {
		prev = cls;
		if (en[k].end) {
			ret = emit(e, LINELOC_CTX_ROW + prev, 0, LT_RS_END);
			cls = LT_C_END;
			goto addr;
		}
		for (j = 0; j < n; j++)
			if (mtf[j].file == en[k].file)
				break;
		if (j == 0 && n) {		/* the same file */
			if (!en[k].line) {
				ret = emit(e, LINELOC_CTX_ROW + prev, 0,
					   LT_RS_ZERO);
				cls = LT_C_ZERO;
				goto addr;
			}
			if (en[k].line == mtf[0].prev &&
			    en[k].line != mtf[0].line) {
				ret = emit(e, LINELOC_CTX_ROW + prev, 0,
					   LT_RS_BACK);
				mtf[0].prev = mtf[0].line;
				mtf[0].line = en[k].line;
				cls = LT_C_BACK;
				goto addr;
			}
			zz = lt_zigzag(en[k].line, mtf[0].line);
			ret = emit_num(e, LINELOC_CTX_ROW + prev, LT_RS_LINE,
				       zz, LT_LINE_K);
			mtf[0].prev = mtf[0].line;
			mtf[0].line = en[k].line;
			cls = LT_C_STEP + lt_step_class(zz);
			goto addr;
		}
		if (j == n) {
			m.file = en[k].file;
			m.line = en[k].line;
			m.prev = 0;
			if (e->count_only && e->evfile) {
				e->evfile[e->nev] = m.file;
				e->evline[e->nev++] = m.line;
			}
			d = dict_find(e, m.file, m.line);
			if (d >= 0) {
				ret = emit(e, LINELOC_CTX_ROW + prev, 0,
					   LT_RS_DICT);
				if (!ret)
					ret = emit_num(e, LINELOC_CTX_DICT, 0,
						       (u32)d, LT_DICT_K);
			} else {
				ret = emit(e, LINELOC_CTX_ROW + prev, 0,
					   LT_RS_NEW);
				if (!ret)
					ret = emit_num(e, LINELOC_CTX_FILE_IDX,
						       0, m.file, LT_IDX_K);
				if (!ret)
					ret = emit_num(e, LINELOC_CTX_LINE_ABS,
						       0, m.line, LT_ABS_K);
			}
			i = n < LINELOC_MTF ? n++ : LINELOC_MTF - 1;
			cls = m.line ? LT_C_NEW : LT_C_ZERO;
		} else {
			m = mtf[j];
			i = j;
			ret = emit(e, LINELOC_CTX_ROW + prev, 0,
				   LT_RS_MTF + j - 1);
			if (!en[k].line) {
				if (!ret)
					ret = emit(e, LINELOC_CTX_LINE_MTF + (j > 1), 0,
						   0);
				cls = LT_C_ZERO;
			} else {
				zz = lt_sw_zigzag(en[k].line, m.line);
				if (en[k].line == m.prev && en[k].line != m.line)
					zz = LT_SW_BACK;	/* its line before */
				else
					zz += LT_SW_DELTA;
				if (!ret)
					ret = emit_num(e, LINELOC_CTX_LINE_MTF + (j > 1),
						       0, zz, LT_LINE_K);
				if (en[k].line != m.line)
					m.prev = m.line;
				m.line = en[k].line;
				cls = LT_C_SWITCH;
			}
		}
		for (; i > 0; i--)
			mtf[i] = mtf[i - 1];
		mtf[0] = m;
addr:
		if (k && !ret)
			ret = emit_num(e, LINELOC_CTX_ADDR + cls, 0,
				       en[k].off - en[k - 1].off - 1,
				       LT_ADDR_K);
		if (!e->inl || ret)
			continue;
		if (en[k].end)
			lt_ch_end(ch);
		else
			ret = model_chain(e, ch, &en[k], cls);
	}
	return ret;
}

/* Huffman code lengths of at most LINELOC_MAX_LEN bits for one context. */
static void make_code(struct enc *e, u32 c)
{
	u64 *w = e->hw;
	int *parent = e->hparent;
	bool *live = e->hlive;
	u32 *cnt = e->hcnt, s, n, nodes, a, b, i, len, max, code;

	for (s = 0; s < LINELOC_MAX_SYMS; s++) {
		cnt[s] = e->cnt[c][s];
		e->len[c][s] = 0;
	}
	for (;;) {
		nodes = LINELOC_MAX_SYMS;
		n = 0;
		for (s = 0; s < LINELOC_MAX_SYMS; s++) {
			w[s] = cnt[s];
			live[s] = cnt[s] != 0;
			parent[s] = -1;
			n += live[s];
		}
		if (n <= 1)
			return;		/* one symbol: length 0 */
		while (--n) {
			a = 2 * LINELOC_MAX_SYMS;
			b = a;
			for (i = 0; i < nodes; i++) {
				if (!live[i])
					continue;
				if (a == 2 * LINELOC_MAX_SYMS || w[i] < w[a]) {
					b = a;
					a = i;
				} else if (b == 2 * LINELOC_MAX_SYMS ||
					   w[i] < w[b]) {
					b = i;
				}
			}
			w[nodes] = w[a] + w[b];
			live[nodes] = true;
			parent[nodes] = -1;
			live[a] = false;
			live[b] = false;
			parent[a] = nodes;
			parent[b] = nodes++;
		}
		max = 0;
		for (s = 0; s < LINELOC_MAX_SYMS; s++) {
			if (!cnt[s])
				continue;
			for (len = 0, i = s; parent[i] >= 0; i = parent[i])
				len++;
			e->len[c][s] = len;
			if (len > max)
				max = len;
		}
		if (max <= LINELOC_MAX_LEN)
			break;
		for (s = 0; s < LINELOC_MAX_SYMS; s++)
			if (cnt[s])
				cnt[s] = (cnt[s] + 1) / 2;
	}
	code = 0;
	for (len = 1; len <= LINELOC_MAX_LEN; len++) {
		for (s = 0; s < LINELOC_MAX_SYMS; s++)
			if (e->len[c][s] == len)
				e->code[c][s] = code++;
		code <<= 1;
	}
}

/*
 * The codes of a shared set (<linux/lineloc/table.h>): each context's
 * record lists its symbols by code length, numbered canonically as
 * make_code() numbers them.  Every symbol the rows use must have one.
 */
static int take_codes(struct enc *e, const u8 *set, u32 set_size)
{
	u32 c, s, i, len, n, code, pos, long_off;
	const u8 *cnt, *sym;

	long_off = get_unaligned_le32(set + 12);
	for (c = 0; c < LINELOC_NCTX; c++) {
		for (s = 0; s < LINELOC_MAX_SYMS; s++) {
			e->len[c][s] = 0;
			e->has[c][s] = 0;
		}
		pos = get_unaligned_le32(set + long_off + 4 * c);
		if (pos > set_size || set_size - pos < LINELOC_LONG_HDR)
			return -LINELOC_ENC_ARG;
		n = set[pos];
		cnt = set + pos + 1;
		sym = set + pos + LINELOC_LONG_HDR;
		if (n > LINELOC_MAX_SYMS || set_size - pos - LINELOC_LONG_HDR < n)
			return -LINELOC_ENC_ARG;
		for (len = 1, i = 0; len <= LINELOC_MAX_LEN; len++)
			i += cnt[len - 1];
		if (i > n)
			return -LINELOC_ENC_ARG;
		i = 0;
		if (n == 1 && !cnt[0] && sym[0] < LINELOC_MAX_SYMS) {
			e->has[c][sym[0]] = 1;	/* one symbol: no bits */
			e->code[c][sym[0]] = 0;
			i = 1;
		}
		for (len = 1, code = 0; len <= LINELOC_MAX_LEN; len++) {
			for (s = 0; s < cnt[len - 1]; s++, i++) {
				if (sym[i] >= LINELOC_MAX_SYMS)
					return -LINELOC_ENC_ARG;
				e->len[c][sym[i]] = len;
				e->code[c][sym[i]] = code++;
				e->has[c][sym[i]] = 1;
			}
			code <<= 1;
		}
		for (s = 0; s < LINELOC_MAX_SYMS; s++)
			if (e->cnt[c][s] && !e->has[c][s])
				return -LINELOC_ENC_ARG;
	}
	return 0;
}

/* The data field a context codes (struct lineloc_stats' @bits). */
static u32 field_of(u32 ctx)
{
	if (ctx < LINELOC_CTX_ADDR)
		return LINELOC_F_ROW;
	if (ctx < LINELOC_CTX_LINE_MTF)
		return LINELOC_F_ADDR;
	if (ctx < LINELOC_CTX_LINE_ABS)
		return LINELOC_F_MTF_LINE;
	if (ctx == LINELOC_CTX_LINE_ABS)
		return LINELOC_F_NEW_LINE;
	if (ctx >= LINELOC_CTX_CFILE)
		return LINELOC_F_CALL;
	if (ctx == LINELOC_CTX_NAME)
		return LINELOC_F_NAME;
	if (ctx >= LINELOC_CTX_OP)
		return LINELOC_F_CHAIN;
	return ctx == LINELOC_CTX_DICT ? LINELOC_F_DICT : LINELOC_F_NEW_FILE;
}

/* Bits, most significant first. */
struct bw {
	u8 *p;
	u64 acc;
	u32 n;
};

static void put_bits(struct bw *b, u32 v, u32 len)
{
	b->acc = b->acc << len | v;
	b->n += len;
	while (b->n >= 8) {
		*b->p++ = b->acc >> (b->n - 8);
		b->n -= 8;
	}
}

/* Write one block's symbols at @p; returns the end. */
static u8 *code_block(struct enc *e, const struct sym *sy, size_t n, u8 *p)
{
	struct bw b = { p, 0, 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		if (sy[i].ctx == LT_RAW)
			put_bits(&b, sy[i].val, sy[i].nbits);
		else if (e->len[sy[i].ctx][sy[i].val])
			put_bits(&b, e->code[sy[i].ctx][sy[i].val],
				 e->len[sy[i].ctx][sy[i].val]);
	}
	if (b.n)
		*b.p++ = b.acc << (8 - b.n);
	return b.p;
}

static void put32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void put16(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
}

/* Where the directory part of @s ends (after its last '/'). */
/* Bytes of the codes of contexts with @nsym symbols: put_codes()'s. */
static size_t codes_bytes(const u32 *nsym, u32 nctx, u32 lut_bits)
{
	size_t n = (2 * ((size_t)1 << lut_bits) + 4) * nctx + LINELOC_LONG_HDR;
	u32 c;

	for (c = 0; c < nctx; c++)
		if (nsym[c])
			n += LINELOC_LONG_HDR + nsym[c];
	return n;
}

/*
 * Write the codes of @e (the symbols of @e->has) at @p + @pos: the decode
 * tables, the offsets of the long codes, then their records (contexts
 * with no symbol share an empty one), offsets from @p.  The decode
 * tables' and the long codes' offsets go to @lut_off and @long_off.
 */
static void put_codes(const struct enc *e, const u32 *nsym, u32 nctx,
		      u32 lut_bits, u8 *p, size_t pos, u8 *lut_off,
		      u8 *long_off)
{
	u32 c, lut = 1U << lut_bits;
	size_t i, k, empty;
	u8 *tab = p + pos;

	put32(lut_off, pos);
	for (i = 0; i < (size_t)nctx * lut; i++)
		put16(tab + 2 * i, LT_LONG);
	pos += 2 * (size_t)lut * nctx;
	put32(long_off, pos);
	k = pos + 4 * nctx;	/* the shared empty code, then ours */
	empty = k;
	for (i = 0; i < LINELOC_LONG_HDR; i++)
		p[k + i] = 0;
	k += LINELOC_LONG_HDR;
	for (c = 0; c < nctx; c++, tab += 2 * lut) {
		u8 *cnt, *sorted;
		u32 len, s2, n2 = 0, f0, i0;

		if (!nsym[c]) {
			put32(p + pos + 4 * c, empty);
			continue;
		}
		put32(p + pos + 4 * c, k);
		p[k] = nsym[c];
		cnt = p + k + 1;
		sorted = p + k + LINELOC_LONG_HDR;
		for (i = 0; i < LINELOC_LONG_HDR - 1; i++)
			cnt[i] = 0;
		for (len = 0; len <= LINELOC_MAX_LEN; len++) {
			for (s2 = 0; s2 < LINELOC_MAX_SYMS; s2++) {
				u32 code = e->code[c][s2], f, fn;

				if (!e->has[c][s2] || e->len[c][s2] != len)
					continue;
				sorted[n2++] = s2;
				if (len)
					cnt[len - 1]++;
				if (len > lut_bits)
					continue;	/* LT_LONG already */
				f = len ? code << (lut_bits - len) : 0;
				fn = 1U << (lut_bits - len);
				for (i = 0; i < fn; i++)
					put16(tab + 2 * (f + i),
					      s2 << 4 | len);
			}
		}
		/* the canonical walk's state after the decode table's lengths */
		for (len = 1, f0 = 0, i0 = 0; len <= lut_bits; len++) {
			i0 += cnt[len - 1];
			f0 = (f0 + cnt[len - 1]) << 1;
		}
		cnt[LINELOC_MAX_LEN] = f0;
		cnt[LINELOC_MAX_LEN + 1] = f0 >> 8;
		cnt[LINELOC_MAX_LEN + 2] = i0;
		k += LINELOC_LONG_HDR + nsym[c];
	}
}

/*
 * The short header of a table coded with the shared codes: the set's id
 * and @num, each a ULEB128 number, at @p (if not NULL).  Returns its size.
 */
static size_t put_short(u8 *p, u32 id, const u32 *num, u32 n)
{
	size_t k = 6;
	u32 i, v;

	if (p) {
		put16(p, LINELOC_SHORT_MAGIC);
		put32(p + 2, id);
	}
	for (i = 0; i < n; i++) {
		for (v = num[i]; v > 0x7f; v >>= 7, k++)
			if (p)
				p[k] = (v & 0x7f) | 0x80;
		if (p)
			p[k] = v;
		k++;
	}
	return k;
}

static size_t dir_len(const char *s)
{
	size_t i, d = 0;

	for (i = 0; s[i]; i++)
		if (s[i] == '/')
			d = i + 1;
	return d;
}

static int cmp_dir(const void *ctx, u32 a, u32 b)
{
	const char *const *p = ctx;
	size_t la = dir_len(p[a]), lb = dir_len(p[b]), i;

	for (i = 0; i < la && i < lb; i++)
		if (p[a][i] != p[b][i])
			return (unsigned char)p[a][i] - (unsigned char)p[b][i];
	return la < lb ? -1 : la > lb;
}

struct bufs {
	u32 *canon, *idx, *fmap, *order, *dirof, *dirrep;
	struct ent *kept, *ent;
	u8 *scratch, *blob;
	u32 *blockpos, *newcnt, *used;
	u32 *evfile, *evline, *rfile, *rline, *dfile, *dline, *didx;
	size_t *symstart;
	/* chains */
	u32 *iname, *ifile, *namecnt, *nmap, *norder, *cix, *aorder, *apos;
	u8 *cused, *nneed;
	struct lt_call *usual, *usual2;
	const char *const *names;
};

static void free_bufs(const struct lineloc_alloc *m, struct bufs *b)
{
	lt_free(m, b->canon);
	lt_free(m, b->idx);
	lt_free(m, b->fmap);
	lt_free(m, b->order);
	lt_free(m, b->dirof);
	lt_free(m, b->dirrep);
	lt_free(m, b->kept);
	lt_free(m, b->ent);
	lt_free(m, b->scratch);
	lt_free(m, b->blockpos);
	lt_free(m, b->symstart);
	lt_free(m, b->newcnt);
	lt_free(m, b->used);
	lt_free(m, b->evfile);
	lt_free(m, b->evline);
	lt_free(m, b->rfile);
	lt_free(m, b->rline);
	lt_free(m, b->dfile);
	lt_free(m, b->dline);
	lt_free(m, b->didx);
	lt_free(m, b->iname);
	lt_free(m, b->ifile);
	lt_free(m, b->namecnt);
	lt_free(m, b->nmap);
	lt_free(m, b->norder);
	lt_free(m, b->cused);
	lt_free(m, b->nneed);
	lt_free(m, b->aorder);
	lt_free(m, b->apos);
	lt_free(m, b->cix);
	lt_free(m, b->usual);
	lt_free(m, b->usual2);
}

static int cmp_ev(const void *ctx, u32 a, u32 b)
{
	const struct enc *e = ctx;

	if (e->evfile[a] != e->evfile[b])
		return e->evfile[a] < e->evfile[b] ? -1 : 1;
	return e->evline[a] < e->evline[b] ? -1 : e->evline[a] > e->evline[b];
}

struct dcmp {
	const u32 *cnt, *file, *line;
};

/* Dictionary candidates: most used first, then by (file, line). */
static int cmp_dcand(const void *ctx, u32 a, u32 b)
{
	const struct dcmp *d = ctx;

	if (d->cnt[a] != d->cnt[b])
		return d->cnt[a] > d->cnt[b] ? -1 : 1;
	if (d->file[a] != d->file[b])
		return d->file[a] < d->file[b] ? -1 : 1;
	return d->line[a] < d->line[b] ? -1 : d->line[a] > d->line[b];
}

/* By (file, line), for dict_find(). */
static int cmp_dpair(const void *ctx, u32 a, u32 b)
{
	const struct dcmp *d = ctx;

	if (d->file[a] != d->file[b])
		return d->file[a] < d->file[b] ? -1 : 1;
	return d->line[a] < d->line[b] ? -1 : d->line[a] > d->line[b];
}

/*
 * The dictionary from the events of pass 1 (e->evfile, e->evline): the
 * pairs used at least LT_DICT_MIN times, lines up to 0xffff, most used
 * first, at most LT_DICT_MAX, in b->rfile, b->rline (original file
 * numbers).  Uses b->idx, b->dfile, b->dline, b->didx as work
 * space.  Returns the number of pairs.
 */
static u32 make_dict(struct enc *e, struct bufs *b)
{
	struct dcmp dc;
	size_t i, j, nc = 0;
	u32 nd;

	for (i = 0; i < e->nev; i++)
		b->idx[i] = i;
	lt_sort(b->idx, e->nev, cmp_ev, e);
	for (i = 0; i < e->nev; i = j) {
		for (j = i + 1; j < e->nev && !cmp_ev(e, b->idx[i], b->idx[j]);
		     j++)
			;
		if (j - i < LT_DICT_MIN || e->evline[b->idx[i]] > 0xffff)
			continue;
		b->dfile[nc] = e->evfile[b->idx[i]];
		b->dline[nc] = e->evline[b->idx[i]];
		b->didx[nc++] = j - i;		/* the count, for now */
	}
	dc.cnt = b->didx;
	dc.file = b->dfile;
	dc.line = b->dline;
	for (i = 0; i < nc; i++)
		b->idx[i] = i;
	lt_sort(b->idx, nc, cmp_dcand, &dc);
	nd = nc < LT_DICT_MAX ? nc : LT_DICT_MAX;
	for (i = 0; i < nd; i++) {
		b->rfile[i] = b->dfile[b->idx[i]];
		b->rline[i] = b->dline[b->idx[i]];
	}
	return nd;
}

/* dict_find()'s arrays from b->rfile, b->rline: sorted, with the ranks. */
static void sort_dict(struct enc *e, struct bufs *b, u32 nd)
{
	struct dcmp dc = { NULL, b->rfile, b->rline };
	u32 i;

	for (i = 0; i < nd; i++)
		b->idx[i] = i;
	lt_sort(b->idx, nd, cmp_dpair, &dc);
	for (i = 0; i < nd; i++) {
		b->dfile[i] = b->rfile[b->idx[i]];
		b->dline[i] = b->rline[b->idx[i]];
		b->didx[i] = b->idx[i];
	}
	e->dfile = b->dfile;
	e->dline = b->dline;
	e->didx = b->didx;
	e->ndict = nd;
}

/*
 * The kept-row rules of scripts/kallsyms, sequence by sequence; with
 * chains, a row whose chain differs from the row before's is kept too.
 */
static size_t keep_rows(const struct lineloc_row *rows, size_t nrows,
			const u32 *row_inl, const u32 *canon, struct ent *kept)
{
	struct ent pend = { 0, 0, 0, 0, 0 }, last = { 0, 0, 0, 1, 0 };
	bool have = false;
	size_t i, n = 0;

	for (i = 0; i < nrows; i++) {
		const struct lineloc_row *r = &rows[i];

		if (have && pend.off != r->off) {
			if (last.end || pend.file != last.file ||
			    pend.line != last.line || pend.inl != last.inl) {
				kept[n++] = pend;
				last = pend;
			}
			have = false;
		}
		if (r->end) {
			kept[n].off = r->off;
			kept[n].file = 0;
			kept[n].line = 0;
			kept[n].inl = 0;
			kept[n++].end = 1;
			have = false;
			last.end = 1;
			continue;
		}
		pend.off = r->off;
		pend.file = canon[r->file];
		pend.line = r->line;
		pend.inl = row_inl ? row_inl[i] : 0;
		pend.end = 0;
		have = true;
	}
	if (have && (last.end || pend.file != last.file ||
		     pend.line != last.line || pend.inl != last.inl))
		kept[n++] = pend;
	return n;
}

/* Names by how often a new level has them, most first; then by name. */
static int cmp_name(const void *ctx, u32 a, u32 b)
{
	const struct bufs *f = ctx;
	int c;

	if (f->namecnt[a] != f->namecnt[b])
		return f->namecnt[a] > f->namecnt[b] ? -1 : 1;
	c = strcmp(f->names[a], f->names[b]);
	return c ? c : a < b ? -1 : a > b;
}

static int cmp_call(const void *ctx, u32 a, u32 b)
{
	const struct lt_call *x = (const struct lt_call *)ctx + a;
	const struct lt_call *y = (const struct lt_call *)ctx + b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return a < b ? -1 : a > b;
}

/*
 * After pass 1: the usual calls, for each caller the new level below it
 * seen most often (LT_USUAL_MIN times at least; of equals the first in
 * cmp_call()'s order), sorted by caller; then the names by how often a
 * new level that is not its caller's usual call has them, and the names
 * the usual calls need.
 */
static int make_usual(struct enc *e, struct bufs *b)
{
	const struct lt_call *c = e->newlv, *x;
	size_t i, j, k, n = 0, best, cnt;
	u32 nu = 0;

	b->cix = lt_alloc(e->mem, (e->nnew + 1) * sizeof(u32));
	b->usual = lt_alloc(e->mem, (e->nnew + 1) * sizeof(*b->usual));
	b->usual2 = lt_alloc(e->mem, (e->nnew + 1) * sizeof(*b->usual));
	if (!b->cix || !b->usual || !b->usual2)
		return -LINELOC_ENC_NOMEM;
	for (i = 0; i < e->nnew; i++)
		if (c[i].caller != LT_NOFILE)
			b->cix[n++] = i;
	lt_sort(b->cix, n, cmp_call, c);
	for (i = 0; i < n; i = j) {
		best = i;
		cnt = 0;
		for (j = i; j < n && c[b->cix[j]].caller == c[b->cix[i]].caller;
		     j = k) {
			for (k = j + 1; k < n; k++) {
				x = &c[b->cix[k]];
				if (x->caller != c[b->cix[j]].caller ||
				    x->name != c[b->cix[j]].name ||
				    x->file != c[b->cix[j]].file ||
				    x->line != c[b->cix[j]].line)
					break;
			}
			if (k - j > cnt) {
				cnt = k - j;
				best = j;
			}
		}
		if (cnt >= LT_USUAL_MIN)
			b->usual[nu++] = c[b->cix[best]];
	}
	e->usual = b->usual;
	e->nusual = nu;
	for (i = 0; i < e->nnew; i++) {
		struct lt_level lv = { c[i].name, c[i].file, c[i].line };

		b->cused[c[i].file] = 1;
		if (c[i].caller == LT_NOFILE || !is_usual(e, c[i].caller, &lv))
			b->namecnt[c[i].name]++;
	}
	for (i = 0; i < nu; i++) {
		b->nneed[b->usual[i].caller] = 1;
		b->nneed[b->usual[i].name] = 1;
	}
	return 0;
}

static int cmp_caller(const void *ctx, u32 a, u32 b)
{
	const struct lt_call *u = ctx;

	return u[a].caller < u[b].caller ? -1 : u[a].caller > u[b].caller;
}

/*
 * The usual calls in the names' and files' new numbers, sorted by caller;
 * those whose numbers do not fit their u16 fields are dropped.
 */
static void renumber_usual(struct enc *e, struct bufs *b)
{
	u32 i, n = 0;

	for (i = 0; i < e->nusual; i++) {
		struct lt_call u = b->usual[i];

		u.caller = b->nmap[u.caller];
		u.name = b->nmap[u.name];
		u.file = b->fmap[u.file];
		if (u.caller > 0xffff || u.name > 0xffff || u.file > 0xffff ||
		    u.line > 0xffff)
			continue;
		b->usual2[n] = u;
		b->cix[n] = n;
		n++;
	}
	lt_sort(b->cix, n, cmp_caller, b->usual2);
	for (i = 0; i < n; i++)
		b->usual[i] = b->usual2[b->cix[i]];
	e->nusual = n;
}

static int check_calls(const struct lineloc_calls *calls, size_t nrows,
		       size_t npaths)
{
	u32 i;

	for (i = 0; i < nrows; i++)
		if (calls->row_inl[i] > calls->ninl)
			return -LINELOC_ENC_ARG;
	for (i = 0; i < calls->ninl; i++)
		if (calls->inl[i].parent > calls->ninl ||
		    calls->inl[i].name >= calls->nnames ||
		    calls->inl[i].file >= npaths)
			return -LINELOC_ENC_ARG;
	for (i = 0; i < calls->nnames; i++)
		if (!calls->names[i])
			return -LINELOC_ENC_ARG;
	return 0;
}

/* Bytes of a name in the table: at most LINELOC_MAX_NAME. */
static u32 name_len(const char *s)
{
	u32 n = 0;

	while (s[n] && n < LINELOC_MAX_NAME)
		n++;
	return n;
}

static int cmp_alpha(const void *ctx, u32 a, u32 b)
{
	const struct bufs *f = ctx;
	int c = strncmp(f->names[f->norder[a]], f->names[f->norder[b]],
			LINELOC_MAX_NAME);	/* as stored: name_len() */

	return c ? c : a < b ? -1 : a > b;
}

/* Bytes @a and @b (of name_len() @la and @lb) share at the start. */
static u32 common(const char *a, u32 la, const char *b, u32 lb)
{
	u32 i;

	for (i = 0; i < la && i < lb && a[i] == b[i]; i++)
		;
	return i;
}

/*
 * The names sorted (b->aorder: by position, the rank of the name there;
 * b->apos: by rank, its position) and the bytes of their front coding;
 * then, with @p, written at @p + @pos: by rank the position (u16, or u32
 * past 65536 names), a u32 start per group of LINELOC_NAME_GROUP, then
 * per name the bytes it shares with the name before it in its group (none
 * for a group's first) and how many follow, a u8 each, and those bytes.
 * Their offsets go to the header's words at @hx.  Returns the size.
 */
static size_t put_names(u8 *p, size_t pos, u32 nnames, struct bufs *b,
			u8 *hx)
{
	u32 i, l, lp = 0, c, ngroups, wide = nnames > 0x10000;
	size_t so = 0, perm = (size_t)nnames * (wide ? 4 : 2);
	u8 *starts = NULL, *str = NULL;
	const char *s, *prev = "";

	ngroups = (nnames + LINELOC_NAME_GROUP - 1) / LINELOC_NAME_GROUP;
	if (!p) {
		for (i = 0; i < nnames; i++)
			b->aorder[i] = i;
		lt_sort(b->aorder, nnames, cmp_alpha, b);
		for (i = 0; i < nnames; i++)
			b->apos[b->aorder[i]] = i;
	} else {
		starts = p + pos + perm;
		str = starts + 4 * (size_t)ngroups;
		put32(hx + 4 * LINELOC_HX_NNAMES, nnames);
		put32(hx + 4 * LINELOC_HX_NAMES_OFF, pos);
		put32(hx + 4 * LINELOC_HX_NSTR_OFF, str - p);
		for (i = 0; i < nnames; i++) {
			if (wide)
				put32(p + pos + 4 * i, b->apos[i]);
			else
				put16(p + pos + 2 * i, b->apos[i]);
		}
	}
	for (i = 0; i < nnames; i++) {
		s = b->names[b->norder[b->aorder[i]]];
		l = name_len(s);
		if (i % LINELOC_NAME_GROUP == 0) {
			if (str) {
				put32(starts + 4 * (i / LINELOC_NAME_GROUP), so);
				str[so] = l;
				memcpy(str + so + 1, s, l);
			}
			so += 1 + l;
		} else {
			c = common(prev, lp, s, l);
			if (str) {
				str[so] = c;
				str[so + 1] = l - c;
				memcpy(str + so + 2, s + c, l - c);
			}
			so += 2 + l - c;
		}
		prev = s;
		lp = l;
	}
	if (str)
		put32(hx + 4 * LINELOC_HX_NSTR_SIZE, so);
	return perm + 4 * (size_t)ngroups + so;
}

/**
 * lineloc_encode() - build a line table
 * @rows: rows of the line programs, each sequence in order, its end last
 * @nrows: number of @rows
 * @paths: NUL-terminated paths, indexed by @rows[].file (duplicates ok)
 * @npaths: number of @paths
 * @opt: rows per block, the codes, counters
 * @mem: the allocator; the table is allocated with it too
 * @out: the table, to be freed with @mem
 * @out_size: its size
 * @st: statistics, or NULL
 *
 * Return: 0 or a negative LINELOC_ENC_* code; -LINELOC_ENC_ARG when a
 * symbol has no code in the shared set.
 */
int lineloc_encode(const struct lineloc_row *rows, size_t nrows,
		   const char *const *paths, size_t npaths,
		   const struct lineloc_enc_opts *opt,
		   const struct lineloc_alloc *mem, u8 **out, size_t *out_size,
		   struct lineloc_stats *st)
{
	return lineloc_encode_calls(rows, nrows, paths, npaths, NULL, opt, mem,
				    out, out_size, st);
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_encode);

/**
 * lineloc_encode_calls() - build a line table with chains of inlined calls
 * @rows: rows of the line programs, each sequence in order, its end last
 * @nrows: number of @rows
 * @paths: NUL-terminated paths, indexed by @rows[].file and by the
 *	instances' call files (duplicates ok)
 * @npaths: number of @paths
 * @calls: the chain of each row, or NULL for a table without chains
 * @opt: rows per block, the codes, counters; not shared codes with chains
 * @mem: the allocator; the table is allocated with it too
 * @out: the table, to be freed with @mem
 * @out_size: its size
 * @st: statistics, or NULL
 *
 * Return: 0 or a negative LINELOC_ENC_* code; -LINELOC_ENC_ARG when a
 * symbol has no code in the shared set, or a chain is deeper than
 * LINELOC_MAX_DEPTH.
 */
int lineloc_encode_calls(const struct lineloc_row *rows, size_t nrows,
			 const char *const *paths, size_t npaths,
			 const struct lineloc_calls *calls,
			 const struct lineloc_enc_opts *opt,
			 const struct lineloc_alloc *mem, u8 **out,
			 size_t *out_size, struct lineloc_stats *st)
{
	struct lineloc_stats stats;
	struct bufs b = { 0 };
	struct fcmp fc;
	struct enc *e;
	size_t i, nk, ne, nblocks, nfiles = 0, ndirs = 0, strsize = 0;
	size_t codes, data = 0, total, pos, k;
	u32 c, blk, lut_bits, nsym[LINELOC_NCTX_CHAINS];
	u32 block_rows = opt->block_rows, nnames = 0;
	u32 num[8];
	u8 lh[LINELOC_HDR_SIZE + 4 * LINELOC_HX_WORDS];
	size_t nbytes = 0;
	size_t hdr;
	u32 set_size = 0;
	const u8 *set = NULL;
	size_t index;
	u32 nsuper, sfirst, ndict, ngroups;
	size_t fbytes;
	u8 *h;
	u8 *p;
	int ret = -LINELOC_ENC_NOMEM;

	*out = NULL;
	*out_size = 0;
	if (!block_rows || block_rows > LINELOC_MAX_BLOCK ||
	    npaths >= 0xffffffffU || nrows >= 0xffffffffU)
		return -LINELOC_ENC_ARG;
	for (i = 0; i < nrows; i++)
		if (!rows[i].end && (rows[i].file >= npaths ||
				     rows[i].line > 0x7fffffffU))
			return -LINELOC_ENC_ARG;
	for (i = 0; i < npaths; i++)
		if (!paths[i])
			return -LINELOC_ENC_ARG;
	if (calls && (opt->shared || check_calls(calls, nrows, npaths)))
		return -LINELOC_ENC_ARG;
	e = lt_alloc(mem, sizeof(*e));
	if (!e)
		return ret;
	e->nctx = calls ? LINELOC_NCTX_CHAINS : LINELOC_NCTX;
	for (c = 0; c < e->nctx; c++)
		for (k = 0; k < LINELOC_MAX_SYMS; k++)
			e->cnt[c][k] = 0;
	e->mem = mem;
	e->inl = NULL;
	e->namecnt = NULL;
	e->newlv = NULL;
	e->nnew = 0;
	e->usual = NULL;
	e->nusual = 0;
	e->usual_hits = 0;
	e->pushes = 0;
	e->pushes_new = 0;
	e->evfile = NULL;
	e->ndict = 0;
	e->nsyms = 0;
	e->cap = 1024;
	e->syms = lt_alloc(mem, e->cap * sizeof(*e->syms));
	b.canon = lt_alloc(mem, npaths * sizeof(u32));
	b.idx = lt_alloc(mem, (npaths > nrows ? npaths : nrows) * sizeof(u32));
	b.kept = lt_alloc(mem, nrows * sizeof(*b.kept));
	b.ent = lt_alloc(mem, nrows * sizeof(*b.ent));
	b.fmap = lt_alloc(mem, npaths * sizeof(u32));
	b.order = lt_alloc(mem, npaths * sizeof(u32));
	b.dirof = lt_alloc(mem, npaths * sizeof(u32));
	b.dirrep = lt_alloc(mem, npaths * sizeof(u32));
	b.newcnt = lt_alloc(mem, npaths * sizeof(u32));
	e->newcnt = b.newcnt;
	if (!e->syms || !b.canon || !b.idx || !b.kept || !b.ent ||
	    !b.fmap || !b.order || !b.dirof || !b.dirrep || !e->newcnt)
		goto out;
	if (calls) {
		b.iname = lt_alloc(mem, (calls->ninl + 1) * sizeof(u32));
		b.ifile = lt_alloc(mem, (calls->ninl + 1) * sizeof(u32));
		b.namecnt = lt_alloc(mem, (calls->nnames + 1) * sizeof(u32));
		b.nmap = lt_alloc(mem, (calls->nnames + 1) * sizeof(u32));
		b.norder = lt_alloc(mem, (calls->nnames + 1) * sizeof(u32));
		b.cused = lt_alloc(mem, npaths + 1);
		b.nneed = lt_alloc(mem, calls->nnames + 1);
		e->newcap = 1024;
		e->newlv = lt_alloc(mem, e->newcap * sizeof(*e->newlv));
		if (!b.iname || !b.ifile || !b.namecnt || !b.nmap ||
		    !b.norder || !b.cused || !b.nneed || !e->newlv)
			goto out;
		for (i = 0; i < calls->nnames; i++)
			b.nneed[i] = 0;
		b.names = calls->names;
		for (i = 0; i < calls->nnames; i++)
			b.namecnt[i] = 0;
		for (i = 0; i < npaths; i++)
			b.cused[i] = 0;
		e->inl = calls->inl;
		e->iname = b.iname;
		e->ifile = b.ifile;
		e->namecnt = b.namecnt;
		e->cused = b.cused;
	}

	/* 1. one index per distinct path */
	for (i = 0; i < npaths; i++)
		b.idx[i] = i;
	lt_sort(b.idx, npaths, cmp_path, paths);
	for (i = 0; i < npaths; i++)
		b.canon[b.idx[i]] = i && !cmp_path(paths, b.idx[i - 1],
						   b.idx[i]) ?
				    b.canon[b.idx[i - 1]] : b.idx[i];

	/* 2. kept rows, sorted; one entry per offset, no repeats */
	if (calls)
		for (i = 0; i < calls->ninl; i++) {
			b.iname[i] = calls->inl[i].name;
			b.ifile[i] = b.canon[calls->inl[i].file];
		}
	nk = keep_rows(rows, nrows, calls ? calls->row_inl : NULL, b.canon,
		       b.kept);
	for (i = 0; i < nk; i++)
		b.idx[i] = i;
	lt_sort(b.idx, nk, cmp_ent, b.kept);
	ne = 0;
	for (i = 0; i < nk; i++) {
		const struct ent *x = &b.kept[b.idx[i]];

		if (i + 1 < nk && b.kept[b.idx[i + 1]].off == x->off)
			continue;	/* the last entry at an offset wins */
		if (!ne && x->end)
			continue;	/* below the first row: unknown anyway */
		if (ne && b.ent[ne - 1].end == x->end &&
		    (x->end || (b.ent[ne - 1].file == x->file &&
				b.ent[ne - 1].line == x->line &&
				b.ent[ne - 1].inl == x->inl)))
			continue;	/* the same answer as the entry before */
		b.ent[ne++] = *x;
	}

	/*
	 * 3. the dictionary, from the files new in a block; files numbered
	 * by how often they are new in a block outside it
	 */
	b.evfile = lt_alloc(mem, (ne + 1) * sizeof(u32));
	b.evline = lt_alloc(mem, (ne + 1) * sizeof(u32));
	b.used = lt_alloc(mem, npaths * sizeof(u32));
	if (!b.evfile || !b.evline || !b.used)
		goto out;
	e->evfile = b.evfile;
	e->evline = b.evline;
	e->nev = 0;
	e->ndict = 0;
	e->count_only = true;
	nblocks = (ne + block_rows - 1) / block_rows;
	for (blk = 0; blk < nblocks; blk++) {
		ret = model_block(e, b.ent + (size_t)blk * block_rows,
				  ne - (size_t)blk * block_rows < block_rows ?
				  ne - (size_t)blk * block_rows : block_rows);
		if (ret)
			goto out;
	}
	ret = -LINELOC_ENC_NOMEM;
	if (calls) {	/* names by how often a level is new with them */
		ret = make_usual(e, &b);
		if (ret)
			goto out;
		ret = -LINELOC_ENC_NOMEM;
		for (i = 0; i < calls->nnames; i++)
			if (b.namecnt[i] || b.nneed[i])
				b.norder[nnames++] = i;
		lt_sort(b.norder, nnames, cmp_name, &b);
		for (i = 0; i < calls->nnames; i++)
			b.nmap[i] = 0;
		for (i = 0; i < nnames; i++)
			b.nmap[b.norder[i]] = i;
		b.aorder = lt_alloc(mem, (nnames + 1) * sizeof(u32));
		b.apos = lt_alloc(mem, (nnames + 1) * sizeof(u32));
		if (!b.aorder || !b.apos)
			goto out;
		for (i = 0; i < calls->ninl; i++)
			b.iname[i] = b.nmap[b.iname[i]];
		nbytes = put_names(NULL, 0, nnames, &b, NULL);
		e->pushes = 0;
		e->pushes_new = 0;
	}
	/* a pair is used LT_DICT_MIN times: at most nev / LT_DICT_MIN pairs */
	k = e->nev / LT_DICT_MIN + 1;
	b.rfile = lt_alloc(mem, k * sizeof(u32));
	b.rline = lt_alloc(mem, k * sizeof(u32));
	b.dfile = lt_alloc(mem, k * sizeof(u32));
	b.dline = lt_alloc(mem, k * sizeof(u32));
	b.didx = lt_alloc(mem, k * sizeof(u32));
	if (!b.rfile || !b.rline || !b.dfile || !b.dline || !b.didx)
		goto out;
	ndict = make_dict(e, &b);
	sort_dict(e, &b, ndict);
	for (i = 0; i < npaths; i++) {
		e->newcnt[i] = 0;
		b.used[i] = 0;
	}
	for (i = 0; i < e->nev; i++) {
		b.used[b.evfile[i]]++;
		if (dict_find(e, b.evfile[i], b.evline[i]) < 0)
			e->newcnt[b.evfile[i]]++;
	}
	for (i = 0; i < npaths; i++)
		if (b.canon[i] == i && (b.used[i] || (b.cused && b.cused[i])))
			b.order[nfiles++] = i;
	fc.newcnt = e->newcnt;
	fc.paths = paths;
	lt_sort(b.order, nfiles, cmp_file, &fc);
	for (i = 0; i < nfiles; i++)
		b.fmap[b.order[i]] = i;
	for (i = 0; i < ne; i++)
		if (!b.ent[i].end)
			b.ent[i].file = b.fmap[b.ent[i].file];
	if (calls) {
		for (i = 0; i < calls->ninl; i++)
			b.ifile[i] = b.used[b.ifile[i]] || b.cused[b.ifile[i]] ?
				     b.fmap[b.ifile[i]] : 0;
		renumber_usual(e, &b);
	}
	if (nfiles > 0xffff)
		ndict = 0;	/* the pairs hold u16 files */
	for (i = 0; i < ndict; i++)
		b.rfile[i] = b.fmap[b.rfile[i]];
	sort_dict(e, &b, ndict);

	/* 4. directories (the order of files inside one does not matter) */
	for (i = 0; i < nfiles; i++)
		b.idx[i] = b.order[i];
	lt_sort(b.idx, nfiles, cmp_dir, paths);
	for (i = 0; i < nfiles; i++) {
		if (!i || cmp_dir(paths, b.idx[i - 1], b.idx[i])) {
			b.dirrep[ndirs++] = b.idx[i];
			strsize += dir_len(paths[b.idx[i]]);
		}
		b.dirof[b.fmap[b.idx[i]]] = ndirs - 1;
	}
	if (ndirs > 0xffff)
		goto limit;
	for (i = 0; i < nfiles; i++) {
		k = strlen(paths[b.order[i]]) - dir_len(paths[b.order[i]]);
		if (k > LINELOC_MAX_NAME)
			goto limit;
		strsize += k;
	}
	ngroups = (nfiles + LINELOC_FILE_GROUP - 1) / LINELOC_FILE_GROUP;
	fbytes = 4 * (size_t)ngroups + 3 * nfiles;

	/* 5. symbols and their codes */
	for (c = 0; c < e->nctx; c++)
		for (k = 0; k < LINELOC_MAX_SYMS; k++)
			e->cnt[c][k] = 0;
	e->count_only = false;
	e->newcnt = NULL;
	b.symstart = lt_alloc(mem, (nblocks + 1) * sizeof(size_t));
	b.blockpos = lt_alloc(mem, (nblocks + 1) * sizeof(u32));
	if (!b.symstart || !b.blockpos)
		goto out;
	for (blk = 0; blk < nblocks; blk++) {
		b.symstart[blk] = e->nsyms;
		ret = model_block(e, b.ent + (size_t)blk * block_rows,
				  ne - (size_t)blk * block_rows < block_rows ?
				  ne - (size_t)blk * block_rows : block_rows);
		if (ret)
			goto out;
	}
	ret = -LINELOC_ENC_NOMEM;	/* what the allocations below fail with */
	b.symstart[nblocks] = e->nsyms;
	if (opt->counts)
		for (c = 0; c < LINELOC_NCTX; c++)
			for (k = 0; k < LINELOC_MAX_SYMS; k++)
				opt->counts[c * LINELOC_MAX_SYMS + k] +=
					e->cnt[c][k];
	if (opt->shared) {
		set = lineloc_shared_codes(&set_size);
		lut_bits = get_unaligned_le32(set + 4) >> 16;
		codes = 0;
		ret = take_codes(e, set, set_size);
		if (ret)
			goto out;
		ret = -LINELOC_ENC_NOMEM;
	} else {
		lut_bits = ne >= 65536 ? 8 : ne >= 4096 ? 6 : ne >= 1024 ? 4 : 3;
		for (c = 0; c < e->nctx; c++) {
			make_code(e, c);
			for (k = 0, nsym[c] = 0; k < LINELOC_MAX_SYMS; k++) {
				e->has[c][k] = e->cnt[c][k] != 0;
				nsym[c] += e->has[c][k];
			}
		}
		codes = codes_bytes(nsym, e->nctx, lut_bits);
	}

	/* 6. blocks, one after the other */
	for (i = 0, k = 0; i < e->nsyms; i++)
		k += e->syms[i].ctx == LT_RAW ? e->syms[i].nbits :
		     e->len[e->syms[i].ctx][e->syms[i].val];
	b.scratch = lt_alloc(mem, k / 8 + nblocks + 8);
	if (!b.scratch)
		goto out;
	p = b.scratch;
	for (blk = 0; blk < nblocks; blk++) {
		b.blockpos[blk] = p - b.scratch;
		p = code_block(e, e->syms + b.symstart[blk],
			       b.symstart[blk + 1] - b.symstart[blk], p);
	}
	data = p - b.scratch;
	for (i = 0; i < LINELOC_NFIELDS; i++)
		stats.bits[i] = 0;
	for (i = 0, c = LINELOC_F_ROW; i < e->nsyms; i++) {
		const struct sym *y = &e->syms[i];

		if (y->ctx != LT_RAW)
			c = field_of(y->ctx);	/* raw bits: the field before */
		stats.bits[c] += y->ctx == LT_RAW ? y->nbits :
				 e->len[y->ctx][y->val];
	}
	stats.bits[LINELOC_F_PAD] = 8 * (u64)data;
	for (i = 0; i < LINELOC_F_PAD; i++)
		stats.bits[LINELOC_F_PAD] -= stats.bits[i];

	/* 7. the table */
	/* superblocks: up to LINELOC_SUPER_BLOCKS blocks within 64 KiB */
	nsuper = 0;
	for (blk = 0, sfirst = 0; blk < nblocks; blk++) {
		u32 o = b.ent[(size_t)blk * block_rows].off;

		if (!blk || blk - sfirst >= LINELOC_SUPER_BLOCKS ||
		    o - b.ent[(size_t)sfirst * block_rows].off > 0xffff ||
		    b.blockpos[blk] - b.blockpos[sfirst] > 0xffff) {
			sfirst = blk;
			nsuper++;
		}
	}
	index = 12 * nsuper + 4 * nblocks;
	num[0] = ne;
	num[1] = block_rows;
	num[2] = nsuper;
	num[3] = data;
	num[4] = ndict;
	num[5] = nfiles;
	num[6] = ndirs;
	num[7] = strsize;
	hdr = set ? put_short(NULL, 0, num, 8) : LINELOC_HDR_SIZE;
	if (calls)
		hdr += 4 * LINELOC_HX_WORDS;
	total = hdr + codes + index + data + 4 * (size_t)ndict +
		fbytes + 4 * (ndirs + 1) + strsize + nbytes + 8 * (size_t)e->nusual;
	if (total > 0xffffffffU)
		goto limit;
	b.blob = lt_alloc(mem, total);
	if (!b.blob)
		goto out;
	p = b.blob;
	for (i = 0; i < total; i++)
		p[i] = 0;
	h = lh;		/* the long header's words, written below if it has one */
	put32(h + 4 * LINELOC_H_MAGIC, LINELOC_MAGIC);
	put32(h + 4 * LINELOC_H_SIZE, total);
	put32(h + 4 * LINELOC_H_ENTRIES, ne);
	put32(h + 4 * LINELOC_H_BLOCK_ROWS, block_rows);
	put32(h + 4 * LINELOC_H_NBLOCKS, nblocks);
	pos = hdr;
	put32(h + 4 * LINELOC_H_CODES, e->nctx | lut_bits << 16);
	if (set)
		put_short(p, get_unaligned_le32(set), num, 8);
	else
		put_codes(e, nsym, e->nctx, lut_bits, p, pos,
			  h + 4 * LINELOC_H_LUT_OFF,
			  h + 4 * LINELOC_H_LONG_OFF);
	pos += codes;
	k = 0;
	put32(h + 4 * LINELOC_H_NSUPER, nsuper);
	put32(h + 4 * LINELOC_H_SUPER_OFF, pos);
	put32(h + 4 * LINELOC_H_INDEX_OFF, pos + 12 * nsuper);
	for (blk = 0, sfirst = 0, k = 0; blk < nblocks; blk++) {
		u32 o = b.ent[(size_t)blk * block_rows].off;
		u32 so = b.ent[(size_t)sfirst * block_rows].off;

		if (!blk || blk - sfirst >= LINELOC_SUPER_BLOCKS ||
		    o - so > 0xffff ||
		    b.blockpos[blk] - b.blockpos[sfirst] > 0xffff) {
			sfirst = blk;
			so = o;
			put32(p + pos + 12 * k, o);
			put32(p + pos + 12 * k + 4, b.blockpos[blk]);
			put32(p + pos + 12 * k + 8, blk);
			k++;
		}
		put16(p + pos + 12 * nsuper + 4 * blk, o - so);
		put16(p + pos + 12 * nsuper + 4 * blk + 2,
		      b.blockpos[blk] - b.blockpos[sfirst]);
	}
	pos += index;
	put32(h + 4 * LINELOC_H_DATA_OFF, pos);
	put32(h + 4 * LINELOC_H_DATA_SIZE, data);
	for (i = 0; i < data; i++)
		p[pos + i] = b.scratch[i];
	pos += data;
	put32(h + 4 * LINELOC_H_NDICT, ndict);
	put32(h + 4 * LINELOC_H_DICT_OFF, pos);
	for (i = 0; i < ndict; i++) {
		put16(p + pos + 4 * i, b.rfile[i]);
		put16(p + pos + 4 * i + 2, b.rline[i]);
	}
	pos += 4 * (size_t)ndict;
	put32(h + 4 * LINELOC_H_NFILES, nfiles);
	put32(h + 4 * LINELOC_H_NDIRS, ndirs);
	put32(h + 4 * LINELOC_H_FILES_OFF, pos);
	put32(h + 4 * LINELOC_H_DIRS_OFF, pos + fbytes);
	put32(h + 4 * LINELOC_H_STR_OFF, pos + fbytes + 4 * (ndirs + 1));
	put32(h + 4 * LINELOC_H_STR_SIZE, strsize);
	{
		u8 *fs = p + pos, *fl = fs + 4 * (size_t)ngroups;
		u8 *fd = fl + nfiles, *ds = fs + fbytes;
		u8 *str = ds + 4 * (ndirs + 1);
		size_t so = 0, l, dl;
		const char *s;

		for (i = 0; i < ndirs; i++) {
			s = paths[b.dirrep[i]];
			put32(ds + 4 * i, so);
			/* once: the stores below may alias s for the compiler */
			dl = dir_len(s);
			for (l = 0; l < dl; l++)
				str[so++] = s[l];
		}
		put32(ds + 4 * ndirs, so);
		for (i = 0; i < nfiles; i++) {
			s = paths[b.order[i]];
			if (i % LINELOC_FILE_GROUP == 0)
				put32(fs + 4 * (i / LINELOC_FILE_GROUP), so);
			put16(fd + 2 * i, b.dirof[i]);
			dl = dir_len(s);
			for (l = dl; s[l]; l++)
				str[so++] = s[l];
			fl[i] = l - dl;
		}
		so = pos + fbytes + 4 * (ndirs + 1) + strsize;
		if (calls) {
			put_names(p, so, nnames, &b, h + 4 * LINELOC_H_WORDS);
			so += nbytes;
			put32(h + 4 * (LINELOC_H_WORDS + LINELOC_HX_NUSUAL),
			      e->nusual);
			put32(h + 4 * (LINELOC_H_WORDS + LINELOC_HX_USUAL_OFF),
			      so);
			for (i = 0; i < e->nusual; i++, so += 8) {
				put16(p + so, b.usual[i].caller);
				put16(p + so + 2, b.usual[i].name);
				put16(p + so + 4, b.usual[i].file);
				put16(p + so + 6, b.usual[i].line);
			}
		}
	}

	stats.rows_in = nrows;
	stats.kept = nk;
	stats.entries = ne;
	stats.ends = 0;
	for (i = 0; i < ne; i++)
		stats.ends += b.ent[i].end;
	stats.files = nfiles;
	stats.blocks = nblocks;
	if (!set)
		for (i = 0; i < hdr; i++)
			p[i] = lh[i];
	stats.header = hdr;
	stats.codes = codes;
	stats.lut_bits = lut_bits;
	stats.index = index;
	stats.data = data;
	stats.dict = ndict;
	stats.dict_bytes = 4 * (size_t)ndict;
	stats.names = nnames;
	stats.names_bytes = nbytes;
	stats.usual = e->nusual;
	stats.usual_hits = e->usual_hits;
	stats.usual_bytes = 8 * (size_t)e->nusual;
	stats.pushes = e->pushes;
	stats.pushes_new = e->pushes_new;
	stats.paths = total - hdr - codes - index - data -
		      stats.dict_bytes - nbytes - stats.usual_bytes;
	stats.total = total;
	if (st)
		*st = stats;
	*out = b.blob;
	*out_size = total;
	b.blob = NULL;
	ret = 0;
	goto out;
limit:
	ret = -LINELOC_ENC_LIMIT;
out:
	lt_free(mem, e->syms);
	lt_free(mem, e->newlv);
	lt_free(mem, e);
	free_bufs(mem, &b);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_encode_calls);

/**
 * lineloc_codes_make() - make a set of shared codes
 * @counts: LINELOC_NCTX * LINELOC_MAX_SYMS symbol counts, context by
 *	context (struct lineloc_enc_opts' @counts, summed over the tables the
 *	set is for)
 * @lut_bits: decode table bits, 1 .. LINELOC_MAX_LEN
 * @mem: the allocator; the set is allocated with it too
 * @out: the set (<linux/lineloc/table.h>), to be freed with @mem
 * @out_size: its size
 *
 * Each context's code is made from its counts plus one, so that every
 * symbol has a code: a table whose symbols the counts never saw can still
 * be coded with the set, at a few more bits.
 *
 * Return: 0 or a negative LINELOC_ENC_* code.
 */
int lineloc_codes_make(const u32 *counts, u32 lut_bits,
		       const struct lineloc_alloc *mem, u8 **out,
		       size_t *out_size)
{
	u32 c, s, id, nsym[LINELOC_NCTX];
	size_t size, i;
	struct enc *e;
	u8 *p;

	*out = NULL;
	*out_size = 0;
	if (lut_bits < 1 || lut_bits > LINELOC_MAX_LEN)
		return -LINELOC_ENC_ARG;
	e = lt_alloc(mem, sizeof(*e));
	if (!e)
		return -LINELOC_ENC_NOMEM;
	for (c = 0; c < LINELOC_NCTX; c++) {
		for (s = 0; s < LINELOC_MAX_SYMS; s++) {
			u32 n = counts[c * LINELOC_MAX_SYMS + s];

			e->cnt[c][s] = n < 0xffffffffU ? n + 1 : n;
			e->has[c][s] = 1;
		}
		make_code(e, c);
		nsym[c] = LINELOC_MAX_SYMS;
	}
	size = LINELOC_SET_HDR + codes_bytes(nsym, LINELOC_NCTX, lut_bits);
	p = lt_alloc(mem, size);
	if (!p) {
		lt_free(mem, e);
		return -LINELOC_ENC_NOMEM;
	}
	put32(p + 4, LINELOC_NCTX | lut_bits << 16);
	put_codes(e, nsym, LINELOC_NCTX, lut_bits, p, LINELOC_SET_HDR, p + 8,
		  p + 12);
	for (i = 4, id = 0x811c9dc5U; i < size; i++)	/* FNV-1a */
		id = (id ^ p[i]) * 0x01000193U;
	put32(p, id);
	lt_free(mem, e);
	*out = p;
	*out_size = size;
	return 0;
}
