// SPDX-License-Identifier: GPL-2.0
/*
 * ktable.c - vmlinux's compact line tables (linetab.h) for the kernel:
 * --kernel-table writes them for scripts/link-vmlinux.sh, --table-size
 * prints what they cost, --table-check compares them with lineloc's own
 * answers, --via-table answers -e through them and --check-anchors
 * compares the text layout of two links.
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

#include "lineloc.h"
#include "tables.h"
#include "modes.h"
#include "linetab.h"
#include "kernel_lines.h"
#include "ktable.h"

#define NREGIONS 2

struct region {
	const char *lo_sym, *hi_sym;
	uint64_t lo, hi;
	uint32_t bias;		/* its offset in the table */
	size_t n;		/* rows read */
};

struct ktable {
	struct tables *t;
	struct collect c;
	struct region r[NREGIONS];
	struct linetab_row *rows;	/* both regions' */
	size_t n, cap;
	u8 *tab;
	size_t size;
	struct linetab_stats st;
	const char **paths;	/* the shown paths, then "??" */
	size_t npaths;
	size_t dropped;		/* rows outside both regions */
	size_t total;		/* bytes of the container */
};

/* The region that holds @a (an end of sequence may stand at its end). */
static struct region *region_of(struct ktable *k, uint64_t a, int end)
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
		    uint32_t file, uint32_t line, int end)
{
	struct linetab_row *w;

	k->rows = grow(k->rows, &k->cap, k->n + 1, sizeof(*k->rows));
	w = &k->rows[k->n++];
	w->off = (u32)(a - r->lo) + r->bias;
	w->file = file;
	w->line = line;
	w->end = end;
	r->n++;
}

/*
 * Read @t's rows and anchors and build the table: the text at offsets
 * from _text, the init text after it, at offsets from _sinittext plus its
 * bias (past the text, rounded up to 64 KiB), so that the two regions
 * share the paths, codes and dictionary of one table.
 */
