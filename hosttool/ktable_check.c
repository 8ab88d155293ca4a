// SPDX-License-Identifier: GPL-2.0
/*
 * ktable_check.c - vmlinux's compact line tables read back on the host:
 * --table-size prints what they cost, --table-check compares them with
 * lineloc's own answers, --via-table answers -e through them.
 */
#define _POSIX_C_SOURCE 200809L
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"
#include "tables.h"
#include "modes.h"
#include <linux/lineloc/table.h>
#include <linux/lineloc/vmlinux.h>
#include "ktable.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

#define NLOOKUPS 1000000

/* What lookup_ns() times: the lookups a kernel with chains makes. */
enum {
	LK_PLAIN,	/* lineloc_lookup(): reads past chains */
	LK_NAMES,	/* lineloc_lookup_calls() and each level's name */
	LK_OUTER,	/* lineloc_lookup_outer(): a frame's %pBl */
	LK_CALLS,	/* lineloc_lookup_calls() alone */
};

/*
 * Mean ns of a lookup of kind @how in the text of @k's table at the
 * offsets @off, the fastest of 3 runs.
 */
static double lookup_ns(const struct ktable *k, const u32 *off, int how)
{
	struct lineloc_call c[LINELOC_MAX_DEPTH];
	char name[LINELOC_MAX_NAME];
	struct lineloc_loc loc;
	uint64_t t0, sink = 0;
	double best = 0, ns;
	u32 i, j, n, len;
	int pass;

	for (pass = 0; pass < 3; pass++) {
		t0 = now_ns();
		for (i = 0; i < NLOOKUPS; i++) {
			if (how == LK_PLAIN) {
				sink += lineloc_lookup(k->tab, k->size, off[i],
						       &loc) + loc.line;
				continue;
			}
			if (how == LK_OUTER) {
				sink += lineloc_lookup_outer(k->tab, k->size,
							     off[i], &loc, &n) +
					loc.line + n;
				continue;
			}
			sink += lineloc_lookup_calls(k->tab, k->size, off[i],
						     &loc, c, LINELOC_MAX_DEPTH,
						     &n) + loc.line;
			for (j = 0; how == LK_NAMES && j < n; j++)
				if (!lineloc_name(k->tab, k->size, c[j].name,
						  name, &len))
					sink += (uint8_t)name[0] + len;
		}
		ns = (double)(now_ns() - t0) / NLOOKUPS;
		if (!pass || ns < best)
			best = ns;
	}
	if (sink == 42)		/* keep the lookups */
		fputc(' ', stderr);
	return best;
}

/*
 * The lookup latency with and without chains, side by side: NLOOKUPS
 * random offsets of the text (seed 1) that have a location.
 */
