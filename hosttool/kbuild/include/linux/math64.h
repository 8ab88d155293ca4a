/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's div_u64_rem(), for host builds. */
#ifndef _LINELOC_HOST_MATH64_H
#define _LINELOC_HOST_MATH64_H

#include <linux/types.h>

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

#endif /* _LINELOC_HOST_MATH64_H */
