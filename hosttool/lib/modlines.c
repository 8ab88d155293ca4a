// SPDX-License-Identifier: GPL-2.0
/*
 * modlines.c - a module's line tables, built from its own .debug_line
 *
 * See <linux/lineloc/module.h>.  Passes over the line programs: the first ones read only
 * their directory tables, to learn the roots of the kernel tree; the last
 * decodes each program, one at a time, and keeps its rows.  A sequence is
 * dropped whole when its address has no relocation, its section is not
 * loaded text, or a row falls outside that section; a malformed program
 * stops the build (the caller keeps no line table for the module).
 *
 * Rows are merged as they come by the rules the encoder applies anyway
 * (per offset the last row, and no row that repeats the location before
 * it), so that the work space follows the rows kept, not the rows decoded.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/lineloc/module.h>
#include <linux/string.h>
#include <asm/unaligned.h>

struct ml_rows {
	struct lineloc_row *r;
	size_t n, cap;
};

struct ml_file {
	const char *name;
	u64 dir;
};

struct ml_state {
	struct lineloc_mod_in *in;
	struct lineloc_mod_out *out;
	const struct lineloc_alloc *mem;
	struct ml_rows rows[2];
	size_t max_rows;
	/* the paths: NUL-terminated, at offsets into one arena */
	char *arena;
	size_t alen, acap, amax;
	u32 *poff;
	size_t npaths, pcap;
	/* the roots of the kernel tree, each with a trailing '/' */
	char roots[LINELOC_ROOTS][LINELOC_ROOT_MAX];
	u32 rootlen[LINELOC_ROOTS];
	u32 nroots;
	bool kernel;
	char tmp[LINELOC_PATH_MAX + 2];
	/* the line program being decoded */
	const struct lineloc_dwarf_unit *unit;
	const char **dirs;
	u64 ndirs, idirs;
	struct ml_file *files;
	u64 nfiles, ifiles;
	u32 *fid;
	/* the sequence being decoded */
	bool seq_open, seq_bad;
	u8 region;
	size_t seq_start;
	u64 saoff;
	const struct lineloc_mod_sec *sec;
	struct lineloc_row pend, last;
	bool have_pend;
};

static void *ml_alloc(const struct lineloc_alloc *m, size_t n)
{
	return m->alloc(m->arg, n ? n : 1);
}

static void ml_free(const struct lineloc_alloc *m, void *p)
{
	if (p)
		m->free(m->arg, p);
}

/*
 * A new array of @cap elements of @esz bytes holding the @used ones of
 * @old, which is freed; NULL (and @old kept) if there is no memory.
 */
static void *ml_grow(struct ml_state *s, void *old, size_t used, size_t cap,
		     size_t esz)
{
	void *n = ml_alloc(s->mem, cap * esz);

	if (!n)
		return NULL;
	if (used)
		memcpy(n, old, used * esz);
	ml_free(s->mem, old);
	return n;
}

/**
 * lineloc_normalize() - normalise a path lexically, in place
 * @path: the path
 *
 * "a//b", "a/./b" and "a/x/../b" become "a/b"; a leading ".." of a
 * relative path stays; "/.." is "/"; an empty result is ".".  No symlinks
 * are resolved: the build machine's file system is not this one.
 */
