/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modes.h - what lineloc prints (modes.c): --rows, -e and --stats
 */
#ifndef MODES_H
#define MODES_H

#include "tables.h"
#include "rows.h"

int parse_addr(const char *arg, uint64_t *a);
/* elfrel.c: elf_prepare for the user tool (main() sets it) */
void elfrel_prepare(struct elf *e, struct section *s, uint32_t i, int strict,
		    int record);
void do_rows(struct tables *t);
void do_addrs(struct tables *t, const char *jsec, char **addrs, int naddrs);
void do_stats(struct tables *t);

#endif /* MODES_H */
