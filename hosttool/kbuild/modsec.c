// SPDX-License-Identifier: GPL-2.0
/*
 * modsec.c - lineloc --module-sections: a module's line tables, built when
 * the module is finalised (scripts/Makefile.modfinal), so that they stay
 * when its debug information is stripped at install.
 *
 * The text sections are laid out one after the other, each at its
 * alignment, as the module loader lays them out: those of the core in one
 * table, those of the init text in another.  A module's sections are
 * placed only when it is loaded, and strip renumbers them, so an entry
 * names its section, with where it starts in its table's offsets.  The
 * rows are the ones the module loader would keep from .debug_line
 * (lib/lineloc/modlines.c, run here on that layout), so both ways give the
 * same answers.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "modsec.h"

/* As the module loader codes its tables: 64 rows a block, shared codes. */
static const struct lineloc_enc_opts ms_enc = { .block_rows = 64,
						.shared = true };
#define MODSEC_LUT_BITS	4	/* decode table bits of the shared codes */

/* Contents of section @name, NULL if none; a compressed one is refused. */
static uint8_t *ms_section(struct elf *e, const char *name, uint64_t *size)
{
	int i = elf_find(e, name);

	*size = 0;
	if (i < 0)
		return NULL;
	if (e->sec[i].flags & SHF_COMPRESSED)
		die(e->path, sec_at(name, 0),
		    "compressed section: no line table is built from it");
	*size = e->sec[i].size;
	return elf_raw(e, (uint32_t)i);
}

/**
 * mod_build() - a module's tables, as the module loader builds them
 * @e: the module, opened
 * @secs: where each section's rows go, one entry per section index
 * @enc: how the tables are coded
 * @used: NULL, or one byte per section index: set for each section that
 *	a sequence was mapped to
 * @res: the tables; free them with lineloc_mod_free()
 *
 * Errors in .debug_line or its relocations are fatal.
 */
void mod_build(struct elf *e, const struct lineloc_mod_sec *secs,
	       const struct lineloc_enc_opts *enc, uint8_t *used,
	       struct lineloc_mod_out *res)
{
	struct lineloc_mod_in in = { 0 };
	struct lineloc_rel rel = { 0 };
	uint8_t *line, *line_str, *str, *rd = NULL, *sd = NULL;
	uint64_t line_size, line_str_size, str_size;
	int li, err;
	uint32_t k;

	li = elf_find(e, ".debug_line");
	if (li < 0)
		die(e->path, NULL, "no .debug_line");
	line = ms_section(e, ".debug_line", &line_size);
	line_str = ms_section(e, ".debug_line_str", &line_str_size);
	str = ms_section(e, ".debug_str", &str_size);
	for (k = 1; k < e->shnum; k++) {
		struct section *r = &e->sec[k];

		if ((r->type != SHT_REL && r->type != SHT_RELA) ||
		    r->info != (uint32_t)li)
			continue;
		if (r->link >= e->shnum || e->sec[r->link].type != SHT_SYMTAB)
			die(e->path, sec_at(r->name, 0), "bad symbol table link %u",
			    r->link);
		elf_check_in_file(e, k, r->name);
		rd = elf_raw(e, k);
		sd = elf_raw(e, r->link);
		rel.machine = e->machine;
		rel.is64 = e->is64;
		rel.big_endian = e->big;
		rel.rela = r->type == SHT_RELA;
		rel.rel = rd;
		rel.rel_size = r->size;
		rel.sym = sd;
		rel.sym_size = e->sec[r->link].size;
		rel.shnum = e->shnum;
		rel.target = line;
		rel.target_size = line_size;
		err = lineloc_rel_check(&rel);
		if (err)
			die(e->path, sec_at(r->name, rel.err_off), "%s (%" PRIu64 ")",
			    lineloc_rel_strerror(err), rel.err_val);
		in.rel = &rel;
		break;
	}
	in.dl.line = line;
	in.dl.line_size = line_size;
	in.dl.line_str = line_str;
	in.dl.line_str_size = line_str_size;
	in.dl.str = str;
	in.dl.str_size = str_size;
	in.dl.big_endian = e->big;
	in.secs = secs;
	in.nsecs = e->shnum;
	in.mem = &lineloc_libc_alloc;
	in.enc = *enc;
	in.used = used;
	err = lineloc_mod_build(&in, res);
	if (err)
		die(e->path, sec_at(".debug_line", res->err_off), "%s (%" PRIu64 ")",
		    lineloc_mod_strerror(err, res), res->err_val);
	free(rd);
	free(sd);
	free(line);
	free(line_str);
	free(str);
}

struct ms_ent {
	const char *name;
	uint32_t base, size;
};

/* @v as ULEB128 at @p + *@at (if @p is not NULL); *@at moves past it. */
static void ms_uleb(uint8_t *p, uint64_t *at, uint32_t v)
{
	for (; v > 0x7f; v >>= 7)
		if (p)
			p[(*at)++] = (v & 0x7f) | 0x80;
		else
			(*at)++;
	if (p)
		p[*at] = v;
	(*at)++;
}

