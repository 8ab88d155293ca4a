/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel_lines.h - the container of vmlinux's line tables
 *
 * Written by lineloc --kernel-table (hosttool/modes.c), linked into
 * vmlinux by scripts/link-vmlinux.sh and read by kernel/kallsyms_lines.c:
 * keep the three in step.  Eight little-endian 32-bit words, then the
 * tables (linetab.h), each at a multiple of 8 bytes from the start:
 *
 *   word 0  KLINES_MAGIC
 *   word 1  KLINES_VERSION
 *   word 2  offset of the text table (offsets from _text)
 *   word 3  its size in bytes
 *   word 4  offset of the init text table (offsets from _sinittext)
 *   word 5  its size in bytes
 *   word 6  rows kept in the two tables (entries, ends of sequences too)
 *   word 7  0
 */
#ifndef KERNEL_LINES_H
#define KERNEL_LINES_H

#define KLINES_MAGIC	0x544b4c4cU	/* "LLKT" */
#define KLINES_VERSION	1
#define KLINES_HDR_SIZE	32
#define KLINES_MAGIC_W	0
#define KLINES_TEXT_W	2
#define KLINES_INIT_W	4
#define KLINES_ROWS_W	6

#endif /* KERNEL_LINES_H */
