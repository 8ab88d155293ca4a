/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's unaligned little- and big-endian loads, for host builds. */
#ifndef _LINELOC_HOST_UNALIGNED_H
#define _LINELOC_HOST_UNALIGNED_H

#include <linux/types.h>

static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = p;

	return b[0] | b[1] << 8;
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return b[0] | b[1] << 8 | b[2] << 16 | (u32)b[3] << 24;
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
}

static inline u64 get_unaligned_le64(const void *p)
{
	return get_unaligned_le32(p) |
	       (u64)get_unaligned_le32((const u8 *)p + 4) << 32;
}

static inline u64 get_unaligned_be64(const void *p)
{
	return (u64)get_unaligned_be32(p) << 32 |
	       get_unaligned_be32((const u8 *)p + 4);
}

#endif /* _LINELOC_HOST_UNALIGNED_H */