/* The entries at @b + *@at (if @b is not NULL); *@at moves past them. */
static void ms_entries(uint8_t *b, uint64_t *at, const struct ms_ent *ent,
		       uint32_t n)
{
	uint32_t i, k, end = 0;
	size_t len;

	ms_uleb(b, at, n);
	for (i = 0; i < n; i++) {
		for (k = 0; k < LINELOC_SEC_NAMES; k++)
			if (!strcmp(ent[i].name, lineloc_sec_names[k]))
				break;
		if (k < LINELOC_SEC_NAMES) {
			ms_uleb(b, at, k + 1);
		} else {
			ms_uleb(b, at, 0);
			len = strlen(ent[i].name) + 1;
			if (b)
				memcpy(b + *at, ent[i].name, len);
			*at += len;
		}
		/* each where the one before ends (ms_pack()) */
		assert(ent[i].base == end);
		ms_uleb(b, at, ent[i].size);
		end += ent[i].size;
	}
}

/* Write the section of @n entries to @path: nothing at all for no table. */
static void ms_write(struct elf *e, const char *path, const char *name,
		     const struct ms_ent *ent, uint32_t n, const uint8_t *tab,
		     size_t tab_size)
{
	uint64_t size = LINELOC_SEC_HDR, at = LINELOC_SEC_HDR;
	const char *why;
	uint8_t *b;
	uint32_t off;

	ms_entries(NULL, &size, ent, n);
	size += tab_size;
	if (n > LINELOC_SEC_MAX || size > 0xffffffffU)
		die(e->path, name, "%u text sections, %" PRIu64 " bytes: too many for %s",
		    n, size, name);
	b = xcalloc(1, size);
	b[0] = LINELOC_SEC_MAGIC & 0xff;
	b[1] = LINELOC_SEC_MAGIC >> 8;
	ms_entries(b, &at, ent, n);
	if (tab)
		memcpy(b + at, tab, tab_size);
	at += tab_size;
	/* what the module loader will check, checked before it is written */
	if (tab && lineloc_sec_check(b, at, &off, &why) != (int)n)
		die(e->path, sec_at(name, off), "%s", why);
	out_open(path);
	if (tab)
		out_mem((const char *)b, at);
	out_close(path, 0);
	free(b);
}

/*
 * The text sections laid out as the module loader lays them out: .init*
 * (and .exit* with @exit_init) in the init layout, the others in the core,
 * in section order, each at its sh_addralign.  One entry per section index.
 */
static struct lineloc_mod_sec *ms_layout(struct elf *e, int exit_init)
{
	struct lineloc_mod_sec *secs = xcalloc(e->shnum, sizeof(*secs));
	uint64_t end[2] = { 0, 0 };
	uint32_t k;

	for (k = 1; k < e->shnum; k++) {
		const struct section *s = &e->sec[k];
		int r = !strncmp(s->name, ".init", 5) ||
			(exit_init && !strncmp(s->name, ".exit", 5));
		/* layout_sections(): each at its sh_addralign, 0 meaning 1 */
		uint64_t a = s->addralign ? s->addralign : 1;

		if ((s->flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR) || s->type == SHT_NOBITS ||
		    !s->size)
			continue;
		if (a & (a - 1) || a > 1 << 20)
			die(e->path, s->name, "sh_addralign %" PRIu64
			    " is not a power of two up to 1 MiB", a);
		end[r] = (end[r] + a - 1) & ~(a - 1);
		if (s->size > 0xffffffffU - end[r])
			die(e->path, s->name, "text past 4 GiB");
		secs[k].region = r ? LINELOC_MOD_INIT : LINELOC_MOD_CORE;
		secs[k].base = end[r];
		secs[k].size = s->size;
		end[r] += s->size;
	}
	return secs;
}

/*
 * The text sections of @secs that some sequence maps to (@used), one after
 * the other in section order from 0 in each region, as a section of line
 * tables gives them; the others in no region.  Only those need a name, and
 * an arch may turn a placeholder (arm's and arm64's .plt) into a section
 * of another size at load.
 */
static void ms_pack(struct elf *e, struct lineloc_mod_sec *secs,
		    const uint8_t *used)
{
	uint64_t end[2] = { 0, 0 };
	uint32_t k;

	for (k = 1; k < e->shnum; k++) {
		int r = secs[k].region == LINELOC_MOD_INIT;

		if (!used[k] || !secs[k].region) {
			secs[k].region = 0;
			continue;
		}
		secs[k].base = end[r];
		end[r] += secs[k].size;
	}
}

