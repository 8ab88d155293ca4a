// SPDX-License-Identifier: GPL-2.0
/*
 * linetab_enc.c - build a compact line table (see linetab.h)
 *
 * Host C, written so that a module loader could run it: no stdio, no
 * libc beyond what a kernel has, memory from the caller's allocator.
 *
 * Steps: deduplicate the paths; apply the kept-row rules of kallsyms to
 * each sequence; sort by offset (ends before rows at one offset, input
 * order otherwise) and keep one entry per offset (the last), dropping
 * entries that repeat the one before; number the files by how often they
 * are new in a block; run the model once to count symbols, make the
 * frequency tables, and code each block backwards with rANS.
 */
#include "linetab.h"
#include "linetab_model.h"

#define LT_L		(1U << 23)
#define LT_LUT		(1U << LINETAB_LUT_BITS)
#define LT_RAW		0xff	/* symbol "context" of raw bits */

struct ent {
	u32 off, file, line, end;
};

struct sym {
	u8 ctx, nbits;
	u32 val;
};

struct enc {
	const struct linetab_alloc *mem;
	const char *const *paths;
	struct sym *syms;
	size_t nsyms, cap;
	u32 cnt[LINETAB_NCTX][LINETAB_MAX_SYMS];
	u16 cum[LINETAB_NCTX][LINETAB_MAX_SYMS + 1];
	u32 nsym[LINETAB_NCTX];
	u32 *newcnt;		/* per file: blocks it is new in */
	bool count_only;
};

static void *lt_alloc(const struct linetab_alloc *m, size_t n)
{
	return m->alloc(m->arg, n ? n : 1);
}

static void lt_free(const struct linetab_alloc *m, void *p)
{
	if (p)
		m->free(m->arg, p);
}

static int lt_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static size_t lt_strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

/* Stable merge sort of u32 keys, by @cmp. */
typedef int (*lt_cmp)(const void *ctx, u32 a, u32 b);

