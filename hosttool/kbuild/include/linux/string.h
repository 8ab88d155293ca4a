/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's string functions, for host builds: the C library's. */
#ifndef _LINELOC_HOST_STRING_H
#define _LINELOC_HOST_STRING_H

#include <string.h>

#endif /* _LINELOC_HOST_STRING_H */
