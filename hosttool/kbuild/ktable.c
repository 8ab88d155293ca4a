// SPDX-License-Identifier: GPL-2.0
/*
 * ktable.c - vmlinux's compact line tables (<linux/lineloc/table.h>):
 * --kernel-table writes them for scripts/link-vmlinux.sh, and
 * --check-anchors compares the text layout of two links.
 *
 * Two regions, as kallsyms has them: the text, _text to _etext, offsets
 * from _text, and the init text, _sinittext to _einittext, offsets from
 * _sinittext.  Rows elsewhere (arm64's .rodata.text, ARM's vectors and
 * stubs, which share virtual addresses) are dropped and counted.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "tables.h"
#include <linux/lineloc/table.h>
#include <linux/lineloc/vmlinux.h>
#include "ktable.h"
#include "inlines.h"

/* The region that holds @a (an end of sequence may stand at its end). */
struct region *ktable_region(struct ktable *k, uint64_t a, int end)
{
	int i;

	for (i = 0; i < NREGIONS; i++) {
		struct region *r = &k->r[i];

		if (a >= r->lo && (a < r->hi || (end && a == r->hi)))
			return r;
	}
	return NULL;
}

static void add_row(struct ktable *k, struct region *r, uint64_t a,
		    uint32_t file, uint32_t line, int end, uint32_t inl)
{
	struct lineloc_row *w;

	if (k->chains) {
		k->row_inl = grow(k->row_inl, &k->icap, k->n + 1,
				  sizeof(*k->row_inl));
		k->row_inl[k->n] = inl;
	}
	k->rows = grow(k->rows, &k->cap, k->n + 1, sizeof(*k->rows));
	w = &k->rows[k->n++];
	w->off = (u32)(a - r->lo) + r->bias;
	w->file = file;
	w->line = line;
	w->end = end;
	r->n++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/**
 * ktable_inl_read() - the chains of inlined calls of a vmlinux, for
 * ktable_build()
 * @t: the tables of a vmlinux, loaded
 * @ki: where to put them
 * @too_deep: where to put the number of segments left out
 *
 * The inlined instances of @t as the table takes them: names numbered in
 * their sorted order, each instance's call file a path of the table (the
 * last, "??", for none), and per segment 1 + its innermost instance, or 0
 * outside inlined code and where the chain is deeper than the table holds
 * (counted in *@too_deep).
 */
void ktable_inl_read(struct tables *t, struct ktable_inl *ki,
		     size_t *too_deep)
{
	static struct inlines in;
	struct lineloc_inline *inl;
	const char **names;
	uint64_t *sa;
	uint32_t *si;
	size_t i, n = 0, nn = 0;

	read_inlines(t, &in);
	names = xalloc_array("names", in.n + 1, sizeof(*names));
	for (i = 0; i < in.n; i++)
		names[n++] = in.node[i].name ? in.node[i].name : "??";
	names[n++] = "??";
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++)
		if (!nn || strcmp(names[nn - 1], names[i]))
			names[nn++] = names[i];
	inl = xalloc_array("instances", in.n + 1, sizeof(*inl));
	for (i = 0; i < in.n; i++) {
		const struct inl_node *d = &in.node[i];
		const char *name = d->name ? d->name : "??";
		const char **f = bsearch(&name, names, nn, sizeof(*names),
					 cmp_str);

		inl[i].name = (uint32_t)(f - names);
		inl[i].parent = d->parent == INL_NONE ||
				in.node[d->parent].parent == INL_NONE ?
				0 : d->parent + 1;
		inl[i].file = d->call_file == NOFILE ? (uint32_t)t->paths.n :
			      d->call_file;
		inl[i].line = d->parent == INL_NONE ? 0 : d->call_line;
	}
	sa = xalloc_array("segments", in.nseg + 1, sizeof(*sa));
	si = xalloc_array("segments", in.nseg + 1, sizeof(*si));
	*too_deep = 0;
	for (i = 0; i < in.nseg; i++) {
		uint32_t k = in.seg[i].node;

		sa[i] = in.seg[i].addr;
		si[i] = 0;
		if (k == INL_NONE || in.node[k].parent == INL_NONE)
			continue;
		if (in.node[k].depth > LINELOC_MAX_DEPTH)
			(*too_deep)++;
		else
			si[i] = k + 1;
	}
	ki->seg_addr = sa;
	ki->seg_inl = si;
	ki->nseg = in.nseg;
	ki->calls.row_inl = NULL;
	ki->calls.inl = inl;
	ki->calls.ninl = (uint32_t)in.n;
	ki->calls.names = names;
	ki->calls.nnames = (uint32_t)nn;
}

