// SPDX-License-Identifier: GPL-2.0
/*
 * dwrows - the rows lineloc keeps, read through elfutils' libdw: a third
 * oracle for hosttool/lineloc (beside llvm-dwarfdump and addr2line) and
 * the benchmark of "why not libdw" (tests/libdw/compare.sh, bench.sh).
 *
 *   dwrows VMLINUX      one row a line, as "lineloc --rows VMLINUX" prints
 *                       them: "path:line 0xaddr", " end" on a sequence's end
 *
 * Everything DWARF is libdw's: the units (dwarf_nextcu), their address
 * ranges (dwarf_ranges), the line tables (dwarf_getsrclines, dwarf_lineaddr,
 * dwarf_lineno, dwarf_lineendsequence, dwarf_line_file) and their files
 * and directories (dwarf_getsrcfiles, dwarf_filesrc, dwarf_getsrcdirs).
 * What lineloc adds to a table's rows is written here again from its
 * description (hosttool/README.md: "Clipping to unit ranges", "What it
 * reads"), not from its code; each rule is stated where it is applied.
 *
 * Rows come out per line table (ascending .debug_line offset), a table's
 * sequences in address order (libdw's order), not lineloc's program order:
 * compare the two sorted.
 *
 * Where libdw's output cannot say what lineloc sees (known differences,
 * none of which occurs in the matrix's kernels or Debian's):
 *  - libdw sorts a table's rows by address; a sequence whose rows go
 *    backwards is clipped by lineloc the slow way, which drops rows at the
 *    sequence's end address; here every sequence looks sorted.
 *  - libdw marks the last row of a table as an end of sequence when the
 *    program did not (an unterminated sequence, which lineloc drops).
 *  - a table no unit points at is not reached through libdw's units
 *    (lineloc drops it too, but reads its file names for the strip rule).
 *  - a DWARF 2-4 table whose DW_AT_comp_dir is relative: lineloc joins the
 *    compilation directory to itself for directory 0 ("a/b" becomes
 *    "a/b/a/b"), here it is joined once.
 */
#define _POSIX_C_SOURCE 200809L
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOFILE UINT32_MAX

static const char *file;

static void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "dwrows: %s: ", file ? file : "?");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* A libdw call that failed: what was asked, and libdw's reason. */
static void die_dw(const char *what)
{
	die("libdw: %s: %s", what, dwarf_errmsg(-1));
}

static void *xrealloc(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		die("out of memory (%zu x %zu bytes)", n, size);
	p = realloc(p, n && size ? n * size : 1);
	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

/* Room for @need elements in *@p, of which *@cap are allocated. */
static void *reserve(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 64;
	if (*cap < need)
		*cap = need;
	return xrealloc(p, *cap, size);
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n, 1), s, n);
}

/* ---- paths ------------------------------------------------------------- */

/*
 * Lexical normalisation, lineloc's documented rule: empty and "."
 * components go; ".." removes the component before it, unless there is
 * none or that one is ".." too, where a relative path keeps it and an
 * absolute one drops it ("/.." is "/"); an empty relative result is ".".
 * Nothing is looked up in the file system.
 */
static char *normalize(const char *in)
{
	size_t len = strlen(in), o = 0, nseg = 0, i = 0;
	char *out = xrealloc(NULL, len + 2, 1);
	size_t *segs = xrealloc(NULL, len / 2 + 2, sizeof(*segs));
	bool abs = in[0] == '/';
	size_t base = abs;	/* where the first component goes */

	if (abs)
		out[o++] = '/';
	while (i < len) {
		size_t s = i, n;

		while (i < len && in[i] != '/')
			i++;
		n = i - s;
		i++;
		if (!n || (n == 1 && in[s] == '.'))
			continue;
		if (n == 2 && in[s] == '.' && in[s + 1] == '.') {
			size_t last = nseg ? segs[nseg - 1] : 0;

			if (nseg && !(o - last == 2 && out[last] == '.' &&
				      out[last + 1] == '.')) {
				/* the component before goes, with its '/' */
				o = segs[--nseg];
				if (o > base)
					o--;
				continue;
			}
			if (abs)
				continue;
		}
		if (o > base)
			out[o++] = '/';
		segs[nseg++] = o;
		memcpy(out + o, in + s, n);
		o += n;
	}
	out[o] = 0;
	free(segs);
	if (!o)
		strcpy(out, ".");
	return out;
}