static void lt_msort(u32 *a, u32 *tmp, size_t n, lt_cmp cmp, const void *ctx)
{
	size_t w, i, l, m, j, r, o;
	u32 *src = a, *dst = tmp, *t;

	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			l = i;
			m = i + w < n ? i + w : n;
			r = i + 2 * w < n ? i + 2 * w : n;
			j = m;
			o = i;
			while (l < m && j < r)
				dst[o++] = cmp(ctx, src[j], src[l]) < 0 ?
					   src[j++] : src[l++];
			while (l < m)
				dst[o++] = src[l++];
			while (j < r)
				dst[o++] = src[j++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		for (i = 0; i < n; i++)
			a[i] = src[i];
}

static int cmp_path(const void *ctx, u32 a, u32 b)
{
	const char *const *p = ctx;

	return lt_strcmp(p[a], p[b]);
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
	return lt_strcmp(f->paths[a], f->paths[b]);
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
			return -LINETAB_ENC_NOMEM;
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

static int emit_num(struct enc *e, u32 ctx, u32 v, u32 k)
{
	u32 nb, raw;
	int ret;

	if (v < (1U << k))
		return emit(e, ctx, 0, v);
	nb = lt_fls(v);
	ret = emit(e, ctx, 0, (1U << k) + (nb - k) * 2 + ((v >> (nb - 1)) & 1));
	raw = v & ((1U << (nb - 1)) - 1);
	if (!ret && nb - 1 > 16) {
		ret = emit(e, LT_RAW, nb - 17, raw >> 16);
		if (!ret)
			ret = emit(e, LT_RAW, 16, raw & 0xffff);
	} else if (!ret && nb > 1) {
		ret = emit(e, LT_RAW, nb - 1, raw);
	}
	return ret;
}

struct lt_mtf {
	u32 file, line;
};

struct lt_state {
	struct lt_mtf mtf[LINETAB_MTF];
	u32 n, fclass, aclass, step;
};

/* The model, as linetab_dec.c runs it, over one block. */
static int model_block(struct enc *e, const struct ent *en, u32 rows)
{
	struct lt_state s;
	struct lt_mtf m;
	u32 k, j, i, delta, zz;
	int ret = 0;

	s.n = 0;
	s.fclass = LT_FC_START;
	s.aclass = LT_AC_END;
	s.step = 3;
	for (k = 0; k < rows && !ret; k++) {
		delta = LT_GAP_SMALL;
		if (k) {
			delta = en[k].off - en[k - 1].off;
			ret = emit_num(e, LINETAB_CTX_ADDR + s.aclass,
				       delta - 1, LT_ADDR_K);
		}
		if (en[k].end) {
			if (!ret)
				ret = emit(e, lt_file_ctx(s.fclass, delta), 0,
					   LT_F_END);
			s.fclass = LT_FC_END;
			s.aclass = LT_AC_END;
			continue;
		}
		for (j = 0; j < s.n; j++)
			if (s.mtf[j].file == en[k].file)
				break;
		if (!ret)
			ret = emit(e, lt_file_ctx(s.fclass, delta), 0,
				   j < s.n ? j : LT_F_NEW);
		if (ret)
			break;
		if (j == s.n) {
			m.file = en[k].file;
			m.line = en[k].line;
			if (e->newcnt)
				e->newcnt[m.file]++;
			ret = emit_num(e, LINETAB_CTX_FILE_IDX, m.file,
				       LT_IDX_K);
			if (!ret)
				ret = emit_num(e, LINETAB_CTX_LINE_ABS, m.line,
					       LT_ABS_K);
			i = s.n < LINETAB_MTF ? s.n++ : LINETAB_MTF - 1;
			s.fclass = LT_FC_NEW;
			s.aclass = m.line ? LT_AC_NEW : LT_AC_ZERO;
			s.step = 3;
		} else {
			m = s.mtf[j];
			i = j;
			if (!en[k].line) {
				ret = emit_num(e, j ? LINETAB_CTX_LINE_MTF :
					       LINETAB_CTX_LINE + s.step, 0,
					       LT_LINE_K);
				s.aclass = LT_AC_ZERO;
				s.step = 3;
			} else {
				zz = lt_zigzag(en[k].line, m.line);
				ret = emit_num(e, j ? LINETAB_CTX_LINE_MTF :
					       LINETAB_CTX_LINE + s.step,
					       zz + 1, LT_LINE_K);
				m.line = en[k].line;
				s.step = j ? 3 : lt_step_class(zz);
				s.aclass = j ? LT_AC_SWITCH : s.step;
			}
			s.fclass = j == 0 ? LT_FC_SAME :
				   j == 1 ? LT_FC_MTF1 : LT_FC_MTF;
		}
		for (; i > 0; i--)
			s.mtf[i] = s.mtf[i - 1];
		s.mtf[0] = m;
	}
	return ret;
}

/* Counts to frequencies summing to 1 << LINETAB_PROB_BITS. */
static void make_code(struct enc *e, u32 c)
{
	const u32 scale = 1U << LINETAB_PROB_BITS;
	u32 f[LINETAB_MAX_SYMS], n = 0, s, big;
	u64 total = 0, sum = 0;

	for (s = 0; s < LINETAB_MAX_SYMS; s++) {
		total += e->cnt[c][s];
		if (e->cnt[c][s])
			n = s + 1;
	}
	e->nsym[c] = n;
	if (!n)
		return;
	big = 0;
	for (s = 0; s < n; s++) {
		f[s] = 0;
		if (e->cnt[c][s]) {
			f[s] = (u32)(((u64)e->cnt[c][s] * scale + total / 2) /
				     total);
			if (!f[s])
				f[s] = 1;
		}
		sum += f[s];
		if (f[s] > f[big])
			big = s;
	}
	while (sum != scale) {
		if (sum < scale) {
			f[big] += scale - sum;
			sum = scale;
			break;
		}
		for (s = 0, big = 0; s < n; s++)
			if (f[s] > f[big])
				big = s;
		if (sum - scale < f[big]) {
			f[big] -= sum - scale;
			sum = scale;
		} else {
			sum -= f[big] - 1;
			f[big] = 1;
		}
	}
	e->cum[c][0] = 0;
	for (s = 0; s < n; s++)
		e->cum[c][s + 1] = e->cum[c][s] + f[s];
}

/* Code one block's symbols backwards; returns the bytes, at *start. */
static u8 *code_block(struct enc *e, const struct sym *sy, size_t n,
		      u8 *bufend)
{
	u8 *p = bufend;
	u32 x = LT_L, f, start, scale, xmax;
	size_t i = n;

	while (i--) {
		if (sy[i].ctx == LT_RAW) {
			f = 1;
			start = sy[i].val;
			scale = sy[i].nbits;
		} else {
			start = e->cum[sy[i].ctx][sy[i].val];
			f = e->cum[sy[i].ctx][sy[i].val + 1] - start;
			scale = LINETAB_PROB_BITS;
		}
		xmax = ((LT_L >> scale) << 8) * f;
		while (x >= xmax) {
			*--p = x & 0xff;
			x >>= 8;
		}
		x = ((x / f) << scale) + (x % f) + start;
	}
	p -= 4;
	p[0] = x;
	p[1] = x >> 8;
	p[2] = x >> 16;
	p[3] = x >> 24;
	return p;
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
	u32 *canon, *idx, *tmp, *fmap, *order, *dirof, *dirrep;
	struct ent *kept, *ent;
	u8 *scratch, *blob;
	u32 *blockpos, *newcnt;
	size_t *symstart;
};

static void free_bufs(const struct linetab_alloc *m, struct bufs *b)
{
	lt_free(m, b->canon);
	lt_free(m, b->idx);
	lt_free(m, b->tmp);
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
}

/* The kept-row rules of scripts/kallsyms, sequence by sequence. */
static size_t keep_rows(const struct linetab_row *rows, size_t nrows,
			const u32 *canon, struct ent *kept)
{
	struct ent pend = { 0, 0, 0, 0 }, last = { 0, 0, 0, 1 };
	bool have = false;
	size_t i, n = 0;

	for (i = 0; i < nrows; i++) {
		const struct linetab_row *r = &rows[i];

		if (have && pend.off != r->off) {
			if (last.end || pend.file != last.file ||
			    pend.line != last.line) {
				kept[n++] = pend;
				last = pend;
			}
			have = false;
		}
		if (r->end) {
			kept[n].off = r->off;
			kept[n].file = 0;
			kept[n].line = 0;
			kept[n++].end = 1;
			have = false;
			last.end = 1;
			continue;
		}
		pend.off = r->off;
		pend.file = canon[r->file];
		pend.line = r->line;
		pend.end = 0;
		have = true;
	}
	if (have && (last.end || pend.file != last.file ||
		     pend.line != last.line))
		kept[n++] = pend;
	return n;
}

/**
 * linetab_encode() - build a line table
 * @rows: rows of the line programs, each sequence in order, its end last
 * @nrows: number of @rows
 * @paths: NUL-terminated paths, indexed by @rows[].file (duplicates ok)
 * @npaths: number of @paths
 * @block_rows: rows per block, 1 .. LINETAB_MAX_BLOCK
 * @mem: the allocator; the table is allocated with it too
 * @out: the table, to be freed with @mem
 * @out_size: its size
 * @st: statistics, or NULL
 *
 * Return: 0 or a negative LINETAB_ENC_* code.
 */
int linetab_encode(const struct linetab_row *rows, size_t nrows,
		   const char *const *paths, size_t npaths, u32 block_rows,
		   const struct linetab_alloc *mem, u8 **out, size_t *out_size,
		   struct linetab_stats *st)
{
	struct linetab_stats stats;
	struct bufs b = { 0 };
	struct fcmp fc;
	struct enc *e;
	size_t i, j, nk, ne, nblocks, nfiles = 0, ndirs = 0, strsize = 0;
	size_t codes, data = 0, total, pos, k;
	u32 c, blk;
	u8 *p;
	int ret = -LINETAB_ENC_NOMEM;

	*out = NULL;
	*out_size = 0;
	if (!block_rows || block_rows > LINETAB_MAX_BLOCK ||
	    npaths >= 0xffffffffU || nrows >= 0xffffffffU)
		return -LINETAB_ENC_ARG;
	for (i = 0; i < nrows; i++)
		if (!rows[i].end && (rows[i].file >= npaths ||
				     rows[i].line > 0x7fffffffU))
			return -LINETAB_ENC_ARG;
	for (i = 0; i < npaths; i++)
		if (!paths[i])
			return -LINETAB_ENC_ARG;
	e = lt_alloc(mem, sizeof(*e));
	if (!e)
		return ret;
	for (c = 0; c < LINETAB_NCTX; c++)
		for (k = 0; k < LINETAB_MAX_SYMS; k++)
			e->cnt[c][k] = 0;
	e->mem = mem;
	e->paths = paths;
	e->nsyms = 0;
	e->cap = 1024;
	e->syms = lt_alloc(mem, e->cap * sizeof(*e->syms));
	b.canon = lt_alloc(mem, npaths * sizeof(u32));
	b.idx = lt_alloc(mem, (npaths > nrows ? npaths : nrows) * sizeof(u32));
	b.tmp = lt_alloc(mem, (npaths > nrows ? npaths : nrows) * sizeof(u32));
	b.kept = lt_alloc(mem, nrows * sizeof(*b.kept));
	b.ent = lt_alloc(mem, nrows * sizeof(*b.ent));
	b.fmap = lt_alloc(mem, npaths * sizeof(u32));
	b.order = lt_alloc(mem, npaths * sizeof(u32));
	b.dirof = lt_alloc(mem, npaths * sizeof(u32));
	b.dirrep = lt_alloc(mem, npaths * sizeof(u32));
	b.newcnt = lt_alloc(mem, npaths * sizeof(u32));
	e->newcnt = b.newcnt;
	if (!e->syms || !b.canon || !b.idx || !b.tmp || !b.kept || !b.ent ||
	    !b.fmap || !b.order || !b.dirof || !b.dirrep || !e->newcnt)
		goto out;

	/* 1. one index per distinct path */
	for (i = 0; i < npaths; i++)
		b.idx[i] = i;
	lt_msort(b.idx, b.tmp, npaths, cmp_path, paths);
	for (i = 0; i < npaths; i++)
		b.canon[b.idx[i]] = i && !cmp_path(paths, b.idx[i - 1],
						   b.idx[i]) ?
				    b.canon[b.idx[i - 1]] : b.idx[i];

	/* 2. kept rows, sorted; one entry per offset, no repeats */
	nk = keep_rows(rows, nrows, b.canon, b.kept);
	for (i = 0; i < nk; i++)
		b.idx[i] = i;
	lt_msort(b.idx, b.tmp, nk, cmp_ent, b.kept);
	ne = 0;
	for (i = 0; i < nk; i++) {
		const struct ent *x = &b.kept[b.idx[i]];

		if (i + 1 < nk && b.kept[b.idx[i + 1]].off == x->off)
			continue;	/* the last entry at an offset wins */
		if (!ne && x->end)
			continue;	/* below the first row: unknown anyway */
		if (ne && b.ent[ne - 1].end == x->end &&
		    (x->end || (b.ent[ne - 1].file == x->file &&
				b.ent[ne - 1].line == x->line)))
			continue;	/* the same answer as the entry before */
		b.ent[ne++] = *x;
	}

	/* 3. files numbered by how often they are new in a block */
	for (i = 0; i < npaths; i++)
		e->newcnt[i] = 0;
	e->count_only = true;
	nblocks = (ne + block_rows - 1) / block_rows;
	for (blk = 0; blk < nblocks; blk++)
		model_block(e, b.ent + (size_t)blk * block_rows,
			    ne - (size_t)blk * block_rows < block_rows ?
			    ne - (size_t)blk * block_rows : block_rows);
	for (i = 0; i < npaths; i++)
		if (b.canon[i] == i && e->newcnt[i])
			b.order[nfiles++] = i;
	fc.newcnt = e->newcnt;
	fc.paths = paths;
	lt_msort(b.order, b.tmp, nfiles, cmp_file, &fc);
	for (i = 0; i < nfiles; i++)
		b.fmap[b.order[i]] = i;
	for (i = 0; i < ne; i++)
		if (!b.ent[i].end)
			b.ent[i].file = b.fmap[b.ent[i].file];

	/* 4. directories */
	for (i = 0; i < nfiles; i++)
		b.idx[i] = b.order[i];
	lt_msort(b.idx, b.tmp, nfiles, cmp_dir, paths);
	for (i = 0; i < nfiles; i++) {
		if (!i || cmp_dir(paths, b.idx[i - 1], b.idx[i])) {
			b.dirrep[ndirs++] = b.idx[i];
			strsize += dir_len(paths[b.idx[i]]);
		}
		b.dirof[b.fmap[b.idx[i]]] = ndirs - 1;
	}
	if (ndirs > 0xffff)
		goto limit;
	for (i = 0; i < nfiles; i++)
		strsize += lt_strlen(paths[b.order[i]]) -
			   dir_len(paths[b.order[i]]);

	/* 5. symbols and their codes */
	for (c = 0; c < LINETAB_NCTX; c++)
		for (k = 0; k < LINETAB_MAX_SYMS; k++)
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
	b.symstart[nblocks] = e->nsyms;
	codes = 4 * LINETAB_NCTX + 2 + 2 + LT_LUT;	/* + a shared empty one */
	for (c = 0; c < LINETAB_NCTX; c++) {
		make_code(e, c);
		if (e->nsym[c])
			codes += 2 + 2 * (e->nsym[c] + 1) + LT_LUT;
	}

	/* 6. blocks: coded into scratch space, then measured */
	b.scratch = lt_alloc(mem, 3 * e->nsyms + 8 * nblocks + 8);
	if (!b.scratch)
		goto out;
	p = b.scratch;
	for (blk = 0; blk < nblocks; blk++) {
		size_t n = b.symstart[blk + 1] - b.symstart[blk];
		u8 *end = p + 3 * n + 8, *start;

		start = code_block(e, e->syms + b.symstart[blk], n, end);
		b.blockpos[blk] = data;
		for (i = 0; start + i < end; i++)
			p[i] = start[i];
		p += i;
		data += i;
	}

	/* 7. the table */
	total = LINETAB_HDR_SIZE + codes + 8 * nblocks + data +
		4 * (nfiles + 1) + 2 * nfiles + 4 * (ndirs + 1) + strsize;
	if (total > 0xffffffffU)
		goto limit;
	b.blob = lt_alloc(mem, total);
	if (!b.blob)
		goto out;
	p = b.blob;
	for (i = 0; i < total; i++)
		p[i] = 0;
	put32(p, LINETAB_MAGIC);
	put32(p + 4, total);
	put32(p + 8, ne);
	put32(p + 12, block_rows);
	put32(p + 16, nblocks);
	put32(p + 20, LINETAB_NCTX);
	pos = LINETAB_HDR_SIZE;
	put32(p + 24, pos);
	k = pos + 4 * LINETAB_NCTX;	/* the shared empty code, then ours */
	put16(p + k, 0);
	k += 2 + 2 + LT_LUT;
	for (c = 0; c < LINETAB_NCTX; c++) {
		if (!e->nsym[c]) {
			put32(p + pos + 4 * c, pos + 4 * LINETAB_NCTX);
			continue;
		}
		put32(p + pos + 4 * c, k);
		put16(p + k, e->nsym[c]);
		k += 2;
		for (i = 0; i <= e->nsym[c]; i++, k += 2)
			put16(p + k, e->cum[c][i]);
		for (i = 0, j = 0; i < LT_LUT; i++) {
			u32 slot = i << (LINETAB_PROB_BITS - LINETAB_LUT_BITS);

			while (e->cum[c][j + 1] <= slot)
				j++;
			p[k++] = j;
		}
	}
	pos = k;
	put32(p + 28, pos);		/* index */
	for (blk = 0; blk < nblocks; blk++) {
		put32(p + pos + 8 * blk, b.ent[(size_t)blk * block_rows].off);
		put32(p + pos + 8 * blk + 4, b.blockpos[blk]);
	}
	pos += 8 * nblocks;
	put32(p + 32, pos);		/* data */
	put32(p + 36, data);
	for (i = 0; i < data; i++)
		p[pos + i] = b.scratch[i];
	pos += data;
	put32(p + 40, nfiles);
	put32(p + 44, ndirs);
	put32(p + 48, pos);		/* files: name starts, dirs */
	put32(p + 52, pos + 4 * (nfiles + 1) + 2 * nfiles);
	put32(p + 56, pos + 4 * (nfiles + 1) + 2 * nfiles + 4 * (ndirs + 1));
	put32(p + 60, strsize);
	{
		u8 *fs = p + pos, *fd = fs + 4 * (nfiles + 1);
		u8 *ds = fd + 2 * nfiles, *str = ds + 4 * (ndirs + 1);
		size_t so = 0, l;
		const char *s;

		for (i = 0; i < ndirs; i++) {
			s = paths[b.dirrep[i]];
			put32(ds + 4 * i, so);
			for (l = 0; l < dir_len(s); l++)
				str[so++] = s[l];
		}
		put32(ds + 4 * ndirs, so);
		for (i = 0; i < nfiles; i++) {
			s = paths[b.order[i]];
			put32(fs + 4 * i, so);
			put16(fd + 2 * i, b.dirof[i]);
			for (l = dir_len(s); s[l]; l++)
				str[so++] = s[l];
		}
		put32(fs + 4 * nfiles, so);
	}

	stats.rows_in = nrows;
	stats.kept = nk;
	stats.entries = ne;
	stats.ends = 0;
	for (i = 0; i < ne; i++)
		stats.ends += b.ent[i].end;
	stats.files = nfiles;
	stats.blocks = nblocks;
	stats.header = LINETAB_HDR_SIZE;
	stats.codes = codes;
	stats.index = 8 * nblocks;
	stats.data = data;
	stats.paths = total - LINETAB_HDR_SIZE - codes - 8 * nblocks - data;
	stats.total = total;
	if (st)
		*st = stats;
	*out = b.blob;
	*out_size = total;
	b.blob = NULL;
	ret = 0;
	goto out;
limit:
	ret = -LINETAB_ENC_LIMIT;
out:
	lt_free(mem, e->syms);
	lt_free(mem, e);
	free_bufs(mem, &b);
	return ret;
}