/* The first segment of @in above @a. */
static size_t seg_above(const struct ktable_inl *in, uint64_t a)
{
	size_t lo = 0, hi = in->nseg, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (in->seg_addr[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Row @j of sequence @s in region @r, with chains: its own, and a row of
 * the same line at each start of a segment below the next row's address.
 */
static void add_rows_inl(struct ktable *k, const struct ktable_inl *in,
			 struct region *r, const struct row_seq *s, size_t j)
{
	const struct line_row *w = &k->c.rows[j];
	uint32_t file = w->file == NOFILE ? (uint32_t)k->t->paths.n : w->file;
	uint64_t next;
	size_t i = seg_above(in, w->addr);

	add_row(k, r, w->addr, file, w->line, 0, i ? in->seg_inl[i - 1] : 0);
	if (!s->sorted || j + 1 >= s->first + s->n)
		return;
	next = k->c.rows[j + 1].addr;
	for (; i < in->nseg && in->seg_addr[i] < next; i++) {
		if (ktable_region(k, in->seg_addr[i], 0) != r)
			break;
		add_row(k, r, in->seg_addr[i], file, w->line, 0,
			in->seg_inl[i]);
		k->rows_split++;
	}
}

/*
 * Read @t's rows and anchors and build the table: the text at offsets
 * from _text, the init text after it, at offsets from _sinittext plus its
 * bias (past the text, rounded up to 64 KiB), so that the two regions
 * share the paths, codes and dictionary of one table.  With @in, the
 * chains of inlined calls too.
 */
void ktable_build(struct ktable *k, struct tables *t, uint32_t block,
		  const struct ktable_inl *in)
{
	struct lineloc_calls calls;
	static const char *const syms[NREGIONS][2] = {
		{ "_text", "_etext" }, { "_sinittext", "_einittext" },
	};
	struct lineloc_enc_opts opt = { 0 };
	uint64_t bias;
	size_t i, j;
	int n, err;

	memset(k, 0, sizeof(*k));
	k->t = t;
	k->chains = !!in;
	for (n = 0; n < NREGIONS; n++) {
		struct region *r = &k->r[n];

		r->lo_sym = syms[n][0];
		r->hi_sym = syms[n][1];
		if (!elf_symbol(&t->elf, r->lo_sym, &r->lo) ||
		    !elf_symbol(&t->elf, r->hi_sym, &r->hi))
			die(t->elf.path, NULL, "no symbol %s or %s: not a vmlinux",
			    r->lo_sym, r->hi_sym);
		if (r->hi < r->lo || r->hi - r->lo > UINT32_MAX)
			die(t->elf.path, NULL, "%s..%s: 0x%" PRIx64 "..0x%" PRIx64
			    " is not a range of 4 GiB at most", r->lo_sym,
			    r->hi_sym, r->lo, r->hi);
	}
	bias = (k->r[0].hi - k->r[0].lo + 1 + 0xffff) & ~(uint64_t)0xffff;
	if (bias + (k->r[1].hi - k->r[1].lo) > UINT32_MAX)
		die(t->elf.path, NULL, "%s..%s and %s..%s do not fit 4 GiB",
		    k->r[0].lo_sym, k->r[0].hi_sym, k->r[1].lo_sym,
		    k->r[1].hi_sym);
	k->r[1].bias = (uint32_t)bias;
	k->npaths = t->paths.n + 1;
	k->paths = xalloc_array("paths", k->npaths, sizeof(*k->paths));
	for (i = 0; i < t->paths.n; i++)
		k->paths[i] = t->paths.show[i];
	k->paths[t->paths.n] = "??";

	rows_collect(t, &k->c);
	for (i = 0; i < k->c.nseqs; i++) {
		const struct row_seq *s = &k->c.seqs[i];

		for (j = s->first; j < s->first + s->n; j++) {
			const struct line_row *w = &k->c.rows[j];
			int end = j == s->first + s->n - 1;
			struct region *r = ktable_region(k, w->addr, end);

			if (!r) {
				k->dropped += !end;
				continue;
			}
			if (in && !end) {
				add_rows_inl(k, in, r, s, j);
				continue;
			}
			add_row(k, r, w->addr, w->file == NOFILE ?
				(uint32_t)t->paths.n : w->file, w->line, end, 0);
		}
	}
	/* nothing past _etext, whatever the text's last sequence says */
	add_row(k, &k->r[0], k->r[0].hi, 0, 0, 1, 0);
	k->r[0].n--;
	opt.block_rows = block;
	if (in) {
		calls = in->calls;
		calls.row_inl = k->row_inl;
	}
	err = lineloc_encode_calls(k->rows, k->n, k->paths, k->npaths,
				   in ? &calls : NULL, &opt,
				   &lineloc_libc_alloc, &k->tab, &k->size,
				   &k->st);
	if (err)
		die(t->elf.path, NULL, "cannot build the line table (error %d)",
		    err);
	k->total = LINELOC_K_HDR_SIZE + k->size;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/**
 * do_kernel_table() - write vmlinux's tables in their container
 * @t: the tables of a vmlinux, loaded
 * @block: rows per block
 * @chains: with the chains of inlined calls
 */
void do_kernel_table(struct tables *t, uint32_t block, int chains)
{
	static struct ktable k;
	uint8_t h[LINELOC_K_HDR_SIZE] = { 0 };
	struct ktable_inl ki;
	size_t too_deep;

	if (chains)
		ktable_inl_read(t, &ki, &too_deep);
	ktable_build(&k, t, block, chains ? &ki : NULL);
	put32(h, LINELOC_K_MAGIC);
	put32(h + 4 * LINELOC_K_VERSION_W, LINELOC_K_VERSION);
	put32(h + 4 * LINELOC_K_TEXT_W, LINELOC_K_HDR_SIZE);
	put32(h + 4 * LINELOC_K_TEXT_W + 4, (uint32_t)k.size);
	put32(h + 4 * LINELOC_K_ROWS_W, k.st.entries);
	put32(h + 4 * LINELOC_K_BIAS_W, k.r[1].bias);
	out_mem((const char *)h, sizeof(h));
	out_mem((const char *)k.tab, k.size);
}

/* A text symbol and its offset from the start of its region. */
struct anchored {
	int region;
	uint64_t off;
	const char *name;
};

struct anchors {
	struct elf *e;
	uint64_t lo[NREGIONS], hi[NREGIONS];
	struct anchored *a;
	size_t n, cap;
};

static int add_anchored(void *arg, const char *name, uint64_t value,
			uint8_t info)
{
	struct anchors *an = arg;
	int n;

	if ((info & 0xf) != STT_FUNC && (info & 0xf) != STT_NOTYPE)
		return 0;
	for (n = 0; n < NREGIONS; n++) {
		if (value >= an->lo[n] && value < an->hi[n]) {
			an->a = grow(an->a, &an->cap, an->n + 1, sizeof(*an->a));
			an->a[an->n].region = n;
			an->a[an->n].off = value - an->lo[n];
			an->a[an->n++].name = xstrdup(name);
			break;
		}
	}
	return 0;
}

static int cmp_anchored(const void *a, const void *b)
{
	const struct anchored *x = a, *y = b;

	if (x->region != y->region)
		return x->region - y->region;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void read_anchors(struct anchors *an, struct elf *e, const char *path)
{
	static const char *const syms[NREGIONS][2] = {
		{ "_text", "_etext" }, { "_sinittext", "_einittext" },
	};
	int n;

	memset(an, 0, sizeof(*an));
	elf_open(e, path);
	an->e = e;
	for (n = 0; n < NREGIONS; n++)
		if (!elf_symbol(e, syms[n][0], &an->lo[n]) ||
		    !elf_symbol(e, syms[n][1], &an->hi[n]))
			die(path, NULL, "no symbol %s or %s: not a vmlinux",
			    syms[n][0], syms[n][1]);
	elf_each_symbol(e, add_anchored, an);
	xqsort(an->a, an->n, sizeof(*an->a), cmp_anchored);
}

/**
 * do_check_anchors() - the text of two links is laid out alike
 * @read: the link whose line table was read
 * @final: the final vmlinux
 *
 * Every function symbol of the text and the init text must stand at the
 * same offset from its region's start in both: the tables hold offsets
 * from those starts.  Exits 1 naming the first that moved.
 */
void do_check_anchors(const char *read, const char *final)
{
	static struct elf e1, e2;
	static struct anchors a, b;
	char line[160];
	size_t i;

	read_anchors(&a, &e1, read);
	read_anchors(&b, &e2, final);
	for (i = 0; i < a.n || i < b.n; i++) {
		const struct anchored *x = i < a.n ? &a.a[i] : NULL;
		const struct anchored *y = i < b.n ? &b.a[i] : NULL;

		if (x && y && !cmp_anchored(x, y))
			continue;
		fprintf(stderr, "%s: %s and %s: text moved: %s+0x%" PRIx64
			" in the first, %s+0x%" PRIx64 " in the second\n", prog,
			read, final, x ? x->name : "(none)", x ? x->off : 0,
			y ? y->name : "(none)", y ? y->off : 0);
		exit(1);
	}
	snprintf(line, sizeof(line),
		 "check-anchors: %zu text symbols at the same offsets\n", a.n);
	out_str(line);
}
