/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modsec.h - a module's line tables at build time (modsec.c): built from
 * its .debug_line by the module loader's own code (lib/lineloc/modlines.c),
 * one table per text section, written as the sections of
 * <linux/lineloc/module.h>.
 */
#ifndef MODSEC_H
#define MODSEC_H

#include <stdint.h>

#include <linux/lineloc/module.h>
#include "elfread.h"

void mod_build(struct elf *e, const struct lineloc_mod_sec *secs,
	       uint32_t block, uint8_t *used, struct lineloc_mod_out *res);
void do_module_sections(struct elf *e, const char *core, const char *init,
			int exit_init);

#endif /* MODSEC_H */