/* "@dir/@name", normalised; @name alone if absolute or @dir is empty. */
static char *join(const char *dir, const char *name)
{
	size_t dl = dir ? strlen(dir) : 0, nl = strlen(name);
	char *p, *r;

	if (name[0] == '/' || !dl)
		return normalize(name);
	p = xrealloc(NULL, dl + nl + 2, 1);
	memcpy(p, dir, dl);
	p[dl] = '/';
	memcpy(p + dl + 1, name, nl + 1);
	r = normalize(p);
	free(p);
	return r;
}

/* The distinct paths, ids in the order first seen. */
static char **paths;
static size_t npaths, paths_cap;
static uint32_t *hash;		/* id + 1, 0 empty */
static size_t hash_cap;

static size_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return (size_t)(h ^ h >> 32);
}

/* The id of path @s, which is taken over. */
static uint32_t intern(char *s)
{
	size_t i;

	if ((npaths + 1) * 2 > hash_cap) {
		size_t ncap = hash_cap ? hash_cap * 2 : 4096, k;

		free(hash);
		hash = calloc(ncap, sizeof(*hash));
		if (!hash)
			die("out of memory (path table)");
		hash_cap = ncap;
		for (k = 0; k < npaths; k++) {
			i = str_hash(paths[k]) & (ncap - 1);
			while (hash[i])
				i = (i + 1) & (ncap - 1);
			hash[i] = (uint32_t)k + 1;
		}
	}
	i = str_hash(s) & (hash_cap - 1);
	while (hash[i]) {
		if (!strcmp(paths[hash[i] - 1], s)) {
			free(s);
			return hash[i] - 1;
		}
		i = (i + 1) & (hash_cap - 1);
	}
	paths = reserve(paths, &paths_cap, npaths + 1, sizeof(*paths));
	paths[npaths] = s;
	hash[i] = (uint32_t)npaths + 1;
	return (uint32_t)npaths++;
}

/* ---- what is stripped from the paths printed ---------------------------- */

static char **strip;		/* each ends with '/' */
static size_t nstrip, strip_cap;

/* Trailing slashes do not count; an empty prefix (or "/") is none. */
static void add_strip(const char *prefix)
{
	size_t n = strlen(prefix), k;
	char *p;

	while (n && prefix[n - 1] == '/')
		n--;
	if (!n)
		return;
	p = xrealloc(NULL, n + 2, 1);
	memcpy(p, prefix, n);
	p[n] = '/';
	p[n + 1] = 0;
	for (k = 0; k < nstrip; k++)
		if (!strcmp(strip[k], p)) {
			free(p);
			return;
		}
	strip = reserve(strip, &strip_cap, nstrip + 1, sizeof(*strip));
	strip[nstrip++] = p;
}

/* The length of the longest prefix @s starts with and goes on after. */
static size_t stripped(const char *s)
{
	size_t k, best = 0;

	for (k = 0; k < nstrip; k++) {
		size_t n = strlen(strip[k]);

		if (n > best && !strncmp(s, strip[k], n) && s[n])
			best = n;
	}
	return best;
}

/* ---- units and line tables ---------------------------------------------- */

struct range {
	uint64_t lo, hi;
};

/* A line table, and the units whose DW_AT_stmt_list points at it. */
struct table {
	uint64_t stmt;
	Dwarf_Die cudie;	/* the first such unit (lowest offset) */
	struct range *rg;	/* their ranges, sorted and merged */
	size_t nrg, rgcap;
	bool unreadable;	/* one of them has ranges libdw cannot read */
	uint32_t *file;		/* file index -> path id (NOFILE) */
	size_t nfiles;
};

static struct table *tabs;
static size_t ntabs;

struct unit {
	uint64_t stmt, off;
};

static int cmp_unit(const void *a, const void *b)
{
	const struct unit *x = a, *y = b;

	if (x->stmt != y->stmt)
		return x->stmt < y->stmt ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/*
 * A unit's ranges, libdw's reading of DW_AT_low_pc/high_pc or DW_AT_ranges
 * (.debug_ranges or .debug_rnglists).  An empty range covers nothing.  A
 * list libdw cannot read leaves the table unclipped, lineloc's rule for a
 * unit it cannot read.
 */
static void unit_ranges(struct table *t, Dwarf_Die *cudie)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	size_t first = t->nrg;

	while ((off = dwarf_ranges(cudie, off, &base, &lo, &hi)) > 0) {
		if (lo >= hi)
			continue;
		t->rg = reserve(t->rg, &t->rgcap, t->nrg + 1, sizeof(*t->rg));
		t->rg[t->nrg].lo = lo;
		t->rg[t->nrg++].hi = hi;
	}
	if (off < 0) {
		t->nrg = first;
		t->unreadable = true;
	}
}

