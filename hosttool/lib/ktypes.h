/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktypes.h - the kernel's fixed-size types for the sources lineloc shares
 * with the kernel (dwarf_line.h, linetab.h): <linux/types.h> in the kernel,
 * the same names over <stdint.h> in user space.
 */
#ifndef KTYPES_H
#define KTYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int32_t s32;
typedef int64_t s64;
#endif

#endif /* KTYPES_H */