void lineloc_normalize(char *path)
{
	char *src = path, *dst = path, *base;
	bool abs = *path == '/';

	if (abs)
		dst = ++src;
	base = dst;
	/* dst never passes src: each segment is written over input consumed. */
	while (*src) {
		char *seg = src;
		size_t len, i;

		while (*src && *src != '/')
			src++;
		len = (size_t)(src - seg);
		if (*src)
			src++;
		if (!len || (len == 1 && seg[0] == '.'))
			continue;
		if (len == 2 && seg[0] == '.' && seg[1] == '.') {
			char *prev = dst;

			while (prev > base && prev[-1] != '/')
				prev--;
			if (prev < dst && !(dst - prev == 2 && prev[0] == '.' &&
					    prev[1] == '.')) {
				/* Drop the previous segment and its '/'. */
				dst = prev > base ? prev - 1 : prev;
				continue;
			}
			if (prev == dst && abs)
				continue;
		}
		if (dst > base)
			*dst++ = '/';
		for (i = 0; i < len; i++)
			dst[i] = seg[i];
		dst += len;
	}
	*dst = 0;
	if (!*path) {
		path[0] = '.';
		path[1] = 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_normalize);

/*
 * "a" + "/" + "b" + "/" + "c" into @buf (room for @max characters),
 * skipping NULL parts.
 */
static int ml_join(char *buf, size_t max, const char *a, const char *b,
		   const char *c)
{
	const char *part[3] = { a, b, c };
	size_t n = 0, i, k;

	for (i = 0; i < 3; i++) {
		if (!part[i] || !*part[i])
			continue;
		if (n) {
			if (n >= max)
				return -1;
			buf[n++] = '/';
		}
		k = strlen(part[i]);
		if (k > max - n)
			return -1;
		memmove(buf + n, part[i], k);
		n += k;
	}
	buf[n] = 0;
	return 0;
}

static void ml_add_root(struct ml_state *s, const char *root, size_t len)
{
	u32 i;

	if (!len || len + 2 > LINELOC_ROOT_MAX || s->nroots == LINELOC_ROOTS)
		return;
	if (root[len - 1] == '/')
		len--;
	if (!len)
		return;
	for (i = 0; i < s->nroots; i++)
		if (s->rootlen[i] == len + 1 &&
		    !memcmp(s->roots[i], root, len))
			return;
	memcpy(s->roots[s->nroots], root, len);
	s->roots[s->nroots][len] = '/';
	s->roots[s->nroots][len + 1] = 0;
	s->rootlen[s->nroots++] = (u32)len + 1;
}

/**
 * lineloc_host_include() - whether a root is a host's headers, not a kernel
 * @root: what precedes "include/linux" in a directory
 * @n: its length
 *
 * The host's /usr/include (a root ending in "/usr/") and a cross
 * toolchain's /usr/<triplet>/include hold the kernel's UAPI headers, which
 * a user-space program includes: no kernel tree.
 *
 * Return: true for such a root.
 */
bool lineloc_host_include(const char *root, size_t n)
{
	size_t i;

	if (n >= 5 && !memcmp(root + n - 5, "/usr/", 5))
		return true;
	if (n < 7 || memcmp(root, "/usr/", 5) || root[n - 1] != '/')
		return false;
	for (i = 5; i < n - 1; i++)
		if (root[i] == '/')
			return false;
	return true;
}

/*
 * A directory "<root>include/linux[/...]" marks a kernel tree whose root
 * is <root> (unless it is a host's headers: lineloc_host_include()).
 */
static void ml_learn_root(struct ml_state *s, const char *dir)
{
	static const char mark[] = "include/linux";
	const size_t ml = sizeof(mark) - 1;
	char *p = s->tmp;
	size_t i, n;

	if (!dir || ml_join(s->tmp, LINELOC_PATH_MAX / 2 - 1, dir, NULL, NULL))
		return;
	lineloc_normalize(p);
	n = strlen(p);
	for (i = 0; i + ml <= n; i++) {
		if ((i && p[i - 1] != '/') || memcmp(p + i, mark, ml) ||
		    (p[i + ml] && p[i + ml] != '/'))
			continue;
		if (lineloc_host_include(p, i))
			continue;
		s->kernel = true;
		ml_add_root(s, p, i);
		return;
	}
}

/* Characters of the longest root that @p starts with (and goes past). */
static size_t ml_strip_len(const struct ml_state *s, const char *p)
{
	size_t best = 0;
	u32 i;

	for (i = 0; i < s->nroots; i++) {
		u32 n = s->rootlen[i];

		if (n > best && !memcmp(p, s->roots[i], n) && p[n])
			best = n;
	}
	return best;
}

static int ml_dir_cb(void *arg, const struct lineloc_dwarf_entry *e)
{
	struct ml_state *s = arg;

	if (s->idirs < s->ndirs)
		s->dirs[s->idirs++] = e->path;
	return 0;
}

static int ml_file_cb(void *arg, const struct lineloc_dwarf_entry *e)
{
	struct ml_state *s = arg;

	if (s->ifiles < s->nfiles) {
		s->files[s->ifiles].name = e->path;
		s->files[s->ifiles++].dir = e->dir_index;
	}
	return 0;
}

static void ml_unit_free(struct ml_state *s)
{
	ml_free(s->mem, s->dirs);
	ml_free(s->mem, s->files);
	ml_free(s->mem, s->fid);
	s->dirs = NULL;
	s->files = NULL;
	s->fid = NULL;
}

/* Read the directory and file tables of @u. */
static int ml_unit_tables(struct ml_state *s,
			  const struct lineloc_dwarf_unit *u, bool files)
{
	struct lineloc_dwarf_ctx *dl = &s->in->dl;
	u64 room = u->end - u->offset, i;
	int err;

	/* Each entry takes a byte at least: the counts are bounded. */
	if (u->dir_count > room || u->file_count > room) {
		s->out->dwarf_err = -LINELOC_DW_E_FORMAT_COUNT;
		s->out->err_off = u->offset;
		s->out->err_val = u->dir_count > room ? u->dir_count :
			u->file_count;
		return -LINELOC_MOD_E_DWARF;
	}
	s->ndirs = u->dir_count;
	s->nfiles = files ? u->file_count : 0;
	s->idirs = 0;
	s->ifiles = 0;
	s->dirs = ml_alloc(s->mem, s->ndirs * sizeof(*s->dirs));
	if (files) {
		s->files = ml_alloc(s->mem, s->nfiles * sizeof(*s->files));
		s->fid = ml_alloc(s->mem, s->nfiles * sizeof(*s->fid));
		if (!s->files || !s->fid)
			return -LINELOC_MOD_E_NOMEM;
		for (i = 0; i < s->nfiles; i++) {
			s->files[i].name = NULL;
			s->fid[i] = ~0U;
		}
	}
	if (!s->dirs)
		return -LINELOC_MOD_E_NOMEM;
	for (i = 0; i < s->ndirs; i++)
		s->dirs[i] = NULL;
	err = lineloc_dwarf_entries(dl, u, LINELOC_DW_DIRS, ml_dir_cb, s);
	if (!err && files)
		err = lineloc_dwarf_entries(dl, u, LINELOC_DW_FILES, ml_file_cb, s);
	if (err) {
		s->out->dwarf_err = err;
		s->out->err_off = dl->err_off;
		s->out->err_val = dl->err_val;
		return -LINELOC_MOD_E_DWARF;
	}
	return 0;
}

/* Append @len bytes and a NUL to the arena; the offset in *@off. */
static int ml_arena_put(struct ml_state *s, const char *p, size_t len, u32 *off)
{
	if (len + 1 > s->amax - s->alen)
		return -LINELOC_MOD_E_LIMIT;
	if (s->alen + len + 1 > s->acap) {
		size_t cap = s->acap ? s->acap : 4096;
		char *a;

		while (cap < s->alen + len + 1)
			cap *= 2;
		if (cap > s->amax)
			cap = s->amax;
		a = ml_grow(s, s->arena, s->alen, cap, 1);
		if (!a)
			return -LINELOC_MOD_E_NOMEM;
		s->arena = a;
		s->acap = cap;
	}
	memcpy(s->arena + s->alen, p, len);
	s->arena[s->alen + len] = 0;
	*off = (u32)s->alen;
	s->alen += len + 1;
	return 0;
}

/*
 * The path id of raw file index @f of the current program: 0 with *@id
 * set, 1 if the program has no such file, or a negative error.
 */
static int ml_file_id(struct ml_state *s, u64 f, u32 *id)
{
	bool v5 = s->unit->version >= 5;
	const char *dir = NULL, *comp = NULL;
	u64 i = f, d;
	u32 off;
	size_t skip, len;
	int err;

	if (!v5) {
		if (!f)
			return 1;
		i = f - 1;
	}
	if (i >= s->ifiles || !s->files[i].name)
		return 1;
	if (s->fid[i] != ~0U) {
		*id = s->fid[i];
		return 0;
	}
	d = s->files[i].dir;
	if (v5) {
		if (d >= s->idirs)
			return 1;
		dir = s->dirs[d];
		comp = d && s->idirs ? s->dirs[0] : NULL;
	} else if (d) {
		if (d - 1 >= s->idirs)
			return 1;
		dir = s->dirs[d - 1];
	}
	/* An absolute part makes what comes before it irrelevant. */
	if (s->files[i].name[0] == '/') {
		dir = NULL;
		comp = NULL;
	} else if (dir && dir[0] == '/') {
		comp = NULL;
	}
	if (ml_join(s->tmp, LINELOC_PATH_MAX, comp, dir, s->files[i].name))
		return -LINELOC_MOD_E_PATH;
	lineloc_normalize(s->tmp);
	skip = ml_strip_len(s, s->tmp);
	len = strlen(s->tmp + skip);
	if (s->npaths == s->pcap) {
		size_t cap = s->pcap ? s->pcap * 2 : 64;
		u32 *p = ml_grow(s, s->poff, s->npaths, cap, sizeof(*p));

		if (!p)
			return -LINELOC_MOD_E_NOMEM;
		s->poff = p;
		s->pcap = cap;
	}
	err = ml_arena_put(s, s->tmp + skip, len, &off);
	if (err)
		return err;
	s->poff[s->npaths] = off;
	s->fid[i] = (u32)s->npaths++;
	*id = s->fid[i];
	return 0;
}

static int ml_push(struct ml_state *s, const struct lineloc_row *row)
{
	struct ml_rows *a = &s->rows[s->region - 1];

	if (s->rows[0].n + s->rows[1].n >= s->max_rows)
		return -LINELOC_MOD_E_LIMIT;
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 1024;
		struct lineloc_row *r;

		if (cap > s->max_rows)
			cap = s->max_rows;
		r = ml_grow(s, a->r, a->n, cap, sizeof(*r));
		if (!r)
			return -LINELOC_MOD_E_NOMEM;
		a->r = r;
		a->cap = cap;
	}
	a->r[a->n++] = *row;
	return 0;
}