/* Sorted; ranges that overlap or touch become one. */
static void merge_ranges(struct table *t)
{
	size_t i, n = 0;

	if (!t->nrg)
		return;
	qsort(t->rg, t->nrg, sizeof(*t->rg), cmp_range);
	for (i = 0; i < t->nrg; i++) {
		if (n && t->rg[i].lo <= t->rg[n - 1].hi) {
			if (t->rg[i].hi > t->rg[n - 1].hi)
				t->rg[n - 1].hi = t->rg[i].hi;
		} else {
			t->rg[n++] = t->rg[i];
		}
	}
	t->nrg = n;
}

/* Every unit of .debug_info with a line table; one table per offset. */
static void read_units(Dwarf *dw)
{
	struct unit *u = NULL;
	size_t nu = 0, ucap = 0, hsize, i;
	Dwarf_Off off = 0, next;
	int rc;

	while ((rc = dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL,
				  NULL)) == 0) {
		Dwarf_Attribute attr;
		Dwarf_Die die;
		Dwarf_Word stmt;

		if (!dwarf_offdie(dw, off + hsize, &die))
			die_dw("the first DIE of a unit (dwarf_offdie)");
		if (dwarf_attr(&die, DW_AT_stmt_list, &attr) &&
		    dwarf_formudata(&attr, &stmt) == 0) {
			u = reserve(u, &ucap, nu + 1, sizeof(*u));
			u[nu].stmt = stmt;
			u[nu++].off = off + hsize;
		}
		off = next;
	}
	if (rc < 0)
		die_dw("the units of .debug_info (dwarf_nextcu)");
	if (nu)
		qsort(u, nu, sizeof(*u), cmp_unit);
	tabs = xrealloc(NULL, nu ? nu : 1, sizeof(*tabs));
	for (i = 0; i < nu; i++) {
		struct table *t;
		Dwarf_Die die;

		if (!ntabs || tabs[ntabs - 1].stmt != u[i].stmt) {
			t = &tabs[ntabs++];
			memset(t, 0, sizeof(*t));
			t->stmt = u[i].stmt;
			if (!dwarf_offdie(dw, u[i].off, &t->cudie))
				die_dw("a unit's DIE (dwarf_offdie)");
		}
		t = &tabs[ntabs - 1];
		if (!dwarf_offdie(dw, u[i].off, &die))
			die_dw("a unit's DIE (dwarf_offdie)");
		unit_ranges(t, &die);
	}
	for (i = 0; i < ntabs; i++)
		merge_ranges(&tabs[i]);
	free(u);
}

/*
 * A table's file names as lineloc resolves them: the name joined to its
 * directory, a relative directory joined to the compilation directory
 * (DWARF 5: directory 0; 2-4: the unit's DW_AT_comp_dir), normalised.
 * libdw joins the name to its directory, not a relative directory to
 * directory 0: a relative result is joined to directory 0 here, unless it
 * already starts with it (a file of directory 0 itself).  libdw names
 * DWARF 2-4's file 0, which does not exist, "???": lineloc prints "??".
 * Returns directory 0 (for the strip rule), NULL if none.
 */
static char *table_files(struct table *t)
{
	const char *const *dirs;
	const char *dir0 = NULL, *name0;
	Dwarf_Files *files;
	size_t nfiles, ndirs, i, d0len = 0;
	bool v5;
	char msg[96];

	snprintf(msg, sizeof(msg), "the file table at .debug_line+0x%" PRIx64,
		 t->stmt);
	if (dwarf_getsrcfiles(&t->cudie, &files, &nfiles))
		die_dw(msg);
	if (dwarf_getsrcdirs(files, &dirs, &ndirs))
		die_dw(msg);
	if (ndirs && dirs[0] && dirs[0][0]) {
		dir0 = dirs[0];
		d0len = strlen(dir0);
	}
	/* libdw's "???" is its stand-in for DWARF 2-4's missing file 0 */
	name0 = nfiles ? dwarf_filesrc(files, 0, NULL, NULL) : NULL;
	v5 = !name0 || strcmp(name0, "???");
	t->file = xrealloc(NULL, nfiles ? nfiles : 1, sizeof(*t->file));
	t->nfiles = nfiles;
	for (i = 0; i < nfiles; i++) {
		const char *n = dwarf_filesrc(files, i, NULL, NULL);

		if (!n || (!v5 && i == 0)) {
			t->file[i] = NOFILE;
			continue;
		}
		if (n[0] != '/' && dir0 && dir0[0] != '/' &&
		    !strncmp(n, dir0, d0len) && n[d0len] == '/')
			t->file[i] = intern(normalize(n));
		else
			t->file[i] = intern(join(dir0, n));
	}
	/*
	 * lineloc strips each table's compilation directory: DWARF 5's
	 * directory 0 normalised, or DW_AT_comp_dir as it stands.
	 */
	if (!dir0)
		return NULL;
	return v5 ? normalize(dir0) : xstrdup(dir0);
}

