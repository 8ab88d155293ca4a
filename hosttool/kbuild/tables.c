// SPDX-License-Identifier: GPL-2.0
/*
 * tables.c - lineloc's line tables
 *
 * Pass 1 (load_tables()) reads every line table's header and file table
 * with dwarf_line.c, resolves and interns the paths (joined to the
 * compilation directory of the unit that owns the table), picks the
 * prefixes stripped from them, and gives each table the address ranges of
 * its units.  Pass 2 (run_unit()) runs a table's line program and passes
 * its rows on, clipped to those ranges.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "tables.h"
#include <linux/lineloc/module.h>

static struct unit *cur_unit;
static struct paths *cur_paths;
static struct paths *cur_dirs;
static struct tables *cur_tables;
static void set_shown(struct tables *t, size_t from);

static void dwl_die(struct tables *t, int err)
{
	char what[160];

	if (-err == LINELOC_DW_E_VERSION || -err == LINELOC_DW_E_ADDR_SIZE ||
	    -err == LINELOC_DW_E_FORM || -err == LINELOC_DW_E_SEG_SEL ||
	    -err == LINELOC_DW_E_STR_OFFSET || -err == LINELOC_DW_E_FORMAT_COUNT)
		snprintf(what, sizeof(what), "%s (0x%" PRIx64 ")",
			 lineloc_dwarf_strerror(err), t->ctx.err_val);
	else
		snprintf(what, sizeof(what), "%s", lineloc_dwarf_strerror(err));
	die(t->elf.path, sec_at(".debug_line", t->ctx.err_off), "%s", what);
}

static int add_dir(void *arg, const struct lineloc_dwarf_entry *e)
{
	struct unit *u = arg;
	const char *p = e->path ? e->path : "";
	uint32_t id;
	char *d;

	/*
	 * Directory 0 is the compilation directory itself: DWARF 5 names it,
	 * DWARF 2-4 has it from the unit (load_tables()).  Joined to itself, a
	 * relative one would be doubled.
	 */
	if (e->index == 0) {
		d = xstrdup(p);
		if (*d)
			lineloc_normalize(d);
	} else {
		d = path_join(u->comp_dir, p);
	}
	/* Interned: equal directories share one pointer (see add_file). */
	id = path_intern(cur_dirs, d);
	d = cur_dirs->str[id];
	if (u->h.version >= 5 && e->index == 0)
		u->comp_dir = d;
	u->dirs = grow(u->dirs, &u->dcap, u->ndirs + 1, sizeof(*u->dirs));
	u->dirs[u->ndirs++] = d;
	return 0;
}

/*
 * A kernel's units share most of their files: the 2,172 units of Debian's
 * vmlinux list 328,000 entries for 4,334 paths.  With DW_FORM_line_strp the
 * same name is the same pointer, and directories are interned, so the pair
 * (directory, name pointer) finds the path id without joining, normalising
 * and hashing the string again.
 */
struct file_key {
	const char *dir, *name;
	uint32_t id;
};

static struct file_key *fcache;
static size_t fcache_cap, fcache_n;

static size_t fkey_hash(const char *dir, const char *name)
{
	uint64_t h = (uint64_t)(uintptr_t)dir * 0x9e3779b97f4a7c15ull ^
		     (uint64_t)(uintptr_t)name * 0xc2b2ae3d27d4eb4full;

	return (size_t)(h ^ h >> 29);
}

static uint32_t file_id(const char *dir, const char *name)
{
	size_t i, mask;

	if (fcache_n * 2 >= fcache_cap) {
		struct file_key *old = fcache;
		size_t j, ocap = fcache_cap;

		fcache_cap = ocap ? ocap * 2 : 4096;
		fcache = xcalloc(fcache_cap, sizeof(*fcache));
		for (j = 0; j < ocap; j++) {
			if (!old[j].name)
				continue;
			i = fkey_hash(old[j].dir, old[j].name) & (fcache_cap - 1);
			while (fcache[i].name)
				i = (i + 1) & (fcache_cap - 1);
			fcache[i] = old[j];
		}
		free(old);
	}
	mask = fcache_cap - 1;
	i = fkey_hash(dir, name) & mask;
	while (fcache[i].name) {
		if (fcache[i].dir == dir && fcache[i].name == name)
			return fcache[i].id;
		i = (i + 1) & mask;
	}
	fcache[i].dir = dir;
	fcache[i].name = name;
	fcache[i].id = path_intern(cur_paths, path_join(dir, name));
	fcache_n++;
	return fcache[i].id;
}

