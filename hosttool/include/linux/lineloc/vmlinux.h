/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lineloc/vmlinux.h - the container of vmlinux's line tables
 *
 * Written by lineloc --kernel-table (modes.c), linked into
 * vmlinux by scripts/link-vmlinux.sh and read by kernel/kallsyms_lines.c:
 * keep the three in step.  Eight little-endian 32-bit words, then the
 * table (<linux/lineloc/table.h>), at a multiple of 8 bytes from the start:
 *
 *   word 0  LINELOC_K_MAGIC
 *   word 1  LINELOC_K_VERSION
 *   word 2  offset of the table
 *   word 3  its size in bytes
 *   word 4  0 (version 1: offset of a table of the init text)
 *   word 5  0 (version 1: its size)
 *   word 6  rows kept in the table (entries, ends of sequences too)
 *   word 7  the init text's bias: the table holds the text at offsets
 *           from _text and the init text at offsets from _sinittext plus
 *           this (a multiple of 64 KiB past _etext - _text)
 *
 * A version 1 reader finds no init table (size 0) and answers nothing
 * there; it never reads the init text at the wrong offsets.
 */
#ifndef _LINUX_LINELOC_VMLINUX_H
#define _LINUX_LINELOC_VMLINUX_H

#define LINELOC_K_MAGIC	0x544b4c4cU	/* "LLKT" */
#define LINELOC_K_VERSION	2
#define LINELOC_K_HDR_SIZE	32
#define LINELOC_K_MAGIC_W	0
#define LINELOC_K_VERSION_W	1
#define LINELOC_K_TEXT_W	2
#define LINELOC_K_INIT_W	4
#define LINELOC_K_ROWS_W	6
#define LINELOC_K_BIAS_W	7

#endif /* _LINUX_LINELOC_VMLINUX_H */