/* The pending row, unless it repeats the location of the last kept. */
static int ml_flush(struct ml_state *s)
{
	int err = 0;

	if (s->have_pend && (s->last.end || s->pend.file != s->last.file ||
			     s->pend.line != s->last.line)) {
		err = ml_push(s, &s->pend);
		s->last = s->pend;
	}
	s->have_pend = false;
	return err;
}

static void ml_drop_seq(struct ml_state *s)
{
	if (s->region)
		s->rows[s->region - 1].n = s->seq_start;
	s->have_pend = false;
	s->seq_bad = true;
	s->out->dropped++;
}

/* Section of the sequence from its DW_LNE_set_address; false to drop it. */
static bool ml_seq_section(struct ml_state *s, u64 saoff)
{
	const struct lineloc_mod_sec *sec;
	struct lineloc_rel_value v;

	s->saoff = saoff;
	if (!s->in->rel || saoff == ~(u64)0 || lineloc_rel_find(s->in->rel, saoff, &v))
		return false;
	if (v.shndx >= s->in->nsecs)
		return false;
	sec = &s->in->secs[v.shndx];
	if (sec->region != LINELOC_MOD_CORE && sec->region != LINELOC_MOD_INIT)
		return false;
	if (s->region && sec->region != s->region)
		return false;
	if (!s->region) {
		s->region = sec->region;
		s->seq_start = s->rows[s->region - 1].n;
	}
	if (s->in->used)
		s->in->used[v.shndx] = 1;
	s->sec = sec;
	return true;
}

