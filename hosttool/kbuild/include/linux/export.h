/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's symbol exports, for host builds: none are used directly. */
#ifndef _LINELOC_HOST_EXPORT_H
#define _LINELOC_HOST_EXPORT_H

#endif /* _LINELOC_HOST_EXPORT_H */