static void put_latency(const struct ktable *plain, const struct ktable *k)
{
	uint64_t rng = 0x9e3779b97f4a7c16ULL;
	struct lineloc_loc loc;
	double a, b;
	char line[200];
	u32 *off = xalloc_array("offsets", NLOOKUPS, sizeof(*off));
	u32 span = (u32)(k->r[0].hi - k->r[0].lo), i, tries = 0;

	for (i = 0; i < NLOOKUPS && span && tries < 100 * NLOOKUPS; tries++) {
		rng ^= rng >> 12;
		rng ^= rng << 25;
		rng ^= rng >> 27;
		off[i] = (u32)((rng * 2685821657736338717ULL >> 32) % span);
		if (!lineloc_lookup(plain->tab, plain->size, off[i], &loc))
			i++;
	}
	if (i < NLOOKUPS)
		die(k->t->elf.path, NULL, "too few text offsets with a location");
	a = lookup_ns(plain, off, LK_PLAIN);
	b = lookup_ns(k, off, LK_NAMES);
	snprintf(line, sizeof(line),
		 "lookup: %d random text offsets (seed 1): without chains %.0f ns, with chains and names %.0f ns (x%.2f)\n",
		 NLOOKUPS, a, b, a > 0 ? b / a : 0.0);
	out_str(line);
	snprintf(line, sizeof(line),
		 "lookup in the table with chains: past them %.0f ns, the outermost call %.0f ns, the chain %.0f ns\n",
		 lookup_ns(k, off, LK_PLAIN), lookup_ns(k, off, LK_OUTER),
		 lookup_ns(k, off, LK_CALLS));
	out_str(line);
	free(off);
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
void do_table_size(struct tables *t, uint32_t block, int chains)
{
	static struct ktable k, plain;
	const struct lineloc_stats *s = &k.st;
	struct ktable_inl ki;
	size_t too_deep = 0;
	char line[400];

	if (chains) {
		ktable_inl_read(t, &ki, &too_deep);
		ktable_build(&plain, t, block, NULL);
	}
	ktable_build(&k, t, block, chains ? &ki : NULL);
	snprintf(line, sizeof(line),
		 "%s..%s: %zu rows read; %s..%s at +0x%x: %zu rows read\n",
		 k.r[0].lo_sym, k.r[0].hi_sym, k.r[0].n, k.r[1].lo_sym,
		 k.r[1].hi_sym, k.r[1].bias, k.r[1].n);
	out_str(line);
	snprintf(line, sizeof(line),
		 "table: %u kept, %u ends, %u paths, %u blocks of %u; "
		 "bytes: container %d, header %zu, codes %zu, index %zu, data %zu, dictionary %zu, paths %zu, total %zu\n",
		 s->entries, s->ends, s->files, s->blocks, block,
		 LINELOC_K_HDR_SIZE, s->header, s->codes, s->index, s->data,
		 s->dict_bytes, s->paths, s->total);
	out_str(line);
	snprintf(line, sizeof(line), "dropped: %zu rows outside both ranges\n",
		 k.dropped);
	out_str(line);
	if (chains) {
		snprintf(line, sizeof(line),
			 "chains: %u levels pushed, %u new, %u of them usual calls; %u names, %u usual calls; %zu rows added where a chain changes, %zu segments too deep\n",
			 s->pushes, s->pushes_new, s->usual_hits, s->names,
			 s->usual, k.rows_split, too_deep);
		out_str(line);
		snprintf(line, sizeof(line),
			 "chains bytes: changes %.0f, names %.0f, calls %.0f, name strings %zu, usual calls %zu; without chains %zu rows, %zu bytes; chains cost %lld bytes\n",
			 s->bits[LINELOC_F_CHAIN] / 8.0,
			 s->bits[LINELOC_F_NAME] / 8.0,
			 s->bits[LINELOC_F_CALL] / 8.0, s->names_bytes,
			 s->usual_bytes,
			 (size_t)plain.st.entries, plain.total,
			 (long long)k.total - (long long)plain.total);
		out_str(line);
		put_latency(&plain, &k);
	}
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
	struct region *r = ktable_region(k, a, 0);
	struct lineloc_loc loc;
	int err;

	if (!r)
		return -1;
	err = lineloc_lookup(k->tab, k->size, (u32)(a - r->lo) + r->bias, &loc);
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
static int check_at(struct ktable *k, struct row_index *ix, uint64_t a,
		    size_t *checked)
{
	const struct line_row *w = rows_lookup(&k->c, ix, a);
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
	struct row_index ix;
	size_t i, j, checked = 0;
	char line[160];

	ktable_build(&k, t, block, NULL);
	rows_index(&k.c, &ix, -1);
	for (i = 0; i < k.c.nseqs; i++) {
		const struct row_seq *s = &k.c.seqs[i];

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

/* Functions of the symbol table, by address: -f's outermost names. */
struct fsyms {
	struct fsym {
		uint64_t value;
		const char *name;
	} *s;
	size_t n, cap;
};

static int add_fsym(void *arg, const char *name, uint64_t value,
		    uint8_t info)
{
	struct fsyms *fs = arg;

	if ((info & 0xf) != STT_FUNC)
		return 0;
	fs->s = grow(fs->s, &fs->cap, fs->n + 1, sizeof(*fs->s));
	fs->s[fs->n].value = value;
	fs->s[fs->n++].name = xstrdup(name);
	return 0;
}

static int cmp_fsym(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return strcmp(x->name, y->name);
}

static const char *fsym_at(const struct fsyms *fs, uint64_t a)
{
	size_t lo;

	LOWER_BOUND(lo, fs->n, fs->s[i].value <= a);
	return lo ? fs->s[lo - 1].name : "??";
}

struct via {
	struct ktable k;
	unsigned int how;	/* ADDR_* */
	struct fsyms fs;
};

static void put_name(const struct via *v, const char *name, size_t len)
{
	if (!(v->how & ADDR_NAMES))
		return;
	out_mem(name, len);
	out_mem("\n", 1);
}

/* The name of an inlined function, through the table. */
static void put_inlined(const struct via *v, u32 name)
{
	char buf[LINELOC_MAX_NAME];
	u32 len;

	if (!(v->how & ADDR_NAMES))
		return;
	if (lineloc_name(v->k.tab, v->k.size, name, buf, &len))
		die(v->k.t->elf.path, NULL, "the table has no name %u", name);
	put_name(v, buf, len);
}

static void put_path(struct via *v, uint32_t file, uint32_t line)
{
	struct lineloc_loc loc;

	if (lineloc_path(v->k.tab, v->k.size, file, &loc))
		die(v->k.t->elf.path, NULL, "the table has no path %u", file);
	out_mem(loc.dir, loc.dir_len);
	out_mem(loc.name, loc.name_len);
	out_mem(":", 1);
	out_dec(line);
	out_mem("\n", 1);
}

/*
 * As do_addrs() answers (-e, with -i, -f and -a as given), through the
 * table: the outermost function named by the symbol table, as the
 * kernel names it.
 */
static void via_answer(struct via *v, const char *arg)
{
	struct lineloc_call calls[LINELOC_MAX_DEPTH];
	struct ktable *k = &v->k;
	struct lineloc_loc loc;
	const char *outer;
	struct region *r;
	uint32_t n = 0, i, depth;
	uint64_t a;
	int ok = parse_addr(arg, &a), ret = LINELOC_UNKNOWN;

	if (v->how & ADDR_SHOW)
		put_addr(ok, a);
	r = ok ? ktable_region(k, a, 0) : NULL;
	if (r)
		ret = lineloc_lookup_calls(k->tab, k->size,
					   (u32)(a - r->lo) + r->bias, &loc,
					   calls, LINELOC_MAX_DEPTH, &n);
	if (ret < 0)
		die(k->t->elf.path, NULL, "table lookup at 0x%" PRIx64 ": error %d",
		    a, ret);
	outer = ok ? fsym_at(&v->fs, a) : "??";
	if (ret) {
		put_name(v, "??", 2);
		out_str("??:0\n");
		return;
	}
	if (!(v->how & ADDR_INLINES))
		n = 0;
	if (n)
		put_inlined(v, calls[0].name);
	else
		put_name(v, outer, strlen(outer));
	out_mem(loc.dir, loc.dir_len);
	out_mem(loc.name, loc.name_len);
	out_mem(":", 1);
	out_dec(loc.line);
	out_mem("\n", 1);
	for (i = 1; i <= n; i++) {
		if (i < n)
			put_inlined(v, calls[i].name);
		else
			put_name(v, outer, strlen(outer));
		if (i < n) {
			put_path(v, calls[i - 1].file, calls[i - 1].line);
			continue;
		}
		/* the outermost call site as the kernel's frame line finds it */
		ret = lineloc_lookup_outer(k->tab, k->size,
					   (u32)(a - r->lo) + r->bias, &loc,
					   &depth);
		if (ret || depth != n)
			die(k->t->elf.path, NULL,
			    "table lookup at 0x%" PRIx64 ": outermost call: error %d, %u levels of %u",
			    a, ret, depth, n);
		put_path(v, loc.file, loc.line);
	}
}

/**
 * do_via_table() - answer -e through vmlinux's tables (--via-table)
 * @t: the tables of a vmlinux, loaded
 * @block: rows per block
 * @how: ADDR_* flags: with -i, tables with chains of inlined calls
 * @addrs: the addresses, hex; none: one a line on stdin
 * @naddrs: how many
 */
void do_via_table(struct tables *t, uint32_t block, unsigned int how,
		  char **addrs, int naddrs)
{
	static struct via v;
	struct ktable_inl ki;
	size_t too_deep;
	char line[256];
	int i;

	v.how = how;
	if (how & ADDR_INLINES)
		ktable_inl_read(t, &ki, &too_deep);
	ktable_build(&v.k, t, block, how & ADDR_INLINES ? &ki : NULL);
	if (how & ADDR_NAMES) {
		elf_each_symbol(&t->elf, add_fsym, &v.fs);
		qsort(v.fs.s, v.fs.n, sizeof(*v.fs.s), cmp_fsym);
	}
	for (i = 0; i < naddrs; i++)
		via_answer(&v, addrs[i]);
	if (naddrs)
		return;
	while (fgets(line, sizeof(line), stdin)) {
		via_answer(&v, line);
		out_flush();
		fflush(out);
	}
}