/*
 * lineloc's strip rule for a kernel (hosttool/README.md, "Stripping"): a
 * kernel is a file one of whose paths has "include/linux/" at its start or
 * after a '/', not right after "/usr/" (the host's headers; a path whose
 * first such place follows "/usr/" does not count); whatever precedes it
 * is a root.  For a kernel, the compilation directories are roots too,
 * and so is, for an absolute path that contains "/arch/" and no root yet
 * covers, what precedes "arch/" (assembler units list no headers).  A
 * path prints without the longest root it starts with, if anything is
 * left after it.
 */
static void strip_rule(char **comp_dirs)
{
	static const char mark[] = "include/linux/";
	bool kernel = false;
	size_t i;

	for (i = 0; i < npaths; i++) {
		const char *s = paths[i], *m = s;

		while ((m = strstr(m, mark)) && m != s && m[-1] != '/')
			m++;
		if (!m || (m - s >= 5 && !strncmp(m - 5, "/usr/", 5)))
			continue;
		kernel = true;
		if (m != s) {
			char *root = xstrdup(s);

			root[m - s] = 0;
			add_strip(root);
			free(root);
		}
	}
	if (!kernel)
		return;
	for (i = 0; i < ntabs; i++)
		if (comp_dirs[i])
			add_strip(comp_dirs[i]);
	for (i = 0; i < npaths; i++) {
		const char *s = paths[i], *m = strstr(s, "/arch/");
		char *root;

		if (s[0] != '/' || !m || stripped(s))
			continue;
		root = xstrdup(s);
		root[m - s + 1] = 0;
		add_strip(root);
		free(root);
	}
}

/* ---- rows -------------------------------------------------------------- */

static char obuf[1 << 16];
static size_t olen;

static void out_flush(void)
{
	if (olen && fwrite(obuf, 1, olen, stdout) != olen)
		die("writing the rows: %s", strerror(errno));
	olen = 0;
}

static const char **shown;	/* path id -> what is printed */
static size_t *shownlen;

static void out_row(uint64_t addr, uint32_t path, uint64_t line, bool end)
{
	const char *p = path == NOFILE ? "??" : shown[path];
	size_t n = path == NOFILE ? 2 : shownlen[path];
	char num[24];
	int k;

	if (n + 64 > sizeof(obuf) - olen) {
		out_flush();
		if (n + 64 > sizeof(obuf)) {	/* a path of 64 KiB */
			if (printf("%s:%" PRIu64 " 0x%" PRIx64 "%s\n", p, line,
				   addr, end ? " end" : "") < 0)
				die("writing the rows: %s", strerror(errno));
			return;
		}
	}
	memcpy(obuf + olen, p, n);
	olen += n;
	obuf[olen++] = ':';
	k = sizeof(num);
	do {
		num[--k] = (char)('0' + line % 10);
		line /= 10;
	} while (line);
	memcpy(obuf + olen, num + k, sizeof(num) - k);
	olen += sizeof(num) - k;
	obuf[olen++] = ' ';
	obuf[olen++] = '0';
	obuf[olen++] = 'x';
	k = sizeof(num);
	do {
		num[--k] = "0123456789abcdef"[addr & 15];
		addr >>= 4;
	} while (addr);
	memcpy(obuf + olen, num + k, sizeof(num) - k);
	olen += sizeof(num) - k;
	if (end) {
		memcpy(obuf + olen, " end", 4);
		olen += 4;
	}
	obuf[olen++] = '\n';
}

struct row {
	uint64_t addr, line;
	uint32_t path;
};

