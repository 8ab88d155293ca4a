/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modtable.h - lineloc --via-table on a module (modtable.c): the line table
 * that the kernel's module loader builds, built from the same sources.
 */
#ifndef MODTABLE_H
#define MODTABLE_H

#include <stdint.h>

#include "elfread.h"

void do_via_module(struct elf *e, const char *jsec, uint32_t block,
		   char **addrs, int naddrs);
void do_module_table_size(struct elf *e, uint32_t block);

#endif /* MODTABLE_H */