static int add_file(void *arg, const struct lineloc_dwarf_entry *e)
{
	struct unit *u = arg;
	const char *dir = e->dir_index < u->ndirs ? u->dirs[e->dir_index] :
			  u->comp_dir;
	uint32_t id = file_id(dir, e->path ? e->path : "??");

	while (u->nfiles < e->index) {		/* v2-4 index 0: no file */
		u->files = grow(u->files, &u->fcap, u->nfiles + 1,
				sizeof(*u->files));
		u->files[u->nfiles++] = NOFILE;
	}
	u->files = grow(u->files, &u->fcap, u->nfiles + 1, sizeof(*u->files));
	u->files[u->nfiles++] = id;
	return 0;
}

static int define_file(void *arg, const struct lineloc_dwarf_entry *e)
{
	size_t before = cur_tables->paths.n;

	(void)arg;
	add_file(cur_unit, e);
	set_shown(cur_tables, before);
	return 0;
}

static int cmp_len_desc(const void *a, const void *b)
{
	size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);

	return x > y ? -1 : x < y;
}

/**
 * add_strip() - add a prefix to strip from the paths printed
 * @t: the tables
 * @prefix: the prefix; trailing slashes do not matter, an empty one (or
 *          "/") is ignored, and so is one already added
 */
void add_strip(struct tables *t, const char *prefix)
{
	size_t n = strlen(prefix), i;
	char *p;

	while (n > 1 && prefix[n - 1] == '/')
		n--;
	if (!n)
		return;
	p = xmalloc(n + 2);
	memcpy(p, prefix, n);
	p[n] = '/';
	p[n + 1] = 0;
	for (i = 0; i < t->nstrip; i++)
		if (!strcmp(t->strip[i], p)) {
			free(p);
			return;
		}
	t->strip = xrealloc(t->strip, (t->nstrip + 1) * sizeof(*t->strip));
	t->strip[t->nstrip++] = p;
}

/* Length of the strip prefix @s starts with, 0 if none. */
static size_t strip_len(const struct tables *t, const char *s)
{
	size_t j, best = 0;

	for (j = 0; j < t->nstrip; j++) {
		size_t n = strlen(t->strip[j]);

		if (n > best && !strncmp(s, t->strip[j], n) && s[n])
			best = n;
	}
	return best;
}

/*
 * A kernel is recognised by its headers: whatever precedes "include/linux/"
 * in a path (other than the host's /usr/include) is a root of the source or
 * object tree.  Those roots and the compilation directories are stripped, so
 * kernel/panic.c and include/generated/autoconf.h print relative whether
 * the tree was absolute (/build/linux-6.1/...) or prefix-mapped to a
 * relative object directory (Debian: debian/build/build_amd64_.../).
 */
static void auto_strip(struct tables *t)
{
	static const char mark[] = "include/linux/";
	size_t i, kernel = 0;

	for (i = 0; i < t->paths.n; i++) {
		const char *s = t->paths.str[i], *m = s;
		char *root;

		while ((m = strstr(m, mark)) && m != s && m[-1] != '/')
			m++;
		if (!m || lineloc_host_include(s, (size_t)(m - s)))
			continue;
		kernel = 1;
		if (m == s)
			continue;
		root = xmalloc((size_t)(m - s) + 1);
		memcpy(root, s, (size_t)(m - s));
		root[m - s] = 0;
		add_strip(t, root);
		free(root);
	}
	if (!kernel)
		return;
	for (i = 0; i < t->nunits; i++)
		if (t->units[i].comp_dir && t->units[i].comp_dir[0])
			add_strip(t, t->units[i].comp_dir);
	/*
	 * Assembler units list only .S files, with no header to learn the
	 * root from: in a kernel, what precedes "arch/" is the root too.
	 */
	for (i = 0; i < t->paths.n; i++) {
		const char *s = t->paths.str[i], *m = strstr(s, "/arch/");
		char *root;

		if (*s != '/' || !m || strip_len(t, s))
			continue;
		root = xmalloc((size_t)(m - s) + 2);
		memcpy(root, s, (size_t)(m - s) + 1);
		root[m - s + 1] = 0;
		add_strip(t, root);
		free(root);
	}
}

