// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for what the kernel's module loader runs on a module's
 * .debug_line at load time: dwarf_reloc.c (the relocations), modlines.c
 * (the tables, through dwarf_line.c and linetab_enc.c) and linetab_dec.c
 * (the lookups).  Build: make -f hosttool/hosttool.mk hosttool/fuzz/fuzz_modlines
 *
 * Input (all numbers little-endian):
 *   byte 0     flags: bits 0-1 the machine and its relocation format:
 *                0 x86_64 RELA, 1 i386 REL, 2 arm REL, 3 arm64 RELA
 *              (ELFCLASS64 for x86_64 and arm64, ELFCLASS32 otherwise);
 *              bit 2 big-endian (armeb, aarch64_be); bit 3 the loader's
 *              bias hook (st_value - 0x10000 * st_shndx, as the kernel's
 *              symbols hold section addresses); bits 4-7 rows per block,
 *              from block_sizes[] below (64 is the kernel's)
 *   bytes 1-8  four u16 lengths: .debug_line, the relocation entries
 *              (.rela/.rel.debug_line), the symbol table (.symtab) and
 *              .debug_line_str (which serves as .debug_str too); then
 *              those bytes, one piece after the other.  A length past the
 *              end of the input is cut to what is there.
 *   then       shnum (u8): sections in the object (symbols' st_shndx must
 *              be below it, and modlines gets one entry per index);
 *              failing allocation (u8): 0xc0 + n makes allocation n
 *              (from 0, counted afresh in each lineloc_mod_build(), the
 *              encoder's included) fail; below 0xc0 all succeed;
 *              then up to 4 sections of 10 bytes: index (u8, taken modulo
 *              shnum), region (u8: 1 core, 2 init, others not loaded text),
 *              base (u32) and size (u32) in the region.
 * Missing trailing bytes read as zero.  Each piece is copied into its own
 * malloc'd buffer of exactly its size, so that ASan sees any read past it.
 *
 * Steps: lineloc_rel_check(); if it passes, every entry with lineloc_rel_entry() and
 * lineloc_rel_find() (they must agree), and lineloc_rel_find() at fixed offsets and at
 * every operand of a DW_LNE_set_address-like byte pattern (00 len 02) in
 * .debug_line; lineloc_mod_build() with and without the relocations; lookups
 * in each table it made, at the sections' edges and across them; the
 * sections that build marks used (none without relocations); and the
 * .debug_line piece as a module's section of line tables
 * (lineloc_sec_check(), then lookups at its entries' edges).  Any
 * broken invariant is a __builtin_trap().
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/lineloc/module.h>

static const u16 machines[4] = {
	LINELOC_EM_X86_64, LINELOC_EM_386, LINELOC_EM_ARM, LINELOC_EM_AARCH64,
};
static const u32 block_sizes[16] = {
	64, 1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 96, 100, 255, 1024, 4096,
};

#define NSEC_REC	4
#define NLOOK_SA	64	/* set_address-like offsets tried, at most */
#define NCHECK_REL	2048	/* entries cross-checked, at most */

static uint64_t sink;
static u32 rescheds;

/* The kernel reschedules here, between line programs. */
static void fz_resched(void)
{
	rescheds++;
}

/* ---- an allocator that counts, and fails one allocation on request ---- */

struct fz_mem {
	long live;		/* allocations not freed */
	unsigned long n;	/* allocations so far */
	unsigned long fail_at;	/* ~0: none fails */
};

static void *fz_alloc(void *arg, size_t size)
{
	struct fz_mem *m = arg;
	void *p;

	if (m->n++ == m->fail_at)
		return NULL;
	if (size > ((size_t)1 << 31))	/* nothing here needs that much */
		__builtin_trap();
	p = malloc(size ? size : 1);
	if (!p)
		__builtin_trap();
	m->live++;
	return p;
}

static void fz_free(void *arg, void *p)
{
	struct fz_mem *m = arg;

	if (!p)
		return;
	m->live--;
	free(p);
}

/* ---- input ---- */

struct fz_in {
	const uint8_t *p;
	size_t left;
};

static uint32_t take(struct fz_in *in, unsigned int n)
{
	uint32_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (in->left) {
			v |= (uint32_t)*in->p++ << (8 * i);
			in->left--;
		}
	}
	return v;
}

/* The next @len bytes (fewer if the input ends) in a buffer of their own. */
static uint8_t *piece(struct fz_in *in, size_t len, u64 *size)
{
	uint8_t *b;

	if (len > in->left)
		len = in->left;
	b = malloc(len ? len : 1);
	if (!b)
		__builtin_trap();
	memcpy(b, in->p, len);
	in->p += len;
	in->left -= len;
	*size = len;
	return b;
}

/* ---- dwarf_reloc.c ---- */

static u64 fz_bias(void *arg, u32 shndx)
{
	const struct lineloc_rel *r = arg;

	if (shndx >= r->shnum || !shndx)
		__builtin_trap();	/* lineloc_rel_check() let it through */
	return (u64)shndx << 16;
}

static void check_value(const struct lineloc_rel *r, const struct lineloc_rel_value *v)
{
	if ((v->size != 4 && v->size != 8) || v->offset > r->target_size ||
	    v->size > r->target_size - v->offset || !v->shndx ||
	    v->shndx >= r->shnum || v->shndx >= 0xff00)
		__builtin_trap();
	if (v->size == 4 && v->value > 0xffffffffU)
		__builtin_trap();
	if (!r->is64 && v->value > 0xffffffffU)
		__builtin_trap();
}

static void find_at(const struct lineloc_rel *r, u64 off)
{
	struct lineloc_rel_value v;
	int ret = lineloc_rel_find(r, off, &v);

	if (ret != 0 && ret != 1)
		__builtin_trap();
	if (!ret) {
		if (v.offset != off)
			__builtin_trap();
		check_value(r, &v);
		sink += v.value;
	}
}

static void exercise_rel(const struct lineloc_rel *r, const uint8_t *line,
			 u64 line_size)
{
	struct lineloc_rel_value v, w;
	u64 i, n = 0;

	for (i = 0; i < r->count && i < NCHECK_REL; i++) {
		int ret = lineloc_rel_entry(r, i, &v);

		if (ret != 0 && ret != 1)
			__builtin_trap();
		if (ret)
			continue;
		check_value(r, &v);
		/* At most one field per offset: lineloc_rel_find() finds this one. */
		if (lineloc_rel_find(r, v.offset, &w) || w.offset != v.offset ||
		    w.size != v.size || w.shndx != v.shndx ||
		    w.value != v.value)
			__builtin_trap();
		find_at(r, v.offset + 1);
		if (v.offset)
			find_at(r, v.offset - 1);
	}
	find_at(r, 0);
	find_at(r, 1);
	find_at(r, line_size);
	find_at(r, line_size - 1);
	find_at(r, ~(u64)0);
	find_at(r, ~(u64)0 - 3);
	/* The operand of every 00 <len> 02: a DW_LNE_set_address, maybe. */
	for (i = 0; i + 3 <= line_size && n < NLOOK_SA; i++) {
		if (line[i] || line[i + 1] < 2 || line[i + 1] > 9 ||
		    line[i + 2] != 2)
			continue;
		find_at(r, i + 3);
		n++;
	}
}

/* ---- linetab_dec.c on the tables ---- */

static void look(const struct lineloc_mod_in *in, const u8 *t, size_t size,
		 u8 region, u32 off)
{
	struct lineloc_loc loc;
	int ret = lineloc_lookup(t, size, off, &loc);
	u32 i;

	/* The encoder's own table is never damaged. */
	if (ret != 0 && ret != LINELOC_UNKNOWN)
		__builtin_trap();
	if (ret)
		return;
	if (loc.start > off || loc.line > 0x7fffffffU)
		__builtin_trap();
	if ((const u8 *)loc.dir < t || loc.dir_len > size ||
	    (const u8 *)loc.dir - t > (ptrdiff_t)(size - loc.dir_len) ||
	    (const u8 *)loc.name < t || loc.name_len > size ||
	    (const u8 *)loc.name - t > (ptrdiff_t)(size - loc.name_len))
		__builtin_trap();
	/* Touch what the decoder handed out, so ASan checks it. */
	if (loc.dir_len)
		sink += (uint8_t)loc.dir[0] + (uint8_t)loc.dir[loc.dir_len - 1];
	if (loc.name_len)
		sink += (uint8_t)loc.name[0] +
			(uint8_t)loc.name[loc.name_len - 1];
	/* A row is kept only inside a section of its region. */
	for (i = 0; i < in->nsecs; i++) {
		const struct lineloc_mod_sec *s = &in->secs[i];

		if (s->region == region && loc.start >= s->base &&
		    loc.start - s->base <= s->size)
			return;
	}
	__builtin_trap();
}

static void look_table(const struct lineloc_mod_in *in,
		       const struct lineloc_mod_out *out, int k)
{
	const u8 *t = out->tab[k];
	size_t size = out->size[k];
	u8 region = (u8)(k + 1);
	u32 i, j;

	if (!t) {
		if (size || out->rows[k])
			__builtin_trap();
		return;
	}
	if (!out->rows[k] || size < 6 ||
	    out->fixed[k] > size || lineloc_check_header(t, size))
		__builtin_trap();
	look(in, t, size, region, 0);
	look(in, t, size, region, 0xffffffffU);
	for (i = 0; i < in->nsecs; i++) {
		const struct lineloc_mod_sec *s = &in->secs[i];
		u64 b = s->base, e = s->base + s->size;

		if (s->region != region)
			continue;
		look(in, t, size, region, (u32)b);
		look(in, t, size, region, (u32)(b - 1));
		look(in, t, size, region, (u32)e);
		look(in, t, size, region, (u32)(e - 1));
		look(in, t, size, region, (u32)(e + 1));
		for (j = 1; j < 16; j++)
			look(in, t, size, region, (u32)(b + s->size * j / 16));
	}
}

/* ---- modlines.c ---- */

static void build(struct lineloc_mod_in *in, struct fz_mem *m, bool with_rel,
		  struct lineloc_mod_out *res)
{
	struct lineloc_mod_out out;
	const char *msg;
	int err, k;

	m->live = 0;
	rescheds = 0;
	err = lineloc_mod_build(in, &out);
	if (in->dl.reloc)
		__builtin_trap();	/* the hook is lineloc_mod_build()'s own */
	msg = lineloc_mod_strerror(err, &out);
	if (!msg)
		__builtin_trap();
	sink += strlen(msg);
	if (out.dropped > out.seqs)
		__builtin_trap();
	if (err) {
		if (err >= 0 || err <= -LINELOC_MOD_E_MAX || out.tab[0] ||
		    out.tab[1] || m->live)
			__builtin_trap();	/* nothing left allocated */
		res->units = ~0U;
		return;
	}
	if (m->live != !!out.tab[0] + !!out.tab[1])
		__builtin_trap();
	/* Two or three passes over the programs, a resched after each. */
	if (rescheds != 2 * out.units && rescheds != 3 * out.units)
		__builtin_trap();
	if (!with_rel && (out.tab[0] || out.tab[1] ||
			  out.dropped != out.seqs))
		__builtin_trap();	/* no relocation: no section known */
	for (k = 0; k < 2; k++)
		look_table(in, &out, k);
	lineloc_mod_free(in->mem, &out);
	if (m->live || out.tab[0] || out.tab[1])
		__builtin_trap();
	*res = out;
}

/*
 * .debug_line's piece read as a module's section of line tables: when
 * lineloc_sec_check() accepts it, every entry is inside it and its table
 * answers lookups at the edges of every entry's range.
 */
static void check_section(const uint8_t *sec, u64 size)
{
	struct lineloc_sec_ent e;
	struct lineloc_loc loc;
	const uint8_t *tab;
	const char *why;
	u32 off, tsize;
	int n, i;

	n = lineloc_sec_check(sec, size, &off, &why);
	if (n < 0) {
		if (off > size || !why)
			__builtin_trap();
		sink += strlen(why);
		return;
	}
	tab = lineloc_sec_table(sec, size, &tsize);
	if (tab < sec || tab + tsize > sec + size)
		__builtin_trap();
	for (i = 0; i < n; i++) {
		lineloc_sec_get(sec, size, i, &e);
		sink += strlen(e.name);
		if (e.size > 0xffffffffU - e.base || e.off >= size)
			__builtin_trap();
		sink += lineloc_lookup(tab, tsize, e.base, &loc);
		if (e.size)
			sink += lineloc_lookup(tab, tsize, e.base + e.size - 1, &loc);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct fz_mem mem = { 0, 0, ~0UL };
	struct lineloc_alloc alloc = { fz_alloc, fz_free, &mem };
	struct lineloc_mod_out with = { 0 }, without = { 0 };
	struct lineloc_mod_sec *secs;
	struct lineloc_mod_in mi;
	struct lineloc_rel rel;
	uint8_t *line, *rd, *sd, *lstr;
	u64 line_size, rel_size, sym_size, lstr_size;
	uint32_t flags, len[4], shnum, fail, i;
	uint8_t *used;
	bool rel_ok;
	int err;

	if (size < 1)
		return 0;
	flags = take(&in, 1);
	for (i = 0; i < 4; i++)
		len[i] = take(&in, 2);
	line = piece(&in, len[0], &line_size);
	rd = piece(&in, len[1], &rel_size);
	sd = piece(&in, len[2], &sym_size);
	lstr = piece(&in, len[3], &lstr_size);
	shnum = take(&in, 1);
	fail = take(&in, 1);
	secs = malloc((shnum ? shnum : 1) * sizeof(*secs));
	if (!secs)
		__builtin_trap();
	memset(secs, 0, (shnum ? shnum : 1) * sizeof(*secs));
	for (i = 0; i < NSEC_REC && in.left; i++) {
		uint32_t idx = take(&in, 1);
		struct lineloc_mod_sec s;

		s.region = (u8)take(&in, 1);
		s.base = take(&in, 4);
		s.size = take(&in, 4);
		if (shnum)
			secs[idx % shnum] = s;
	}

	memset(&rel, 0, sizeof(rel));
	rel.machine = machines[flags & 3];
	rel.is64 = rel.machine == LINELOC_EM_X86_64 ||
		   rel.machine == LINELOC_EM_AARCH64;
	rel.rela = rel.is64;
	rel.big_endian = flags & 4;
	rel.rel = rd;
	rel.rel_size = rel_size;
	rel.sym = sd;
	rel.sym_size = sym_size;
	rel.shnum = shnum;
	rel.target = line;
	rel.target_size = line_size;
	if (flags & 8) {
		rel.bias = fz_bias;
		rel.bias_arg = &rel;
	}
	err = lineloc_rel_check(&rel);
	rel_ok = !err;
	if (err) {
		if (err >= 0 || err <= -LINELOC_REL_E_MAX || rel.count)
			__builtin_trap();
		sink += strlen(lineloc_rel_strerror(err));
	} else {
		if (rel.count * (rel.is64 ? 24 - 8 * !rel.rela :
				 12 - 4 * !rel.rela) != rel_size)
			__builtin_trap();
		exercise_rel(&rel, line, line_size);
	}

	memset(&mi, 0, sizeof(mi));
	mi.dl.line = line;
	mi.dl.line_size = line_size;
	mi.dl.line_str = lstr;
	mi.dl.line_str_size = lstr_size;
	mi.dl.str = lstr;
	mi.dl.str_size = lstr_size;
	mi.dl.big_endian = flags & 4;
	mi.secs = shnum ? secs : NULL;
	mi.nsecs = shnum;
	mi.mem = &alloc;
	mi.enc.block_rows = block_sizes[flags >> 4 & 15];
	mi.enc.shared = true;	/* as the module loader codes */
	mi.resched = fz_resched;
	if (fail >= 0xc0)
		mem.fail_at = fail - 0xc0;
	if (rel_ok) {
		mi.rel = &rel;
		build(&mi, &mem, true, &with);
	}
	mem.n = 0;
	mi.rel = NULL;
	used = calloc(shnum ? shnum : 1, 1);
	if (!used)
		__builtin_trap();
	mi.used = used;
	build(&mi, &mem, false, &without);
	/* only loaded text is marked (without relocations: nothing is) */
	for (i = 0; i < shnum; i++)
		if (used[i])
			__builtin_trap();
	free(used);
	check_section(line, line_size);
	/*
	 * The relocations change values, never the opcodes: when both builds
	 * succeed they read the same programs and sequences.
	 */
	if (rel_ok && with.units != ~0U && without.units != ~0U &&
	    (with.units != without.units || with.seqs != without.seqs))
		__builtin_trap();

	free(secs);
	free(line);
	free(rd);
	free(sd);
	free(lstr);
	return 0;
}
