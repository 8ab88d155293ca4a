// SPDX-License-Identifier: GPL-2.0
/*
 * modtable.c - lineloc --via-table -e FILE.ko [-j SECTION]: answers through
 * the line table that kernel/module/lines.c would build for the module at
 * load time, from the same sources (dwarf_reloc.c, dwarf_line.c,
 * modlines.c, linetab_enc.c, linetab_dec.c).  Addresses are offsets in
 * SECTION (.text if none is named), as for binutils' addr2line -j.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "util.h"
#include "modes.h"
#include <linux/lineloc/module.h>
#include "modtable.h"

/* Contents of section @name, NULL if none; a compressed one is refused. */
static uint8_t *mt_section(struct elf *e, const char *name, uint64_t *size)
{
	int i = elf_find(e, name);

	*size = 0;
	if (i < 0)
		return NULL;
	if (e->sec[i].flags & SHF_COMPRESSED)
		die(e->path, sec_at(name, 0),
		    "compressed section: the module loader keeps no line table for it");
	*size = e->sec[i].size;
	return elf_raw(e, (uint32_t)i);
}

static void mt_answer(const uint8_t *tab, size_t size, const char *arg)
{
	struct lineloc_loc loc;
	uint64_t a;

	if (!tab || !parse_addr(arg, &a) || a > 0xffffffffU ||
	    lineloc_lookup(tab, size, (u32)a, &loc)) {
		out_str("??:0\n");
		return;
	}
	out_mem(loc.dir, loc.dir_len);
	out_mem(loc.name, loc.name_len);
	out_mem(":", 1);
	out_dec(loc.line);
	out_mem("\n", 1);
}

/*
 * Build the module's tables as the loader does, with the sections placed
 * by @secs (one per section index).
 */
static void mt_build(struct elf *e, const struct lineloc_mod_sec *secs,
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
	line = mt_section(e, ".debug_line", &line_size);
	line_str = mt_section(e, ".debug_line_str", &line_str_size);
	str = mt_section(e, ".debug_str", &str_size);
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

/**
 * do_via_module() - answer -e through a module's load-time line table
 * @e: the module, opened
 * @jsec: the section the addresses are offsets in, or NULL for .text
 * @block: rows per block
 * @addrs: the addresses, hex; none: one a line on stdin
 * @naddrs: how many
 */
void do_via_module(struct elf *e, const char *jsec, uint32_t block,
		   char **addrs, int naddrs)
{
	struct lineloc_mod_out res;
	struct lineloc_mod_sec *secs;
	int ji, i;

	if (!jsec)
		jsec = ".text";
	ji = elf_find(e, jsec);
	if (ji < 0)
		die(e->path, NULL, "no section %s", jsec);
	secs = xcalloc(e->shnum, sizeof(*secs));
	secs[ji].region = LINELOC_MOD_CORE;
	secs[ji].size = e->sec[ji].size;
	mt_build(e, secs, block, &res);
	for (i = 0; i < naddrs; i++)
		mt_answer(res.tab[0], res.size[0], addrs[i]);
	if (!naddrs) {
		char buf[256];

		while (fgets(buf, sizeof(buf), stdin)) {
			mt_answer(res.tab[0], res.size[0], buf);
			out_flush();
			fflush(out);
		}
	}
	lineloc_mod_free(&lineloc_libc_alloc, &res);
	free(secs);
}

/**
 * do_module_table_size() - what a module's load-time tables cost
 * @e: the module, opened
 * @block: rows per block
 *
 * The text sections are placed as the loader places them: .init* in the
 * init layout, the others in the core, in section order, each at its
 * sh_addralign from offset 0, so that the core figure is the module's
 * /sys/module/<name>/linesize after init on an arch that adds no text
 * sections of its own at load (arm and arm64 size their PLT sections then).
 */
void do_module_table_size(struct elf *e, uint32_t block)
{
	struct lineloc_mod_out res;
	struct lineloc_mod_sec *secs;
	uint64_t end[2] = { 0, 0 }, line = 0;
	char buf[256];
	uint32_t k;
	int li = elf_find(e, ".debug_line");

	if (li >= 0)
		line = e->sec[li].size;
	secs = xcalloc(e->shnum, sizeof(*secs));
	for (k = 1; k < e->shnum; k++) {
		const struct section *s = &e->sec[k];
		int r = !strncmp(s->name, ".init", 5);
		/* layout_sections(): each at its sh_addralign, 0 meaning 1 */
		uint64_t a = s->addralign ? s->addralign : 1;

		if ((s->flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR))
			continue;
		if (a & (a - 1) || a > 1 << 20)
			die(e->path, s->name, "sh_addralign %" PRIu64
			    " is not a power of two up to 1 MiB", a);
		end[r] = (end[r] + a - 1) & ~(a - 1);
		secs[k].region = r ? LINELOC_MOD_INIT : LINELOC_MOD_CORE;
		secs[k].base = end[r];
		secs[k].size = s->size;
		end[r] += s->size;
	}
	if (li < 0)
		die(e->path, NULL, "no .debug_line");
	mt_build(e, secs, block, &res);
	snprintf(buf, sizeof(buf),
		 "module table: %u + %u rows, %zu + %zu bytes (core + init), ",
		 res.rows[0], res.rows[1], res.size[0], res.size[1]);
	out_str(buf);
	snprintf(buf, sizeof(buf), "of which %zu fixed, %u sequences, %u dropped, ",
		 res.fixed[0] + res.fixed[1], res.seqs, res.dropped);
	out_str(buf);
	snprintf(buf, sizeof(buf), "from %" PRIu64 " bytes of .debug_line\n", line);
	out_str(buf);
	lineloc_mod_free(&lineloc_libc_alloc, &res);
	free(secs);
}