static int ml_row(void *arg, const struct lineloc_dwarf_row *r)
{
	struct ml_state *s = arg;
	struct lineloc_row row;
	u64 off;
	u32 id;
	int err;

	if (!s->seq_open) {
		s->seq_open = true;
		s->seq_bad = false;
		s->region = LINELOC_MOD_NONE;
		s->saoff = ~(u64)0;
		s->sec = NULL;
		s->have_pend = false;
		s->last.end = 1;
		s->out->seqs++;
		if (!ml_seq_section(s, r->set_address_offset))
			ml_drop_seq(s);
	}
	if (s->seq_bad)
		goto next;
	if (r->set_address_offset != s->saoff &&
	    !ml_seq_section(s, r->set_address_offset))
		goto drop;
	if (r->address > s->sec->size)
		goto drop;
	off = s->sec->base + r->address;
	if (off > 0xffffffffU)
		goto drop;
	row.off = (u32)off;
	if (r->end_sequence) {
		err = ml_flush(s);
		row.file = 0;
		row.line = 0;
		row.end = 1;
		if (!err)
			err = ml_push(s, &row);
		s->seq_open = false;
		return err ? -err : 0;
	}
	err = ml_file_id(s, r->file, &id);
	if (err < 0)
		return -err;
	if (err || r->line > 0x7fffffffU)
		goto drop;
	row.file = id;
	row.line = (u32)r->line;
	row.end = 0;
	if (s->have_pend && s->pend.off != row.off) {
		err = ml_flush(s);
		if (err)
			return -err;
	}
	s->pend = row;
	s->have_pend = true;
	return 0;
drop:
	ml_drop_seq(s);
next:
	if (r->end_sequence)
		s->seq_open = false;
	return 0;
}

