// SPDX-License-Identifier: GPL-2.0
/*
 * paths.c - lineloc's paths: joined, normalised and interned, so that each
 * distinct resolved path has one id and one string
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include <linux/lineloc/module.h>
#include "paths.h"

/**
 * path_join() - join a directory and a file name
 * @dir: the directory, or NULL; ignored if @name is absolute
 * @name: the file name
 *
 * Return: "@dir/@name" ("" parts skipped), normalised, in a new string.
 */
char *path_join(const char *dir, const char *name)
{
	size_t dl = dir ? strlen(dir) : 0, nl = strlen(name);
	char *p = xmalloc(dl + nl + 2);

	if (*name == '/' || !dl) {
		memcpy(p, name, nl + 1);
	} else {
		memcpy(p, dir, dl);
		p[dl] = '/';
		memcpy(p + dl + 1, name, nl + 1);
	}
	lineloc_normalize(p);
	return p;
}

static uint32_t fnv(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

/**
 * path_intern() - the id of a path
 * @ps: the interned paths
 * @s: the path, allocated; taken over (freed if already known)
 *
 * Return: the id of @s, the same for equal strings, new ids counting up
 * from 0 in the order the paths are first seen.
 */
uint32_t path_intern(struct paths *ps, char *s)
{
	size_t i;

	if (ps->n * 2 >= ps->hcap) {
		size_t j, ncap = ps->hcap ? ps->hcap * 2 : 1024;
		uint32_t *nh = xcalloc(ncap, sizeof(*nh));

		for (j = 0; j < ps->n; j++) {
			i = fnv(ps->str[j]) & (ncap - 1);
			while (nh[i])
				i = (i + 1) & (ncap - 1);
			nh[i] = (uint32_t)j + 1;
		}
		free(ps->hash);
		ps->hash = nh;
		ps->hcap = ncap;
	}
	i = fnv(s) & (ps->hcap - 1);
	while (ps->hash[i]) {
		uint32_t id = ps->hash[i] - 1;

		if (!strcmp(ps->str[id], s)) {
			free(s);
			return id;
		}
		i = (i + 1) & (ps->hcap - 1);
	}
	ps->str = grow(ps->str, &ps->cap, ps->n + 1, sizeof(*ps->str));
	ps->str[ps->n] = s;
	ps->hash[i] = (uint32_t)ps->n + 1;
	return (uint32_t)ps->n++;
}
