/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's fls(), for host builds. */
#ifndef _LINELOC_HOST_BITOPS_H
#define _LINELOC_HOST_BITOPS_H

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

#endif /* _LINELOC_HOST_BITOPS_H */