/*
 * The relocated value of the @size-byte field at @off.  A 4-byte
 * relocation may apply to the low half of an 8-byte field: 64-bit DWARF
 * in a 32-bit object (its low half comes first in little-endian order,
 * last in big-endian).
 */
static int ml_reloc(void *arg, u64 off, unsigned int size, u64 *value)
{
	struct ml_state *s = arg;
	const struct lineloc_rel *r = s->in->rel;
	struct lineloc_rel_value v;
	u64 low = off;

	if (!r)
		return 0;
	if (size == 8 && r->big_endian && lineloc_rel_find(r, off, &v))
		low = off + 4;
	if (lineloc_rel_find(r, low, &v))
		return 0;		/* not relocated: the value is final */
	if (v.size == size) {
		*value = v.value;
		return 0;
	}
	if (v.size != 4 || size != 8)
		return 1;
	*value = (*value & ~(u64)0xffffffffU) | v.value;
	return 0;
}

/* Each line program in turn: @fn on its parsed header. */
static int ml_each_unit(struct ml_state *s,
			int (*fn)(struct ml_state *s,
				  const struct lineloc_dwarf_unit *u))
{
	struct lineloc_dwarf_ctx *dl = &s->in->dl;
	struct lineloc_dwarf_unit u;
	u64 off = 0;
	int err;

	while (off < dl->line_size) {
		err = lineloc_dwarf_parse_header(dl, off, &u);
		if (err) {
			s->out->dwarf_err = err;
			s->out->err_off = dl->err_off;
			s->out->err_val = dl->err_val;
			return -LINELOC_MOD_E_DWARF;
		}
		err = fn(s, &u);
		ml_unit_free(s);
		if (err)
			return err;
		off = u.end;
		if (s->in->resched)
			s->in->resched();
	}
	return 0;
}

/*
 * What directory entry @i of a unit's table is relative to: directory 0
 * (the compilation directory) for a relative entry of DWARF 5, else
 * nothing.
 */
static const char *ml_dir_base(const struct ml_state *s,
			       const struct lineloc_dwarf_unit *u, u64 i)
{
	return u->version >= 5 && i && s->dirs[0] && s->dirs[i] &&
	       s->dirs[i][0] != '/' ? s->dirs[0] : NULL;
}

static int ml_roots(struct ml_state *s, const struct lineloc_dwarf_unit *u)
{
	char *dir = s->tmp + LINELOC_PATH_MAX / 2;
	u64 i;
	int err = ml_unit_tables(s, u, false);

	if (err)
		return err;
	for (i = 0; i < s->idirs; i++) {
		const char *comp = ml_dir_base(s, u, i);

		if (!ml_join(dir, LINELOC_PATH_MAX / 2 - 1, comp,
			     s->dirs[i], NULL))
			ml_learn_root(s, dir);
	}
	return 0;
}

