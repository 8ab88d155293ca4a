/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's branch hints and always_inline, for host builds. */
#ifndef _LINELOC_HOST_COMPILER_H
#define _LINELOC_HOST_COMPILER_H

#include <sys/cdefs.h>		/* __always_inline */

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#endif /* _LINELOC_HOST_COMPILER_H */