static void ktable_build(struct ktable *k, struct tables *t, uint32_t block)
{
	static const char *const syms[NREGIONS][2] = {
		{ "_text", "_etext" }, { "_sinittext", "_einittext" },
	};
	uint64_t bias;
	size_t i, j;
	int n, err;

	memset(k, 0, sizeof(*k));
	k->t = t;
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

	collect_all(t, &k->c);
	for (i = 0; i < k->c.nseqs; i++) {
		const struct seq *s = &k->c.seqs[i];

		for (j = s->first; j < s->first + s->n; j++) {
			const struct row *w = &k->c.rows[j];
			int end = j == s->first + s->n - 1;
			struct region *r = region_of(k, w->addr, end);

			if (!r) {
				k->dropped += !end;
				continue;
			}
			add_row(k, r, w->addr, w->file == NOFILE ?
				(uint32_t)t->paths.n : w->file, w->line, end);
		}
	}
	/* nothing past _etext, whatever the text's last sequence says */
	add_row(k, &k->r[0], k->r[0].hi, 0, 0, 1);
	k->r[0].n--;
	err = linetab_encode(k->rows, k->n, k->paths, k->npaths, block,
			     &linetab_libc_alloc, &k->tab, &k->size, &k->st);
	if (err)
		die(t->elf.path, NULL, "cannot build the line table (error %d)",
		    err);
	k->total = KLINES_HDR_SIZE + k->size;
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
 */
void do_kernel_table(struct tables *t, uint32_t block)
{
	static struct ktable k;
	uint8_t h[KLINES_HDR_SIZE] = { 0 };

	ktable_build(&k, t, block);
	put32(h, KLINES_MAGIC);
	put32(h + 4 * KLINES_VERSION_W, KLINES_VERSION);
	put32(h + 4 * KLINES_TEXT_W, KLINES_HDR_SIZE);
	put32(h + 4 * KLINES_TEXT_W + 4, (uint32_t)k.size);
	put32(h + 4 * KLINES_ROWS_W, k.st.entries);
	put32(h + 4 * KLINES_BIAS_W, k.r[1].bias);
	out_mem((const char *)h, sizeof(h));
	out_mem((const char *)k.tab, k.size);
}

/**
 * do_table_size() - what vmlinux's tables cost (--table-size)
 * @t: the tables of a vmlinux, loaded
 * @block: rows per block
 *
 * Ends with "table: R rows, B bytes, X.XX B/row": R the rows the tables
 * keep, B all the kernel holds (container, code tables, index, data and
 * paths).
 */
void do_table_size(struct tables *t, uint32_t block)
{
	static struct ktable k;
	const struct linetab_stats *s = &k.st;
	char line[320];

	ktable_build(&k, t, block);
	snprintf(line, sizeof(line),
		 "%s..%s: %zu rows read; %s..%s at +0x%x: %zu rows read\n",
		 k.r[0].lo_sym, k.r[0].hi_sym, k.r[0].n, k.r[1].lo_sym,
		 k.r[1].hi_sym, k.r[1].bias, k.r[1].n);
	out_str(line);
	snprintf(line, sizeof(line),
		 "table: %u kept, %u ends, %u paths, %u blocks of %u; "
		 "bytes: container %d, header %zu, codes %zu, index %zu, data %zu, dictionary %zu, paths %zu, total %zu\n",
		 s->entries, s->ends, s->files, s->blocks, block,
		 KLINES_HDR_SIZE, s->header, s->codes, s->index, s->data,
		 s->dict_bytes, s->paths, s->total);
	out_str(line);
	snprintf(line, sizeof(line), "dropped: %zu rows outside both ranges\n",
		 k.dropped);
	out_str(line);
	snprintf(line, sizeof(line), "table: %u rows, %zu bytes, %.2f B/row\n",
		 s->entries, k.total,
		 s->entries ? (double)k.total / (double)s->entries : 0.0);
	out_str(line);
}

/*
 * The table's answer at @a: 1 with *@path (@len bytes, in @buf) and
 * *@line, 0 for none; -1 when @a lies outside both regions.
 */
static int table_answer(struct ktable *k, uint64_t a, char *buf, size_t cap,
			size_t *len, uint32_t *line)
{
	struct region *r = region_of(k, a, 0);
	struct linetab_loc loc;
	int err;

	if (!r)
		return -1;
	err = linetab_lookup(k->tab, k->size, (u32)(a - r->lo) + r->bias, &loc);
	if (err < 0)
		die(k->t->elf.path, NULL, "table lookup at 0x%" PRIx64 ": error %d",
		    a, err);
	if (err)
		return 0;
	if ((size_t)loc.dir_len + loc.name_len >= cap)
		die(k->t->elf.path, NULL, "path of %u bytes at 0x%" PRIx64,
		    loc.dir_len + loc.name_len, a);
	memcpy(buf, loc.dir, loc.dir_len);
	memcpy(buf + loc.dir_len, loc.name, loc.name_len);
	*len = loc.dir_len + loc.name_len;
	buf[*len] = '\0';
	*line = loc.line;
	return 1;
}

/* Compare the table and the rows at @a; 0 when they agree. */
static int check_at(struct ktable *k, struct index *ix, uint64_t a,
		    size_t *checked)
{
	const struct row *w = lookup(&k->c, ix, a);
	static char buf[1 << 16];
	const char *want = NULL;
	uint32_t line = 0;
	size_t len;
	int got;

	got = table_answer(k, a, buf, sizeof(buf), &len, &line);
	if (got < 0)
		return 0;
	(*checked)++;
	if (w)
		want = w->file == NOFILE ? "??" : k->t->paths.show[w->file];
	if (!got && !w)
		return 0;
	if (got && w && !strcmp(buf, want) && line == w->line)
		return 0;
	fprintf(stderr, "%s: %s: the table differs at 0x%" PRIx64
		": table %s:%u, rows %s:%u\n", prog, k->t->elf.path, a,
		got ? buf : "(none)", got ? line : 0, want ? want : "(none)",
		w ? w->line : 0);
	return 1;
}

/**
 * do_table_check() - the tables against lineloc's own answers
 * @t: the tables of a vmlinux, loaded
 * @block: rows per block
 *
 * At every row's address a, at a - 1 and at every end of a sequence
 * inside the two regions.  Exits 1 at the first difference, naming it.
 */
void do_table_check(struct tables *t, uint32_t block)
{
	static struct ktable k;
	struct index ix;
	size_t i, j, checked = 0;
	char line[160];

	ktable_build(&k, t, block);
	build_index(&k.c, &ix, -1);
	for (i = 0; i < k.c.nseqs; i++) {
		const struct seq *s = &k.c.seqs[i];

		for (j = s->first; j < s->first + s->n; j++) {
			uint64_t a = k.c.rows[j].addr;

			if (check_at(&k, &ix, a, &checked) ||
			    (a && check_at(&k, &ix, a - 1, &checked)))
				exit(1);
		}
	}
	snprintf(line, sizeof(line),
		 "table-check: %zu addresses agree (%zu rows outside the tables)\n",
		 checked, k.dropped);
	out_str(line);
}

static void via_answer(struct ktable *k, const char *arg)
{
	static char buf[1 << 16];
	uint32_t line = 0;
	size_t len;
	uint64_t a;

	if (!parse_addr(arg, &a) ||
	    table_answer(k, a, buf, sizeof(buf), &len, &line) <= 0) {
		out_str("??:0\n");
		return;
	}
	out_str(buf);
	out_mem(":", 1);
	out_dec(line);
	out_mem("\n", 1);
}

/**
 * do_via_table() - answer -e through vmlinux's tables (--via-table)
 * @t: the tables of a vmlinux, loaded
 * @block: rows per block
 * @addrs: the addresses, hex; none: one a line on stdin
 * @naddrs: how many
 */
void do_via_table(struct tables *t, uint32_t block, char **addrs, int naddrs)
{
	static struct ktable k;
	char line[256];
	int i;

	ktable_build(&k, t, block);
	for (i = 0; i < naddrs; i++)
		via_answer(&k, addrs[i]);
	if (naddrs)
		return;
	while (fgets(line, sizeof(line), stdin)) {
		via_answer(&k, line);
		out_flush();
		fflush(out);
	}
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
	sort(an->a, an->n, sizeof(*an->a), cmp_anchored);
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
	snprintf(line, sizeof(line), "check-anchors: %zu text symbols at the same offsets\n",
		 a.n);
	out_str(line);
}