/* First row at an address above @a (rows sorted by address). */
static size_t rows_above(const struct row *b, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * One sequence: rows @b (by address, libdw's order), then its end row
 * @end, and @nmore more end rows at the same address (sequences libdw
 * merged into it, see put_table()).  lineloc's clipping, from its
 * description: a sequence inside one of its table's ranges is kept as it
 * is.  Otherwise it is cut to the ranges: in each range it overlaps, the
 * row that covers the range's start is moved there when no row starts
 * there (the last row below it), the rows inside the range follow, and an
 * end row closes the piece at the range's end, with the file and line of
 * the last row kept before it, unless the sequence itself ends there (its
 * own end row, as it is).  Rows outside every range, and rows at the
 * sequence's end address in a sequence so cut, are dropped.  An unclipped
 * table keeps every row.  The merged sequences' ends go where @end goes.
 */
static void put_sequence(const struct table *t, const struct row *b, size_t n,
			 const struct row *end, const struct row *more,
			 size_t nmore)
{
	uint64_t start = n ? b[0].addr : end->addr, stop = end->addr;
	size_t i, j = 0, lo, hi;
	bool clip = !t->unreadable;

	if (clip) {
		/* the first range that ends above the sequence's start */
		lo = 0;
		hi = t->nrg;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (t->rg[mid].hi <= start)
				lo = mid + 1;
			else
				hi = mid;
		}
		j = lo;
	}
	if (!clip || (j < t->nrg && t->rg[j].lo <= start &&
		      stop <= t->rg[j].hi)) {
		for (i = 0; i < n; i++)
			out_row(b[i].addr, b[i].path, b[i].line, false);
		out_row(end->addr, end->path, end->line, true);
		for (i = 0; i < nmore; i++)
			out_row(more[i].addr, more[i].path, more[i].line, true);
		return;
	}
	for (; start < stop && j < t->nrg && t->rg[j].lo < stop; j++) {
		uint64_t s = t->rg[j].lo > start ? t->rg[j].lo : start;
		uint64_t e = t->rg[j].hi < stop ? t->rg[j].hi : stop;
		size_t x, last;

		if (s >= e)
			continue;
		i = rows_above(b, n, s) - 1;	/* b[0].addr == start <= s */
		if (b[i].addr < s) {
			out_row(s, b[i].path, b[i].line, false);
			last = i;
			x = i + 1;
		} else {
			x = i;
			while (x && b[x - 1].addr == s)
				x--;
			last = x;
		}
		for (; x < n && b[x].addr < e; x++) {
			out_row(b[x].addr, b[x].path, b[x].line, false);
			last = x;
		}
		if (e < stop) {
			out_row(e, b[last].path, b[last].line, true);
			continue;
		}
		out_row(end->addr, end->path, end->line, true);
		for (i = 0; i < nmore; i++)
			out_row(more[i].addr, more[i].path, more[i].line, true);
	}
}

static void line_row(const struct table *t, Dwarf_Line *l, struct row *r,
		     bool *end)
{
	Dwarf_Addr addr;
	Dwarf_Files *files;
	size_t idx;
	int line;
	char msg[96];

	snprintf(msg, sizeof(msg), "a row of the table at .debug_line+0x%"
		 PRIx64, t->stmt);
	if (!l || dwarf_lineaddr(l, &addr) || dwarf_lineno(l, &line) ||
	    dwarf_lineendsequence(l, end) || dwarf_line_file(l, &files, &idx))
		die_dw(msg);
	r->addr = addr;
	r->line = (uint64_t)(int64_t)line;
	r->path = idx < t->nfiles ? t->file[idx] : NOFILE;
}

/* Whether @r has the file and line of one of the ends at its address. */
static bool ends_like(const struct row *r, const struct row *end,
		      const struct row *more, size_t nmore)
{
	size_t k;

	if (r->path == end->path && r->line == end->line)
		return true;
	for (k = 0; k < nmore; k++)
		if (r->path == more[k].path && r->line == more[k].line)
			return true;
	return false;
}

/*
 * A table's rows, cut back into sequences.  libdw sorts a table's rows by
 * address, ends of sequences before the rows at their address, program
 * order otherwise.  So after an end at address A come:
 *  - other ends at A: sequences of the same table that overlap it (arm's
 *    three exception vector pages, all linked at 0xffff0000), whose rows
 *    libdw has merged; kept or dropped with the first;
 *  - rows at A: a sequence's own rows at its end address (lineloc keeps
 *    them before the end row), taken back into it.
 * libdw also flags the table's last row as an end.  When that row follows
 * a row at its own address after an end there, it is one of those rows
 * (the flag is libdw's); when it follows the end itself, it is one of
 * those rows if it has the file and line of an end there (the state that
 * DW_LNE_end_sequence copies when it follows the row at once), else the
 * end of an overlapping sequence.
 */
static void put_table(struct table *t)
{
	static struct row *b, *more;
	static size_t cap, mcap;
	Dwarf_Lines *lines;
	size_t nlines, i = 0, n = 0, nmore;
	char msg[96];

	snprintf(msg, sizeof(msg), "the line table at .debug_line+0x%" PRIx64,
		 t->stmt);
	if (dwarf_getsrclines(&t->cudie, &lines, &nlines))
		die_dw(msg);
	while (i < nlines) {
		struct row r, end;
		bool is_end, rows_at_end = false;

		line_row(t, dwarf_onesrcline(lines, i++), &r, &is_end);
		if (!is_end) {
			b = reserve(b, &cap, n + 1, sizeof(*b));
			b[n++] = r;
			continue;
		}
		end = r;
		nmore = 0;
		for (; i < nlines; i++) {
			line_row(t, dwarf_onesrcline(lines, i), &r, &is_end);
			if (r.addr != end.addr)
				break;
			if (is_end && !rows_at_end &&
			    (i + 1 < nlines || !ends_like(&r, &end, more,
							  nmore))) {
				more = reserve(more, &mcap, nmore + 1,
					       sizeof(*more));
				more[nmore++] = r;
				continue;
			}
			if (is_end && i + 1 < nlines)
				break;	/* cannot be: ends sort first */
			b = reserve(b, &cap, n + 1, sizeof(*b));
			b[n++] = r;
			rows_at_end = true;
		}
		put_sequence(t, b, n, &end, more, nmore);
		n = 0;
	}
	if (n)	/* cannot be: libdw ends the last row */
		die("%s: rows after the last end of sequence", msg);
}

int main(int argc, char **argv)
{
	char **comp_dirs;
	GElf_Ehdr eh;
	Dwarf *dw;
	Elf *elf;
	size_t i;
	int fd;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: dwrows VMLINUX\n"
			"  the rows lineloc --rows prints, read through libdw\n");
		return argc == 2 && !strcmp(argv[1], "--help") ? 0 : 2;
	}
	file = argv[1];
	fd = open(file, O_RDONLY);
	if (fd < 0)
		die("cannot open: %s", strerror(errno));
	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf: %s", elf_errmsg(-1));
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		die("libelf: elf_begin: %s", elf_errmsg(-1));
	if (elf_kind(elf) != ELF_K_ELF)
		die("not an ELF file");
	if (!gelf_getehdr(elf, &eh))
		die("libelf: the ELF header: %s", elf_errmsg(-1));
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		die("not an executable (e_type %u): lineloc clips only those",
		    (unsigned)eh.e_type);
	dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (!dw)
		die_dw("dwarf_begin_elf");

	read_units(dw);
	comp_dirs = xrealloc(NULL, ntabs ? ntabs : 1, sizeof(*comp_dirs));
	for (i = 0; i < ntabs; i++)
		comp_dirs[i] = table_files(&tabs[i]);
	strip_rule(comp_dirs);
	shown = xrealloc(NULL, npaths ? npaths : 1, sizeof(*shown));
	shownlen = xrealloc(NULL, npaths ? npaths : 1, sizeof(*shownlen));
	for (i = 0; i < npaths; i++) {
		shown[i] = paths[i] + stripped(paths[i]);
		shownlen[i] = strlen(shown[i]);
	}
	for (i = 0; i < ntabs; i++)
		put_table(&tabs[i]);
	out_flush();
	if (fflush(stdout) || ferror(stdout))
		die("writing the rows: %s", strerror(errno));

	for (i = 0; i < ntabs; i++) {
		free(tabs[i].rg);
		free(tabs[i].file);
		free(comp_dirs[i]);
	}
	free(comp_dirs);
	free(tabs);
	for (i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);
	free(hash);
	for (i = 0; i < nstrip; i++)
		free(strip[i]);
	free(strip);
	free(shown);
	free(shownlen);
	dwarf_end(dw);
	elf_end(elf);
	close(fd);
	return 0;
}
