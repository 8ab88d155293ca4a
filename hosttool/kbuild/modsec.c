// SPDX-License-Identifier: GPL-2.0
/*
 * modsec.c - lineloc --module-sections: a module's line tables, built when
 * the module is finalised (scripts/Makefile.modfinal), so that they stay
 * when its debug information is stripped at install.
 *
 * Each text section gets its own table, of offsets into it: a module's
 * sections are placed only when it is loaded, and strip renumbers them, so
 * an entry names its section.  The rows are the ones the module loader
 * would keep from .debug_line (lib/lineloc/modlines.c, run here with that
 * one section placed at 0), so both ways give the same answers.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "modsec.h"

#define MODSEC_BLOCK	64	/* rows per block: as the module loader's */

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
 * @block: rows per block
 * @res: the tables; free them with lineloc_mod_free()
 *
 * Errors in .debug_line or its relocations are fatal.
 */
void mod_build(struct elf *e, const struct lineloc_mod_sec *secs,
	       uint32_t block, struct lineloc_mod_out *res)
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
	in.block_rows = block;
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
	uint8_t *tab;
	size_t size;
};

static void put32(uint8_t *p, uint64_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* Write the section of @n entries to @path: nothing at all for none. */
static void ms_write(struct elf *e, const char *path, const char *name,
		     const struct ms_ent *ent, uint32_t n)
{
	uint64_t size = LINELOC_SEC_HDR + (uint64_t)LINELOC_SEC_ENT * n, at;
	const char *why;
	uint8_t *b;
	uint32_t i, off;

	for (i = 0; i < n; i++)
		size += strlen(ent[i].name) + 1 + 3 + ent[i].size;
	if (n > LINELOC_SEC_MAX || size > 0xffffffffU)
		die(e->path, name, "%u tables, %" PRIu64 " bytes: too many for %s",
		    n, size, name);
	b = xcalloc(1, size ? size : 1);
	put32(b, LINELOC_SEC_MAGIC);
	put32(b + 4, n);
	at = LINELOC_SEC_HDR + (uint64_t)LINELOC_SEC_ENT * n;
	for (i = 0; i < n; i++) {
		size_t len = strlen(ent[i].name) + 1;

		put32(b + LINELOC_SEC_HDR + LINELOC_SEC_ENT * i, at);
		memcpy(b + at, ent[i].name, len);
		at += len;
	}
	for (i = 0; i < n; i++) {
		at = (at + 3) & ~3ULL;	/* tables at a u32 boundary */
		put32(b + LINELOC_SEC_HDR + LINELOC_SEC_ENT * i + 4, at);
		put32(b + LINELOC_SEC_HDR + LINELOC_SEC_ENT * i + 8, ent[i].size);
		memcpy(b + at, ent[i].tab, ent[i].size);
		at += ent[i].size;
	}
	/* what the module loader will check, checked before it is written */
	if (n && lineloc_sec_check(b, at, &off, &why) != (int)n)
		die(e->path, sec_at(name, off), "%s", why);
	out_open(path);
	if (n)
		out_mem((const char *)b, at);
	out_close(path, 0);
	free(b);
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
	struct ms_ent *ent[2];
	uint32_t n[2] = { 0, 0 }, k, i;
	struct lineloc_mod_sec *secs;
	struct lineloc_mod_out *res;

	ent[0] = xcalloc(e->shnum, sizeof(**ent));
	ent[1] = xcalloc(e->shnum, sizeof(**ent));
	res = xcalloc(e->shnum, sizeof(*res));
	secs = xcalloc(e->shnum, sizeof(*secs));
	for (k = 1; k < e->shnum && elf_find(e, ".debug_line") >= 0; k++) {
		const struct section *s = &e->sec[k];
		int r = !strncmp(s->name, ".init", 5) ||
			(exit_init && !strncmp(s->name, ".exit", 5));

		if ((s->flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR) || s->type == SHT_NOBITS ||
		    !s->size)
			continue;
		if (s->size > 0xffffffffU)
			die(e->path, s->name, "%" PRIu64 " bytes: over 4 GiB",
			    s->size);
		secs[k].region = LINELOC_MOD_CORE;
		secs[k].size = s->size;
		mod_build(e, secs, MODSEC_BLOCK, &res[k]);
		secs[k].region = LINELOC_MOD_NONE;
		if (!res[k].tab[0])
			continue;
		ent[r][n[r]].name = s->name;
		ent[r][n[r]].tab = res[k].tab[0];
		ent[r][n[r]++].size = res[k].size[0];
	}
	ms_write(e, core, LINELOC_SEC_CORE, ent[0], n[0]);
	ms_write(e, init, LINELOC_SEC_INIT, ent[1], n[1]);
	for (k = 1; k < e->shnum; k++)
		if (res[k].tab[0] || res[k].tab[1])
			lineloc_mod_free(&lineloc_libc_alloc, &res[k]);
	for (i = 0; i < 2; i++)
		free(ent[i]);
	free(res);
	free(secs);
}