static void set_shown(struct tables *t, size_t from)
{
	size_t i;

	t->paths.show = xrealloc(t->paths.show,
				 (t->paths.cap ? t->paths.cap : 1) *
				 sizeof(*t->paths.show));
	t->paths.showlen = xrealloc(t->paths.showlen,
				    (t->paths.cap ? t->paths.cap : 1) *
				    sizeof(*t->paths.showlen));
	for (i = from; i < t->paths.n; i++) {
		const char *s = t->paths.str[i];

		t->paths.show[i] = s + strip_len(t, s);
		t->paths.showlen[i] = strlen(t->paths.show[i]);
	}
}

static void need_cus(struct tables *t)
{
	if (t->cus_read)
		return;
	t->cus_read = 1;
	read_units(&t->elf, &t->cus);
	t->by_stmt = units_by_stmt(&t->cus);
}

/**
 * tables_units() - the units of .debug_info, read once
 * @t: the tables
 *
 * Return: the units, with their address ranges.
 */
struct cus *tables_units(struct tables *t)
{
	need_cus(t);
	return &t->cus;
}

static const char *find_comp_dir(struct tables *t, uint64_t stmt)
{
	const struct cus *cs = &t->cus;
	size_t k = first_for_stmt(cs, t->by_stmt, stmt);

	for (; k < cs->n && cs->cu[t->by_stmt[k]].stmt_list == stmt; k++)
		if (cs->cu[t->by_stmt[k]].comp_dir)
			return cs->cu[t->by_stmt[k]].comp_dir;
	return NULL;
}

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/*
 * Give each line table the address ranges of the units that point at it,
 * sorted and merged.  A table is clipped to them unless one of its units
 * could not be read; a table no unit points at has no ranges (no address
 * reaches it in llvm-symbolizer either), unless some unit could not be read
 * far enough to know where it points.
 */
static void assign_ranges(struct tables *t, int all_rows)
{
	const struct cus *cs = &t->cus;
	size_t i, k, j;

	if (all_rows)
		t->clip = CLIP_ALL_ROWS;
	else if (t->elf.type == ET_REL)
		t->clip = CLIP_RELOCATABLE;
	else if (elf_find(&t->elf, ".debug_info") < 0)
		t->clip = CLIP_NO_INFO;
	else
		t->clip = CLIP_ON;
	if (t->clip != CLIP_ON)
		return;
	need_cus(t);
	for (i = 0; i < t->nunits; i++) {
		struct unit *u = &t->units[i];
		size_t first = t->nrg, n;
		int owned = 0, unreadable = 0;

		k = first_for_stmt(cs, t->by_stmt, u->h.offset);
		for (; k < cs->n && cs->cu[t->by_stmt[k]].stmt_list ==
		     u->h.offset; k++) {
			size_t c = t->by_stmt[k];

			owned = 1;
			unreadable |= cs->cu[c].how == CU_UNREADABLE;
			for (j = first_range(cs, c); j < cs->nr && cs->r[j].cu == c;
			     j++) {
				t->rg = grow(t->rg, &t->rgcap, t->nrg + 1,
					     sizeof(*t->rg));
				t->rg[t->nrg].lo = cs->r[j].lo;
				t->rg[t->nrg++].hi = cs->r[j].hi;
			}
		}
		/* Sorted, then overlapping and touching ranges merged. */
		if (t->nrg > first)
			xqsort(t->rg + first, t->nrg - first, sizeof(*t->rg),
			       cmp_range);
		for (j = first, n = first; j < t->nrg; j++) {
			if (n > first && t->rg[j].lo <= t->rg[n - 1].hi) {
				if (t->rg[j].hi > t->rg[n - 1].hi)
					t->rg[n - 1].hi = t->rg[j].hi;
			} else {
				t->rg[n++] = t->rg[j];
			}
		}
		t->nrg = n;
		u->rfirst = first;
		u->nranges = n - first;
		u->clip = !unreadable && (owned || cs->complete);
		t->tables_without_unit += !owned;
		t->tables_clipped += u->clip;
	}
}

/**
 * load_tables() - open a file and read its line tables' headers
 * @t: the tables, zeroed but for add_strip()'s prefixes
 * @path: the file
 * @mode: which prefixes are stripped from the paths
 * @all_rows: no clipping to unit ranges
 *
 * Pass 1: every header and file table, the paths and the strip prefixes,
 * then the address ranges each table is clipped to; the line programs run
 * later, in run_unit().  Errors in .debug_line are fatal.
 */