/**
 * do_module_sections() - write a module's sections of line tables
 * @e: the module, opened
 * @core: where to write LINELOC_SEC_CORE's contents
 * @init: where to write LINELOC_SEC_INIT's
 * @exit_init: .exit* text is loaded with the init text (!MODULE_UNLOAD)
 *
 * A file is left empty when no row goes into its section, or when the
 * module has no .debug_line.
 */
void do_module_sections(struct elf *e, const char *core, const char *init,
			int exit_init)
{
	struct lineloc_mod_out res = { 0 };
	struct lineloc_mod_sec *secs;
	struct ms_ent *ent[2];
	uint32_t n[2] = { 0, 0 }, k, i;
	uint8_t *used;

	ent[0] = xcalloc(e->shnum, sizeof(**ent));
	ent[1] = xcalloc(e->shnum, sizeof(**ent));
	used = xcalloc(e->shnum, 1);
	secs = ms_layout(e, exit_init);
	if (elf_find(e, ".debug_line") >= 0) {
		/* once to learn which sections have rows, then packed */
		mod_build(e, secs, &ms_enc, used, &res);
		lineloc_mod_free(&lineloc_libc_alloc, &res);
		memset(&res, 0, sizeof(res));
		ms_pack(e, secs, used);
		mod_build(e, secs, &ms_enc, NULL, &res);
	}
	for (k = 1; k < e->shnum; k++) {
		int r = secs[k].region == LINELOC_MOD_INIT;

		if (!used[k] || !secs[k].region)
			continue;
		ent[r][n[r]].name = e->sec[k].name;
		ent[r][n[r]].base = secs[k].base;
		ent[r][n[r]++].size = secs[k].size;
	}
	ms_write(e, core, LINELOC_SEC_CORE, ent[0], n[0], res.tab[0], res.size[0]);
	ms_write(e, init, LINELOC_SEC_INIT, ent[1], n[1], res.tab[1], res.size[1]);
	lineloc_mod_free(&lineloc_libc_alloc, &res);
	for (i = 0; i < 2; i++)
		free(ent[i]);
	free(secs);
	free(used);
}

/**
 * do_shared_codes() - make the shared codes of module line tables
 * @path: where to write them, as lib/lineloc/linetab_codes.h
 * @list: the modules they are made from, one path a line (modules.order)
 *
 * The symbols of the tables the modules' sections would hold are counted
 * (their own codes aside) and lineloc_codes_make() makes the set from the
 * sums; the header it writes says from how many modules and rows.
 */
void do_shared_codes(const char *path, const char *list)
{
	static uint32_t counts[LINELOC_NCTX * LINELOC_MAX_SYMS];
	struct lineloc_enc_opts enc = ms_enc;
	uint64_t rows = 0;
	char buf[160], *mod = NULL;
	size_t size, i, cap = 0;
	ssize_t len;
	uint8_t *set;
	FILE *f;
	int used = 0;

	enc.shared = false;
	enc.counts = counts;
	f = fopen(list, "r");
	if (!f)
		die(list, NULL, "%s", strerror(errno));
	while ((len = getline(&mod, &cap, f)) > 0) {
		struct lineloc_mod_out res = { 0 };
		struct lineloc_mod_sec *secs;
		struct elf e;

		if (mod[len - 1] == '\n')
			mod[--len] = 0;
		if (!len)
			continue;
		in_path = mod;
		elf_open(&e, mod);
		if (elf_find(&e, ".debug_line") >= 0) {
			secs = ms_layout(&e, 0);
			mod_build(&e, secs, &enc, NULL, &res);
			rows += res.rows[0] + res.rows[1];
			used++;
			lineloc_mod_free(&lineloc_libc_alloc, &res);
			free(secs);
		}
		close(e.fd);
		free(e.sec);
	}
	if (ferror(f))
		die(list, NULL, "%s", strerror(errno));
	fclose(f);
	free(mod);
	in_path = NULL;
	if (!used)
		die(list, NULL, "no module with .debug_line");
	if (lineloc_codes_make(counts, MODSEC_LUT_BITS, &lineloc_libc_alloc,
			       &set, &size))
		die(path, NULL, "cannot make the shared codes");
	out_open(path);
	out_str("/* SPDX-License-Identifier: GPL-2.0 */\n"
		"/*\n"
		" * linetab_codes.h - the prefix codes that module line tables share\n"
		" * (lineloc_shared_codes(), <linux/lineloc/table.h>), generated by\n"
		" * scripts/lineloc/lineloc --shared-codes: do not edit.  Made from\n");
	snprintf(buf, sizeof(buf), " * %d modules, %" PRIu64 " rows.\n",
		 used, rows);
	out_str(buf);
	out_str(" */\n"
		"static const u8 lt_shared_codes[] = {");
	for (i = 0; i < size; i++) {
		snprintf(buf, sizeof(buf), "%s0x%02x,", i % 12 ? " " : "\n\t",
			 set[i]);
		out_str(buf);
	}
	out_str("\n};\n");
	out_close(path, 0);
	free(set);
}
