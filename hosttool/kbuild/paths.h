/* SPDX-License-Identifier: GPL-2.0 */
/*
 * paths.h - lineloc's paths (paths.c): joining and interning; lexical
 * normalisation is lib's, lineloc_normalize().
 */
#ifndef PATHS_H
#define PATHS_H

#include <stddef.h>
#include <stdint.h>

/* Interned paths: a file id per distinct resolved path. */
struct paths {
	char **str;
	const char **show;	/* after stripping the source root */
	size_t *showlen;
	size_t n, cap;
	uint32_t *hash;		/* open addressing, id + 1, 0 = empty */
	size_t hcap;
};

char *path_join(const char *dir, const char *name);
uint32_t path_intern(struct paths *ps, char *s);

#endif /* PATHS_H */
