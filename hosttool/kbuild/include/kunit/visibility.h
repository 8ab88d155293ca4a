/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's KUnit exports, for host builds: none. */
#ifndef _LINELOC_HOST_KUNIT_VISIBILITY_H
#define _LINELOC_HOST_KUNIT_VISIBILITY_H

#define EXPORT_SYMBOL_IF_KUNIT(symbol)

#endif /* _LINELOC_HOST_KUNIT_VISIBILITY_H */
