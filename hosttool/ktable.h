/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktable.h - vmlinux's compact line tables (ktable.c)
 */
#ifndef KTABLE_H
#define KTABLE_H

#include "tables.h"

/*
 * Rows per block of the kernel's tables: a lookup decodes one block; on
 * Debian's 6.1 vmlinux, 64 rows a block took 0.65-0.9 us a lookup on an
 * x86_64 host, 128 rows about 1.1 us.
 */
#define KTABLE_BLOCK	64

void do_kernel_table(struct tables *t, uint32_t block);
void do_table_size(struct tables *t, uint32_t block);
void do_table_check(struct tables *t, uint32_t block);
void do_via_table(struct tables *t, uint32_t block, char **addrs, int naddrs);
void do_check_anchors(const char *read, const char *final);

#endif /* KTABLE_H */
