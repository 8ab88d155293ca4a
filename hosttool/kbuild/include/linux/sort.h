/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's sort_r(), for host builds: the C library's qsort_r()
 * (glibc's argument order, which is the kernel's).  Neither is stable; the
 * callers break ties themselves.  @swap must be NULL.
 */
#ifndef _LINELOC_HOST_SORT_H
#define _LINELOC_HOST_SORT_H

#include <stddef.h>
#include <stdlib.h>

typedef int (*cmp_r_func_t)(const void *a, const void *b, const void *priv);

void qsort_r(void *base, size_t nmemb, size_t size,
	     int (*compar)(const void *, const void *, void *), void *arg);

struct lineloc_host_sort {
	cmp_r_func_t cmp;
	const void *priv;
};

static inline int lineloc_host_sort_cmp(const void *a, const void *b,
					void *arg)
{
	const struct lineloc_host_sort *s = arg;

	return s->cmp(a, b, s->priv);
}

static inline void sort_r(void *base, size_t num, size_t size,
			  cmp_r_func_t cmp, void *swap, const void *priv)
{
	struct lineloc_host_sort s = { cmp, priv };

	(void)swap;
	qsort_r(base, num, size, lineloc_host_sort_cmp, &s);
}

#endif /* _LINELOC_HOST_SORT_H */
