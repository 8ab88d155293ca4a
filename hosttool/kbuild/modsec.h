/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modsec.h - a module's line tables at build time (modsec.c): built from
 * its .debug_line by the module loader's own code (lib/lineloc/modlines.c),
 * written as the sections of <linux/lineloc/module.h>; and the shared codes
 * of those tables, made from many modules.
 */
#ifndef MODSEC_H
#define MODSEC_H

#include <stdint.h>

#include <linux/lineloc/module.h>
#include "elfread.h"

void mod_build(struct elf *e, const struct lineloc_mod_sec *secs,
	       const struct lineloc_enc_opts *enc, uint8_t *used,
	       struct lineloc_mod_out *res);
void do_module_sections(struct elf *e, const char *core, const char *init,
			int exit_init);
void do_shared_codes(const char *path, const char *list);

#endif /* MODSEC_H */