/*
 * In a kernel module: what precedes "arch/" in an absolute directory under
 * no root yet is a root (assembler units list no header to learn the root
 * from).  DWARF 5 directories are relative to directory 0.
 */
static int ml_arch_roots(struct ml_state *s, const struct lineloc_dwarf_unit *u)
{
	u64 i;
	int err = ml_unit_tables(s, u, false);

	if (err)
		return err;
	for (i = 0; i < s->idirs; i++) {
		const char *comp = ml_dir_base(s, u, i);
		char *p = s->tmp;
		size_t k, n;

		if (!s->dirs[i] ||
		    ml_join(p, LINELOC_PATH_MAX, comp, s->dirs[i], NULL))
			continue;
		lineloc_normalize(p);
		n = strlen(p);
		if (p[0] != '/')
			continue;
		p[n] = '/';
		p[n + 1] = 0;
		if (ml_strip_len(s, p))
			continue;
		for (k = 1; k + 5 <= n + 1; k++)
			if (p[k - 1] == '/' && !memcmp(p + k, "arch/", 5)) {
				ml_add_root(s, p, k);
				break;
			}
	}
	return 0;
}

static int ml_decode(struct ml_state *s, const struct lineloc_dwarf_unit *u)
{
	static const struct lineloc_dwarf_ops ops = { .row = ml_row };
	struct lineloc_dwarf_ctx *dl = &s->in->dl;
	int err = ml_unit_tables(s, u, true);

	if (err)
		return err;
	s->unit = u;
	s->seq_open = false;
	s->out->units++;
	err = lineloc_dwarf_run(dl, u, &ops, s);
	if (err == -LINELOC_DW_E_CALLBACK) {
		s->out->err_off = dl->err_off;
		return -(int)dl->err_val;
	}
	if (err) {
		s->out->dwarf_err = err;
		s->out->err_off = dl->err_off;
		s->out->err_val = dl->err_val;
		return -LINELOC_MOD_E_DWARF;
	}
	/* A sequence with no end is not kept. */
	if (s->seq_open && !s->seq_bad)
		ml_drop_seq(s);
	s->seq_open = false;
	return 0;
}

static int ml_encode(struct ml_state *s)
{
	const char **paths;
	size_t i;
	int k, err = 0;

	paths = ml_alloc(s->mem, s->npaths * sizeof(*paths));
	if (!paths)
		return -LINELOC_MOD_E_NOMEM;
	for (i = 0; i < s->npaths; i++)
		paths[i] = s->arena + s->poff[i];
	for (k = 0; k < 2 && !err; k++) {
		struct lineloc_stats st;

		if (!s->rows[k].n)
			continue;
		err = lineloc_encode(s->rows[k].r, s->rows[k].n, paths,
				     s->npaths, &s->in->enc, s->mem,
				     &s->out->tab[k], &s->out->size[k], &st);
		if (err) {
			s->out->err_val = (u64)-err;
			err = err == -LINELOC_ENC_NOMEM ? -LINELOC_MOD_E_NOMEM :
			      -LINELOC_MOD_E_ENCODE;
		}
		s->out->rows[k] = (u32)s->rows[k].n;
		s->out->fixed[k] = err ? 0 : st.header + st.codes;
	}
	ml_free(s->mem, paths);
	return err;
}

/**
 * lineloc_mod_build() - build a module's line tables
 * @in: the sections and where their rows go
 * @out: the tables; zeroed first
 *
 * Return: 0, or a negative LINELOC_MOD_E_* code with the place in @out
 * (nothing is then allocated).
 */