void load_tables(struct tables *t, const char *path, enum strip_mode mode,
		 int all_rows)
{
	uint64_t off = 0;
	size_t cap = 0;
	int err;
	struct section *s;

	elf_open(&t->elf, path);
	t->line = elf_load(&t->elf, ".debug_line", 1, 1);
	if (!t->line)
		die(path, NULL, "no .debug_line section");
	memset(&t->ctx, 0, sizeof(t->ctx));
	t->ctx.line = t->line->data;
	t->ctx.line_size = t->line->data_size;
	t->ctx.big_endian = t->elf.big;
	s = elf_load(&t->elf, ".debug_line_str", 1, 0);
	if (s) {
		t->ctx.line_str = s->data;
		t->ctx.line_str_size = s->data_size;
	}
	s = elf_load(&t->elf, ".debug_str", 0, 0);
	if (s) {
		t->ctx.str = s->data;
		t->ctx.str_size = s->data_size;
	}
	cur_paths = &t->paths;
	cur_dirs = &t->dirs;
	while (off < t->ctx.line_size) {
		struct unit *u;

		t->units = grow(t->units, &cap, t->nunits + 1, sizeof(*t->units));
		u = &t->units[t->nunits];
		memset(u, 0, sizeof(*u));
		err = lineloc_dwarf_parse_header(&t->ctx, off, &u->h);
		if (err)
			dwl_die(t, err);
		t->nunits++;
		if (u->h.version < 5) {
			need_cus(t);
			u->comp_dir = find_comp_dir(t, off);
			add_dir(u, &(struct lineloc_dwarf_entry){ .path = u->comp_dir });
		}
		err = lineloc_dwarf_entries(&t->ctx, &u->h, LINELOC_DW_DIRS, add_dir, u);
		if (!err)
			err = lineloc_dwarf_entries(&t->ctx, &u->h, LINELOC_DW_FILES,
						    add_file, u);
		if (err)
			dwl_die(t, err);
		off = u->h.end;
	}
	if (mode == STRIP_AUTO)
		auto_strip(t);
	xqsort(t->strip, t->nstrip, sizeof(*t->strip), cmp_len_desc);
	set_shown(t, 0);
	assign_ranges(t, all_rows);
}

/* ---- clipping rows to the address ranges of their unit ---- */

/*
 * llvm-symbolizer and addr2line answer only for addresses inside a unit's
 * ranges, then look the address up in that unit's line table.  A sequence
 * can reach past its unit's ranges: arm64's ALTERNATIVE puts replacement
 * code in ".subsection 1", after the function's DW_AT_high_pc and inside
 * the span of its last row.  So each sequence is cut to the ranges: a run
 * of rows that leaves a range ends with an end row at the range's end, and
 * resumes as a new sequence at the next range's start with the row that
 * covers it.  "Last row at or below A, nothing past an end" then gives the
 * oracle's answer for every address.  A sequence inside one range is passed
 * on unchanged.
 */

/* A row of the sequence being collected. */
struct crow {
	uint64_t addr, file, line;
	size_t idx;		/* program order, to sort out-of-order rows */
};

struct clip {
	int (*row)(void *arg, const struct lineloc_dwarf_row *r);
	void *arg;
	const struct range *rg;
	size_t nr;
	struct crow *b;
	size_t n, cap;
	bool unsorted;		/* a row below the one before it */
	struct lineloc_dwarf_row out;
	struct clip_stats *st;
};

static void clip_emit(struct clip *c, uint64_t addr, uint64_t file,
		      uint64_t line, bool end)
{
	c->out.address = addr;
	c->out.file = file;
	c->out.line = line;
	c->out.end_sequence = end;
	c->row(c->arg, &c->out);
}

