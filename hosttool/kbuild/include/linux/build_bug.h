/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's static_assert(), for host builds: C11's. */
#ifndef _LINELOC_HOST_BUILD_BUG_H
#define _LINELOC_HOST_BUILD_BUG_H

#include <assert.h>

#endif /* _LINELOC_HOST_BUILD_BUG_H */
