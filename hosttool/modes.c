// SPDX-License-Identifier: GPL-2.0
/*
 * modes.c - what lineloc prints: every row (--rows), the answers for
 * addresses (-e) and counts (--stats)
 *
 * --rows prints the rows as the line programs give them, straight into the
 * output buffer; -e and --stats collect them first: -e looks addresses up
 * in the sequences, sorted by start.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "tables.h"
#include "modes.h"

/* ---- --rows ---------------------------------------------------------- */

struct rows_arg {
	struct tables *t;
	struct unit *u;
};

/* The two decimal digits of @d (below 100) at @p. */
static void put_pair(char *p, unsigned int d)
{
	p[0] = (char)('0' + d / 10);
	p[1] = (char)('0' + d % 10);
}

/* Decimal digits of @v at @w, two at a time; returns the end. */
static char *put_dec(char *w, uint64_t v)
{
	char b[20];
	int i = sizeof(b);

	while (v >= 100) {
		i -= 2;
		put_pair(b + i, (unsigned int)(v % 100));
		v /= 100;
	}
	if (v >= 10) {
		i -= 2;
		put_pair(b + i, (unsigned int)v);
	} else {
		b[--i] = (char)('0' + v);
	}
	memcpy(w, b + i, sizeof(b) - i);
	return w + sizeof(b) - i;
}

static char *put_hex(char *w, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char b[16];
	int i = sizeof(b);

	do {
		b[--i] = digits[v & 15];
		v >>= 4;
	} while (v);
	*w++ = '0';
	*w++ = 'x';
	memcpy(w, b + i, sizeof(b) - i);
	return w + sizeof(b) - i;
}

/*
 * One row per line, the hot loop of --rows (4.2 M rows for a distribution
 * vmlinux): formatted straight into the output buffer.
 */
static int print_row(void *arg, const struct lineloc_dwarf_row *r)
{
	struct rows_arg *ra = arg;
	struct tables *t = ra->t;
	uint32_t id = r->file < ra->u->nfiles ? ra->u->files[r->file] : NOFILE;
	const char *path = id == NOFILE ? "??" : t->paths.show[id];
	size_t n = id == NOFILE ? 2 : t->paths.showlen[id];
	const char *sec = seq_section(t, r->set_address_offset);
	size_t need = n + (sec ? strlen(sec) : 0) + 64;
	char *w;

	w = out_reserve(need);
	if (!w) {			/* absurd path: the slow way */
		out_str(path);
		out_mem(":", 1);
		out_dec(r->line);
		out_mem(" ", 1);
		out_hex(r->address);
		if (sec) {
			out_mem(" ", 1);
			out_str(sec);
		}
		if (r->end_sequence)
			out_mem(" end", 4);
		out_mem("\n", 1);
		return 0;
	}
	memcpy(w, path, n);
	w += n;
	*w++ = ':';
	w = put_dec(w, r->line);
	*w++ = ' ';
	w = put_hex(w, r->address);
	if (sec) {
		*w++ = ' ';
		n = strlen(sec);
		memcpy(w, sec, n);
		w += n;
	}
	if (r->end_sequence) {
		memcpy(w, " end", 4);
		w += 4;
	}
	*w++ = '\n';
	out_commit(w);
	return 0;
}

/**
 * do_rows() - print every row (--rows)
 * @t: the tables, loaded
 *
 * One line a row, in program order: "path:line 0xaddr", then the section
 * of the sequence for a relocatable object, then "end" on the row that
 * ends a sequence.
 */
void do_rows(struct tables *t)
{
	struct rows_arg ra = { t, NULL };
	size_t i;

	for (i = 0; i < t->nunits; i++) {
		ra.u = &t->units[i];
		run_unit(t, ra.u, print_row, &ra);
	}
}

/**
 * parse_addr() - an address as -e takes it: hex, with or without 0x, blanks
 * around it allowed
 * @arg: the text
 * @a: set to the address
 *
 * Return: 1 for an address, 0 for anything else.
 */
int parse_addr(const char *arg, uint64_t *a)
{
	const char *p = arg;
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	errno = 0;
	*a = strtoull(p, &end, 16);
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	return end != p && !*end && !errno;
}

