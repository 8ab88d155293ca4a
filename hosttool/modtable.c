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
#include "modsec.h"

/* The location of offset @arg of the section: @base + it in @tab. */
static void mt_answer(const uint8_t *tab, size_t size, uint32_t base,
		      uint64_t limit, const char *arg)
{
	struct lineloc_loc loc;
	uint64_t a;

	if (!tab || !parse_addr(arg, &a) || a >= limit ||
	    lineloc_lookup(tab, size, base + (u32)a, &loc)) {
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
 * @jsec's table and base in the module's sections of line tables, if it
 * has them (lineloc --module-sections): checked as the module loader
 * checks them.  Return: 1 with @tab, @size and @base set (@tab NULL: no
 * entry for @jsec), or 0 when the module has no such section.
 */
static int mt_from_sections(struct elf *e, const char *jsec,
			    const uint8_t **tab, uint32_t *size, uint32_t *base)
{
	static const char *const names[] = { LINELOC_SEC_CORE, LINELOC_SEC_INIT };
	struct lineloc_sec_ent ent;
	int found = 0, i, j, n;
	const char *why;
	uint8_t *sec;
	uint32_t off;

	*tab = NULL;
	*size = 0;
	*base = 0;
	for (i = 0; i < 2; i++) {
		j = elf_find(e, names[i]);
		if (j < 0)
			continue;
		found = 1;
		elf_check_in_file(e, (uint32_t)j, names[i]);
		sec = elf_raw(e, (uint32_t)j);	/* kept: the program ends */
		n = lineloc_sec_check(sec, e->sec[j].size, &off, &why);
		if (n < 0)
			die(e->path, sec_at(names[i], off), "%s", why);
		while (n--) {
			lineloc_sec_get(sec, e->sec[j].size, (uint32_t)n, &ent);
			if (!strcmp(ent.name, jsec)) {
				*tab = lineloc_sec_table(sec, e->sec[j].size,
							 size);
				*base = ent.base;
			}
		}
	}
	return found;
}

/**
 * do_via_module() - answer -e through a module's line tables
 * @e: the module, opened
 * @jsec: the section the addresses are offsets in, or NULL for .text
 * @block: rows per block
 * @addrs: the addresses, hex; none: one a line on stdin
 * @naddrs: how many
 *
 * Through its sections of line tables if it has them, else through the
 * table the module loader would build from its .debug_line.
 */
void do_via_module(struct elf *e, const char *jsec, uint32_t block,
		   char **addrs, int naddrs)
{
	struct lineloc_enc_opts enc = { .block_rows = block, .shared = true };
	struct lineloc_mod_out res = { 0 };
	struct lineloc_mod_sec *secs;
	const uint8_t *tab;
	uint32_t size, base;
	uint64_t limit;
	int ji, i;

	if (!jsec)
		jsec = ".text";
	ji = elf_find(e, jsec);
	if (ji < 0)
		die(e->path, NULL, "no section %s", jsec);
	limit = e->sec[ji].size;
	secs = xcalloc(e->shnum, sizeof(*secs));
	if (!mt_from_sections(e, jsec, &tab, &size, &base)) {
		secs[ji].region = LINELOC_MOD_CORE;
		secs[ji].size = e->sec[ji].size;
		mod_build(e, secs, &enc, NULL, &res);
		tab = res.tab[0];
		size = res.size[0];
	}
	for (i = 0; i < naddrs; i++)
		mt_answer(tab, size, base, limit, addrs[i]);
	if (!naddrs) {
		char buf[256];

		while (fgets(buf, sizeof(buf), stdin)) {
			mt_answer(tab, size, base, limit, buf);
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
	struct lineloc_enc_opts enc = { .block_rows = block, .shared = true };
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
	mod_build(e, secs, &enc, NULL, &res);
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
