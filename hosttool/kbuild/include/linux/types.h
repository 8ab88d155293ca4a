/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's fixed-size types, for lib/lineloc/ built on the host (the
 * -I that puts this folder first is scripts/lineloc/Makefile's).  The
 * host's own <linux/types.h> comes first: C library headers include it.
 */
#ifndef _LINELOC_HOST_TYPES_H
#define _LINELOC_HOST_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#endif /* _LINELOC_HOST_TYPES_H */