/* -a: the address @a on a line (as llvm-symbolizer -a prints it), or ?? */
void put_addr(int ok, uint64_t a)
{
	char buf[24];

	if (ok)
		snprintf(buf, sizeof(buf), "0x%" PRIx64 "\n", a);
	else
		snprintf(buf, sizeof(buf), "??\n");
	out_str(buf);
}

static void put_loc(struct tables *t, uint32_t file, uint32_t line)
{
	if (file == NOFILE) {
		out_str("??:0\n");
		return;
	}
	out_str(t->paths.show[file]);
	out_mem(":", 1);
	out_dec(line);
	out_mem("\n", 1);
}

static void answer(struct tables *t, struct row_set *c, struct row_index *ix,
		   const struct inlines *in, unsigned int how, const char *arg)
{
	const struct line_row *r = NULL;
	uint32_t file = NOFILE, line = 0, k = INL_NONE;
	uint64_t a;
	int ok = parse_addr(arg, &a);

	if (how & ADDR_SHOW)
		put_addr(ok, a);
	if (ok) {
		r = rows_lookup(c, ix, a + ix->base);
		if (in)
			k = inl_at(in, a + ix->base);
	}
	if (r && r->file != NOFILE) {
		file = r->file;
		line = r->line;
	}
	/*
	 * -i: the line inside the innermost function, then where each
	 * inlined function is called, in the function it is inlined into.
	 */
	for (;;) {
		const struct inl_node *n = k == INL_NONE ? NULL : &in->node[k];

		if (how & ADDR_NAMES) {
			out_str(n && n->name ? n->name : "??");
			out_mem("\n", 1);
		}
		put_loc(t, file, line);
		if (!n || n->parent == INL_NONE)
			break;
		file = n->call_file;
		line = n->call_line;
		k = n->parent;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* How the rows were clipped to the ranges of their units (see --stats). */
static void do_clip_stats(struct tables *t)
{
	static const char *const why[] = {
		[CLIP_ON] = "unit ranges",
		[CLIP_ALL_ROWS] = "off (--all-rows)",
		[CLIP_RELOCATABLE] = "off (relocatable)",
		[CLIP_NO_INFO] = "off (no .debug_info)",
	};
	size_t how[4] = { 0 }, k;

	for (k = 0; k < t->cus.n; k++)
		how[t->cus.cu[k].how]++;
	out_str("\nclip: ");
	out_str(why[t->clip]);
	out_str("\ninfo_units: ");
	out_dec(t->cus.n);
	out_str("\ninfo_units_ranges_aranges: ");
	out_dec(how[CU_ARANGES]);
	out_str("\ninfo_units_ranges_die: ");
	out_dec(how[CU_DIE]);
	out_str("\ninfo_units_ranges_none: ");
	out_dec(how[CU_NONE]);
	out_str("\ninfo_units_unreadable: ");
	out_dec(how[CU_UNREADABLE]);
	out_str("\ntables_clipped: ");
	out_dec(t->tables_clipped);
	out_str("\ntables_without_unit: ");
	out_dec(t->tables_without_unit);
	out_str("\nclip_rows_dropped: ");
	out_dec(t->clipst.rows_dropped);
	out_str("\nclip_rows_added: ");
	out_dec(t->clipst.rows_added);
	out_str("\nclip_sequences_dropped: ");
	out_dec(t->clipst.seqs_dropped);
	out_str("\nclip_sequences_split: ");
	out_dec(t->clipst.seqs_split);
}

/**
 * do_stats() - print counts of what was read (--stats)
 * @t: the tables, loaded
 *
 * "key: value" lines: the line tables, their rows, sequences, addresses and
 * files, the relocations applied, the units and how the rows were clipped
 * to their ranges, the strip prefixes.
 */
void do_stats(struct tables *t)
{
	static struct row_set cl;
	struct row_set *c = &cl;
	uint64_t *keys, used = 0, distinct = 0;
	size_t i, k = 0, ver[6] = { 0 }, osz[2] = { 0 };
	unsigned char *seen;
	char buf[64];
	int first;

	rows_collect(t, c);
	keys = xmalloc((c->nrows ? c->nrows : 1) * sizeof(*keys));
	for (i = 0; i < c->nseqs; i++) {
		const struct row_seq *s = &c->seqs[i];
		size_t j;

		/* ET_REL: sections all start at 0; count per section. */
		for (j = s->first; j + 1 < s->first + s->n; j++)
			keys[k++] = c->rows[j].addr ^ ((uint64_t)s->shndx << 48);
	}
	xqsort(keys, k, sizeof(*keys), cmp_u64);
	for (i = 0; i < k; i++)
		if (!i || keys[i] != keys[i - 1])
			distinct++;
	free(keys);
	seen = xcalloc(t->paths.n + 1, 1);
	for (i = 0; i < c->nrows; i++)
		if (c->rows[i].file != NOFILE && !seen[c->rows[i].file]) {
			seen[c->rows[i].file] = 1;
			used++;
		}
	free(seen);
	for (i = 0; i < t->nunits; i++) {
		ver[t->units[i].h.version]++;
		osz[t->units[i].h.offset_size == 8]++;
	}
	out_str("file: ");
	out_str(t->elf.path);
	out_str("\nelf: ");
	out_str(t->elf.is64 ? "ELF64" : "ELF32");
	out_str(t->elf.big ? " big-endian" : " little-endian");
	out_str(t->elf.type == ET_REL ? " relocatable" : " executable");
	out_str("\nbytes: ");
	out_dec(t->line->data_size);
	out_str("\nunits: ");
	out_dec(t->nunits);
	out_str("\nversions:");
	for (first = 1, i = 2; i <= 5; i++)
		if (ver[i]) {
			out_str(first ? " " : ",");
			out_dec(i);
			first = 0;
		}
	out_str("\noffset_sizes:");
	if (osz[0])
		out_str(" 4");
	if (osz[1])
		out_str(osz[0] ? ",8" : " 8");
	for (i = 2; i <= 5; i++) {
		snprintf(buf, sizeof(buf), "\nunits_v%zu: ", i);
		out_str(buf);
		out_dec(ver[i]);
	}
	out_str("\nunits_dwarf64: ");
	out_dec(osz[1]);
	out_str("\nrows: ");
	out_dec(c->nrows);
	out_str("\nsequences: ");
	out_dec(c->nseqs);
	out_str("\nunterminated_sequences: ");
	out_dec(c->unterminated + t->clipst.unterminated);
	out_str("\ndistinct_addresses: ");
	out_dec(distinct);
	out_str("\nfiles: ");
	out_dec(t->paths.n);
	out_str("\nfiles_with_rows: ");
	out_dec(used);
	out_str("\nrelocations_applied: ");
	out_dec(t->elf.nlrel);
	do_clip_stats(t);
	out_str("\nstrip:");
	for (i = 0; i < t->nstrip; i++) {
		out_str(" ");
		out_str(t->strip[i]);
	}
	out_str("\n");
}

/**
 * do_addrs() - answer for addresses, like addr2line -e (-e)
 * @t: the tables, loaded
 * @jsec: with -j: the section the addresses are offsets in, else NULL
 * @addrs: the addresses, hex with or without 0x
 * @how: ADDR_* flags: -i, the chain of inlined calls; -f, the function
 *	 names; -a, the address
 * @naddrs: their number; 0: one a line from stdin, each answer flushed
 *
 * One line an address: "path:line", or "??:0" where no row covers it.  In
 * a relocatable object @jsec selects the sequences of that section; in an
 * executable the addresses are offsets from its address, as in addr2line.
 * With -i, one line a level of inlined calls, innermost first; with -f,
 * each level's function name on a line before it; with -a, the address
 * on a line before the answer.
 */
void do_addrs(struct tables *t, const char *jsec, unsigned int how,
	      char **addrs, int naddrs)
{
	static struct row_set c;
	static struct inlines ins;
	struct inlines *in = NULL;
	struct row_index ix;
	int shndx = -1, i;
	uint64_t base = 0;

	rows_collect(t, &c);
	if (how & ADDR_INLINES) {
		read_inlines(t, &ins);
		in = &ins;
	}
	if (jsec) {
		shndx = elf_find(&t->elf, jsec);
		if (shndx < 0)
			die(t->elf.path, NULL, "no section %s", jsec);
		if (t->elf.type != ET_REL) {
			base = t->elf.sec[shndx].addr;
			shndx = -1;
		}
	}
	rows_index(&c, &ix, shndx);
	ix.base = base;
	if (naddrs) {
		for (i = 0; i < naddrs; i++)
			answer(t, &c, &ix, in, how, addrs[i]);
	} else {
		char line[256];

		while (fgets(line, sizeof(line), stdin)) {
			answer(t, &c, &ix, in, how, line);
			out_flush();
			fflush(out);
		}
	}
}

/* ---- lookups in the rows (-e, --table-check) ---- */

static int cmp_seq(const void *a, const void *b)
{
	const struct row_seq *x = *(struct row_seq *const *)a;
	const struct row_seq *y = *(struct row_seq *const *)b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x < y ? -1 : x > y;	/* keep program order */
}

void rows_index(struct row_set *c, struct row_index *ix, int shndx)
{
	size_t i;

	ix->s = xmalloc((c->nseqs ? c->nseqs : 1) * sizeof(*ix->s));
	ix->n = 0;
	ix->base = 0;
	for (i = 0; i < c->nseqs; i++)
		if (shndx < 0 || c->seqs[i].shndx == (uint32_t)shndx)
			ix->s[ix->n++] = &c->seqs[i];
	xqsort(ix->s, ix->n, sizeof(*ix->s), cmp_seq);
	ix->maxend = xmalloc((ix->n ? ix->n : 1) * sizeof(*ix->maxend));
	for (i = 0; i < ix->n; i++)
		ix->maxend[i] = i && ix->maxend[i - 1] > ix->s[i]->end ?
				ix->maxend[i - 1] : ix->s[i]->end;
}

/*
 * The row covering @a: in the sequence with the greatest start <= @a that
 * still contains it (start <= a < end), the last row at the greatest
 * address <= @a.  Past a sequence's end nothing is known.
 */
const struct line_row *rows_lookup(struct row_set *c, struct row_index *ix,
				   uint64_t a)
{
	size_t lo, i;

	LOWER_BOUND(lo, ix->n, ix->s[i]->start <= a);
	for (i = lo; i-- > 0 && ix->maxend[i] > a;) {
		const struct row_seq *s = ix->s[i];
		const struct line_row *r = c->rows + s->first, *best = NULL;
		size_t k, n = s->n - 1;		/* without the end row */

		if (a >= s->end || a < s->start)
			continue;
		if (s->sorted) {
			LOWER_BOUND(lo, n, r[i].addr <= a);
			return lo ? &r[lo - 1] : NULL;
		}
		for (k = 0; k < n; k++)
			if (r[k].addr <= a && (!best || r[k].addr >= best->addr))
				best = &r[k];
		return best;
	}
	return NULL;
}

/* ---- --inline-stats ---- */

static void stat_line(const char *key, uint64_t v)
{
	out_str(key);
	out_str(": ");
	out_dec(v);
	out_mem("\n", 1);
}

struct addr_loc {
	uint64_t addr;
	uint32_t file, line;
};

static int cmp_addr_loc(const void *a, const void *b)
{
	const struct addr_loc *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * The addresses of @c's rows where the answer changes: sorted by address,
 * a row that says what the row before it says is left out (as the tables
 * the kernel builds leave it out).  Returns how many; @all gets every
 * row's address, sorted, and @nall their number.
 */
static size_t answer_changes(struct row_set *c, uint64_t **keep,
			     uint64_t **all, size_t *nall)
{
	struct addr_loc *v = xalloc_array("rows", c->nrows ? c->nrows : 1,
					  sizeof(*v));
	size_t i, n = 0, k = 0;
	uint32_t pfile = 0, pline = 0;

	for (i = 0; i < c->nseqs; i++) {
		const struct row_seq *s = &c->seqs[i];
		size_t j;

		for (j = s->first; j < s->first + s->n; j++) {
			v[n].addr = c->rows[j].addr;
			/* an end of sequence: no file, no line */
			v[n].file = j + 1 == s->first + s->n ? NOFILE - 1 :
				    c->rows[j].file;
			v[n++].line = c->rows[j].line;
		}
	}
	xqsort(v, n, sizeof(*v), cmp_addr_loc);
	*all = xalloc_array("rows", n ? n : 1, sizeof(**all));
	*keep = xalloc_array("rows", n ? n : 1, sizeof(**keep));
	for (i = 0; i < n; i++) {
		(*all)[i] = v[i].addr;
		/* of rows at one address the last one answers */
		if (i + 1 < n && v[i + 1].addr == v[i].addr)
			continue;
		if (k && pfile == v[i].file && pline == v[i].line)
			continue;
		pfile = v[i].file;
		pline = v[i].line;
		(*keep)[k++] = v[i].addr;
	}
	*nall = n;
	free(v);
	return k;
}

static int has_addr(const uint64_t *v, size_t n, uint64_t a)
{
	size_t lo;

	LOWER_BOUND(lo, n, v[i] < a);
	return lo < n && v[lo] == a;
}

/**
 * do_inline_stats() - the inlined calls of an executable (--inline-stats)
 * @t: the tables, loaded
 *
 * Counts of the function instances, their ranges and the segments where
 * the innermost instance changes; the bytes at each depth; the distinct
 * call files and names of the inlined instances; and how many segment
 * starts are addresses of a row, and of a row where the answer changes.
 */
void do_inline_stats(struct tables *t)
{
	static struct row_set c;
	static struct inlines in;
	static struct paths names;
	uint64_t bytes[7] = { 0 }, *keep, *all, at_row = 0, at_keep = 0;
	unsigned char *fseen;
	size_t i, nall, nkeep, files = 0, segs = 0, inl_segs = 0;
	char key[32];

	rows_collect(t, &c);
	read_inlines(t, &in);
	nkeep = answer_changes(&c, &keep, &all, &nall);
	fseen = xcalloc(t->paths.n + 1, 1);
	for (i = 0; i < in.n; i++) {
		const struct inl_node *n = &in.node[i];

		if (n->parent == INL_NONE && !n->depth)
			continue;
		if (n->call_file != NOFILE && !fseen[n->call_file]) {
			fseen[n->call_file] = 1;
			files++;
		}
		if (n->name)
			path_intern(&names, xstrdup(n->name));
	}
	free(fseen);
	for (i = 0; i < in.nseg; i++) {
		const struct inl_seg *s = &in.seg[i];
		uint32_t d;

		if (s->node == INL_NONE)
			continue;
		segs++;
		d = in.node[s->node].depth;
		inl_segs += d > 0;
		if (i + 1 < in.nseg)
			bytes[d < 6 ? d : 6] += in.seg[i + 1].addr - s->addr;
	}
	/* where the innermost instance changes, function starts and ends too */
	for (i = 0; i < in.nseg; i++) {
		at_row += has_addr(all, nall, in.seg[i].addr);
		at_keep += has_addr(keep, nkeep, in.seg[i].addr);
	}
	stat_line("functions", in.n);
	stat_line("inlined", in.inlined);
	stat_line("unnamed", in.unnamed);
	stat_line("ranges", in.nranges);
	stat_line("units_unreadable", in.units_unreadable);
	stat_line("max_depth", in.max_depth);
	stat_line("inlined_call_files", files);
	stat_line("inlined_names", names.n);
	stat_line("segments", segs);
	stat_line("segments_inlined", inl_segs);
	for (i = 0; i < 7; i++) {
		snprintf(key, sizeof(key), i == 6 ? "bytes_depth_6+" :
			 "bytes_depth_%zu", i);
		stat_line(key, bytes[i]);
	}
	stat_line("changes", in.nseg);
	stat_line("changes_at_rows", at_row);
	stat_line("rows", nall);
	stat_line("rows_changing_answer", nkeep);
	stat_line("changes_at_rows_changing_answer", at_keep);
	free(keep);
	free(all);
}
