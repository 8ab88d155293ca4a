/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's ARRAY_SIZE(), for host builds. */
#ifndef _LINELOC_HOST_KERNEL_H
#define _LINELOC_HOST_KERNEL_H

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif /* _LINELOC_HOST_KERNEL_H */