int lineloc_mod_build(struct lineloc_mod_in *in, struct lineloc_mod_out *out)
{
	struct ml_state *s;
	u64 room;
	int err, k;

	*out = (struct lineloc_mod_out){ 0 };
	s = ml_alloc(in->mem, sizeof(*s));
	if (!s)
		return -LINELOC_MOD_E_NOMEM;
	*s = (struct ml_state){ 0 };
	s->in = in;
	s->out = out;
	s->mem = in->mem;
	/* A row takes an opcode byte at least; paths a few times the strings. */
	s->max_rows = in->dl.line_size > 0x7fffffff ? 0x7fffffff :
		      (size_t)in->dl.line_size + 1;
	room = in->dl.line_size + in->dl.line_str_size + in->dl.str_size;
	s->amax = room > 0x3fffffff ? 0xffffffffU : (size_t)room * 4 + 65536;
	in->dl.reloc = ml_reloc;
	in->dl.reloc_arg = s;

	err = ml_each_unit(s, ml_roots);
	if (!err && s->kernel)
		err = ml_each_unit(s, ml_arch_roots);
	if (!err)
		err = ml_each_unit(s, ml_decode);
	if (!err)
		err = ml_encode(s);
	if (err)
		lineloc_mod_free(in->mem, out);
	in->dl.reloc = NULL;
	ml_unit_free(s);
	for (k = 0; k < 2; k++)
		ml_free(s->mem, s->rows[k].r);
	ml_free(s->mem, s->arena);
	ml_free(s->mem, s->poff);
	ml_free(s->mem, s);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_mod_build);

void lineloc_mod_free(const struct lineloc_alloc *mem,
		      struct lineloc_mod_out *out)
{
	int k;

	for (k = 0; k < 2; k++) {
		ml_free(mem, out->tab[k]);
		out->tab[k] = NULL;
		out->size[k] = 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_mod_free);

/**
 * lineloc_mod_strerror() - what went wrong, in words
 * @err: a negative LINELOC_MOD_E_* code
 * @out: the build's output: a malformed program names the decoder's error
 */
const char *lineloc_mod_strerror(int err, const struct lineloc_mod_out *out)
{
	static const char *const msg[LINELOC_MOD_E_MAX] = {
		[LINELOC_MOD_E_NOMEM] = "out of memory",
		[LINELOC_MOD_E_DWARF] = "malformed line program",
		[LINELOC_MOD_E_PATH] = "path too long",
		[LINELOC_MOD_E_LIMIT] = "more rows or paths than the section holds",
		[LINELOC_MOD_E_ENCODE] = "line table encoder failed",
	};

	if (err < 0)
		err = -err;
	if (err == LINELOC_MOD_E_DWARF && out && out->dwarf_err)
		return lineloc_dwarf_strerror(out->dwarf_err);
	return err > 0 && err < LINELOC_MOD_E_MAX && msg[err] ? msg[err] :
	       "unknown error";
}

/* Names a section's entry gives by index, from 1: append only. */
const char *const lineloc_sec_names[LINELOC_SEC_NAMES] = {
	".text", ".init.text", ".exit.text", ".text.unlikely",
	".altinstr_replacement", ".static_call.text", ".altinstr_aux",
	".noinstr.text", ".sched.text", ".text.hot", ".ref.text",
	".spinlock.text", ".cpuidle.text", ".kprobes.text", ".entry.text",
	".irqentry.text", ".softirqentry.text",
};

/*
 * The entry at *@pos of a section of @size bytes into @e (@e->off: where
 * it starts), *@pos moved past it and *@end, the sizes of the entries
 * before, past its own; or -1 and what is wrong in *@why.
 */
static int ml_sec_ent(const u8 *sec, u32 size, u32 *pos, u32 *end,
		      struct lineloc_sec_ent *e, const char **why)
{
	const u8 *nul;
	u32 k;