static int cmp_crow(const void *a, const void *b)
{
	const struct crow *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* First row at an address above @a (rows sorted). */
static size_t crow_above(const struct crow *b, size_t n, uint64_t a)
{
	size_t lo;

	LOWER_BOUND(lo, n, b[i].addr <= a);
	return lo;
}

/* First range whose end is above @a. */
static size_t range_above(const struct range *rg, size_t nr, uint64_t a)
{
	size_t lo;

	LOWER_BOUND(lo, nr, rg[i].hi <= a);
	return lo;
}

/* The sequence in c->b ends with @end: pass on what lies inside the ranges. */
static void clip_sequence(struct clip *c, const struct lineloc_dwarf_row *end)
{
	struct crow *b = c->b;
	size_t n = c->n, i, j, x, last = 0, kept = 0, pieces = 0;
	uint64_t start, stop = end->address, s, e;
	bool sorted = !c->unsorted && (!n || b[n - 1].addr <= stop);

	c->n = 0;
	c->unsorted = false;
	if (!sorted)
		xqsort(b, n, sizeof(*b), cmp_crow);
	start = n ? b[0].addr : stop;
	j = range_above(c->rg, c->nr, start);
	if (sorted && start <= stop && j < c->nr && c->rg[j].lo <= start &&
	    stop <= c->rg[j].hi) {
		for (i = 0; i < n; i++)
			clip_emit(c, b[i].addr, b[i].file, b[i].line, false);
		c->row(c->arg, end);
		return;
	}
	for (; start < stop && j < c->nr && c->rg[j].lo < stop; j++) {
		s = c->rg[j].lo > start ? c->rg[j].lo : start;
		e = c->rg[j].hi < stop ? c->rg[j].hi : stop;
		if (s >= e)
			continue;
		i = crow_above(b, n, s) - 1;	/* b[0].addr <= s: i >= 0 */
		if (b[i].addr < s) {
			/* The row covering the range's start, moved to it. */
			clip_emit(c, s, b[i].file, b[i].line, false);
			c->st->rows_added++;
			last = i;
			x = i + 1;
		} else {
			for (x = i; x > 0 && b[x - 1].addr == s; x--)
				;
		}
		for (; x < n && b[x].addr < e; x++) {
			clip_emit(c, b[x].addr, b[x].file, b[x].line, false);
			kept++;
			last = x;
		}
		if (e == stop)
			c->row(c->arg, end);
		else
			clip_emit(c, e, b[last].file, b[last].line, true);
		pieces++;
	}
	c->st->rows_dropped += n - kept;
	if (pieces)
		c->st->seqs_split++;
	else
		c->st->seqs_dropped++;
}

static int clip_row(void *arg, const struct lineloc_dwarf_row *r)
{
	struct clip *c = arg;
	struct crow *w;

	if (r->end_sequence) {
		clip_sequence(c, r);
		return 0;
	}
	if (c->n == c->cap)
		c->b = grow(c->b, &c->cap, c->n + 1, sizeof(*c->b));
	if (c->n && r->address < c->b[c->n - 1].addr)
		c->unsorted = true;
	w = &c->b[c->n];
	w->addr = r->address;
	w->file = r->file;
	w->line = r->line;
	w->idx = c->n++;
	return 0;
}

/**
 * run_unit() - run one unit's line program
 * @t: the tables
 * @u: the unit, one of @t->units
 * @row: called for each row, clipped to the unit's ranges if @t clips it
 * @arg: @row's first argument
 *
 * DW_LNE_define_file paths get their shown form at once.  Errors in the
 * program are fatal.
 */
void run_unit(struct tables *t, struct unit *u,
	      int (*row)(void *, const struct lineloc_dwarf_row *), void *arg)
{
	struct lineloc_dwarf_ops ops = { row, define_file };
	static struct clip c;
	int err;

	cur_unit = u;
	cur_tables = t;
	if (t->clip == CLIP_ON && u->clip) {
		c.row = row;
		c.arg = arg;
		c.rg = t->rg ? t->rg + u->rfirst : NULL;	/* none: NULL + 0 */
		c.nr = u->nranges;
		c.n = 0;
		c.unsorted = false;
		memset(&c.out, 0, sizeof(c.out));
		c.out.set_address_offset = ~(uint64_t)0;
		c.st = &t->clipst;
		ops.row = clip_row;
		arg = &c;
	}
	err = lineloc_dwarf_run(&t->ctx, &u->h, &ops, arg);
	if (err)
		dwl_die(t, err);
	if (ops.row == clip_row && c.n) {
		/* No end_sequence: it covers nothing. */
		t->clipst.unterminated++;
		t->clipst.rows_dropped += c.n;
	}
}

/**
 * seq_section() - the section of a sequence of a relocatable object
 * @t: the tables
 * @set_addr_off: .debug_line offset of the sequence's DW_LNE_set_address
 *                operand, ~0 if none
 *
 * Return: the name of the section its relocation points into, "*ABS*" if
 * none, or NULL if the file is not a relocatable object.
 */
const char *seq_section(struct tables *t, uint64_t set_addr_off)
{
	uint32_t shndx;

	if (t->elf.type != ET_REL)
		return NULL;
	shndx = set_addr_off == ~(uint64_t)0 ? 0 :
		lrel_shndx(&t->elf, set_addr_off);
	return shndx && shndx < t->elf.shnum ? t->elf.sec[shndx].name : "*ABS*";
}
