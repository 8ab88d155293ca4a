/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in for the kernel's <linux/types.h>, to build hosttool/lib/dwarf_line.c
 * freestanding (-nostdinc) and prove it needs nothing but these types.
 */
#ifndef _KSTUB_LINUX_TYPES_H
#define _KSTUB_LINUX_TYPES_H
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef long long s64;
typedef _Bool bool;
#define true 1
#define false 0
#endif