	e->off = *pos;
	*why = "an entry past the section's end";
	if (lineloc_uleb32(sec, size, pos, &k))
		return -1;
	if (k) {
		*why = "a name index past the known names";
		if (k > ARRAY_SIZE(lineloc_sec_names))
			return -1;
		e->name = lineloc_sec_names[k - 1];
	} else {
		*why = "a name empty or unterminated";
		nul = *pos < size ? memchr(sec + *pos, 0, size - *pos) : NULL;
		if (!nul || nul == sec + *pos)
			return -1;
		e->name = (const char *)sec + *pos;
		*pos = nul + 1 - sec;
	}
	*why = "an entry past the section's end";
	if (lineloc_uleb32(sec, size, pos, &e->size))
		return -1;
	*why = "offsets past 4 GiB";
	if (e->size > 0xffffffffU - *end)
		return -1;
	e->base = *end;
	*end += e->size;
	return 0;
}

/**
 * lineloc_sec_get() - entry @i of a module's section of line tables
 * @sec: the section, checked with lineloc_sec_check()
 * @size: its size
 * @i: the entry, below the count lineloc_sec_check() returned
 * @e: where to put the entry
 */
void lineloc_sec_get(const u8 *sec, size_t size, u32 i,
		     struct lineloc_sec_ent *e)
{
	u32 pos = LINELOC_SEC_HDR, n = 0, end = 0, j;
	const char *why;

	lineloc_uleb32(sec, size, &pos, &n);
	for (j = 0; j <= i; j++)
		ml_sec_ent(sec, size, &pos, &end, e, &why);
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_sec_get);

/**
 * lineloc_sec_table() - the table of a module's section of line tables
 * @sec: the section, checked with lineloc_sec_check()
 * @size: its size
 * @tab_size: where to put the table's size
 *
 * Return: the table, which runs to the end of the section.
 */
const u8 *lineloc_sec_table(const u8 *sec, size_t size, u32 *tab_size)
{
	u32 pos = LINELOC_SEC_HDR, n = 0, end = 0, j;
	struct lineloc_sec_ent e;
	const char *why;

	lineloc_uleb32(sec, size, &pos, &n);
	for (j = 0; j < n; j++)
		ml_sec_ent(sec, size, &pos, &end, &e, &why);
	*tab_size = size - pos;
	return sec + pos;
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_sec_table);

/**
 * lineloc_sec_check() - validate a module's section of line tables whole
 * @sec: the section's bytes
 * @size: bytes at @sec
 * @err_off: on error, the offset in @sec where the fault was found
 * @why: on error, what the fault is
 *
 * Checks the header and the entries (names inside the section,
 * terminated, each given once; sizes that sum to less than 4 GiB), then
 * the table with lineloc_check() (coded with this kernel's
 * shared codes, or its own).
 *
 * Return: the number of entries, or -1.
 */
int lineloc_sec_check(const u8 *sec, size_t size, u32 *err_off,
		      const char **why)
{
	u32 n, i, j, pos = LINELOC_SEC_HDR, opos, end = 0, oend;
	struct lineloc_sec_ent e, o;
	int ret;

	*err_off = 0;
	if (size < LINELOC_SEC_HDR || size > 0xffffffffU ||
	    get_unaligned_le16(sec) != LINELOC_SEC_MAGIC) {
		*why = "not a section of line tables (size or magic)";
		return -1;
	}
	*err_off = pos;
	if (lineloc_uleb32(sec, size, &pos, &n) || n > LINELOC_SEC_MAX) {
		*why = "more entries than a section may have";
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (ml_sec_ent(sec, size, &pos, &end, &e, why)) {
			*err_off = e.off;
			return -1;
		}
		*err_off = e.off;
		/* the entries before, read again: no array on the stack */
		opos = LINELOC_SEC_HDR;
		oend = 0;
		lineloc_uleb32(sec, size, &opos, &j);
		for (j = 0; j < i; j++) {
			ml_sec_ent(sec, size, &opos, &oend, &o, why);
			if (!strcmp(o.name, e.name)) {
				*why = "a text section named twice";
				return -1;
			}
		}
	}
	ret = lineloc_check(sec + pos, size - pos);
	*err_off = pos;
	if (ret == -LINELOC_E_CODESET) {
		*err_off += 2;
		*why = "a table coded for another kernel (its shared codes)";
		return -1;
	}
	if (ret) {
		*why = "a damaged table";
		return -1;
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_sec_check);
